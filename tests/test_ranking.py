"""Rankings (solvers/ground/ranking.py): games without a step counter that end because
something runs out. Expected bounds are worked out by hand from the rules below, and the
longest game is checked against an explicit search of the reasoner's game tree."""

import pytest

from gamecheck.analysis.verify.pipeline import verify_game
from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.ground.grounder import ground
from gamecheck.solvers.ground.invariants import find_invariants

# One or two of four blank cells marked each step: the blank count falls by 1 or 2, so no
# step counter fits; every step turns a blank for good, so no game is longer than 4 steps.
MARK_ONE_OR_TWO = """
(role p)
(init (blank 1)) (init (blank 2)) (init (blank 3)) (init (blank 4))
(<= (legal p (mark ?x)) (true (blank ?x)))
(<= (legal p (mark2 ?x ?y)) (true (blank ?x)) (true (blank ?y)) (distinct ?x ?y))
(<= (next (blank ?z)) (true (blank ?z)) (does p (mark ?x)) (distinct ?z ?x))
(<= (next (blank ?z)) (true (blank ?z)) (does p (mark2 ?x ?y)) (distinct ?z ?x) (distinct ?z ?y))
(<= open (true (blank ?x)))
(<= terminal (not open))
(goal p 100)
"""

# A mark may follow a `prepare` or not, and two prepares never follow each other: every two
# steps mark one of three cells, so at most 2 * (3 + 1) - 1 = 7 steps; the longest game is
# prepare, mark three times over: 6 steps. Neither weighting of `ready` and the marks grows
# by exactly one in every step (a mark after prepare and one without differ).
PREPARE_THEN_MARK = """
(role p)
(init (blank 1)) (init (blank 2)) (init (blank 3))
(<= (legal p prepare) (not (true ready)))
(<= (legal p (mark ?x)) (true (blank ?x)))
(<= (next ready) (does p prepare))
(<= (next (blank ?z)) (true (blank ?z)) (does p (mark ?x)) (distinct ?z ?x))
(<= (next (blank ?z)) (true (blank ?z)) (does p prepare))
(<= open (true (blank ?x)))
(<= terminal (not open))
(goal p 100)
"""

# A switch flipped forever: nothing runs out, so there is no ranking.
FLIP_FOREVER = """
(role p)
(init off)
(legal p flip)
(<= (next on) (true off))
(<= (next off) (true on))
(<= terminal (true on) (true off))
(goal p 100)
"""


def invariants_of(text: str):
    game = GdlGame.from_text(text, "ranked.kif")
    return find_invariants(ground(game.rules, "ranked"))


def longest_by_search(text: str) -> int:
    """The most steps of any game, by depth-first search on the reasoner."""
    game = GdlGame.from_text(text, "ranked.kif")

    def longest(state) -> int:
        if game.is_terminal(state):
            return 0
        return 1 + max(longest(game.next(state, joint)) for joint in game.joint_actions(state))

    return longest(game.initial_state())


@pytest.mark.parametrize(
    ("text", "steps", "longest", "least"),
    [
        (MARK_ONE_OR_TWO, 1, 4, [0, 1, 2, 3, 4]),
        (PREPARE_THEN_MARK, 2, 7, [0, 0, 1, 1, 2, 2, 3]),
    ],
    ids=["mark one or two", "prepare then mark"],
)
def test_games_that_run_out_of_cells_are_ranked(text, steps, longest, least):
    invariants = invariants_of(text)
    assert invariants.counters == []
    ranking = invariants.ranking
    assert ranking is not None
    assert ranking.steps == steps
    assert ranking.longest == longest
    assert [ranking.least(t) for t in range(len(least))] == least


def test_a_game_that_never_runs_out_has_no_ranking():
    assert invariants_of(FLIP_FOREVER).ranking is None


def test_verify_proves_the_longest_game_of_ranked_games():
    for text, expected, bound in ((MARK_ONE_OR_TWO, 4, 4), (PREPARE_THEN_MARK, 6, 7)):
        assert longest_by_search(text) == expected
        for backend in ("cnf", "cpsat"):
            result = verify_game(text, backend=backend, horizon=40, exhaustive=False)
            assert result.longest_game.status == "proved"
            assert result.longest_game.value == expected
            assert result.complete
            assert result.invariant_statistics["steps_at_most_by_ranking"] == bound
