"""ttcc4's `ending_move` (a line for the role in control, at once) and what the forced-win
search makes of it: a win within 1 for a team that makes the line, a loss at every depth for
a team that cannot stop it; and a prover that takes its rival's wins (`share_wins`) as its
losses at every depth. Expected values by hand from RULES.md section 2, by trying every
legal action on the move generator, and by the plain solvers of the tests."""

from __future__ import annotations

import random

import pytest

from gamecheck.budget import Budget
from gamecheck.models.noop import NOOP
from gamecheck.solvers.forced_win.and_or import INFINITE, NodeCounter, Prover, share_wins
from gamecheck.solvers.forced_win.sides import Sides
from tests.forced_win_reference import won_within
from tests.test_win_bound import (
    RED_CANNOT_FINISH,
    RED_DROPS_TO_WIN,
    RED_ONE_MOVE_AWAY,
    TTCC4,
    spoiled_within,
    ttcc4_state,
)

RED, YELLOW, BLUE = range(3)


def line_now(state) -> bool:
    """By trying every legal action of the role in control: does one give it a line?"""
    mover = state.control
    for action in TTCC4.legal(state, TTCC4.roles[mover]):
        joint = tuple(action if role == mover else NOOP for role in range(3))
        if TTCC4.goals(TTCC4.next(state, joint))[mover] == 100:
            return True
    return False


def playout_states(seeds: range) -> list:
    """Every non-terminal state of seeded random playouts."""
    states = []
    for seed in seeds:
        rng = random.Random(seed)
        state = TTCC4.initial_state()
        while not TTCC4.is_terminal(state):
            states.append(state)
            joint = tuple(rng.choice(TTCC4.legal(state, role)) for role in TTCC4.roles)
            state = TTCC4.apply(state, joint)
    return states


def test_hand_positions():
    # red's disc (3 3) and knight (4 4): (drop 5) lands on (5 5) over the yellow disc (5 4)
    assert TTCC4.ending_move(RED_DROPS_TO_WIN) == (
        RED,
        (TTCC4.parse_action("red", "(drop 5)"), NOOP, NOOP),
    )
    # the same pieces, but column 5 is empty: a disc falls to (5 2), the knight would leave
    # the line, pawn and checker are on the border
    assert TTCC4.ending_move(RED_CANNOT_FINISH) is None
    # blue to move has nothing in the centre; red's threat is not blue's move
    assert TTCC4.ending_move(RED_ONE_MOVE_AWAY) is None


def test_ending_moves_agree_with_trying_every_action():
    states = playout_states(range(300))
    ending = [state for state in states if TTCC4.ending_move(state) is not None]
    assert len(ending) >= 50  # the comparison below sees both answers often
    for state in states:
        move = TTCC4.ending_move(state)
        assert (move is not None) == line_now(state), TTCC4.picture(state)
        if move is not None:
            mover, joint = move
            after = TTCC4.next(state, joint)  # checked: the joint action is legal
            assert mover == state.control and TTCC4.goals(after)[mover] == 100


@pytest.mark.parametrize(
    ("team", "spoilers", "expected"),
    [
        ((RED,), False, True),  # red makes its line: won within 1
        ((YELLOW,), False, False),  # red's line, yellow cannot stop it: lost at every depth
        ((RED, BLUE), False, None),  # red's line leaves blue at 0: no win, and red may not
        ((RED,), True, False),  # the spoilers of red cannot stop it
        ((YELLOW,), True, True),  # red spoils yellow's game at once
    ],
)
def test_what_an_ending_move_decides(team, spoilers, expected):
    sides = Sides(TTCC4, team)
    sides = sides.spoilers() if spoilers else sides
    assert sides.ends_now(RED_DROPS_TO_WIN) is expected


def test_the_search_agrees_with_plain_solvers_where_a_move_ends_the_game():
    # a sample of states with an ending move, every role as a team and as the spoilers of
    # one, depths 0 to 2: the plain recursive solvers know nothing of ending moves
    states = [s for s in playout_states(range(40)) if TTCC4.ending_move(s) is not None][::4]
    assert len(states) >= 5
    for state in states:
        for role in range(3):
            for depth in range(3):
                prover = Prover(Sides(TTCC4, (role,)), NodeCounter(Budget()))
                value = prover.prove(state, depth, depth_first=True)
                assert (value >= 0) == won_within(TTCC4, TTCC4.roles[role], state, depth)
                spoilers = Prover(Sides(TTCC4, (role,)).spoilers(), NodeCounter(Budget()))
                value = spoilers.prove(state, depth, depth_first=True)
                assert (value >= 0) == spoiled_within(TTCC4, (role,), state, depth)


def test_an_ending_move_of_an_opponent_is_a_loss_at_every_depth():
    counter = NodeCounter(Budget())
    prover = Prover(Sides(TTCC4, (YELLOW,)), counter)
    assert prover.prove(RED_DROPS_TO_WIN, 5, depth_first=True) == -1 - INFINITE
    assert counter.nodes == 0
    assert not won_within(TTCC4, "yellow", RED_DROPS_TO_WIN, 3)


# Yellow to move, then blue: blue's discs (3 5) and (5 3), and column 4 filled up to (4 3), so
# blue's (drop 4) lands on (4 4) and makes its diagonal. Yellow waits and blue drops: red's
# spoilers win within 2, and red, who moves after blue, never wins.
BLUE_AFTER_YELLOW = ttcc4_state(
    {}, {"4 2": "yellow", "4 3": "red", "3 5": "blue", "5 3": "blue"}, "yellow", 5
)


def test_a_win_of_the_rival_is_a_loss_at_every_depth():
    counter = NodeCounter(Budget())
    main = Prover(Sides(TTCC4, (RED,)), counter)
    spoilers = Prover(Sides(TTCC4, (RED,)).spoilers(), NodeCounter(Budget()))
    share_wins(main, spoilers)
    assert spoilers.prove(BLUE_AFTER_YELLOW, 2, depth_first=True) == 2
    assert main.prove(BLUE_AFTER_YELLOW, 30, depth_first=True) == -1 - INFINITE
    assert counter.nodes == 0
    assert not won_within(TTCC4, "red", BLUE_AFTER_YELLOW, 4)


def test_provers_that_share_their_wins_agree_with_plain_solvers():
    # each role's prover and its spoilers' take turns, depths 0 to 3: every answer of each
    # is the plain solvers' (tests/forced_win_reference.py and spoiled_within)
    states = playout_states(range(6))[::9] + [BLUE_AFTER_YELLOW, RED_DROPS_TO_WIN]
    shared = 0
    for state in states:
        for role in range(3):
            main = Prover(Sides(TTCC4, (role,)), NodeCounter(Budget()))
            spoilers = Prover(Sides(TTCC4, (role,)).spoilers(), NodeCounter(Budget()))
            share_wins(main, spoilers)
            for depth in range(4):
                expected = spoiled_within(TTCC4, (role,), state, depth)
                assert (spoilers.prove(state, depth, depth_first=True) >= 0) == expected
                expected = won_within(TTCC4, TTCC4.roles[role], state, depth)
                assert (main.prove(state, depth, depth_first=True) >= 0) == expected
            shared += sum(entry.win < INFINITE for entry in spoilers.solved.values())
    assert shared > 0
