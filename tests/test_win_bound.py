"""`Game.steps_to_win`, the rules' lower bound on the steps to a win (issue 12), of ttcc4 and
tictacchess: hand-worked positions (RULES.md sections 2 and 5), an exhaustive cooperative
search on our GDL rule sheet of ttcc4 played by the reasoner as the second method, and the
forced-win search settling a depth below the bound without a node."""

from __future__ import annotations

import itertools
import random

import pytest

from gamecheck.analysis.loading import load_rule_sheet
from gamecheck.budget import Budget
from gamecheck.models import get_game
from gamecheck.models.base import NEVER
from gamecheck.solvers.forced_win.and_or import (
    SOLVED_ENTRY_BYTES,
    SOLVED_SHARE,
    NodeCounter,
    Prover,
    deep_size,
)
from gamecheck.solvers.forced_win.search import Status, forced_win
from gamecheck.solvers.forced_win.sides import Sides
from tests.forced_win_reference import won_within

TTCC4 = get_game("ttcc4")
TICTACCHESS = get_game("tictacchess")
TICTACTOE3D = get_game("tictactoe3d")
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


def tictactoe3d_state(x: list[str], o: list[str], control: str, first_o: str, selected=()):
    """A tictactoe3d state from the cells `r c l` marked x and o (all others blank), team X's
    turn opened by xrow, and the selections `kind value` made in the turn under way."""
    marks = {cell: mark for cells, mark in ((x, "x"), (o, "o")) for cell in cells}
    cells = itertools.product(range(1, 5), repeat=3)
    facts = [f"(cell {r} {c} {lv} {marks.get(f'{r} {c} {lv}', 'b')})" for r, c, lv in cells]
    facts += [f"(selected {choice})" for choice in selected]
    facts += [f"(control {control})", "(first_role_in_team x xrow)"]
    facts += [f"(first_role_in_team o {first_o})"]
    return TICTACTOE3D.state_from_facts(facts)


# X needs (1 1 4) after O's mark under way: 6 steps. O's two marks lie only on the main
# diagonal, which X's (1 1 1) blocks: O needs three marks on a line through one of them, the
# first at the end of its turn: steps 3, 9, 15.
THREE_X = tictactoe3d_state(["1 1 1", "1 1 2", "1 1 3"], ["2 2 2", "3 3 3"], "olevel", "olevel")
# X's fourth mark under way, row 1 selected: (1 1 4) in 2 steps; no two O marks on a line:
# three O marks, at steps 5, 11, 17.
ROW_ONE_SELECTED = tictactoe3d_state(
    ["1 1 1", "1 1 2", "1 1 3"], ["2 2 2", "3 3 3", "4 4 1"], "xcolumn", "orow", ["row 1"]
)
XROW, OROW = 0, 3


@pytest.mark.parametrize(
    ("state", "team", "steps", "loss"),
    [
        # X's marks end at steps 3, 9, 15, 21; O's at 6, 12, 18, 24
        (TICTACTOE3D.initial_state(), (XROW,), 21, 24),
        (TICTACTOE3D.initial_state(), (OROW,), 24, 21),
        (TICTACTOE3D.initial_state(), (XROW, 1, 2), 21, 24),
        # both sides never all win (the first line ends it); X's line leaves O's roles at 0
        (TICTACTOE3D.initial_state(), (XROW, OROW), NEVER, 21),
        (THREE_X, (XROW,), 6, 15),
        (THREE_X, (OROW,), 15, 6),
        (ROW_ONE_SELECTED, (XROW,), 2, 17),
        (ROW_ONE_SELECTED, (OROW, 4), 17, 2),
    ],
)
def test_tictactoe3d_hand_positions(state, team, steps, loss):
    assert TICTACTOE3D.steps_to_win(state, team) == steps
    assert TICTACTOE3D.steps_to_loss(state, team) == loss


