"""A lower bound on the steps to a condition: a weighted sum of fluents that no step lowers
by more than FALL, and that every state satisfying the condition has far below the initial
state's. If every such state lies `gap` below, none is reachable in fewer than
gap / FALL steps.

In blockerSerial the blocker wins only once both boards of 16 cells are full, and a step
fills two cells at most: weigh each blank cell by FALL / 2, and no win of the blocker is
reachable in fewer than 16 steps. Where a bound like this meets a line of play found, that
line is the shortest without the SAT queries below it, which must count their way through.

Weights are found as the potential's are (potential.py): integer weights that no sampled
step of the random playouts lowers by more than FALL and that set every known state of the
condition as far below the initial state as they can (CP-SAT), then SAT queries from any
state that satisfies the proved invariants: a step that lowers the sum more, or a state of
the condition above the known ones. What they find joins the samples until none is left.
"""

from __future__ import annotations

import numpy as np
from ortools.sat.python import cp_model

from gamecheck.budget import Budget
from gamecheck.solvers.ground.potential import (
    COUNTEREXAMPLES,
    FIRST_SAMPLES,
    MAX_ENCODING,
    MORE_SAMPLES,
    MOST_WEIGHT,
    WEIGHT_SEARCH_TIME,
    encoding_size,
    sampled_changes,
    spread,
)
from gamecheck.solvers.ground.sampling import Playouts
from gamecheck.solvers.ground.unroll import Unrolling
from gamecheck.solvers.sat import holds, negate

ROUNDS = 4
"""Rounds of counterexamples before the search gives up: the bounds found are simple counts
(marks, blank cells), settled in a few rounds; pentago's end (five in a row of either
colour, or a full board) had not settled after 20 rounds of 256 counterexamples (60 s)."""
FALL = 12
"""The most a step may lower the sum: a multiple of 1, 2, 3 and 4, so that a sum lowered by
one of that many equal parts a step has integer weights."""


