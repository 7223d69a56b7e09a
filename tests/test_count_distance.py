"""Lower bounds on the steps to a state from counts of fluents
(solvers/ground/count_distance.py), worked out by hand and checked against a breadth-first
search on the GDL reasoner."""

from __future__ import annotations

import pytest

from gamecheck.budget import Budget
from gamecheck.solvers.ground.count_distance import CountDistance
from tests.test_distance import FILL_SIX, SHEETS, first_depth, prover_parts


@pytest.fixture(scope="module")
def tictactoe():
    game, system, _, states = prover_parts((SHEETS / "tictactoe.kif").read_text())
    return game, system, CountDistance(states)


def test_a_line_takes_three_marks_of_one_kind_made_one_in_two_steps(tictactoe):
    # The game ends on a line (three marks of x, or of o) or a full board (nine marks).
    # Marks of one kind rise by one at most in any two steps: three take five steps, and
    # the least over the ends holds.
    game, system, counts = tictactoe
    assert first_depth(game, game.is_terminal) == 5
    assert counts.steps_needed(system.terminal, 0, Budget(60)) == 5
    assert counts.steps_needed(system.terminal, 5, Budget(60)) is None  # no more is claimed


@pytest.mark.parametrize(("role", "steps"), [(0, 5), (1, 6)], ids=["xplayer", "oplayer"])
def test_a_win_is_bounded_by_the_marks_it_takes(tictactoe, role, steps):
    # xplayer's three marks take five steps by the count of x marks. oplayer's line needs
    # three o marks and so as many x marks (x moves first): six marks, and every step
    # makes one (a counter the invariants prove), so six steps.
    game, system, counts = tictactoe
    won = system.circuit.conj([system.terminal, system.goals[role][100]])
    reached = lambda state: game.is_terminal(state) and game.goals(state)[role] == 100  # noqa: E731
    assert first_depth(game, reached) == steps
    assert counts.steps_needed(won, 0, Budget(60)) == steps


def test_a_board_filled_two_cells_a_step_takes_three_steps():
    # Six blank cells, and a step fills two at most.
    game, system, _, states = prover_parts(FILL_SIX)
    assert first_depth(game, game.is_terminal) == 3
    assert CountDistance(states).steps_needed(system.terminal, 0, Budget(60)) == 3


# One role fills six blank cells one a step, and a step clock ends the game at step 4; a
# full board would end it too, at step 6 at the earliest.
CLOCK_OR_FULL = f"""
(role a)
(init (step 0))
{" ".join(f"(init (blank {n}))" for n in range(1, 7))}
{" ".join(f"(succ {n} {n + 1})" for n in range(4))}
(<= (legal a (fill ?n)) (true (blank ?n)))
(<= (next (blank ?n)) (true (blank ?n)) (not (does a (fill ?n))))
(<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))
(<= open (true (blank ?n)))
(<= terminal (true (step 4)))
(<= terminal (not open))
(goal a 100)
"""


def test_a_step_clock_tells_the_depth_and_the_least_end_holds():
    # (step 4) is four steps in by the clock (a counter the invariants prove); the full
    # board takes six; the bound is the lesser
    game, system, _, states = prover_parts(CLOCK_OR_FULL)
    assert first_depth(game, game.is_terminal) == 4
    assert CountDistance(states).steps_needed(system.terminal, 0, Budget(60)) == 4


def test_a_query_cut_by_its_time_proves_nothing(monkeypatch):
    # every count query runs out of time (the first, which only finds a state, does not):
    # no need and no counter is proved, so no bound is claimed
    _, system, _, states = prover_parts((SHEETS / "tictactoe.kif").read_text())
    counts = CountDistance(states)
    solve = counts._solve
    cut = lambda terms, *rest: None if terms else solve(terms, *rest)  # noqa: E731
    monkeypatch.setattr(counts, "_solve", cut)
    assert counts.steps_needed(system.terminal, 0, Budget(60)) is None


# Swap2's shape: x's first step picks (no mark), then o and x take turns, o first, to mark
# one of seven cells or pass; three marks of one role end the game, as do a full board and
# a step clock at step 10.
PICK_THEN_MARK = f"""
(role x)
(role o)
(init (phase pick))
(init (step 0))
{" ".join(f"(spot {n})" for n in range(1, 8))}
{" ".join(f"(succ {n} {n + 1})" for n in range(10))}
(<= (legal x pick) (true (phase pick)))
(<= (legal o noop) (true (phase pick)))
(<= (legal ?r (mark ?n)) (true (control ?r)) (spot ?n) (not (marked ?n)))
(<= (legal ?r pass) (true (control ?r)))
(<= (legal ?r noop) (role ?r) (true (control ?s)) (distinct ?r ?s))
(<= (next (control o)) (true (phase pick)))
(<= (next (control x)) (true (control o)))
(<= (next (control o)) (true (control x)))
(<= (next (has ?r ?n)) (does ?r (mark ?n)))
(<= (next (has ?r ?n)) (true (has ?r ?n)))
(<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))
(<= (marked ?n) (true (has ?r ?n)))
(<= open (spot ?n) (not (marked ?n)))
(<= (three ?r) (true (has ?r ?a)) (true (has ?r ?b)) (true (has ?r ?c))
    (distinct ?a ?b) (distinct ?a ?c) (distinct ?b ?c))
(<= terminal (three ?r))
(<= terminal (not open))
(<= terminal (true (step 10)))
(<= (goal ?r 100) (three ?r))
(<= (goal ?r 0) (role ?r) (not (three ?r)))
"""


@pytest.mark.parametrize(("role", "steps"), [(0, 7), (1, 6)], ids=["x", "o"])
def test_an_opening_step_that_marks_nothing_delays_every_later_mark(role, steps):
    # Marks of one role rise by one at most in any two steps: three in five steps, were
    # the first step a mark. It is not: in the first p steps x marks at most 0, 0, 1, 1,
    # 2, 2 times (steps 3, 5, 7) and o at most 0, 1, 1, 2, 2, 3 (steps 2, 4, 6), so x's
    # third mark comes at step 7 (o passing) and o's at step 6.
    game, system, _, states = prover_parts(PICK_THEN_MARK)
    won = system.circuit.conj([system.terminal, system.goals[role][100]])
    reached = lambda state: game.is_terminal(state) and game.goals(state)[role] == 100  # noqa: E731
    assert first_depth(game, reached) == steps
    assert CountDistance(states).steps_needed(won, 0, Budget(60)) == steps


def test_the_first_steps_bound_the_shortest_game_too():
    # o's three marks end it first (step 6); x's take 7, a full board of seven cells 8,
    # the clock 10
    game, system, _, states = prover_parts(PICK_THEN_MARK)
    assert first_depth(game, game.is_terminal) == 6
    assert CountDistance(states).steps_needed(system.terminal, 0, Budget(60)) == 6
