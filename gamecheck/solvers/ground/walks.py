"""Random walks from the counterexamples of Houdini's induction step (invariants.py).

A counterexample to the step is a state that satisfies the proved invariants and every
candidate still in the running, and whose successor breaks some candidates. The largest
inductive subset of the candidates holds in that successor, as in every state a line of
play from it reaches: a candidate false in any of them is not in that subset. Random walks
from the successor drop such candidates by the dozen, where the solver would find them one
model at a time (colonelBlottoVariant2, whose short playouts leave 10182 candidates: 11237
SAT calls, 140 s, without walks; 2817 calls, 62 s, with them; the same invariants). A
walk may take no longer than the SAT call that gave its start, so where calls are few and
slow (amazons) it costs next to nothing.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np

from gamecheck.solvers.ground.sampling import Playouts, random_walks
from gamecheck.solvers.ground.transition import TransitionSystem
from gamecheck.solvers.ground.unroll import Unrolling
from gamecheck.solvers.sat import holds

if TYPE_CHECKING:  # invariants.py, which proves the candidates, imports this module
    from gamecheck.solvers.ground.invariants import StateInvariant

WALK_STEPS = 16
"""The most steps of a walk."""


class CounterexampleWalks:
    """Drops candidates false somewhere on random walks from a counterexample's successor."""

    def __init__(self, system: TransitionSystem, playouts: Playouts, seed: int = 0):
        """`playouts` must have their compiled circuit."""
        self.system = system
        roots = [system.terminal, *(lit for legal in system.legal for lit in legal)]
        self.stepping = playouts.compiled(system, [*roots, *system.next])
        self.checking = playouts.compiled(system)
        """Compiled with every gate so far, extended as the candidates gain gates."""
        self.rng = np.random.default_rng(seed)

    def surviving(
        self,
        candidates: list[StateInvariant],
        unrolling: Unrolling,
        model: set[int],
        seconds: float,
    ) -> list[StateInvariant]:
        """The candidates true in every state of walks from layer 1 of `model`, the walks
        stopped after `seconds` (the time the model took to find)."""
        deadline = time.monotonic() + seconds
        start = [holds(unrolling.literal(node, 1), model) for node in self.system.fluent_nodes]
        states = random_walks(
            self.system, self.stepping, np.array(start), WALK_STEPS, self.rng, deadline
        )
        if len(states) == 1:  # no time for a step: the model checked its start already
            return candidates
        self.checking.extend()
        rows = self.checking.node_rows(self.system, states, [c.literal for c in candidates])
        everywhere = rows.all(axis=1)
        return [c for c, kept in zip(candidates, everywhere, strict=True) if kept]
