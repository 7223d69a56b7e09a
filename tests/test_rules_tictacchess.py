"""tictacchess (RULES.md section 5) on hand-built positions, for the rule sheet and the generator.

Every expected legal set, next state and goal below is worked out by hand from RULES.md.
"""

import pytest

from tests.rule_sheets import (
    IMPLEMENTATIONS,
    game_under_test,
    joint_for,
    legal_texts,
    next_facts,
    outcome,
)

SPAWNS = {"red": (1, 4), "yellow": (4, 1), "blue": (7, 4)}


@pytest.fixture(params=IMPLEMENTATIONS)
def game(request):
    return game_under_test("tictacchess", request.param)


def position(pieces=None, control="red", step=1) -> list[str]:
    """The facts of a state: a piece of every role on its spawn cell, the `pieces`
    {(x, y): role}, control and step."""
    cells = {cell: role for role, cell in SPAWNS.items()} | (pieces or {})
    facts = [f"(cell {x} {y} {role})" for (x, y), role in cells.items()]
    return facts + [f"(control {control})", f"(step {step})"]


def moves(origin, targets) -> set[str]:
    return {"(move {} {} {} {})".format(*origin, *target) for target in targets}


def test_initial_state_and_the_first_move_with_spawning(game):
    start = game.state_facts(game.initial_state())
    assert start == frozenset(position())
    # Knight jumps from (1 4) that land on board: (2 6), (2 2), (3 5), (3 3); the king steps
    # (2 3), (2 4), (2 5) are empty, so no capture.
    assert legal_texts(game, start, "red") == moves((1, 4), [(2, 6), (2, 2), (3, 5), (3, 3)])
    assert legal_texts(game, start, "yellow") == {"noop"}
    assert legal_texts(game, start, "blue") == {"noop"}
    after = next_facts(game, start, joint_for(game, "red", "(move 1 4 3 5)"))
    # The piece moves to (3 5); red's spawn cell gets a new piece.
    assert after == frozenset(position({(3, 5): "red"}, control="yellow", step=2))


def test_king_steps_only_capture_and_knights_only_move_to_empty_cells(game):
    before = position({(3, 3): "red", (4, 4): "yellow"})
    # From (3 3): a king step onto (4 4) (yellow) captures; the other seven neighbours are
    # empty. Knight jumps on board: (4 5), (2 5), (5 4), (5 2). From (1 4): knight jumps
    # (2 6), (2 2), (3 5) ((3 3) is red's own).
    expected = moves((3, 3), [(4, 4), (4, 5), (2, 5), (5, 4), (5, 2)]) | moves(
        (1, 4), [(2, 6), (2, 2), (3, 5)]
    )
    assert legal_texts(game, before, "red") == expected
    after = next_facts(game, before, joint_for(game, "red", "(move 3 3 4 4)"))
    # The yellow piece on (4 4) is removed; spawn cells stay filled.
    assert after == frozenset(position({(4, 4): "red"}, control="yellow", step=2))


def test_controller_without_a_move_plays_noop(game):
    # Blue's only piece is on (7 4): its knight jumps (6 6), (6 2), (5 5), (5 3) are taken
    # by red and its king steps (6 3), (6 4), (6 5) are empty.
    red = {(6, 6): "red", (6, 2): "red", (5, 5): "red", (5, 3): "red"}
    before = position(red, control="blue", step=12)
    assert legal_texts(game, before, "blue") == {"noop"}
    after = next_facts(game, before, ["noop", "noop", "noop"])
    assert after == frozenset(position(red, control="red", step=13))


@pytest.mark.parametrize(
    ("pieces", "step", "result"),
    [
        ({(3, 3): "red", (4, 4): "red", (5, 5): "red"}, 9, (True, (100, 0, 0))),
        ({(5, 3): "blue", (5, 4): "blue", (5, 5): "blue"}, 9, (True, (0, 0, 100))),
        ({(2, 2): "yellow", (3, 3): "yellow", (4, 4): "yellow"}, 9, (False, (0, 0, 0))),
        ({(3, 3): "red", (4, 4): "yellow", (5, 5): "red"}, 9, (False, (0, 0, 0))),
        ({}, 30, (False, (0, 0, 0))),
        ({}, 31, (True, (0, 0, 0))),
    ],
)
def test_terminal_and_goals(game, pieces, step, result):
    assert outcome(game, position(pieces, step=step)) == result
