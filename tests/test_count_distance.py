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
    # Either role's three marks take five steps by the count; oplayer, who moves second,
    # wins at step 6 at the earliest, which the count does not see (a weighted sum with
    # the turn does: test_distance.py).
    game, system, counts = tictactoe
    won = system.circuit.conj([system.terminal, system.goals[role][100]])
    reached = lambda state: game.is_terminal(state) and game.goals(state)[role] == 100  # noqa: E731
    assert first_depth(game, reached) == steps
    assert counts.steps_needed(won, 0, Budget(60)) == 5


def test_a_board_filled_two_cells_a_step_takes_three_steps():
    # Six blank cells, and a step fills two at most.
    game, system, _, states = prover_parts(FILL_SIX)
    assert first_depth(game, game.is_terminal) == 3
    assert CountDistance(states).steps_needed(system.terminal, 0, Budget(60)) == 3
