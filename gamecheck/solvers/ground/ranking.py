"""A ranking: a proof that every game ends within a bound, for games without a step counter.

Many games end because something runs out: cells to mark, squares to burn, pieces to take.
Such a game has *monotone* fluents, which a step may turn only one way: a mark, once made,
stays (it only rises), and a blank cell, once marked, never becomes blank again (it only
falls). If every k steps from non-terminal states turn at least one fluent of such a set
(each still unturned in the initial state), they run out: with R of them, no line of play
is longer than k(R + 1) - 1 steps, and a state t steps into the game has turned t // k of
them. That count, like a step counter, bounds the depth of a state the invariants allow.

Candidates come from random playouts: a fluent false in the initial state that no playout
turns off may only rise, and one true initially that none turns on may only fall.
Monotonicity is proved by induction from any state that satisfies the proved invariants:
ask for a step that turns a candidate the wrong way, drop every candidate the model breaks,
and ask again until UNSAT (as Houdini does for state invariants). Progress is one more
UNSAT query over k steps of unchanged fluents. Where no fluent is monotone, a weighted sum
of fluents may still rise every k steps (potential.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from gamecheck.budget import Budget, OutOfBudget
from gamecheck.gdl.terms import term_text
from gamecheck.solvers.ground.potential import Potential, find_potential, line_under_invariants
from gamecheck.solvers.ground.sampling import Playouts
from gamecheck.solvers.ground.transition import TransitionSystem
from gamecheck.solvers.ground.unroll import Unrolling
from gamecheck.solvers.sat import Lit, holds, negate

if TYPE_CHECKING:  # invariants.py, which finds the invariants, imports this module
    from gamecheck.solvers.ground.invariants import StateInvariant

PROGRESS_STEPS = (1, 2, 3)
"""The spans k tried: every k steps turn a monotone fluent (the smallest k first)."""
POTENTIAL_STEPS = 2
"""A potential is sought over the first this many spans (after the monotone fluents)."""
POTENTIAL_SHARE = 0.5
"""The share of the time left that the search for a potential over one span may take."""


@dataclass(frozen=True)
class Ranking:
    """Every `steps` steps of play raise a measure of the state by one at least: the sum of
    the weights of the true `terms` (weight, circuit literal), `start` in the initial state.
    Monotone fluents give each fluent that turned weight 1 (start 0); a potential
    (potential.py) weighs fluents as they are."""

    terms: tuple[tuple[int, int], ...]
    start: int
    most: int
    """The largest the measure can be in a state the invariants allow."""
    steps: int
    description: str

    def least(self, depth: int) -> int:
        """The measure, at least, in a state `depth` steps into the game."""
        return self.start + depth // self.steps

    @property
    def longest(self) -> int:
        """No line of play has more steps: one more block of `steps` would raise the
        measure past its largest."""
        return self.steps * (self.most - self.start + 1) - 1


def find_ranking(
    system: TransitionSystem,
    unrolling: Unrolling,
    playouts: Playouts,
    state: Sequence[StateInvariant],
    budget: Budget,
) -> Ranking | None:
    """A ranking of the system (monotone fluents, else a potential), or None if none of the
    tried kinds is proved. `unrolling` has a free start; `state` are the proved state
    invariants. OutOfBudget if the budget ends first."""
    proved = [invariant.literal for invariant in state]
    exclusive = [invariant.exclusive for invariant in state if invariant.exclusive]
    rising, falling = _candidates(system, playouts)
    prover = _Monotone(system, unrolling, proved, budget)
    rising = prover.monotone(rising, rising=True)
    falling = prover.monotone(falling, rising=False)
    options = sorted({(len(d) + len(u), tuple(d), tuple(u)) for d, u in _choices(falling, rising)})
    for steps in PROGRESS_STEPS:
        for _, down, up in options:
            if prover.progress(down, up, steps):
                nodes = system.fluent_nodes
                turned = tuple(-nodes[f] for f in down) + tuple(nodes[f] for f in up)
                terms = tuple((1, literal) for literal in turned)
                most = _largest(system, terms, exclusive)
                return Ranking(terms, 0, most, steps, _description(system, down + up, steps))
    for steps in PROGRESS_STEPS[:POTENTIAL_STEPS]:
        try:
            part = budget.part(share=POTENTIAL_SHARE)
            found = find_potential(system, unrolling, playouts, proved, steps, part)
        except OutOfBudget:
            budget.check()  # only the search's share ran out
            continue
        if found is not None:
            return _weighed(system, found, exclusive)
    return None


def _largest(system: TransitionSystem, terms, exclusive: Sequence[tuple[int, ...]]) -> int:
    """The largest sum of the weights of the true `terms` where, of each `exclusive` set of
    fluents, at most one holds: the heaviest of a set counts, and any other positive
    weight (the sets are taken as far as they do not overlap, so none counts twice)."""
    weights = {literal: weight for weight, literal in terms if weight > 0}
    largest = sum(weights.values())
    used: set[int] = set()
    for fluents in exclusive:
        nodes = {system.fluent_nodes[f] for f in fluents}
        if nodes & used:
            continue
        used |= nodes
        heavy = [weights[node] for node in nodes if node in weights]
        largest -= sum(heavy) - max(heavy, default=0)
    return largest


def _weighed(system: TransitionSystem, potential: Potential, exclusive) -> Ranking:
    nodes = system.fluent_nodes
    terms = tuple((weight, nodes[f]) for f, weight in potential.weights.items())
    start = sum(potential.weights.get(f, 0) for f in system.initial)
    heaviest = sorted(potential.weights, key=lambda f: -abs(potential.weights[f]))
    names = [f"{potential.weights[f]} x {term_text(system.fluents[f])}" for f in heaviest[:3]]
    more = f" and {len(heaviest) - 3} more" if len(heaviest) > 3 else ""
    every = "every step" if potential.steps == 1 else f"every {potential.steps} steps"
    description = f"{every} raises the sum of {', '.join(names)}{more}"
    most = _largest(system, terms, exclusive)
    return Ranking(terms, start, most, potential.steps, description)


def _choices(falling: list[int], rising: list[int]) -> list[tuple[list[int], list[int]]]:
    """The sets of monotone fluents tried, as (falling, rising): each kind alone, then both."""
    return [choice for choice in ((falling, []), ([], rising), (falling, rising)) if any(choice)]


def _candidates(system: TransitionSystem, playouts: Playouts) -> tuple[list[int], list[int]]:
    """Fluents false initially that no playout turns off, and true ones no playout turns on
    (the playouts may not have turned them at all: a proof may still need them)."""
    states = playouts.states  # a playout that ended keeps its state: no change after it
    rises = np.zeros(states.shape[2], dtype=bool)
    falls = np.zeros(states.shape[2], dtype=bool)
    for before, after in zip(states[:-1], states[1:], strict=True):  # a step at a time
        rises |= (after & ~before).any(axis=0)
        falls |= (before & ~after).any(axis=0)
    initial = np.zeros(len(system.fluents), dtype=bool)
    initial[sorted(system.initial)] = True
    rising = np.flatnonzero(~falls & ~initial)
    falling = np.flatnonzero(~rises & initial)
    return [int(i) for i in rising], [int(i) for i in falling]


class _Monotone:
    """Steps from an arbitrary state that satisfies the proved invariants."""

    def __init__(self, system, unrolling: Unrolling, proved: Sequence[int], budget: Budget):
        self.system = system
        self.unrolling = unrolling
        self.proved = proved
        self.budget = budget

    def _turned(self, fluent: int, rising: bool, steps: int) -> Lit:
        """The fluent turns on (rising) or off over the first `steps` steps."""
        return self.unrolling.turned(self.system.fluent_nodes[fluent], steps, rising=rising)

    def monotone(self, fluents: list[int], *, rising: bool) -> list[int]:
        """The largest subset of `fluents` that no step turns the wrong way."""
        unrolling = self.unrolling
        known = line_under_invariants(unrolling, self.proved, 1)
        active = list(fluents)
        while active:
            wrong = {f: self._turned(f, not rising, 1) for f in active}
            broken = unrolling.new_variable()
            unrolling.add_clause([-broken, *wrong.values()])
            try:
                model = unrolling.satisfiable([*known, broken], self.budget)
            finally:
                unrolling.add_clause([-broken])
            if model is False:
                break
            active = [f for f in active if not holds(wrong[f], model)]
        return active

    def progress(self, down: tuple[int, ...], up: tuple[int, ...], steps: int) -> bool:
        """Whether every `steps` steps from non-terminal states turn one of the monotone
        fluents: one of `down` falls or one of `up` rises."""
        turned = [self._turned(f, False, steps) for f in down]
        turned += [self._turned(f, True, steps) for f in up]
        unchanged = [negate(lit) for lit in turned]
        known = line_under_invariants(self.unrolling, self.proved, steps)
        return self.unrolling.satisfiable([*known, *unchanged], self.budget) is False


def _description(system, fluents: tuple[int, ...], steps: int) -> str:
    names = [term_text(system.fluents[i]) for i in fluents[:3]]
    more = f" and {len(fluents) - 3} more" if len(fluents) > 3 else ""
    every = "every step" if steps == 1 else f"every {steps} steps"
    return f"{every} turns one of {', '.join(names)}{more} for good"
