"""Lower bounds on the steps to a state (solvers/ground/distance.py), worked out by hand
and checked against a breadth-first search on the GDL reasoner."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamecheck.analysis.verify.pipeline import verify_game
from gamecheck.budget import Budget
from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.ground.distance import steps_needed
from gamecheck.solvers.ground.grounder import ground
from gamecheck.solvers.ground.invariants import PLAYOUTS, find_invariants
from gamecheck.solvers.ground.sampling import random_playouts
from gamecheck.solvers.ground.unroll import make_unrolling
from tests.game_checks import reachable_layers

SHEETS = Path(__file__).parent / "data" / "gdl"

# Two roles fill a row of six cells, each marking one blank cell a step (both the same
# cell: it stays blank). The game ends when no cell is blank; it cannot end before the
# third step, since a step fills two cells at most.
FILL_SIX = f"""
(role a) (role b)
{" ".join(f"(cell {n})" for n in range(1, 7))}
{" ".join(f"(init (blank {n}))" for n in range(1, 7))}
(<= (legal ?r (fill ?n)) (role ?r) (true (blank ?n)))
(<= (next (blank ?n)) (true (blank ?n)) (not (filled ?n)))
(<= (next (blank ?n)) (does a (fill ?n)) (does b (fill ?n)))
(<= (filled ?n) (does ?r (fill ?n)))
(<= open (true (blank ?n)))
(<= terminal (not open))
(goal a 100) (goal b 100)
"""


def prover_parts(text: str):
    game = GdlGame.from_text(text, "distance.kif")
    system = ground(game.rules, "distance")
    playouts = random_playouts(system, PLAYOUTS, max_steps=40)
    states = make_unrolling(system, "cnf", free_start=True)
    states.use_invariants(find_invariants(system, playouts=playouts))
    return game, system, playouts, states


def first_depth(game, reached) -> int:
    """The fewest steps to a state where `reached(state)` holds, breadth first."""
    for depth, layer in enumerate(reachable_layers(game)):
        if any(reached(state) for state in layer):
            return depth
    raise AssertionError("never reached")


@pytest.fixture(scope="module")
def tictactoe():
    return prover_parts((SHEETS / "tictactoe.kif").read_text())


@pytest.mark.parametrize(("role", "steps"), [(0, 5), (1, 6)], ids=["xplayer", "oplayer"])
def test_a_win_needs_three_marks_made_every_other_step(tictactoe, role, steps):
    # xplayer marks at steps 1, 3, 5 and oplayer at 2, 4, 6: three in a row take that long
    game, system, playouts, states = tictactoe
    won = system.circuit.conj([system.terminal, system.goals[role][100]])
    assert first_depth(game, lambda s: game.is_terminal(s) and game.goals(s)[role] == 100) == steps
    assert steps_needed(states, playouts, won, 0, Budget(60)) == steps
    # no more than a line of play allows is ever claimed
    assert steps_needed(states, playouts, won, steps, Budget(60)) is None


def test_a_board_filled_two_cells_a_step_takes_three_steps():
    game, system, playouts, states = prover_parts(FILL_SIX)
    assert first_depth(game, game.is_terminal) == 3
    assert steps_needed(states, playouts, system.terminal, 0, Budget(60)) == 3


def test_verify_finds_the_earliest_win_at_the_bound():
    result = verify_game(FILL_SIX, horizon=20, exhaustive=False)
    win = result.earliest_win["a"]  # every end is a win of both roles
    assert (win.status, win.value) == ("found", 3)