@pytest.mark.parametrize(
    ("state", "team", "steps"),
    [
        # the game ends without red's win by yellow's line at the earliest: steps 2, 5, 8
        (TTCC4.initial_state(), (RED,), 8),
        (TTCC4.initial_state(), (YELLOW,), 7),  # red's line ends it, steps 1, 4, 7
        (TTCC4.initial_state(), (RED, YELLOW), 7),  # red's line leaves yellow at 0
        (RED_ONE_MOVE_AWAY, (YELLOW,), 2),  # red's line
        (RED_ONE_MOVE_AWAY, (RED,), 7),  # blue's line before yellow's (9)
        (YELLOW_BLOCKS, (BLUE,), 3),  # red's line before yellow's (4)
        (YELLOW_BLOCKS, (RED,), 4),  # yellow's
    ],
)
def test_ttcc4_steps_to_a_loss(state, team, steps):
    assert TTCC4.steps_to_loss(state, team) == steps


def test_ttcc4_steps_to_a_loss_at_the_step_limit():
    # as YELLOW_BLOCKS at step 29: the state with (step 31) ends the game in 2 steps, with
    # 0 for every role without a line, before yellow's line (4)
    facts = TTCC4.state_facts(YELLOW_BLOCKS) - {"(step 20)"} | {"(step 29)"}
    state = TTCC4.state_from_facts(facts)
    assert TTCC4.steps_to_loss(state, (RED,)) == 2
    assert TTCC4.steps_to_win(state, (RED,)) == 3  # beyond the end: no win at all


# As RED_ONE_MOVE_AWAY with red to move: no action of red lands on (5 5) (a disc dropped into
# column 5 falls to (5 2), the knight would leave (4 4), pawn and checker wait on the border),
# so red needs a second move, at its next turn: 4 steps.
RED_CANNOT_FINISH = ttcc4_state({"redKnight": "4 4"}, {"3 3": "red"}, "red", 12)


@pytest.mark.parametrize(
    ("state", "team", "steps"),
    [
        (RED_CANNOT_FINISH, (RED,), 4),
        (RED_DROPS_TO_WIN, (RED,), 1),  # (drop 5) lands on (5 5)
        (RED_CANNOT_FINISH, (YELLOW,), 8),  # nothing in the centre: steps 2, 5, 8
    ],
)
def test_ttcc4_a_role_in_control_that_cannot_finish_needs_its_next_turn(state, team, steps):
    assert TTCC4.steps_to_win(state, team) == steps


def test_ttcc4_a_loss_waits_for_the_spoilers_next_turn():
    # red cannot finish now: blue's line (steps 3, 6, 9 from here) or red's at step 4 ends it
    assert TTCC4.steps_to_loss(RED_CANNOT_FINISH, (YELLOW,)) == 4


def one_move_away_in_control(per_kind: int) -> list[tuple[object, int, bool]]:
    """(state, role in control, whether it makes a line now) from seeded random ttcc4
    playouts, for states where the role has two pieces on a line of the centre: `per_kind`
    states where its bound is 1 step and as many where it is 4."""
    found: dict[int, list] = {1: [], 4: []}
    for seed in range(400):
        rng = random.Random(seed)
        state = TTCC4.initial_state()
        while not TTCC4.is_terminal(state):
            role = state.control
            steps = TTCC4.steps_to_win(state, (role,))
            cases = found.get(steps)
            if cases is not None and len(cases) < per_kind and rng.random() < 0.3:
                cases.append((state, role, steps == 1))
            joint = tuple(rng.choice(TTCC4.legal(state, r)) for r in TTCC4.roles)
            state = TTCC4.apply(state, joint)
    return [case for cases in found.values() for case in cases]


def test_a_line_now_or_not_on_the_rule_sheet():
    # Second method: the reasoner on our rule sheet. Bound 4: within 3 steps, all roles
    # helping, the role has goal 100 nowhere. Bound 1: some action of the role ends the game
    # with its 100 at once (the bound is reached).
    sheet = load_rule_sheet(TTCC4)
    cases = one_move_away_in_control(3)
    assert sorted(now for _, _, now in cases) == [False] * 3 + [True] * 3
    for state, role, now in cases:
        name = TTCC4.roles[role]
        if now:
            here = sheet.state_from_facts(TTCC4.state_facts(state))
            wins = [
                joint
                for joint in sheet.joint_actions(here)
                if 100 in sheet.goal_values(sheet.apply(here, joint))[name]
            ]
            assert wins, (TTCC4.picture(state), name)
        else:
            for here in reached_within(TTCC4, state, 3):
                assert 100 not in sheet.goal_values(here)[name], (TTCC4.picture(state), name)


