"""tictactoe3d (RULES.md section 3) against hand-worked positions and independent counts."""

from __future__ import annotations

import itertools

import pytest

from gamecheck.errors import BadTermError, IllegalActionError, UnknownRoleError
from gamecheck.models import get_game
from gamecheck.models.tictactoe3d import LINES, cell_index
from tests.game_checks import (
    check_random_playouts,
    check_rejects_illegal_joints,
    legal_texts,
    load_data,
    perft,
    perft_breakdown,
    position,
)

GAME = get_game("tictactoe3d")
DATA = load_data("tictactoe3d")
CELLS = list(itertools.product(range(1, 5), repeat=3))
HEAD = ["(control xrow)", "(first_role_in_team x xrow)", "(first_role_in_team o orow)"]


def board_facts(given: list[str], board: str | None = None) -> set[str]:
    """`given` plus a (cell r c l M) fact for every cell it leaves out: M from `board`, else b."""
    marks = dict(zip(CELLS, board or "b" * len(CELLS), strict=True))
    given_cells = {
        tuple(int(v) for v in fact.split()[1:4]) for fact in given if fact.startswith("(cell ")
    }
    return set(given) | {cell_fact(cell, marks[cell]) for cell in CELLS if cell not in given_cells}


def cell_fact(cell: tuple[int, int, int], mark: str) -> str:
    return "(cell {} {} {} {})".format(*cell, mark)


def state_of(name: str):
    data = position(DATA, name)
    return GAME.state_from_facts(board_facts(data["facts"], data.get("board")))


def play(state, role: str, text: str):
    """The next state after `role` plays `text` and everyone else noop."""
    joint = tuple(GAME.parse_action(r, text if r == role else "noop") for r in GAME.roles)
    return GAME.next(state, joint)


def independent_lines() -> set[frozenset[tuple[int, int, int]]]:
    """The lines of the cube, built without directions: each coordinate of a line's four cells
    is constant (4 ways), runs 1..4 or runs 4..1; (6^3 - 4^3) / 2 = 76 lines."""
    patterns = [[v] * 4 for v in range(1, 5)] + [[1, 2, 3, 4], [4, 3, 2, 1]]
    lines = set()
    for rows, columns, levels in itertools.product(patterns, repeat=3):
        cells = frozenset(zip(rows, columns, levels, strict=True))
        if len(cells) == 4:
            lines.add(cells)
    return lines


def test_the_cube_has_76_lines_in_13_directions():
    lines = independent_lines()
    assert len(lines) == 76 == len(LINES)
    masks = {sum(1 << cell_index(*cell) for cell in line) for line in lines}
    assert masks == set(LINES)


def test_initial_state_facts():
    blank = {cell_fact(cell, "b") for cell in CELLS}
    assert GAME.state_facts(GAME.initial_state()) == frozenset(blank | set(HEAD))
    assert GAME.roles == ("xrow", "xcolumn", "xlevel", "orow", "ocolumn", "olevel")
    assert GAME.step_bound == 192


def test_initial_legal_actions():
    legal = legal_texts(GAME, GAME.initial_state())
    assert legal["xrow"] == [f"(select row {v})" for v in range(1, 5)]
    assert all(legal[role] == ["noop"] for role in GAME.roles[1:])


@pytest.mark.parametrize("data", DATA["position"], ids=lambda p: p["name"])
def test_hand_built_position(data):
    state = state_of(data["name"])
    assert GAME.is_terminal(state) == data["terminal"]
    waiting = [] if data["terminal"] else ["noop"]
    expected = {role: data["legal"].get(role, waiting) for role in GAME.roles}
    assert legal_texts(GAME, state) == expected
    if data["terminal"]:
        assert list(GAME.goals(state)) == data["goals"]


def test_drawn_board_has_no_line_by_independent_check():
    board = dict(zip(CELLS, position(DATA, "drawn board")["board"], strict=True))
    for line in independent_lines():
        assert len({board[cell] for cell in line}) == 2


@pytest.mark.parametrize(
    "data", [p for p in DATA["perft"] if not p.get("slow")], ids=lambda p: f"depth{p['depth']}"
)
def test_perft(data):
    start = GAME.initial_state()
    nodes = perft(GAME, start, data["depth"])
    assert nodes == data["nodes"], perft_breakdown(GAME, start, data["depth"])


@pytest.mark.slow
@pytest.mark.parametrize(
    "data", [p for p in DATA["perft"] if p.get("slow")], ids=lambda p: f"depth{p['depth']}"
)
def test_perft_slow(data):
    assert perft(GAME, GAME.initial_state(), data["depth"]) == data["nodes"]


def test_selection_passes_control_within_the_team():
    state = play(state_of("row 2 selected"), "xcolumn", "(select column 3)")
    assert GAME.state_facts(state) == GAME.state_facts(state_of("row 2 and column 3 selected"))


def test_completed_cell_is_marked_and_control_goes_to_the_other_team():
    state = play(state_of("row 2 and column 3 selected"), "xlevel", "(select level 1)")
    facts = set(position(DATA, "row 2 selected")["facts"]) - {
        "(selected row 2)",
        "(control xcolumn)",
        "(first_role_in_team x xrow)",
    }
    # (2 3 1) gets x, selections cleared, O's first role orow in control, X's opener advances
    facts |= {"(cell 2 3 1 x)", "(control orow)", "(first_role_in_team x xcolumn)"}
    assert GAME.state_facts(state) == frozenset(board_facts(sorted(facts)))
    assert not GAME.is_terminal(state)


