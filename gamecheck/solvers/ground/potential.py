"""A potential: a weighted sum of fluents that every k steps of play raise, for games where
nothing runs out for good.

In breakthrough a cell, once left, may be taken again, so no fluent is monotone
(ranking.py); yet every step moves a pawn one row on, or takes one: weigh a white pawn by its
row and a black pawn by its distance from the first row, and every step raises the sum. The
sum is bounded (a fluent holds or not), so the game ends.

Weights are found by counterexample-guided search, as linear ranking functions are in
program termination: integer weights that raise the sum across every sampled step of the
random playouts (CP-SAT, the bound on the game's length as small as it finds), then SAT
queries from any state that satisfies the proved invariants: lines of k steps that do not
raise the sum, each with a change of the fluents unlike the others'. If there are some,
their changes join the samples and the weights are sought again; if there are none, the
potential is proved. The sum's change is written over the fluents that change (few do in
a step), not as the difference of two sums, which a SAT solver can only count its way
through.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from ortools.sat.python import cp_model

from gamecheck.budget import Budget
from gamecheck.solvers.ground.sampling import Playouts
from gamecheck.solvers.ground.transition import TransitionSystem
from gamecheck.solvers.ground.unroll import Unrolling
from gamecheck.solvers.sat import holds, negate

MOST_WEIGHT = 64
"""Weights lie in -MOST_WEIGHT..MOST_WEIGHT: a step clock of up to 2 x MOST_WEIGHT + 1
numbers in one register (chineseCheckers' 60 steps) is weighed by its number."""
ROUNDS = 16
"""Rounds of counterexamples sought from the solver before the search gives up."""
COUNTEREXAMPLES = 32
"""Counterexamples sought in one round (each a different change of the fluents)."""
FIRST_SAMPLES = 256
"""Sampled changes the first weights must raise; of those they do not, up to MORE_SAMPLES
are added, and so on."""
MORE_SAMPLES = 1024
MOST_CHANGES = 20_000
"""Distinct sampled changes kept (the first steps of the playouts first)."""
MAX_ENCODING = 1_000_000
"""Weights are not proved where their terms times their total weight, a rough size of the
encoding of the sum's change, exceed this: chineseCheckers4's step clock (0.4M) takes 2 s;
checkersTorus's weights up to 64 over 244 fluents (12M) took 55 s and 7 GB."""
WEIGHT_SEARCH_TIME = 1.0
"""Deterministic time (about seconds) CP-SAT may spend on one choice of weights."""
FOUND = (cp_model.OPTIMAL, cp_model.FEASIBLE)
"""The CP-SAT statuses with weights."""


@dataclass(frozen=True)
class Potential:
    """Every `steps` steps from a non-terminal state raise the sum of `weights` (fluent
    index -> weight) over the true fluents by one at least."""

    weights: dict[int, int]
    steps: int


def find_potential(
    system: TransitionSystem,
    unrolling: Unrolling,
    playouts: Playouts,
    proved: Sequence[int],
    steps: int,
    budget: Budget,
) -> Potential | None:
    """A potential over `steps` steps proved on `unrolling` (a free start) from states that
    satisfy the `proved` circuit literals, or None if the search finds none. OutOfBudget if
    the budget ends first."""
    changes = sampled_changes(playouts, steps)
    if not len(changes) or not changes.any(axis=1).all():
        return None  # a sampled line of play changed nothing: no sum can rise across it
    prover = ChangeProver(system, unrolling, proved, steps)
    initial = np.zeros(len(system.fluents), dtype=bool)
    initial[sorted(system.initial)] = True
    chosen = spread(len(changes), FIRST_SAMPLES)
    weights = np.zeros(len(system.fluents), dtype=np.int64)
    for _ in range(ROUNDS):
        weights = _weights_raising(changes[chosen], initial, weights, budget)
        while weights is not None:  # every sampled change must rise, not only those chosen
            missed = np.flatnonzero(changes @ weights < 1)
            if not len(missed):
                break
            chosen = np.union1d(chosen, spread(missed, MORE_SAMPLES))
            weights = _weights_raising(changes[chosen], initial, weights, budget)
        if weights is None or encoding_size(weights) > MAX_ENCODING:
            return None
        counterexamples = prover.changes_at_most(weights, 0, budget)  # not raised
        if not len(counterexamples):
            return Potential({int(f): int(weights[f]) for f in np.flatnonzero(weights)}, steps)
        chosen = np.append(chosen, len(changes) + np.arange(len(counterexamples)))
        changes = np.vstack([changes, counterexamples])
    return None


def sampled_changes(playouts: Playouts, steps: int) -> np.ndarray:
    """The distinct changes (after minus before, one row each; about MOST_CHANGES at most)
    over `steps` steps of the playouts that start in a state from which the playout went on
    that far."""
    states = playouts.states
    width = states.shape[2]
    distinct: dict[bytes, None] = {}
    for t in range(len(states) - steps):
        going_on = playouts.lengths >= t + steps
        rows = states[t + steps, going_on].astype(np.int8) - states[t, going_on]
        distinct.update(dict.fromkeys(row.tobytes() for row in np.unique(rows.view(f"V{width}"))))
        if len(distinct) >= MOST_CHANGES:
            break
    joined = b"".join(distinct)
    return np.frombuffer(joined, dtype=np.int8).reshape(len(distinct), width)


def encoding_size(weights: np.ndarray) -> int:
    """The terms of the sum's change (a rise and a fall per weighed fluent) times their
    total weight."""
    return 2 * np.count_nonzero(weights) * 2 * int(np.abs(weights).sum())


def spread(indexes, count: int) -> np.ndarray:
    """At most `count` of the indexes (an int or an array), spread evenly."""
    indexes = np.arange(indexes) if isinstance(indexes, int) else np.asarray(indexes)
    if len(indexes) <= count:
        return indexes
    return indexes[np.linspace(0, len(indexes) - 1, count).astype(int)]


class WeightModel:
    """A CP-SAT model of integer weights in -MOST_WEIGHT..MOST_WEIGHT for the `moving`
    fluents, each a rising minus a falling variable; solved deterministically (one worker,
    WEIGHT_SEARCH_TIME)."""

    def __init__(self, moving: np.ndarray):
        self.model = cp_model.CpModel()
        self.moving = moving
        self.rising = [self.model.new_int_var(0, MOST_WEIGHT, "") for _ in moving]
        self.falling = [self.model.new_int_var(0, MOST_WEIGHT, "") for _ in moving]
        self.solver = cp_model.CpSolver()
        self.solver.parameters.num_workers = 1  # deterministic: the same weights every run
        self.solver.parameters.max_deterministic_time = WEIGHT_SEARCH_TIME
        self.solver.parameters.catch_sigint_signal = False

    def weighed_sum(self, row: np.ndarray):
        """The weighted sum of a row of values, one per fluent (all fluents)."""
        where = np.flatnonzero(row[self.moving])
        signs = [int(row[self.moving[i]]) for i in where]
        terms = [self.rising[i] for i in where] + [self.falling[i] for i in where]
        return cp_model.LinearExpr.weighted_sum(terms, signs + [-s for s in signs])

    def solve(self, budget: Budget):
        """The solver's status (weights found if in FOUND), the search stopped at the end
        of the budget."""
        with budget.stopping(self.solver.stop_search):
            return self.solver.solve(self.model)

    def weights(self, width: int) -> np.ndarray:
        """The weights found, one per fluent of `width` (0 where not moving)."""
        weights = np.zeros(width, dtype=np.int64)
        for i, f in enumerate(self.moving):
            weights[f] = self.solver.value(self.rising[i]) - self.solver.value(self.falling[i])
        return weights


def _weights_raising(changes: np.ndarray, initial: np.ndarray, hint: np.ndarray, budget: Budget):
    """Integer weights (an array, one per fluent) under which every change raises the sum
    by one at least, the span between the initial state's sum and the largest the least
    (the search starts from the weights `hint`); None if there are none within MOST_WEIGHT
    or none is found in WEIGHT_SEARCH_TIME."""
    budget.check()
    found = WeightModel(np.flatnonzero(changes.any(axis=0)))
    model, rising, falling = found.model, found.rising, found.falling
    for change in changes:
        model.add(found.weighed_sum(change) >= 1)
    for i, f in enumerate(found.moving):
        model.add_hint(rising[i], max(int(hint[f]), 0))
        model.add_hint(falling[i], max(-int(hint[f]), 0))
    # the largest sum is at most the rising weights'; the initial sum is known
    model.minimize(sum(falling[i] if initial[f] else rising[i] for i, f in enumerate(found.moving)))
    status = found.solve(budget)
    if status == cp_model.UNKNOWN:  # no weights yet: any will do
        model.clear_objective()
        status = found.solve(budget)
    if status not in FOUND:
        budget.check()
        return None  # infeasible, or no weights found in the time given
    return found.weights(changes.shape[1])


def line_under_invariants(unrolling: Unrolling, proved: Sequence[int], layers: int) -> list:
    """Literals that make the free start's line of play reach `layers` through states that
    satisfy the `proved` circuit literals."""
    known = [unrolling.alive(layers)]
    return known + [unrolling.literal(lit, t) for lit in proved for t in range(layers + 1)]


class ChangeProver:
    """Lines of `steps` steps from an arbitrary state that satisfies the proved invariants,
    and the change of the fluents along them."""

    def __init__(self, system, unrolling: Unrolling, proved: Sequence[int], steps: int):
        self.unrolling = unrolling
        self.known = line_under_invariants(unrolling, proved, steps)
        self.rises, self.falls = [], []  # per fluent: it turns on, or off, over the steps
        for node in system.fluent_nodes:
            self.rises.append(unrolling.turned(node, steps, rising=True))
            self.falls.append(unrolling.turned(node, steps, rising=False))

    def changes_at_most(self, weights: np.ndarray, most: int, budget: Budget) -> np.ndarray:
        """Changes of the fluents (one row each, at most COUNTEREXAMPLES) along lines that
        change the weighted sum by `most` at most: none (no rows) proves that every line
        changes it by more. The sum's change is written over the fluents that change."""
        unrolling, rises, falls = self.unrolling, self.rises, self.falls
        terms = [(int(weights[f]), rises[f]) for f in np.flatnonzero(weights)]
        terms += [(-int(weights[f]), falls[f]) for f in np.flatnonzero(weights)]
        query = unrolling.new_variable()
        unrolling.add_linear(terms, -2 * sum(abs(w) for w, _ in terms), most, condition=query)
        found = []
        try:
            while len(found) < COUNTEREXAMPLES:
                model = unrolling.satisfiable([*self.known, query], budget)
                if model is False:
                    break
                pairs = zip(rises, falls, strict=True)
                change = np.array([holds(r, model) - holds(f, model) for r, f in pairs], np.int8)
                found.append(change)
                moved = [rises[f] if change[f] > 0 else falls[f] for f in np.flatnonzero(change)]
                unrolling.add_clause([-query, *(negate(lit) for lit in moved)])  # a new one
        finally:
            unrolling.add_clause([-query])
        return np.array(found, dtype=np.int8).reshape(len(found), len(rises))