def test_a_win_at_the_last_step_is_found_with_its_action():
    # the search settles "won within 1" without an expansion; the strategy still has the action
    result = forced_win(TTCC4, "red", start=RED_DROPS_TO_WIN)
    assert (result.status, result.depth, result.first_action) == (Status.FOUND, 1, "(drop 5)")


def test_tictacchess_steps_to_a_loss():
    # red's line (steps 2 from here) ends it without yellow's win; step 10: 21 steps left
    assert TICTACCHESS.steps_to_loss(tictacchess_state(*ONE_JUMP, control="blue"), (YELLOW,)) == 2
    # yellow's line at the earliest (steps 2, 5, 8) before blue's (9)
    assert TICTACCHESS.steps_to_loss(tictacchess_state(*TWO_MOVES, control="red"), (RED,)) == 8


def test_a_terminal_state_has_no_bound():
    # red's line (3 3) (3 4) (3 5) is made: the game is over
    state = ttcc4_state({"redPawn": "3 4"}, {"3 3": "red", "3 5": "red"}, "yellow", 9)
    assert TTCC4.is_terminal(state)
    assert TTCC4.steps_to_win(state, (RED,)) == 0


def sampled(game, bound, per_bound: int) -> list[tuple[object, int, int]]:
    """(state, role, bound(state, (role,))) from seeded random playouts of `game`:
    `per_bound` cases for each bound 2, 3 and 4 steps."""
    found: dict[int, list] = {2: [], 3: [], 4: []}
    for seed in range(400):
        rng = random.Random(seed)
        state = game.initial_state()
        while not game.is_terminal(state):
            for role in range(len(game.roles)):
                steps = bound(state, (role,))
                if steps in found and len(found[steps]) < per_bound and rng.random() < 0.1:
                    found[steps].append((state, role, steps))
            joint = tuple(rng.choice(game.legal(state, role)) for role in game.roles)
            state = game.apply(state, joint)
    return [case for cases in found.values() for case in cases]


def reached_within(game, state, steps: int) -> set:
    """Every state of our GDL rule sheet of `game` (played by the reasoner) reachable from
    `state` in 1 to `steps` steps, all roles playing every action."""
    sheet = load_rule_sheet(game)
    frontier = {sheet.state_from_facts(game.state_facts(state))}
    reached = set()
    for _ in range(steps):
        frontier = {
            sheet.apply(here, joint)
            for here in frontier
            if not sheet.is_terminal(here)
            for joint in sheet.joint_actions(here)
        }
        reached |= frontier
    return reached


@pytest.mark.parametrize("game", [TTCC4, TICTACTOE3D], ids=lambda game: game.name)
def test_no_win_sooner_on_the_rule_sheet(game):
    # Second method: within bound - 1 steps, all roles helping, the role has goal 100 nowhere
    sheet = load_rule_sheet(game)
    cases = sampled(game, game.steps_to_win, 3)
    assert len(cases) == 9
    for state, role, steps in cases:
        name = game.roles[role]
        for here in reached_within(game, state, steps - 1):
            assert 100 not in sheet.goal_values(here)[name], (game.picture(state), name)


@pytest.mark.parametrize("game", [TTCC4, TICTACTOE3D], ids=lambda game: game.name)
def test_no_loss_sooner_on_the_rule_sheet(game):
    # Second method: within bound - 1 steps, all roles helping, no terminal state gives the
    # role a goal below 100
    sheet = load_rule_sheet(game)
    cases = sampled(game, game.steps_to_loss, 3)
    assert len(cases) == 9
    for state, role, steps in cases:
        name = game.roles[role]
        for here in reached_within(game, state, steps - 1):
            if sheet.is_terminal(here):
                assert sheet.goal_values(here)[name] == {100}, (game.picture(state), name)


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


