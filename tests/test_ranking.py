"""Rankings (solvers/ground/ranking.py, potential.py): games without a step counter that end
because something runs out, or because a weighted sum of fluents rises. Expected bounds are
worked out by hand from the rules below, and the longest game is checked against an explicit
search of the reasoner's game tree."""

import numpy as np
import pytest

from gamecheck.analysis.verify.pipeline import verify_game
from gamecheck.analysis.verify.search import Verifier
from gamecheck.budget import Budget, OutOfBudget
from gamecheck.gdl.terms import term_text
from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.ground import potential
from gamecheck.solvers.ground.grounder import ground
from gamecheck.solvers.ground.induction import Induction
from gamecheck.solvers.ground.invariants import find_invariants
from gamecheck.solvers.ground.ranking import _Monotone, _Monotonic
from gamecheck.solvers.ground.sampling import random_playouts
from gamecheck.solvers.ground.unroll_cnf import CnfUnrolling
from tests.game_checks import every_reachable_state

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

# Two players mark at once, a one of the odd cells 1, 3, 5 and b one of the even cells 2, 4,
# 6, until no cell is blank: every step turns two blanks for good, so no game is longer than
# 6 // 2 = 3 steps (one blank a step would allow 6), and a state t steps in has 2t marks.
BOTH_MARK = """
(role a) (role b)
(init (blank 1)) (init (blank 2)) (init (blank 3))
(init (blank 4)) (init (blank 5)) (init (blank 6))
(mine a 1) (mine a 3) (mine a 5) (mine b 2) (mine b 4) (mine b 6)
(<= (legal ?r (mark ?x)) (mine ?r ?x) (true (blank ?x)))
(<= (marked ?x) (does ?r (mark ?x)))
(<= (next (blank ?x)) (true (blank ?x)) (not (marked ?x)))
(<= open (true (blank ?x)))
(<= terminal (not open))
(goal a 100)
(goal b 100)
"""

# Two tokens race along cells 1..5 in turn, each one or two cells a move; a token on 5 ends
# the game. No fluent turns for good (a token passes each cell) and no count of fluents
# grows by one each step, but the sum of the tokens' cells does: the longest game is 7
# steps (both creep a cell at a time; a's fourth step reaches 5).
RACE = """
(role a) (role b)
(init (at a 1)) (init (at b 1)) (init (control a))
(succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)
(<= (legal ?r (step 1)) (true (control ?r)))
(<= (legal ?r (step 2)) (true (control ?r)) (true (at ?r ?x)) (succ ?x ?y) (succ ?y ?z))
(<= (legal ?r noop) (role ?r) (not (true (control ?r))))
(<= (next (at ?r ?y)) (does ?r (step 1)) (true (at ?r ?x)) (succ ?x ?y))
(<= (next (at ?r ?z)) (does ?r (step 2)) (true (at ?r ?x)) (succ ?x ?y) (succ ?y ?z))
(<= (next (at ?r ?x)) (does ?r noop) (true (at ?r ?x)))
(<= (next (control b)) (true (control a)))
(<= (next (control a)) (true (control b)))
(<= terminal (true (at ?r 5)))
(<= (goal ?r 100) (true (at ?r 5)))
(<= (goal ?r 0) (role ?r) (not (true (at ?r 5))))
"""

# Two tokens step forward in turn on one line 1..6, a from 1 and b from 2, never onto the
# other's cell; a player who cannot step passes. a must pass at once; then b steps to 6 while
# a follows: 8 steps. A pass changes only whose turn it is, and in a state the invariants
# allow, b may be the one behind, so passes of either player would have to raise the sum: no
# weights raise it every step. Every two steps do (one of them is a step: two tokens cannot
# block each other).
FOLLOW_OR_PASS = """
(role a) (role b)
(init (at a 1)) (init (at b 2)) (init (control a))
(succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6)
(<= (occupied ?y) (true (at ?r ?y)))
(<= (free ?r) (true (at ?r ?x)) (succ ?x ?y) (not (occupied ?y)))
(<= (legal ?r step) (true (control ?r)) (free ?r))
(<= (legal ?r noop) (true (control ?r)) (not (free ?r)))
(<= (legal ?r noop) (role ?r) (not (true (control ?r))))
(<= (next (at ?r ?y)) (does ?r step) (true (at ?r ?x)) (succ ?x ?y))
(<= (next (at ?r ?x)) (does ?r noop) (true (at ?r ?x)))
(<= (next (control b)) (true (control a)))
(<= (next (control a)) (true (control b)))
(<= terminal (true (at ?r 6)))
(<= (goal ?r 100) (true (at ?r 6)))
(<= (goal ?r 0) (role ?r) (not (true (at ?r 6))))
"""