def steps_needed(
    states: Unrolling,
    playouts: Playouts,
    condition: int,
    above: int,
    budget: Budget,
    *,
    most: int | None = None,
) -> int | None:
    """A lower bound on the steps from the initial state to a state satisfying `condition`
    (a circuit literal), proved on `states` (a free start under the proved invariants) if
    more than `above`; None if no weights prove more. No bound above `most` (a line of play
    found) is sought. OutOfBudget if the budget ends first."""
    system = states.system
    initial = np.zeros(len(system.fluents), dtype=np.int8)
    initial[sorted(system.initial)] = 1
    changes = sampled_changes(playouts, 1)
    targets = playouts.final_states(system, condition, budget).astype(np.int8)
    targets = targets[spread(len(targets), FIRST_SAMPLES)]
    chosen = spread(len(changes), FIRST_SAMPLES)
    prover = _Prover(states, condition)
    cap = FALL * (most if most is not None else len(playouts.states))
    weights, highest = np.zeros(len(initial), dtype=np.int64), -1  # first: any target at all
    for _ in range(ROUNDS):
        steep = prover.steep_steps(weights, budget)
        high = prover.high_targets(weights, highest, budget)
        if not len(steep) and not len(high):
            bound = -(-(int(initial @ weights) - highest) // FALL)
            return bound if bound > above else None
        chosen = np.append(chosen, len(changes) + np.arange(len(steep)))
        changes, targets = np.vstack([changes, steep]), np.vstack([targets, high])
        found = _weights(changes[chosen], targets, initial, cap, budget)
        while found is not None:  # no sampled change may fall further, not only those chosen
            missed = np.flatnonzero(changes @ found[0] < -FALL)
            if not len(missed):
                break
            chosen = np.union1d(chosen, spread(missed, MORE_SAMPLES))
            found = _weights(changes[chosen], targets, initial, cap, budget)
        if found is None:
            return None
        weights, highest = found
        gap = int(initial @ weights) - highest
        if gap <= FALL * above or encoding_size(weights) > MAX_ENCODING:
            return None  # the samples allow no more: counterexamples only lower the bound
    return None


def _weights(changes, targets, initial: np.ndarray, cap: int, budget: Budget):
    """(weights, highest): integer weights under which no change lowers the sum by more
    than FALL, and the largest sum of a target, as far below the initial state's as they
    can be up to `cap` (the total weight the least among those); None if CP-SAT finds none
    in time."""
    budget.check()
    model = cp_model.CpModel()
    moving = np.flatnonzero(changes.any(axis=0) | (targets != initial).any(axis=0))
    rising = [model.new_int_var(0, MOST_WEIGHT, "") for _ in moving]
    falling = [model.new_int_var(0, MOST_WEIGHT, "") for _ in moving]

    def weighed_sum(row: np.ndarray):
        where = np.flatnonzero(row[moving])
        signs = [int(row[moving[i]]) for i in where]
        terms = [rising[i] for i in where] + [falling[i] for i in where]
        return cp_model.LinearExpr.weighted_sum(terms, signs + [-s for s in signs])

    for change in changes:
        model.add(weighed_sum(change) >= -FALL)
    span = 2 * MOST_WEIGHT * len(moving)
    highest = model.new_int_var(-span, span, "")
    for target in targets:
        model.add(weighed_sum(target) <= highest)
    gap = model.new_int_var(-2 * span, cap, "")
    model.add(gap <= weighed_sum(initial) - highest)
    total = sum(rising) + sum(falling)
    model.maximize((2 * span + 1) * gap - total)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # deterministic: the same weights every run
    solver.parameters.max_deterministic_time = WEIGHT_SEARCH_TIME
    solver.parameters.catch_sigint_signal = False
    with budget.stopping(solver.stop_search):
        status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        budget.check()
        return None
    weights = np.zeros(len(initial), dtype=np.int64)
    for i, f in enumerate(moving):
        weights[f] = solver.value(rising[i]) - solver.value(falling[i])
    return weights, int(solver.value(highest))


class _Prover:
    """Single steps, and single states of the condition, from any state that satisfies the
    proved invariants of a free-start unrolling."""

    def __init__(self, states: Unrolling, condition: int):
        self.states = states
        self.step = [states.alive(1)]
        self.target = [states.alive(0), states.literal(condition, 0)]
        nodes = states.system.fluent_nodes
        self.holding = [states.literal(node, 0) for node in nodes]
        self.rises = [states.turned(node, 1, rising=True) for node in nodes]
        self.falls = [states.turned(node, 1, rising=False) for node in nodes]

    def steep_steps(self, weights: np.ndarray, budget: Budget) -> np.ndarray:
        """Changes of the fluents (one row each) by steps that lower the sum by more than
        FALL: none (no rows) proves that no step does."""
        weighed = np.flatnonzero(weights)
        terms = [(int(weights[f]), self.rises[f]) for f in weighed]
        terms += [(-int(weights[f]), self.falls[f]) for f in weighed]
        lowest = -sum(abs(w) for w, _ in terms)
        found = self._models(terms, lowest, -FALL - 1, self.step, budget)
        pairs = list(zip(self.rises, self.falls, strict=True))
        rows = [[holds(r, model) - holds(f, model) for r, f in pairs] for model in found]
        return np.array(rows, dtype=np.int8).reshape(len(found), len(pairs))

    def high_targets(self, weights: np.ndarray, most: int, budget: Budget) -> np.ndarray:
        """States (one row each) that satisfy the condition with a sum above `most`: none
        proves that no state does."""
        terms = [(int(weights[f]), self.holding[f]) for f in np.flatnonzero(weights)]
        highest = sum(abs(w) for w, _ in terms)
        found = self._models(terms, most + 1, max(highest, most + 1), self.target, budget)
        rows = [[holds(literal, m) for literal in self.holding] for m in found]
        return np.array(rows, dtype=np.int8).reshape(len(found), len(self.holding))

    def _models(self, terms, low: int, high: int, known: list, budget: Budget) -> list:
        """Up to COUNTEREXAMPLES models of `known` with low <= the weighed sum of the
        `terms` <= high, each with other values of the weighed literals."""
        states = self.states
        query = states.new_variable()
        states.add_linear(terms, low, high, condition=query)
        found = []
        try:
            while len(found) < COUNTEREXAMPLES:
                model = states.satisfiable([*known, query], budget)
                if model is False:
                    break
                found.append(model)
                if not terms:
                    break  # nothing weighed: any one will do
                seen = [lit if holds(lit, model) else negate(lit) for _, lit in terms]
                states.add_clause([-query, *(negate(lit) for lit in seen)])  # a new one
        finally:
            states.add_clause([-query])
        return found