@pytest.mark.parametrize("depth_first", [True, False], ids=["depth-first", "df-pn"])
def test_a_tiny_table_proves_what_an_unbounded_one_does(depth_first):
    # every role and depth on one prover each, the proved states of the first capped at 32
    # entries: pruned over and over, to its 16 deepest proofs, terminal states first
    answers, pruned = set(), False
    for state in (RED_ONE_MOVE_AWAY, YELLOW_BLOCKS, RED_DROPS_TO_WIN):
        memory = 32 * (deep_size(state) + SOLVED_ENTRY_BYTES) / SOLVED_SHARE
        for role in range(3):
            capped = Prover(Sides(TTCC4, (role,)), NodeCounter(Budget()), memory=memory)
            unbounded = Prover(Sides(TTCC4, (role,)), NodeCounter(Budget()), memory=None)
            for depth in range(8):
                value = capped.prove(state, depth, depth_first=depth_first)
                expected = unbounded.prove(state, depth, depth_first=depth_first)
                assert (value >= 0) == (expected >= 0), (role, depth)
                answers.add(expected >= 0)
            pruned |= len(capped.solved) < len(unbounded.solved)
    assert answers == {True, False} and pruned


def spoiled_within(game, team: tuple[int, ...], state, depth: int) -> bool:
    """Plainly, with the checked `next`: can the roles outside `team` force, within `depth`,
    a terminal state where some role of `team` has a goal below 100?"""
    if game.is_terminal(state):
        return any(game.goals(state)[i] != 100 for i in team)
    if depth == 0:
        return False
    legal = [game.legal(state, role) for role in game.roles]
    others = [i for i in range(len(legal)) if i not in team]
    for choice in itertools.product(*(legal[i] for i in others)):
        fixed = dict(zip(others, choice, strict=True))
        replies = itertools.product(*([fixed[i]] if i in fixed else legal[i] for i in range(3)))
        if all(spoiled_within(game, team, game.next(state, joint), depth - 1) for joint in replies):
            return True
    return False


def test_the_spoilers_win_where_the_team_does_not():
    yellow_line = ttcc4_state({}, {"3 3": "yellow", "4 4": "yellow", "5 5": "yellow"}, "red", 9)
    red_line = ttcc4_state({}, {"3 3": "red", "4 4": "red", "5 5": "red"}, "yellow", 9)
    of_red = Sides(TTCC4, (RED,)).spoilers()
    assert of_red.team == (YELLOW, BLUE)
    assert of_red.won(yellow_line) and not of_red.won(red_line)
    # red's line leaves yellow at 0: a win for blue, the spoiler of the team red, yellow
    assert Sides(TTCC4, (RED, YELLOW)).spoilers().won(red_line)


@pytest.mark.parametrize("depth_first", [True, False], ids=["depth-first", "df-pn"])
def test_spoiler_answers_agree_with_a_plain_search(depth_first):
    assert spoiled_within(TTCC4, (BLUE,), RED_DROPS_TO_WIN, 1)
    for state in (RED_ONE_MOVE_AWAY, YELLOW_BLOCKS, RED_DROPS_TO_WIN):
        for role in range(3):
            spoilers = Sides(TTCC4, (role,)).spoilers()
            for depth in range(4):
                prover = Prover(spoilers, NodeCounter(Budget()))
                value = prover.prove(state, depth, depth_first=depth_first)
                assert (value >= 0) == spoiled_within(TTCC4, (role,), state, depth), (role, depth)


def test_a_spoiler_win_settles_every_depth():
    # yellow, to move, drops into column 4 onto (4 4): the diagonal (3 5) (4 4) (5 3) is its
    # line, so red and blue never win, at any depth
    state = ttcc4_state(
        {}, {"4 2": "blue", "4 3": "red", "3 5": "yellow", "5 3": "yellow"}, "yellow", 5
    )
    for role in ("red", "blue"):
        result = forced_win(TTCC4, role, start=state)
        assert (result.status, result.searched_depth) == (Status.NONE, 30)