# Othello in small: three cells; x may place a disc on any empty cell, o only on cell 2, and
# a disc placed turns its taken neighbours to the mover's colour; a player who cannot place
# passes, and the game ends when every cell is taken. Discs flip, so no cell's disc of one
# colour is monotone (except x on 2, which no one can take back), nor does any count grow
# by one each step (o passes); but a cell once taken stays taken, and of every two steps one
# is x's, which takes a cell. Longest game: x on 2, o passes, x on 1, o passes, x on 3: 5.
FLIP_NEIGHBOURS = """
(role x) (role o)
(init (control x))
(index 1) (index 2) (index 3)
(beside 1 2) (beside 2 1) (beside 2 3) (beside 3 2)
(<= (taken ?c) (true (cell ?c ?r)))
(<= (allowed x ?c) (index ?c))
(allowed o 2)
(<= (can ?r ?c) (allowed ?r ?c) (not (taken ?c)))
(<= (canmove ?r) (can ?r ?c))
(<= (legal ?r (place ?c)) (true (control ?r)) (can ?r ?c))
(<= (legal ?r noop) (true (control ?r)) (not (canmove ?r)))
(<= (legal ?r noop) (role ?r) (not (true (control ?r))))
(<= (flipped ?c) (does ?r (place ?d)) (beside ?c ?d))
(<= (next (cell ?c ?r)) (does ?r (place ?c)))
(<= (next (cell ?c ?r)) (does ?r (place ?d)) (beside ?c ?d) (taken ?c))
(<= (next (cell ?c ?s)) (true (cell ?c ?s)) (not (flipped ?c)))
(<= (next (control o)) (true (control x)))
(<= (next (control x)) (true (control o)))
(<= terminal (taken 1) (taken 2) (taken 3))
(<= (goal ?r 100) (true (cell 2 ?r)))
(<= (goal ?r 0) (role ?r) (not (true (cell 2 ?r))))
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


# A clock from 1 to 60, one tick a step, in a register (one (time n) at a time): no count of
# fluents grows, no fluent turns for good, but weighing (time n) by n raises the sum by one
# every step. Every game lasts 59 steps. Its hours are written 1h..60h, which do not read as
# numbers: a register of numbers would be a step counter (test_register_counters.py).
CLOCK = f"""
(role p)
(init (time 1h))
{" ".join(f"(succ {n}h {n + 1}h)" for n in range(1, 60))}
(legal p wait)
(<= (next (time ?m)) (true (time ?n)) (succ ?n ?m))
(<= terminal (true (time 60h)))
(goal p 100)
"""


def invariants_of(text: str):
    game = GdlGame.from_text(text, "ranked.kif")
    return find_invariants(ground(game.rules, "ranked"))


def monotonic(system, literal: int) -> _Monotonic:
    """A ranking's term as the monotone literal it was: a fluent, or a place (some or none
    of a cell's fluents: the negation of an AND of their negations)."""
    node = abs(literal)
    if node in system.node_fluent:
        return _Monotonic(literal, "", (system.node_fluent[node],), literal < 0)
    members = tuple(system.node_fluent[abs(child)] for child in system.circuit.children[node])
    return _Monotonic(literal, "", members, literal > 0)


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
        (BOTH_MARK, 1, 3, [0, 2, 4, 6]),
    ],
    ids=["mark one or two", "prepare then mark", "both mark"],
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
    for text, expected, bound in (
        (MARK_ONE_OR_TWO, 4, 4),
        (PREPARE_THEN_MARK, 6, 7),
        (BOTH_MARK, 3, 3),
    ):
        assert longest_by_search(text) == expected
        for backend in ("cnf", "cpsat"):
            result = verify_game(text, backend=backend, horizon=40, exhaustive=False)
            assert result.longest_game.status == "proved"
            assert result.longest_game.value == expected
            assert result.complete
            assert result.invariant_statistics["steps_at_most_by_ranking"] == bound


