"""Random playouts of a transition system, many at once: the circuit is evaluated level by
level over a batch of states with numpy, one column per playout.

The samples only suggest candidate invariants (solvers/invariants.py); nothing is concluded
from them without a proof.
"""

from __future__ import annotations

import numpy as np

from solvers.circuit import TRUE
from solvers.transition import TransitionSystem


class BatchCircuit:
    """A circuit compiled for evaluation over a batch: gates grouped by depth."""

    def __init__(self, system: TransitionSystem):
        children = system.circuit.children
        depth = [0] * len(children)
        for node in range(TRUE + 1, len(children)):
            if children[node]:
                depth[node] = 1 + max(depth[abs(child)] for child in children[node])
        levels: dict[int, list[int]] = {}
        for node in range(TRUE + 1, len(children)):
            if children[node]:
                levels.setdefault(depth[node], []).append(node)
        self.size = len(children)
        self.levels = []
        for level in sorted(levels):
            gates = levels[level]
            flat = [child for gate in gates for child in children[gate]]
            offsets = np.cumsum([0] + [len(children[gate]) for gate in gates[:-1]])
            self.levels.append(
                (
                    np.array(gates),
                    np.array([abs(child) for child in flat]),
                    np.array([child < 0 for child in flat])[:, None],
                    offsets,
                )
            )

    def evaluate(self, values: np.ndarray) -> None:
        """Fill in every gate row of `values` (nodes x batch) from its input rows."""
        values[TRUE] = True
        for gates, children, negated, offsets in self.levels:
            values[gates] = np.logical_and.reduceat(values[children] ^ negated, offsets, axis=0)


def random_playouts(
    system: TransitionSystem, playouts: int, *, max_steps: int, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Seeded random playouts: the states (step x playout x fluent; a playout that ended
    keeps its last state) and the number of steps each playout took. A playout ends in a
    terminal state, where a role has no legal action, or after max_steps."""
    rng = np.random.default_rng(seed)
    circuit = BatchCircuit(system)
    fluent_nodes = np.array(system.fluent_nodes, dtype=int)
    state = np.zeros((len(system.fluents), playouts), dtype=bool)
    state[sorted(system.initial)] = True
    running = np.ones(playouts, dtype=bool)
    lengths = np.zeros(playouts, dtype=int)
    states = [state.T.copy()]
    for _ in range(max_steps):
        values = np.zeros((circuit.size, playouts), dtype=bool)
        values[fluent_nodes] = state
        circuit.evaluate(values)
        running &= ~_literal_rows(values, [system.terminal])[0]
        for role, legal in enumerate(system.legal):
            allowed = _literal_rows(values, legal)
            running &= allowed.any(axis=0)
            scores = np.where(allowed, rng.random(allowed.shape), -1.0)
            chosen = scores.argmax(axis=0)
            values[np.array(system.action_nodes[role])[chosen], np.arange(playouts)] = True
        if not running.any():
            break
        circuit.evaluate(values)
        state = np.where(running, _literal_rows(values, system.next), state)
        lengths += running
        states.append(state.T.copy())
    return np.stack(states), lengths


def _literal_rows(values: np.ndarray, literals) -> np.ndarray:
    """The rows of circuit literals (negative ones negated)."""
    literals = np.asarray(literals)
    rows = values[np.abs(literals)]
    return np.where((literals < 0)[:, None], ~rows, rows)
