"""`Game.steps_to_win`, the rules' lower bound on the steps to a win (issue 12), of ttcc4 and
tictacchess: hand-worked positions (RULES.md sections 2 and 5), an exhaustive cooperative
search on our GDL rule sheet of ttcc4 played by the reasoner as the second method, and the
forced-win search settling a depth below the bound without a node."""

from __future__ import annotations

import random

import pytest

from gamecheck.analysis.loading import load_rule_sheet
from gamecheck.budget import Budget
from gamecheck.models import get_game
from gamecheck.solvers.forced_win.and_or import NodeCounter, Prover
from gamecheck.solvers.forced_win.search import Status, forced_win
from gamecheck.solvers.forced_win.sides import Sides
from tests.forced_win_reference import won_within

TTCC4 = get_game("ttcc4")
TICTACCHESS = get_game("tictacchess")
RED, YELLOW, BLUE = range(3)
AT_START = {
    "redPawn": "1 5",
    "redChecker": "1 4",
    "redKnight": "1 3",
    "yellowPawn": "3 1",
    "yellowChecker": "4 1",
    "yellowKnight": "5 1",
    "bluePawn": "7 3",
    "blueChecker": "7 4",
    "blueKnight": "7 5",
}
"""RULES.md's start cells of the pawns, checkers and knights."""


def ttcc4_state(moved: dict[str, str], discs: dict[str, str], control: str, step: int):
    """A ttcc4 state: pieces at their start cells unless `moved` (piece -> `x y`), and discs
    (`x y` -> role)."""
    cells = {**AT_START, **moved}
    facts = [f"(cell {cell} {piece})" for piece, cell in cells.items()]
    facts += [f"(cell {cell} {role}Disc)" for cell, role in discs.items()]
    facts += [f"(control {control})", f"(step {step})"]
    return TTCC4.state_from_facts(facts)


def tictacchess_state(*cells: str, control: str):
    facts = [f"(cell {cell})" for cell in cells] + [f"(control {control})", "(step 10)"]
    return TICTACCHESS.state_from_facts(facts)


# Red has its disc (3 3) and knight (4 4) on the diagonal to (5 5); blue moves now, red next.
# Red needs one move of its own, the second step from here: 2. Yellow and blue have nothing
# in the centre: three moves each, at steps 3, 6, 9 from here for yellow (9) and 1, 4, 7
# for blue (7).
RED_ONE_MOVE_AWAY = ttcc4_state({"redKnight": "4 4"}, {"3 3": "red"}, "blue", 12)

# Red (3 2) disc below the centre, (3 3) disc and (3 4) pawn in column x = 3, yellow's disc
# (3 5) on its last cell: red still needs one move (a capture there would do), at the third
# step (yellow, blue, red): 3. Yellow has one piece on the row y = 5 (and on column 3 and
# the diagonal (3 5)-(5 3)): two moves, steps 1 and 4: 4. Blue: three, steps 2, 5, 8: 8.
YELLOW_BLOCKS = ttcc4_state(
    {"redPawn": "3 4"}, {"3 2": "red", "3 3": "red", "3 5": "yellow"}, "yellow", 20
)

# As RED_ONE_MOVE_AWAY with column x = 5 filled up to (5 4) and red to move: (drop 5) lands
# on (5 5) and makes the diagonal, a win in 1.
RED_DROPS_TO_WIN = ttcc4_state(
    {"redKnight": "4 4"},
    {"3 3": "red", "5 2": "yellow", "5 3": "blue", "5 4": "yellow"},
    "red",
    12,
)


@pytest.mark.parametrize(
    ("state", "team", "steps"),
    [
        (TTCC4.initial_state(), (RED,), 7),  # three moves from nothing: steps 1, 4, 7
        (TTCC4.initial_state(), (YELLOW,), 8),
        (TTCC4.initial_state(), (BLUE,), 9),
        (TTCC4.initial_state(), (RED, BLUE), 9),  # every team role needs its line
        (RED_ONE_MOVE_AWAY, (RED,), 2),
        (RED_ONE_MOVE_AWAY, (YELLOW,), 9),
        (RED_ONE_MOVE_AWAY, (BLUE,), 7),
        (RED_ONE_MOVE_AWAY, (RED, YELLOW), 9),
        (YELLOW_BLOCKS, (RED,), 3),
        (YELLOW_BLOCKS, (YELLOW,), 4),
        (YELLOW_BLOCKS, (BLUE,), 8),
    ],
)
def test_ttcc4_hand_positions(state, team, steps):
    assert TTCC4.steps_to_win(state, team) == steps