def test_cells_taken_for_good_rank_a_game_whose_discs_flip():
    assert longest_by_search(FLIP_NEIGHBOURS) == 5
    invariants = invariants_of(FLIP_NEIGHBOURS)
    assert invariants.counters == []
    ranking = invariants.ranking
    assert ranking is not None
    assert ranking.steps == 2
    assert all(weight == 1 for weight, _ in ranking.terms)  # turned for good, not a potential
    assert "some (cell 1 _)" in ranking.description
    # three cells and x's disc on 2 turn for good: 2 * (4 + 1) - 1 steps at most
    assert ranking.longest == 9
    result = verify_game(FLIP_NEIGHBOURS, horizon=3, exhaustive=False)
    assert result.termination.status == "proved"
    assert 5 <= result.termination.value <= 9
    result = verify_game(FLIP_NEIGHBOURS, horizon=40, exhaustive=False)
    assert (result.longest_game.status, result.longest_game.value) == ("proved", 5)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # a pass (both play noop) changes whose turn it is only
        (FLIP_NEIGHBOURS, {f"(cell {c} {r})" for c in (1, 2, 3) for r in "xo"}),
        # a prepare marks no cell but makes `ready`, which a mark then clears
        (PREPARE_THEN_MARK, {"(blank 1)", "(blank 2)", "(blank 3)"}),
    ],
    ids=["flip neighbours", "prepare then mark"],
)
@pytest.mark.parametrize("sampled", [False, True], ids=["by the solver", "sampled first"])
def test_steps_that_turn_nothing_keep_what_they_are_proved_to_keep(text, kept, sampled):
    """The fluents a step turning none of the ranking's monotone fluents keeps (by hand),
    whether random lines of play rule out some first or the solver finds them all; and in
    every reachable state, no such step changes them (a second method: the reasoner)."""
    game = GdlGame.from_text(text, "ranked.kif")
    system = ground(game.rules, "ranked")
    invariants = find_invariants(system)
    monotone = [monotonic(system, literal) for _, literal in invariants.ranking.terms]
    fluent = {term_text(term): f for f, term in enumerate(system.fluents)}

    def fluents_of(state) -> np.ndarray:
        return np.isin(np.arange(len(fluent)), [fluent[fact] for fact in game.state_facts(state)])

    initial = fluents_of(game.initial_state())
    assert not any(candidate.values(initial) for candidate in monotone)  # false, then rise
    proved = [invariant.literal for invariant in invariants.state]
    if sampled:
        states = random_playouts(system, 16, max_steps=20, seed=3).states
    else:
        states = np.zeros((1, 1, len(system.fluents)), dtype=bool)  # no step to look at
    with CnfUnrolling(system, free_start=True) as unrolling:
        frozen = _Monotone(unrolling, proved, Budget(), states).kept_by_quiet_steps(monotone)
    assert {term_text(system.fluents[f]) for f in frozen} == kept
    for state in every_reachable_state(game):
        if game.is_terminal(state):
            continue
        before = fluents_of(state)
        for joint in game.joint_actions(state):
            after = fluents_of(game.next(state, joint))
            if not any(m.values(after) and not m.values(before) for m in monotone):
                assert (before[frozen] == after[frozen]).all()


def test_a_limit_whose_proof_runs_out_of_its_time_is_left_out(monkeypatch):
    whole = invariants_of(FLIP_NEIGHBOURS)
    assert len(whole.limits) >= 2
    tried = []
    keeps_limit = Induction.keeps_limit

    def first_runs_out(self, limit, state, budget):
        tried.append(limit)
        if len(tried) == 1:
            raise OutOfBudget
        return keeps_limit(self, limit, state, budget)

    monkeypatch.setattr(Induction, "keeps_limit", first_runs_out)
    found = invariants_of(FLIP_NEIGHBOURS)
    assert found.limits == [limit for limit in whole.limits if limit != tried[0]]
    assert found.ranking == whole.ranking  # the rest of the invariants go on


@pytest.mark.parametrize(
    ("text", "steps", "longest"),
    [(RACE, 1, 7), (FOLLOW_OR_PASS, 2, 8)],
    ids=["race", "follow or pass"],
)
def test_games_whose_weighted_sum_rises_are_ranked(text, steps, longest):
    assert longest_by_search(text) == longest
    invariants = invariants_of(text)
    assert invariants.counters == []
    ranking = invariants.ranking
    assert ranking is not None
    assert any(weight != 1 for weight, _ in ranking.terms)  # not a count of turned fluents
    assert ranking.steps == steps
    assert ranking.longest >= longest
    for backend in ("cnf", "cpsat"):
        result = verify_game(text, backend=backend, horizon=40, exhaustive=False)
        assert (result.longest_game.status, result.longest_game.value) == ("proved", longest)
        assert result.complete


