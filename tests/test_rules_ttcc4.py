"""ttcc4 (RULES.md section 2) on hand-built positions, for the rule sheet and the generator.

Every expected legal set, next state and goal below is worked out by hand from RULES.md.
"""

import pytest

from tests.naive_ttcc4 import START
from tests.rule_sheets import (
    IMPLEMENTATIONS,
    game_under_test,
    joint_for,
    legal_texts,
    next_facts,
    outcome,
)


@pytest.fixture(params=IMPLEMENTATIONS)
def game(request):
    return game_under_test("ttcc4", request.param)


def position(moved=None, discs=None, control="red", step=1) -> list[str]:
    """The facts of a state: pieces at their start cells unless `moved` {piece: (x, y)} says
    otherwise, discs {(x, y): disc}, control and step."""
    cells = {**START, **(moved or {})}
    facts = [f"(cell {x} {y} {piece})" for piece, (x, y) in cells.items()]
    facts += [f"(cell {x} {y} {disc})" for (x, y), disc in (discs or {}).items()]
    return facts + [f"(control {control})", f"(step {step})"]


def test_initial_state_and_legal_actions(game):
    start = game.state_facts(game.initial_state())
    assert start == frozenset(position())
    # Red: pawn (1 5) steps to (2 5) only ((1 6), (1 4) are border, nothing to capture);
    # knight (1 3) jumps to (2 5), (3 4), (3 2) ((2 1) is border); checker (1 4) to (2 5), (2 3).
    assert legal_texts(game, start, "red") == {
        "noop",
        "(drop 3)",
        "(drop 4)",
        "(drop 5)",
        "(pawnMove 1 5 2 5)",
        "(knightMove 1 3 2 5)",
        "(knightMove 1 3 3 4)",
        "(knightMove 1 3 3 2)",
        "(checkerMove 1 4 2 5)",
        "(checkerMove 1 4 2 3)",
    }
    assert legal_texts(game, start, "yellow") == {"noop"}
    assert legal_texts(game, start, "blue") == {"noop"}
    assert outcome(game, start) == (False, (0, 0, 0))


def test_yellow_moves_from_its_start_cells(game):
    facts = position(control="yellow", step=2)
    # Pawn (3 1) to (3 2); knight (5 1) to (6 3), (4 3), (3 2) ((7 2) is border);
    # checker (4 1) to (3 2), (5 2).
    assert legal_texts(game, facts, "yellow") == {
        "noop",
        "(drop 3)",
        "(drop 4)",
        "(drop 5)",
        "(pawnMove 3 1 3 2)",
        "(knightMove 5 1 6 3)",
        "(knightMove 5 1 4 3)",
        "(knightMove 5 1 3 2)",
        "(checkerMove 4 1 3 2)",
        "(checkerMove 4 1 5 2)",
    }


def test_noop_of_the_controller_only_passes_control_and_counts_the_step(game):
    after = next_facts(game, position(), ["noop", "noop", "noop"])
    assert after == frozenset(position(control="yellow", step=2))


def test_a_dropped_disc_falls_to_row_2_in_an_empty_column(game):
    after = next_facts(game, position(), joint_for(game, "red", "(drop 4)"))
    # (4 5) .. (4 2) are empty; it stops at (4 2) although (4 1) holds yellow's checker.
    assert after == frozenset(position(discs={(4, 2): "redDisc"}, control="yellow", step=2))


def test_a_dropped_disc_stops_on_the_first_occupied_cell(game):
    moved = {"bluePawn": (4, 4)}
    discs = {(4, 2): "yellowDisc"}
    before = position(moved, discs, control="blue", step=9)
    after = next_facts(game, before, joint_for(game, "blue", "(drop 4)"))
    # Enters at (4 6), falls to (4 5), stops on top of the blue pawn at (4 4).
    expected = position(moved, {**discs, (4, 5): "blueDisc"}, control="red", step=10)
    assert after == frozenset(expected)


def test_no_drop_into_a_column_whose_top_cell_is_taken(game):
    facts = position(discs={(5, 6): "blueDisc"})
    legal = legal_texts(game, facts, "red")
    assert "(drop 5)" not in legal
    assert {"(drop 3)", "(drop 4)"} <= legal


