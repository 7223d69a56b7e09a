"""tictactoe3d (RULES.md section 3) on hand-built positions, for the rule sheet and the generator.

Every expected legal set, next state and goal below is worked out by hand from RULES.md.
"""

import itertools

import pytest

from tests.rule_sheets import (
    IMPLEMENTATIONS,
    game_under_test,
    joint_for,
    legal_texts,
    next_facts,
    outcome,
)

COORDINATES = range(1, 5)
CELLS = list(itertools.product(COORDINATES, repeat=3))
DRAWN_BOARD = "xooooxxxxxxoxoooxxxoxoxooooxoxxooxxxoxooxxoxoooxxoxooooxxxxoooxo"
"""A full board without a line: the mark of cell (r c l) is character 16(r-1) + 4(c-1) + l-1
(found by a local search; `test_drawn_board_has_no_line` checks it independently)."""


@pytest.fixture(params=IMPLEMENTATIONS)
def game(request):
    return game_under_test("tictactoe3d", request.param)


def position(marks=None, selected=None, control="xrow", first_x="xrow", first_o="orow"):
    """The facts of a state: marks {(r, c, l): x|o} (other cells blank), selections
    {kind: value}, control and the two teams' first roles."""
    marks = marks or {}
    facts = ["(cell {} {} {} {})".format(*cell, marks.get(cell, "b")) for cell in CELLS]
    facts += [f"(selected {kind} {value})" for kind, value in (selected or {}).items()]
    facts += [f"(control {control})"]
    return facts + [f"(first_role_in_team x {first_x})", f"(first_role_in_team o {first_o})"]


def selects(kind: str, values) -> set[str]:
    return {f"(select {kind} {v})" for v in values}


def play(game, facts, role: str, action: str):
    assert action in legal_texts(game, facts, role)
    return next_facts(game, facts, joint_for(game, role, action))


def test_a_team_turn_selects_row_column_level_then_marks(game):
    start = game.state_facts(game.initial_state())
    assert start == frozenset(position())
    assert legal_texts(game, start, "xrow") == selects("row", COORDINATES)
    for role in ("xcolumn", "xlevel", "orow", "ocolumn", "olevel"):
        assert legal_texts(game, start, role) == {"noop"}
    after_row = play(game, start, "xrow", "(select row 2)")
    assert after_row == frozenset(position(selected={"row": 2}, control="xcolumn"))
    assert legal_texts(game, after_row, "xcolumn") == selects("column", COORDINATES)
    after_column = play(game, after_row, "xcolumn", "(select column 3)")
    expected = position(selected={"row": 2, "column": 3}, control="xlevel")
    assert after_column == frozenset(expected)
    after_mark = play(game, after_column, "xlevel", "(select level 1)")
    # The cell is complete: marked x, selections cleared, control to O's first role (orow),
    # and X's first role rotates from xrow to xcolumn.
    expected = position({(2, 3, 1): "x"}, control="orow", first_x="xcolumn")
    assert after_mark == frozenset(expected)
    assert outcome(game, after_mark) == (False, (50,) * 6)


def test_o_turn_then_control_returns_to_x_s_rotated_first_role(game):
    facts = position({(2, 3, 1): "x"}, control="orow", first_x="xcolumn")
    facts = play(game, facts, "orow", "(select row 2)")
    facts = play(game, facts, "ocolumn", "(select column 3)")
    # Row 2 column 3: level 1 is taken by x, so only levels 2..4 remain.
    assert legal_texts(game, facts, "olevel") == selects("level", (2, 3, 4))
    facts = play(game, facts, "olevel", "(select level 4)")
    expected = position(
        {(2, 3, 1): "x", (2, 3, 4): "o"}, control="xcolumn", first_x="xcolumn", first_o="ocolumn"
    )
    assert facts == frozenset(expected)
    # X's turn now opens with a column.
    assert legal_texts(game, facts, "xcolumn") == selects("column", COORDINATES)
    assert legal_texts(game, facts, "xrow") == {"noop"}


def test_selection_must_agree_with_a_blank_cell(game):
    marks = {(1, 1, 1): "x", (1, 1, 2): "x", (1, 1, 3): "o", (1, 1, 4): "o"}
    # Row 1 is selected; column 1 of row 1 is full, so xcolumn may not pick it.
    facts = position(marks, {"row": 1}, control="xcolumn")
    assert legal_texts(game, facts, "xcolumn") == selects("column", (2, 3, 4))
    # With the team opening at level: level 1 has blanks in row 1 (columns 2..4) and elsewhere.
    facts = position(marks, {"level": 1, "column": 1}, control="xrow", first_x="xlevel")
    assert legal_texts(game, facts, "xrow") == selects("row", (2, 3, 4))


@pytest.mark.parametrize(
    ("marks", "result"),
    [
        # A space diagonal of x.
        ({(k, k, k): "x" for k in COORDINATES}, (True, (100,) * 3 + (0,) * 3)),
        # The anti-diagonal (1 4 1), (2 3 2), (3 2 3), (4 1 4) of o.
        ({(k, 5 - k, k): "o" for k in COORDINATES}, (True, (0,) * 3 + (100,) * 3)),
        # A line along the level axis, o.
        ({(2, 3, k): "o" for k in COORDINATES}, (True, (0,) * 3 + (100,) * 3)),
        # A face diagonal (level 2), x.
        ({(k, 5 - k, 2): "x" for k in COORDINATES}, (True, (100,) * 3 + (0,) * 3)),
        # Three of four, and a line of mixed marks: no line.
        ({(k, k, 1): "x" for k in (1, 2, 3)}, (False, (50,) * 6)),
        ({(1, 1, 1): "x", (2, 1, 1): "x", (3, 1, 1): "o", (4, 1, 1): "x"}, (False, (50,) * 6)),
    ],
)
def test_lines_end_the_game(game, marks, result):
    assert outcome(game, position(marks, control="orow")) == result


def lines() -> list[list[tuple[int, int, int]]]:
    """The lines of the cube, enumerated here independently: every 4-cell straight run."""
    found = set()
    for start in CELLS:
        for step in itertools.product((-1, 0, 1), repeat=3):
            cells = [tuple(s + k * d for s, d in zip(start, step, strict=True)) for k in range(4)]
            if any(step) and all(v in COORDINATES for cell in cells for v in cell):
                found.add(frozenset(cells))
    return [sorted(line) for line in found]


def drawn_marks() -> dict:
    return dict(zip(CELLS, DRAWN_BOARD, strict=True))


def test_drawn_board_has_no_line():
    marks = drawn_marks()
    assert len(lines()) == 76
    assert all(len({marks[cell] for cell in line}) == 2 for line in lines())


def test_full_board_without_a_line_is_a_draw(game):
    assert outcome(game, position(drawn_marks(), control="orow")) == (True, (50,) * 6)
