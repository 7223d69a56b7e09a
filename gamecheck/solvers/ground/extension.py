"""Lines of play to deep states: a random playout's first steps, then a few steps a solver
finds from the state the playout reached.

A line of 80 steps to a non-terminal state of nine-board tic-tac-toe (the board one move
from full, no line of three anywhere) is a hard query from the initial state: the solver
must invent the whole game. The lasting playouts (sampling.py) end a few steps short of it,
but from the state one of them was in after 64 steps, the 16 steps on to depth 80 are found
in half a second. So: from the states the longest playouts passed `k` steps before the
depth asked for, for k = 4, 8, 16, 32, a query over k steps of a free-start unrolling whose
first layer is that state. A line found is real (its first steps were played, the rest
follow the rules from a state they reached); none found proves nothing.
"""

from __future__ import annotations

import numpy as np

from gamecheck.budget import Budget, OutOfBudget
from gamecheck.solvers.ground.sampling import Playouts
from gamecheck.solvers.ground.unroll import Line, Unrolling

STEPS = (4, 8, 16, 32)
"""The steps a solver is asked to add to a playout's first steps, fewest first."""
STARTS = 4
"""The most playout states a search starts from at each number of steps."""
QUERY_SECONDS = 1.0
"""The most seconds one query may take."""


def extended_line(
    playouts: Playouts, states: Unrolling, condition: int, depth: int, budget: Budget
) -> Line | None:
    """A line of play to a state `depth` steps deep that satisfies `condition` (a circuit
    literal), as a playout's first steps and a solver's last ones, found on `states` (a
    free-start unrolling); None if none is found within the budget."""
    for steps in STEPS:
        cut = depth - steps
        if cut < 1:
            break
        for player in _starts(playouts, cut):
            try:
                part = budget.part(QUERY_SECONDS)
                end = states.line_from(playouts.states[cut, player], condition, steps, part)
            except OutOfBudget:
                if budget.expired:
                    return None
                continue
            if end is not None:
                return Line(playouts.line(player, cut).steps + end.steps)
    return None


def _starts(playouts: Playouts, cut: int) -> list[int]:
    """Up to STARTS playouts that went on past step `cut`, the longest first, each in a
    different state there."""
    going_on = np.flatnonzero(playouts.lengths > cut)
    longest_first = going_on[np.argsort(-playouts.lengths[going_on], kind="stable")]
    chosen: dict[bytes, int] = {}
    for player in longest_first.tolist():
        chosen.setdefault(playouts.states[cut, player].tobytes(), player)
        if len(chosen) == STARTS:
            break
    return list(chosen.values())