def test_pawn_captures_diagonally_and_the_piece_returns_to_its_start(game):
    moved = {"redPawn": (3, 3), "yellowKnight": (4, 4), "blueChecker": (3, 4)}
    before = position(moved)
    legal = legal_texts(game, before, "red")
    assert "(pawnMove 3 3 4 4)" in legal  # diagonal onto an enemy piece
    assert "(pawnMove 3 3 3 4)" not in legal  # orthogonal onto a piece: blocked
    assert "(pawnMove 3 3 2 2)" not in legal  # diagonal onto an empty cell
    assert "(pawnMove 3 3 3 2)" in legal  # orthogonal onto an empty cell
    after = next_facts(game, before, joint_for(game, "red", "(pawnMove 3 3 4 4)"))
    expected = {"redPawn": (4, 4), "yellowKnight": (5, 1), "blueChecker": (3, 4)}
    assert after == frozenset(position(expected, control="yellow", step=2))


def test_checker_jumps_an_enemy_piece_which_returns_to_its_start(game):
    moved = {"redChecker": (2, 2), "bluePawn": (3, 3)}
    before = position(moved)
    assert "(jump 2 2 3 3 4 4)" in legal_texts(game, before, "red")
    after = next_facts(game, before, joint_for(game, "red", "(jump 2 2 3 3 4 4)"))
    assert after == frozenset(position({"redChecker": (4, 4)}, control="yellow", step=2))


def test_checker_jump_removes_a_disc_for_good(game):
    before = position({"redChecker": (2, 2)}, {(3, 3): "yellowDisc"})
    after = next_facts(game, before, joint_for(game, "red", "(jump 2 2 3 3 4 4)"))
    assert after == frozenset(position({"redChecker": (4, 4)}, control="yellow", step=2))


@pytest.mark.parametrize(
    ("discs", "reason"),
    [
        ({(3, 3): "redDisc"}, "own piece in between"),
        ({(3, 3): "blueDisc", (4, 4): "yellowDisc"}, "landing cell taken"),
    ],
)
def test_no_checker_jump(game, discs, reason):
    legal = legal_texts(game, position({"redChecker": (2, 2)}, discs), "red")
    assert not any(action.startswith("(jump") for action in legal), reason


def test_knight_captures_a_checker_and_a_disc(game):
    moved = {"redKnight": (2, 2), "yellowChecker": (3, 4)}
    before = position(moved, {(4, 3): "blueDisc", (4, 2): "redDisc"})
    legal = legal_texts(game, before, "red")
    # From (2 2): (3 4) enemy, (4 3) enemy, (4 1) border, (1 4) border, (0 ..) off board.
    assert {a for a in legal if a.startswith("(knightMove")} == {
        "(knightMove 2 2 3 4)",
        "(knightMove 2 2 4 3)",
    }
    after = next_facts(game, before, joint_for(game, "red", "(knightMove 2 2 4 3)"))
    expected = position({**moved, "redKnight": (4, 3)}, {(4, 2): "redDisc"}, "yellow", 2)
    assert after == frozenset(expected)
    after = next_facts(game, before, joint_for(game, "red", "(knightMove 2 2 3 4)"))
    expected = position({"redKnight": (3, 4)}, {(4, 3): "blueDisc", (4, 2): "redDisc"}, "yellow", 2)
    assert after == frozenset(expected)


@pytest.mark.parametrize(
    ("moved", "discs", "step", "result"),
    [
        # A diagonal of the centre square, two discs and a pawn of red.
        ({"redPawn": (5, 5)}, {(3, 3): "redDisc", (4, 4): "redDisc"}, 7, (True, (100, 0, 0))),
        # A column of the centre square, yellow's.
        (
            {"yellowKnight": (4, 3)},
            {(4, 4): "yellowDisc", (4, 5): "yellowDisc"},
            7,
            (True, (0, 100, 0)),
        ),
        # Three in a row outside the centre square is no line.
        ({}, {(2, 2): "blueDisc", (3, 2): "blueDisc", (4, 2): "blueDisc"}, 7, (False, (0, 0, 0))),
        # Mixed colours: no line.
        ({"redPawn": (5, 5)}, {(3, 3): "redDisc", (4, 4): "blueDisc"}, 7, (False, (0, 0, 0))),
        ({}, {}, 30, (False, (0, 0, 0))),
        ({}, {}, 31, (True, (0, 0, 0))),
    ],
)
def test_terminal_and_goals(game, moved, discs, step, result):
    assert outcome(game, position(moved, discs, step=step)) == result
