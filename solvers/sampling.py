"""Random playouts of a transition system, many at once: the circuit is evaluated level by
level with numpy over bit-packed batches, 64 playouts to a machine word.

The samples only suggest candidate invariants (solvers/invariants.py); nothing is concluded
from them without a proof.
"""

from __future__ import annotations

import numpy as np

from solvers.circuit import TRUE
from solvers.transition import TransitionSystem

ONES = np.uint64(0xFFFF_FFFF_FFFF_FFFF)


def pack(rows: np.ndarray) -> np.ndarray:
    """Boolean rows (rows x n) as words (rows x ceil(n/64)), bit i of a row in word i//64."""
    rows = np.asarray(rows, dtype=bool)
    padding = -rows.shape[1] % 64
    padded = np.pad(rows, ((0, 0), (0, padding)))
    packed = np.packbits(padded, axis=1, bitorder="little")
    return np.ascontiguousarray(packed).view(np.uint64)


def unpack(words: np.ndarray, width: int) -> np.ndarray:
    """The first `width` bits of every row of words, as booleans."""
    bits = np.unpackbits(np.ascontiguousarray(words).view(np.uint8), axis=1, bitorder="little")
    return bits[:, :width].astype(bool)


class BatchCircuit:
    """A circuit compiled for evaluation over packed batches: gates grouped by depth."""

    def __init__(self, system: TransitionSystem):
        children = system.circuit.children
        depth = [0] * len(children)
        levels: dict[int, list[int]] = {}
        for node in range(TRUE + 1, len(children)):
            if children[node]:
                depth[node] = 1 + max(depth[abs(child)] for child in children[node])
                levels.setdefault(depth[node], []).append(node)
        self.size = len(children)
        self.levels = []
        for level in sorted(levels):
            gates = levels[level]
            flat = [child for gate in gates for child in children[gate]]
            self.levels.append(
                (
                    np.array(gates),
                    np.array([abs(child) for child in flat]),
                    np.where(np.array([child < 0 for child in flat]), ONES, np.uint64(0))[:, None],
                    np.cumsum([0] + [len(children[gate]) for gate in gates[:-1]]),
                )
            )

    def evaluate(self, values: np.ndarray) -> None:
        """Fill in every gate row of `values` (nodes x words) from its input rows."""
        values[TRUE] = ONES
        for gates, children, flips, offsets in self.levels:
            values[gates] = np.bitwise_and.reduceat(values[children] ^ flips, offsets, axis=0)

    def node_values(self, system: TransitionSystem, states: np.ndarray) -> np.ndarray:
        """Every node's value (rows) in every state (columns) of states (rows x fluents)."""
        values = np.zeros((self.size, -(-len(states) // 64)), dtype=np.uint64)
        values[np.array(system.fluent_nodes)] = pack(states.T)
        self.evaluate(values)
        return unpack(values, len(states))


def random_playouts(
    system: TransitionSystem, playouts: int, *, max_steps: int, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Seeded random playouts: the states (step x playout x fluent; a playout that ended
    keeps its last state) and the number of steps each playout took. A playout ends in a
    terminal state, where a role has no legal action, or after max_steps."""
    rng = np.random.default_rng(seed)
    circuit = BatchCircuit(system)
    fluent_nodes = np.array(system.fluent_nodes, dtype=int)
    start = np.zeros((len(system.fluents), playouts), dtype=bool)
    start[sorted(system.initial)] = True
    state = pack(start)
    running = np.ones(playouts, dtype=bool)
    lengths = np.zeros(playouts, dtype=int)
    states = [start.T]
    for _ in range(max_steps):
        values = np.zeros((circuit.size, state.shape[1]), dtype=np.uint64)
        values[fluent_nodes] = state
        circuit.evaluate(values)
        running &= ~_literal_rows(values, [system.terminal], playouts)[0]
        for role, legal in enumerate(system.legal):
            allowed = _literal_rows(values, legal, playouts)
            running &= allowed.any(axis=0)
            scores = np.where(allowed, rng.random(allowed.shape), -1.0)
            chosen = np.zeros_like(allowed)
            chosen[scores.argmax(axis=0), np.arange(playouts)] = True
            values[np.array(system.action_nodes[role])] = pack(chosen)
        if not running.any():
            break
        circuit.evaluate(values)
        following = _packed_literal_rows(values, system.next)
        keep = pack(running[None, :])
        state = (following & keep) | (state & ~keep)
        lengths += running
        states.append(unpack(state, playouts).T)
    return np.stack(states), lengths


def _packed_literal_rows(values: np.ndarray, literals) -> np.ndarray:
    literals = np.asarray(literals)
    return values[np.abs(literals)] ^ np.where(literals < 0, ONES, np.uint64(0))[:, None]


def _literal_rows(values: np.ndarray, literals, width: int) -> np.ndarray:
    """The rows of circuit literals (negative ones negated), as booleans."""
    return unpack(_packed_literal_rows(values, literals), width)
