"""The outcome set of `gamecheck verify`: every goal vector of a reachable terminal state,
each witnessed by a replayed line, complete only when proved. Expected sets are worked out
by hand from the small sheets below, or by the reasoner's exhaustive search."""

import pytest

from gamecheck.analysis.loading import load_game
from gamecheck.analysis.replay import replay_line
from gamecheck.analysis.verify.pipeline import verify_game
from gamecheck.analysis.verify.search import Verifier
from gamecheck.budget import Budget, OutOfBudget
from gamecheck.solvers.ground.grounder import ground
from gamecheck.solvers.ground.sampling import random_playouts
from gamecheck.solvers.ground.unroll import make_unrolling

GRAB = """
; Two roles, three steps. Each step both say grab or wait; a role that grabs alone scores a
; point. Goal: 25 per point.
(role red) (role blue)
(init (score red 0)) (init (score blue 0)) (init (step 0))
(succ 0 1) (succ 1 2) (succ 2 3)
(value 0 0) (value 1 25) (value 2 50) (value 3 75)
(other red blue) (other blue red)
(<= (legal ?r grab) (role ?r))
(<= (legal ?r wait) (role ?r))
(<= (scores ?r) (does ?r grab) (other ?r ?o) (does ?o wait))
(<= (next (score ?r ?m)) (true (score ?r ?n)) (scores ?r) (succ ?n ?m))
(<= (next (score ?r ?n)) (true (score ?r ?n)) (not (scores ?r)))
(<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))
(<= terminal (true (step 3)))
(<= (goal ?r ?g) (true (score ?r ?n)) (value ?n ?g))
"""

# By hand: at most one role scores per step, so the points (r, b) after three steps are
# exactly those with r + b <= 3 (each such split is played by r lone red grabs, b lone blue
# grabs and 3 - r - b steps of both waiting): 10 vectors, never e.g. (75, 75) or (50, 50).
GRAB_OUTCOMES = {(25 * r, 25 * b) for r in range(4) for b in range(4) if r + b <= 3}

DIAL = """
; One role turns a dial 1 -> 2 -> 3 -> 1 ... or stops; the game never has to end. Goal 100
; on 1, 50 on 2 and 3, and 0 on 4, a position the dial never reaches.
(role p)
(init (dial 1))
(turn 1 2) (turn 2 3) (turn 3 1) (turn 4 4)
(<= (legal p turn) (not (true stopped)))
(<= (legal p stop) (not (true stopped)))
(<= (next (dial ?m)) (true (dial ?n)) (does p turn) (turn ?n ?m))
(<= (next (dial ?n)) (true (dial ?n)) (does p stop))
(<= (next stopped) (does p stop))
(<= terminal (true stopped))
(<= (goal p 100) (true (dial 1)))
(<= (goal p 50) (true (dial 2)))
(<= (goal p 50) (true (dial 3)))
(<= (goal p 0) (true (dial 4)))
"""


def exhaustive_outcomes(game) -> set[tuple[int, ...]]:
    """The goal vectors of every reachable terminal state, by breadth-first search over every
    joint action (the reasoner alone: no solver)."""
    seen, frontier, vectors = set(), [game.initial_state()], set()
    while frontier:
        state = frontier.pop()
        if state in seen:
            continue
        seen.add(state)
        if game.is_terminal(state):
            vectors.add(game.goals(state))
            continue
        frontier.extend(game.apply(state, joint) for joint in game.joint_actions(state))
    return vectors


def verifier(text: str, *, playouts: bool, horizon: int = 10) -> Verifier:
    """A verifier of the sheet without invariants, with or without random playouts."""
    game = load_game(text)
    system = ground(game.rules, "test")
    sampled = random_playouts(system, 256, max_steps=horizon) if playouts else None
    unrolling = make_unrolling(system, "cnf")
    return Verifier(unrolling, [game], horizon=horizon, playouts=sampled)


def assert_witnessed(text: str, outcomes) -> None:
    """Every vector comes with a line of play that ends in a terminal state with it."""
    game = load_game(text)
    assert len(outcomes.witnesses) == len(outcomes.vectors)
    for vector, witness in zip(outcomes.vectors, outcomes.witnesses, strict=True):
        last = replay_line(game, witness).states[-1]
        assert game.is_terminal(last) and game.goals(last) == vector


def test_the_exhaustive_search_agrees_with_the_hand_count():
    assert exhaustive_outcomes(load_game(GRAB)) == GRAB_OUTCOMES


@pytest.mark.parametrize("backend", ["cnf", "cpsat"])
def test_a_scored_game_has_every_split_of_the_points_and_no_other(backend):
    result = verify_game(GRAB, backend=backend, horizon=10, exhaustive=False)
    assert result.outcomes.complete
    assert set(result.outcomes.vectors) == GRAB_OUTCOMES
    assert len(result.outcomes.vectors) == len(GRAB_OUTCOMES)  # each vector once
    assert_witnessed(GRAB, result.outcomes)


@pytest.mark.parametrize("playouts", [False, True])
def test_the_solver_alone_and_the_playouts_first_give_the_same_set(playouts):
    check = verifier(GRAB, playouts=playouts)
    check.longest_game()  # the end of the game makes the search complete
    outcomes = check.outcomes()
    assert outcomes.complete
    assert set(outcomes.vectors) == GRAB_OUTCOMES
    assert_witnessed(GRAB, outcomes)


def test_the_playouts_alone_find_only_outcomes_that_occur():
    check = verifier(GRAB, playouts=True)
    found: dict = {}
    check._harvest_outcomes(found)
    assert found and set(found) <= GRAB_OUTCOMES


def test_an_outcome_set_is_complete_without_the_end_of_the_game_where_invariants_prove_it():
    # The dial can turn forever, so the game need not end (the longest game is refuted by
    # a loop, and no depth covers every reachable state); the invariants (one dial
    # position of 1..3) leave no terminal state with goal 0.
    result = verify_game(DIAL, horizon=12, exhaustive=False)
    assert result.longest_game.status == "refuted" and not result.complete
    assert result.outcomes.complete
    assert set(result.outcomes.vectors) == {(100,), (50,)}
    assert_witnessed(DIAL, result.outcomes)


def test_a_budget_that_ends_leaves_the_set_incomplete():
    check = verifier(GRAB, playouts=False)
    check.longest_game()
    check.budget = Budget(0)
    outcomes = check.outcomes()
    assert not outcomes.complete and outcomes.vectors == ()


def test_a_round_cut_short_keeps_its_vectors_and_the_next_round_completes_the_set():
    check = verifier(GRAB, playouts=False)
    check.longest_game()
    checked = check.replays.checked

    def cut_after_three(line, claim):
        if len(check._outcome_witnesses) == 3:
            raise OutOfBudget("cut")
        return checked(line, claim)

    check.replays.checked = cut_after_three
    first = check.outcomes()
    assert not first.complete and len(first.vectors) == 3
    assert set(first.vectors) <= GRAB_OUTCOMES
    check.replays.checked = checked
    second = check.outcomes()
    assert second.complete
    assert sorted(second.vectors) == sorted(GRAB_OUTCOMES)  # each vector once
    assert second.vectors[:3] == first.vectors
    assert_witnessed(GRAB, second)