def test_rotated_opener_hands_on_in_rotation():
    state = play(state_of("xlevel opens"), "xlevel", "(select level 2)")
    assert "(control xrow)" in GAME.state_facts(state)
    state = play(state, "xrow", "(select row 3)")
    assert "(control xcolumn)" in GAME.state_facts(state)
    state = play(state, "xcolumn", "(select column 1)")
    facts = GAME.state_facts(state)
    assert {"(cell 3 1 2 x)", "(control ocolumn)", "(first_role_in_team x xrow)"} <= facts
    assert "(first_role_in_team o ocolumn)" in facts
    assert not any(fact.startswith("(selected") for fact in facts)


def test_openers_rotate_mark_by_mark():
    # X's marks are opened by xrow, xcolumn, xlevel, xrow; O's by orow, ocolumn, olevel, orow
    expected = [
        ["xrow", "xcolumn", "xlevel"],
        ["orow", "ocolumn", "olevel"],
        ["xcolumn", "xlevel", "xrow"],
        ["ocolumn", "olevel", "orow"],
        ["xlevel", "xrow", "xcolumn"],
        ["olevel", "orow", "ocolumn"],
        ["xrow", "xcolumn", "xlevel"],
        ["orow", "ocolumn", "olevel"],
    ]
    state = GAME.initial_state()
    controllers = []
    for _ in range(3 * len(expected)):
        (role,) = [r for r in GAME.roles if GAME.legal(state, r) != ["noop"]]
        controllers.append(role)
        state = play(state, role, GAME.action_text(GAME.legal(state, role)[0]))
    assert controllers == [role for mark in expected for role in mark]


def test_completing_the_space_diagonal_wins_for_x():
    before = state_of("x three on the space diagonal")
    won = play(before, "xlevel", "(select level 4)")
    assert GAME.is_terminal(won)
    assert GAME.goals(won) == (100, 100, 100, 0, 0, 0)
    assert all(GAME.legal(won, role) == [] for role in GAME.roles)
    other = play(before, "xlevel", "(select level 1)")
    assert not GAME.is_terminal(other)
    assert {"(cell 4 4 1 x)", "(control orow)", "(first_role_in_team x xcolumn)"} <= (
        GAME.state_facts(other)
    )


def test_filling_the_last_cell_without_a_line_draws():
    state = state_of("one blank")
    for role, text in [
        ("xrow", "(select row 1)"),
        ("xcolumn", "(select column 1)"),
        ("xlevel", "(select level 3)"),
    ]:
        assert legal_texts(GAME, state)[role] == [text]
        state = play(state, role, text)
    assert GAME.is_terminal(state)
    assert GAME.goals(state) == (50,) * 6


def test_the_controller_may_not_noop_and_others_may_only_noop():
    state = GAME.initial_state()
    with pytest.raises(IllegalActionError):
        GAME.next(state, ("noop",) * 6)
    select = GAME.parse_action("xrow", "(select row 1)")
    with pytest.raises(IllegalActionError):
        GAME.next(state, (select, select, "noop", "noop", "noop", "noop"))


def test_a_selection_must_agree_with_a_blank_cell():
    state = state_of("row 2 selected")
    with pytest.raises(IllegalActionError):
        play(state, "xcolumn", "(select column 2)")


@pytest.mark.parametrize(
    "facts",
    [
        [*HEAD, "(cell 1 1 1 x)", "(cell 1 1 1 o)"],  # two marks on one cell
        [*HEAD, "(control orow)"],  # two controllers
        ["(first_role_in_team x xrow)", "(first_role_in_team o orow)"],  # no controller
        ["(control xrow)", "(first_role_in_team x orow)", "(first_role_in_team o orow)"],
        ["(control xrow)", "(first_role_in_team o orow)"],  # team x has no first role
        [*HEAD, "(selected row 1)", "(selected row 2)"],
        [*HEAD, "(selected row 5)"],
        [*HEAD, "(cell 1 1 1 z)"],
        [*HEAD, "(step 1)"],
    ],
)
def test_state_from_facts_rejects_bad_fact_sets(facts):
    with pytest.raises(BadTermError):
        GAME.state_from_facts(board_facts(facts))


@pytest.mark.parametrize("missing", [set(CELLS), {(4, 4, 4)}])
def test_state_from_facts_rejects_missing_cells(missing):
    facts = board_facts(HEAD) - {"(cell {} {} {} b)".format(*cell) for cell in missing}
    with pytest.raises(BadTermError):
        GAME.state_from_facts(facts)


@pytest.mark.parametrize(
    "role, text",
    [
        ("xrow", "(select column 1)"),
        ("xrow", "(select row 5)"),
        ("olevel", "(mark 1 1 1)"),
        ("xrow", "(select row)"),
        ("xrow", "(select row 1"),
    ],
)
def test_parse_action_rejects_what_the_role_cannot_play(role, text):
    with pytest.raises(BadTermError):
        GAME.parse_action(role, text)


def test_parse_action_rejects_an_unknown_role():
    with pytest.raises(UnknownRoleError):
        GAME.parse_action("nobody", "noop")


def test_random_playouts_keep_the_interface_promises():
    check_random_playouts(GAME, range(12))


@pytest.mark.slow
def test_many_random_playouts_keep_the_interface_promises():
    check_random_playouts(GAME, range(12, 300))


def test_next_rejects_illegal_joint_actions():
    check_rejects_illegal_joints(GAME, range(5))