# tests/test_forced_win.py: red (3 4), (2 2) and spawn (1 4), red to move, forces its win in
# exactly 4 steps (two moves: steps 1 and 4), so the bound 4 is reached there. Red one knight
# jump from the column x = 3: 1.
TWO_MOVES = ("1 4 red", "3 4 red", "2 2 red", "4 1 yellow", "7 4 blue")
ONE_JUMP = ("1 4 red", "3 3 red", "3 4 red", "4 1 yellow", "7 4 blue")


@pytest.mark.parametrize(
    ("cells", "control", "team", "steps"),
    [
        (TWO_MOVES, "red", (RED,), 4),
        (TWO_MOVES, "red", (YELLOW,), 8),  # three moves, steps 2, 5, 8
        (TWO_MOVES, "yellow", (RED,), 6),  # red's moves come at steps 3 and 6
        (ONE_JUMP, "red", (RED,), 1),
        (ONE_JUMP, "blue", (RED,), 2),
        (ONE_JUMP, "blue", (RED, BLUE), 7),  # blue has only its spawn: steps 1, 4, 7
    ],
)
def test_tictacchess_hand_positions(cells, control, team, steps):
    state = tictacchess_state(*cells, control=control)
    assert TICTACCHESS.steps_to_win(state, team) == steps


def test_a_terminal_state_has_no_bound():
    # red's line (3 3) (3 4) (3 5) is made: the game is over
    state = ttcc4_state({"redPawn": "3 4"}, {"3 3": "red", "3 5": "red"}, "yellow", 9)
    assert TTCC4.is_terminal(state)
    assert TTCC4.steps_to_win(state, (RED,)) == 0


def near_lines(per_bound: int) -> list[tuple[object, int, int]]:
    """(state, role, bound) from seeded random ttcc4 playouts: `per_bound` cases for each
    bound 2, 3 and 4 steps (nobody has a line in them)."""
    found: dict[int, list] = {2: [], 3: [], 4: []}
    for seed in range(400):
        rng = random.Random(seed)
        state = TTCC4.initial_state()
        while not TTCC4.is_terminal(state):
            for role in range(3):
                cases = found.get(TTCC4.steps_to_win(state, (role,)))
                if cases is not None and len(cases) < per_bound and rng.random() < 0.1:
                    cases.append((state, role, TTCC4.steps_to_win(state, (role,))))
            state = TTCC4.apply(state, tuple(rng.choice(j) for j in joint_choices(state)))
    return [case for cases in found.values() for case in cases]


def joint_choices(state) -> list[list]:
    return [TTCC4.legal(state, role) for role in TTCC4.roles]


def test_no_line_sooner_on_the_rule_sheet():
    # Second method: every state reachable within bound - 1 steps, all roles helping, on our
    # GDL rule sheet played by the reasoner: the role has goal 100 in none of them.
    sheet = load_rule_sheet(TTCC4)
    cases = near_lines(4)
    assert len(cases) == 12
    for state, role, steps in cases:
        frontier = {sheet.state_from_facts(TTCC4.state_facts(state))}
        name = TTCC4.roles[role]
        for _ in range(steps - 1):
            frontier = {
                sheet.apply(here, joint)
                for here in frontier
                if not sheet.is_terminal(here)
                for joint in sheet.joint_actions(here)
            }
            assert not any(100 in sheet.goal_values(here)[name] for here in frontier), (
                TTCC4.picture(state),
                name,
                steps,
            )


def test_the_search_settles_depths_below_the_bound_without_a_node():
    counter = NodeCounter(Budget())
    prover = Prover(Sides(TTCC4, (RED,)), counter)
    assert prover.prove(RED_ONE_MOVE_AWAY, 1, depth_first=True) == -1 - 1
    assert counter.nodes == 0
    result = forced_win(TTCC4, "yellow", start=RED_ONE_MOVE_AWAY, max_depth=8)
    assert (result.status, result.searched_depth, result.nodes) == (Status.NONE, 8, 0)
    assert result.lower_bound == 9


@pytest.mark.parametrize("depth_first", [True, False], ids=["depth-first", "df-pn"])
def test_answers_with_the_bound_agree_with_the_reference(depth_first):
    # the plain recursive solver of tests/forced_win_reference.py knows nothing of bounds
    assert won_within(TTCC4, "red", RED_DROPS_TO_WIN, 1)
    for state in (RED_ONE_MOVE_AWAY, YELLOW_BLOCKS, RED_DROPS_TO_WIN):
        for role in range(3):
            for depth in range(4):
                prover = Prover(Sides(TTCC4, (role,)), NodeCounter(Budget()))
                value = prover.prove(state, depth, depth_first=depth_first)
                expected = won_within(TTCC4, TTCC4.roles[role], state, depth)
                assert (value >= 0) == expected, (role, depth)