def test_a_ranking_proves_termination_beyond_the_horizon():
    result = verify_game(RACE, horizon=3, exhaustive=False)
    assert result.longest_game.status == "unknown"
    assert result.termination.status == "proved"
    assert 7 <= result.termination.value <= result.invariant_statistics["steps_at_most_by_ranking"]
    assert not result.complete


def test_a_ranking_bound_beyond_the_horizon_leaves_the_longest_game_to_search():
    # PREPARE_THEN_MARK: no game has more than 7 steps by the ranking (none is non-terminal
    # at 8), and the longest game is 6 steps. With the horizon at 6, no state at depth 6 is
    # non-terminal, so the longest game is searched for below it and proved.
    result = verify_game(PREPARE_THEN_MARK, horizon=6, exhaustive=False)
    assert (result.longest_game.status, result.longest_game.value) == ("proved", 6)
    assert (result.termination.status, result.termination.value) == ("proved", 6)
    assert result.complete
    # At 5, one is (prepare, mark, prepare, mark, prepare): the game lasts 6 steps or more,
    # and the invariants' bound (between the longest game and the ranking's) is the most.
    result = verify_game(PREPARE_THEN_MARK, horizon=5, exhaustive=False)
    longest = result.longest_game
    assert longest.status == "unknown" and longest.at_least == 6
    assert 6 <= longest.at_most <= 8
    assert (result.termination.status, result.termination.value) == ("proved", longest.at_most)
    assert not result.complete


def test_a_clock_longer_than_the_horizon_is_a_ranking():
    # weights spanning 59 are needed; with the horizon at 10 only the ranking proves the end
    ranking = invariants_of(CLOCK).ranking
    assert (ranking.steps, ranking.longest) == (1, 59)
    result = verify_game(CLOCK, horizon=10, exhaustive=False)
    assert (result.termination.status, result.termination.value) == ("proved", 59)


def test_layers_without_the_ranking_constraint_give_the_same_answers(monkeypatch):
    # The layers' ranking constraints only help the solver: past their size limit (here at
    # once) the longest games are the same, found by search (values as above).
    monkeypatch.setattr("gamecheck.solvers.ground.unroll.RANKING_ENCODING", 0)
    for text, expected in ((RACE, 7), (FOLLOW_OR_PASS, 8), (MARK_ONE_OR_TWO, 4)):
        result = verify_game(text, horizon=40, exhaustive=False)
        assert (result.longest_game.status, result.longest_game.value) == ("proved", expected)
        assert result.complete


def test_a_potential_too_big_to_encode_is_not_tried(monkeypatch):
    # By hand: the clock's weights rise along its 60 numbers, so they are 60 distinct
    # integers, 59 of them nonzero at least, whose absolute values add up to 900 at least
    # (0, +-1..+-29 and 30): the sum's change has 2 x 59 terms and a total weight of 2 x 900
    # at least, 212,400 by the size measure. Just below it, no potential is proved.
    monkeypatch.setattr(potential, "MAX_ENCODING", 212_399)
    assert invariants_of(CLOCK).ranking is None


def test_a_ranking_found_first_stands_when_later_proofs_take_the_time(monkeypatch):
    # FLIP_NEIGHBOURS' cells taken for good rank it (9 steps at most, as above). The ranking
    # is sought before the limits; the time running out while they are proved keeps it.
    def take_the_rest(self, limits, state, budget):
        budget.exhaust("the time limit ran out")
        budget.check()

    monkeypatch.setattr(Induction, "kept_limits", take_the_rest)
    ranking = invariants_of(FLIP_NEIGHBOURS).ranking
    assert ranking is not None
    assert (ranking.steps, ranking.longest) == (2, 9)


@pytest.mark.parametrize("horizon", [40, 5])
def test_a_ranking_proves_termination_when_the_depth_searches_run_out(monkeypatch, horizon):
    # PREPARE_THEN_MARK: every two steps mark one of three cells, so no game has more than
    # 2 * (3 + 1) - 1 = 7 steps, and no non-terminal state is 8 steps deep (the depth that
    # termination reports). The searches that narrow the bound down to the longest game (6)
    # all run out of time here; the ranking's bound alone proves that every game ends.
    def runs_out(*args, **kwargs):
        raise OutOfBudget("the time limit ran out")

    monkeypatch.setattr(Verifier, "_counted_bound", runs_out)
    result = verify_game(PREPARE_THEN_MARK, horizon=horizon, exhaustive=False)
    assert result.longest_game.status == "unknown"
    assert (result.termination.status, result.termination.value) == ("proved", 8)
