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

from gamecheck.budget import Budget
from gamecheck.solvers.ground.potential import (
    COUNTEREXAMPLES,
    FIRST_SAMPLES,
    FOUND,
    MAX_ENCODING,
    MORE_SAMPLES,
    MOST_WEIGHT,
    ChangeProver,
    WeightModel,
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
    step_prover = ChangeProver(system, states, (), 1)
    target_prover = _TargetProver(states, condition)
    cap = FALL * (most if most is not None else len(playouts.states))
    weights, highest = np.zeros(len(initial), dtype=np.int64), -1  # first: any target at all
    for _ in range(ROUNDS):
        steep = step_prover.changes_at_most(weights, -FALL - 1, budget)
        high = target_prover.high_targets(weights, highest, budget)
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
    found = WeightModel(np.flatnonzero(changes.any(axis=0) | (targets != initial).any(axis=0)))
    model, weighed_sum = found.model, found.weighed_sum
    for change in changes:
        model.add(weighed_sum(change) >= -FALL)
    span = 2 * MOST_WEIGHT * len(found.moving)
    highest = model.new_int_var(-span, span, "")
    for target in targets:
        model.add(weighed_sum(target) <= highest)
    gap = model.new_int_var(-2 * span, cap, "")
    model.add(gap <= weighed_sum(initial) - highest)
    total = sum(found.rising) + sum(found.falling)
    model.maximize((2 * span + 1) * gap - total)
    if found.solve(budget) not in FOUND:
        budget.check()
        return None
    return found.weights(len(initial)), int(found.solver.value(highest))


class _TargetProver:
    """States of the condition, from any state that satisfies the proved invariants of a
    free-start unrolling."""

    def __init__(self, states: Unrolling, condition: int):
        self.states = states
        self.target = [states.alive(0), states.literal(condition, 0)]
        self.holding = [states.literal(node, 0) for node in states.system.fluent_nodes]

    def high_targets(self, weights: np.ndarray, most: int, budget: Budget) -> np.ndarray:
        """States (one row each, at most COUNTEREXAMPLES) that satisfy the condition with a
        sum above `most`, each with other values of the weighed fluents: none proves that no
        state does."""
        states = self.states
        terms = [(int(weights[f]), self.holding[f]) for f in np.flatnonzero(weights)]
        highest = sum(abs(w) for w, _ in terms)
        query = states.new_variable()
        states.add_linear(terms, most + 1, max(highest, most + 1), condition=query)
        found = []
        try:
            while len(found) < COUNTEREXAMPLES:
                model = states.satisfiable([*self.target, query], budget)
                if model is False:
                    break
                found.append([holds(literal, model) for literal in self.holding])
                if not terms:
                    break  # nothing weighed: any one will do
                seen = [lit if holds(lit, model) else negate(lit) for _, lit in terms]
                states.add_clause([-query, *(negate(lit) for lit in seen)])  # a new one
        finally:
            states.add_clause([-query])
        return np.array(found, dtype=np.int8).reshape(len(found), len(self.holding))
