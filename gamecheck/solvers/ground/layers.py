"""Whole layers of an unrolling (solvers/ground/unroll.py), built with array operations.

Instantiating a circuit node by node in Python costs tens of microseconds a gate: seconds a
layer on real sheets with 10^5 gates. So a layer is built at once, level by level (a node's
level is one past its inputs'), each level with whole-array operations:

* a gate with a false input is false, one whose inputs are all true is true, one with a
  single input left open is that input, and every other gate gets a fresh variable; the new
  gates of a level are defined in one batch;
* a gate whose inputs are those it had a layer before is what it was then (a step that
  changes none of its fluents, such as the other role's turn, adds nothing);
* an action is false where it cannot be legal, else a fresh variable that implies its
  legality, so it sits one level past its `legal` literal.

A layer covers the nodes that every step needs (legal, next, terminal), every fluent and
every action: the `planned` nodes. The goals' other nodes, needed at some layers only, are
built the same way, whole, at a layer that asks for one of them. The conditions of
queries, made later, are instantiated one gate at a time on top.

A layer is an array of codes, one per node: a solver literal, or +-CONSTANT for true/false.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from gamecheck.solvers.ground.circuit import TRUE

if TYPE_CHECKING:
    from gamecheck.solvers.ground.transition import TransitionSystem

CONSTANT = 1 << 30
"""The code of true (its negation that of false); solver variables stay below it."""


@dataclass(frozen=True)
class Level:
    """Gates (their inputs flattened, as signed node numbers, with the number of inputs of
    each and where each gate's inputs start) and actions (with their `legal` literals) whose
    inputs all lie on earlier levels."""

    gates: np.ndarray
    inputs: np.ndarray
    counts: np.ndarray
    offsets: np.ndarray
    actions: np.ndarray
    legal: np.ndarray


class LayerPlan:
    """The levels of a system's circuit: those of the nodes every step needs, then those
    of the goals' other nodes."""

    def __init__(self, system: TransitionSystem):
        circuit = system.circuit
        children = circuit.children
        legal_of = {
            node: system.legal[role][action] for node, (role, action) in system.node_action.items()
        }
        roots = [*system.next, system.terminal, *legal_of.values()]
        planned = circuit.cone([TRUE, *roots]) | set(system.fluent_nodes) | set(legal_of)
        goals = [literal for values in system.goals for literal in values.values()]
        goal_nodes = circuit.cone(goals) - planned
        self.size = len(children)
        self.planned = np.zeros(self.size, dtype=bool)
        self.planned[list(planned)] = True
        self.goal_planned = np.zeros(self.size, dtype=bool)
        self.goal_planned[list(goal_nodes)] = True
        gates = sorted(node for node in planned if children[node])
        depth = [0] * self.size
        _set_depths(children, gates, depth)  # actions count as inputs here
        for node, legal in legal_of.items():  # legality never depends on an action
            depth[node] = 1 + depth[abs(legal)]
        _set_depths(children, gates, depth)
        self.levels = _levels(children, depth, gates, legal_of)
        goal_gates = sorted(goal_nodes)  # all gates: every input node is planned
        _set_depths(children, goal_gates, depth)
        self.goal_levels = _levels(children, depth, goal_gates, {})
        self.fluent_nodes = np.array(system.fluent_nodes, dtype=np.int64)
        self.next = np.array(system.next, dtype=np.int64)
        initial = np.zeros(len(system.fluents), dtype=bool)
        initial[sorted(system.initial)] = True
        self.initial = np.where(initial, CONSTANT, -CONSTANT)

    def covers(self, node: int) -> bool:
        """Whether every layer has the node."""
        return node < self.size and bool(self.planned[node])

    def covers_goal(self, node: int) -> bool:
        """Whether the node is among the goals' other nodes."""
        return node < self.size and bool(self.goal_planned[node])


def _set_depths(children, gates: list[int], depth: list[int]) -> None:
    """One past the deepest input, for gates in topological order."""
    for node in gates:
        depth[node] = 1 + max(depth[abs(child)] for child in children[node])


def _levels(children, depth: list[int], gates: list[int], legal_of: dict[int, int]):
    """The gates and actions grouped by depth, shallowest first."""
    by_depth: dict[int, tuple[list[int], list[int]]] = {}
    for node in gates:
        by_depth.setdefault(depth[node], ([], []))[0].append(node)
    for node in legal_of:
        by_depth.setdefault(depth[node], ([], []))[1].append(node)
    levels = []
    for level in sorted(by_depth):
        at, actions = by_depth[level]
        counts = np.array([len(children[gate]) for gate in at], dtype=np.int64)
        levels.append(
            Level(
                gates=np.array(at, dtype=np.int64),
                inputs=np.array([c for gate in at for c in children[gate]], dtype=np.int64),
                counts=counts,
                offsets=np.cumsum(counts) - counts,
                actions=np.array(actions, dtype=np.int64),
                legal=np.array([legal_of[node] for node in actions], dtype=np.int64),
            )
        )
    return levels


def read(codes: np.ndarray, literals: np.ndarray) -> np.ndarray:
    """The codes of signed node numbers."""
    return np.sign(literals) * codes[np.abs(literals)]


def decode(code) -> int | bool:
    """A layer's code as a solver literal or a constant."""
    code = int(code)
    if abs(code) == CONSTANT:
        return code > 0
    return code


def fold_gates(
    codes: np.ndarray, level: Level, previous: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Set the codes of a level's gates that are what they were in the `previous` layer, or
    fold to a constant or to one of their inputs; return the gates left (a mask over the
    level's gates), the codes of their open inputs (flattened) and the number of open
    inputs of each."""
    offsets = level.offsets
    inputs = read(codes, level.inputs)
    if previous is None:
        same = np.zeros(len(level.gates), dtype=bool)
    else:
        same = np.logical_and.reduceat(inputs == read(previous, level.inputs), offsets)
        codes[level.gates[same]] = previous[level.gates[same]]
    false = np.logical_or.reduceat(inputs == -CONSTANT, offsets) & ~same
    open_input = inputs != CONSTANT
    open_counts = np.add.reduceat(open_input, offsets)
    codes[level.gates[false]] = -CONSTANT
    codes[level.gates[~same & ~false & (open_counts == 0)]] = CONSTANT
    single = ~same & ~false & (open_counts == 1)
    only = np.add.reduceat(np.where(open_input, inputs, 0), offsets)
    codes[level.gates[single]] = only[single]
    left = ~same & ~false & (open_counts >= 2)
    kept = np.repeat(left, level.counts) & open_input
    return left, inputs[kept], open_counts[left]
