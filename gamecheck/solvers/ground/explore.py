"""Every reachable state of a small transition system, listed by breadth-first search.

Where the reachable states are few, listing them all answers every question of `gamecheck
verify` exactly, with no solver (analysis/verify/exhaustive.py): the longest game is the
longest path of the state graph, unless the graph has a cycle (then the game need not end),
and every other answer is the first state in breadth-first order with some property, with a
shortest line of play to it from the search's parent pointers. The circuit is evaluated over
packed batches of (state, joint action) pairs, as in the random playouts
(solvers/ground/sampling.py). The search concludes nothing past MAX_STATES states,
MAX_EDGES edges or STATE_BYTES of states, or when its budget ends; it is not tried where the
random playouts already show the game big (`worth_listing`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from gamecheck.budget import Budget
from gamecheck.solvers.ground.sampling import (
    FIND_CHUNK,
    BatchCircuit,
    Playouts,
    pack,
    packed_literal_rows,
    state_hashes,
    unpack,
)
from gamecheck.solvers.ground.transition import TransitionSystem
from gamecheck.solvers.ground.unroll import Line

MAX_STATES = 200_000
MAX_EDGES = 2_000_000
STATE_BYTES = 64 << 20
"""Past these (states, edges, bytes of packed states), the search gives up: the solvers
answer big games better."""


def worth_listing(playouts: Playouts) -> bool:
    """Whether the random playouts leave hope that the reachable states are few enough to
    list: their estimate (which runs low: 56 times on a one-role puzzle whose playouts
    wander) is at most a quarter of MAX_STATES."""
    return estimated_states(playouts) <= MAX_STATES / 4


def estimated_states(playouts: Playouts) -> float:
    """A low estimate of the number of reachable states, from the states the independent
    random playouts visited (not the lasting ones, which copy each other's lines): Chao1
    (bias-corrected), the distinct states seen plus f1(f1-1)/2(f2+1) for the f1 seen once
    and f2 seen twice. A big game's playouts seldom meet a state twice away from the
    start, and its estimate is then far above what is seen."""
    independent = playouts.states.shape[1] - playouts.lasting  # lasting ones copy lines
    lengths = playouts.lengths[:independent]
    hashes = [
        state_hashes(states[step <= lengths])
        for step, states in enumerate(playouts.states[:, :independent])
    ]
    _, counts = np.unique(np.concatenate(hashes), return_counts=True)
    once, twice = np.count_nonzero(counts == 1), np.count_nonzero(counts == 2)
    return len(counts) + once * (once - 1) / (2 * (twice + 1))


class TooManyStates(Exception):
    """The reachable states or their edges are more than the search lists."""


@dataclass(frozen=True)
class StateGraph:
    """The reachable states in breadth-first order (state 0 is the initial state) and the
    edges: every legal joint action of every non-terminal state (terminal states have
    none). Each state after the first names the edge it was found by, so a shortest line of
    play leads to every state."""

    packed: np.ndarray
    """states x bytes: each state's fluent values, packed 8 to a byte."""
    fluents: int
    found_by: np.ndarray
    """Per state, the edge that reached it first (-1 for the initial state)."""
    sources: np.ndarray
    targets: np.ndarray
    edge_joints: np.ndarray
    """edges x roles."""

    def line_to(self, state: int) -> Line:
        """A shortest line of play from the initial state to `state`."""
        return self.line_by(state, self.found_by)

    def line_by(self, state: int, via: np.ndarray) -> Line:
        """The line of play to `state` along the edges `via` names (per state the edge it
        is reached by, -1 for the initial state), as `found_by` and `longest_paths` do."""
        edges = []
        while via[state] >= 0:
            edges.append(int(via[state]))
            state = int(self.sources[edges[-1]])
        return Line(self.steps(reversed(edges)))

    def steps(self, edges: Iterable[int]) -> tuple[tuple[int, ...], ...]:
        """The joint actions of `edges`, in order."""
        return tuple(tuple(int(a) for a in self.edge_joints[edge]) for edge in edges)

    def rows(
        self, circuit: BatchCircuit, system: TransitionSystem, literals, budget: Budget
    ) -> np.ndarray:
        """The values of circuit literals over fluents (rows) in every state (columns)."""
        parts = []
        for start in range(0, self.count, FIND_CHUNK):
            budget.check()
            chunk = _unpacked(self.packed[start : start + FIND_CHUNK], self.fluents)
            parts.append(circuit.node_rows(system, chunk, literals))
        return np.concatenate(parts, axis=1)

    @property
    def count(self) -> int:
        """How many states are reachable."""
        return len(self.packed)

    def longest_paths(self, budget: Budget) -> tuple[np.ndarray, np.ndarray] | list[int]:
        """For an acyclic graph, per state the most steps of a line of play to it and the
        edge it comes by (-1 for the initial state); otherwise the edges of a cycle, in
        order (its states are non-terminal: each has an edge out)."""
        count = self.count
        order = np.argsort(self.sources, kind="stable")
        starts = np.searchsorted(self.sources[order], np.arange(count + 1))
        waiting = np.bincount(self.targets, minlength=count)
        longest = np.zeros(count, dtype=np.int64)
        via = np.full(count, -1, dtype=np.int64)
        ready = deque(np.flatnonzero(waiting == 0).tolist())
        done = 0
        while ready:
            state = ready.popleft()
            done += 1
            if done % FIND_CHUNK == 0:
                budget.check()
            for edge in order[starts[state] : starts[state + 1]].tolist():
                target = int(self.targets[edge])
                if longest[state] + 1 > longest[target] or via[target] < 0:
                    longest[target], via[target] = longest[state] + 1, edge
                waiting[target] -= 1
                if waiting[target] == 0:
                    ready.append(target)
        if done == count:
            return longest, via
        return self._cycle(waiting > 0)

    def _cycle(self, left: np.ndarray) -> list[int]:
        """A cycle among the states a topological sort left: each has an edge in from
        another one left, so walking such edges backwards comes round to a state again."""
        into: dict[int, int] = {}
        for edge in np.flatnonzero(left[self.sources] & left[self.targets]).tolist():
            into.setdefault(int(self.targets[edge]), edge)
        seen: dict[int, int] = {}
        walk: list[int] = []
        state = int(np.flatnonzero(left)[0])
        while state not in seen:
            seen[state] = len(walk)
            edge = into[state]
            walk.append(edge)
            state = int(self.sources[edge])
        return list(reversed(walk[seen[state] :]))


def explore(system: TransitionSystem, circuit: BatchCircuit, budget: Budget) -> StateGraph:
    """Every state reachable from the initial state, breadth first, with the whole
    `circuit` of the system compiled for batches; TooManyStates past MAX_STATES or
    MAX_EDGES (or STATE_BYTES), OutOfBudget if the budget ends first."""
    start = np.zeros(len(system.fluents), dtype=bool)
    start[sorted(system.initial)] = True
    found = _Found(start, len(system.roles))
    first, end = 0, 1  # the layer being expanded: states first..end-1
    while first < end:
        for chunk in range(first, end, FIND_CHUNK):
            budget.check()
            states = np.arange(chunk, min(chunk + FIND_CHUNK, end))
            sources, joints = _joint_actions(system, circuit, states, found.rows(states))
            for pairs in range(0, len(sources), FIND_CHUNK):
                budget.check()
                part = slice(pairs, pairs + FIND_CHUNK)
                rows = found.rows(sources[part])
                found.add_edges(
                    sources[part], joints[part], _successors(system, circuit, rows, joints[part])
                )
        first, end = end, found.count
    return found.graph()


class _Found:
    """The states found so far (packed bits, in arrays that double as they fill), indexed
    by their bits, each with the edge it was found by; and the edges."""

    def __init__(self, start: np.ndarray, roles: int):
        self.width, self.roles = len(start), roles
        packed = np.packbits(start)
        self.most = min(MAX_STATES, STATE_BYTES // max(1, len(packed)))
        self.packed = packed[None, :]
        self.found_by = np.full(1, -1, dtype=np.int64)
        self.index = {packed.tobytes(): 0}
        self.count = 1
        self.sources: list[np.ndarray] = []
        self.targets: list[np.ndarray] = []
        self.edge_joints: list[np.ndarray] = []
        self.edges = 0

    def rows(self, indexes: np.ndarray) -> np.ndarray:
        """The states of `indexes` as rows of fluent values."""
        return _unpacked(self.packed[indexes], self.width)

    def add_edges(self, sources: np.ndarray, joints: np.ndarray, following: np.ndarray) -> None:
        """Edges from `sources` by `joints` to the states `following`, found or new."""
        first_edge = self.edges
        self.edges += len(sources)
        if self.edges > MAX_EDGES:
            raise TooManyStates(f"more than {MAX_EDGES:,} joint actions in reachable states")
        packed = np.packbits(following, axis=1)
        first, inverse = _distinct(following, packed)
        keys = packed[first]
        targets = np.empty(len(keys), dtype=np.int64)
        new = []
        for number, key in enumerate(keys):
            text = key.tobytes()
            target = self.index.get(text)
            if target is None:
                target = self.index[text] = self.count + len(new)
                new.append(number)
            targets[number] = target
        self._append(keys[new], first_edge + first[new])
        self.sources.append(sources)
        self.targets.append(targets[inverse])
        self.edge_joints.append(joints)

    def _append(self, packed: np.ndarray, found_by: np.ndarray) -> None:
        count = self.count + len(packed)
        if count > self.most:
            raise TooManyStates(f"more than {self.most:,} reachable states")
        if count > len(self.packed):
            size = min(self.most, max(count, 2 * len(self.packed)))
            self.packed = _grown(self.packed, size)
            self.found_by = _grown(self.found_by, size)
        self.packed[self.count : count] = packed
        self.found_by[self.count : count] = found_by
        self.count = count

    def graph(self) -> StateGraph:
        def joined(parts: list[np.ndarray], *shape: int) -> np.ndarray:
            return np.concatenate(parts) if parts else np.zeros((0, *shape), dtype=np.int64)

        return StateGraph(
            packed=self.packed[: self.count],
            fluents=self.width,
            found_by=self.found_by[: self.count],
            sources=joined(self.sources),
            targets=joined(self.targets),
            edge_joints=joined(self.edge_joints, self.roles),
        )


def _distinct(rows: np.ndarray, packed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(first, inverse): the first of each distinct row of `rows` (their packed bits:
    `packed`), in order of appearance, and for each row the index of its distinct row
    among those firsts.
    Rows are told apart by a hash, checked: rows whose hashes collide are compared whole."""
    _, first, inverse = np.unique(state_hashes(rows), return_index=True, return_inverse=True)
    if not np.array_equal(packed, packed[first][inverse]):
        _, first, inverse = np.unique(packed, axis=0, return_index=True, return_inverse=True)
    order = np.argsort(first)
    number = np.empty_like(order)
    number[order] = np.arange(len(order))
    return first[order], number[inverse.reshape(-1)]


def _unpacked(packed: np.ndarray, fluents: int) -> np.ndarray:
    """Rows of packed states as rows of fluent values."""
    return np.unpackbits(packed, axis=1)[:, :fluents].astype(bool)


def _grown(array: np.ndarray, size: int) -> np.ndarray:
    bigger = np.zeros((size, *array.shape[1:]), dtype=array.dtype)
    bigger[: len(array)] = array
    return bigger


def _joint_actions(system, circuit, states: np.ndarray, rows: np.ndarray):
    """Every legal joint action of the non-terminal ones of `states` (their fluent values:
    `rows`): the state of each joint action, and the joint actions (rows of action
    indexes, role by role)."""
    legal = [literal for literals in system.legal for literal in literals]
    values = circuit.node_rows(system, rows, [system.terminal, *legal])
    sources = np.flatnonzero(~values[0])
    joints = np.zeros((len(sources), 0), dtype=np.int64)
    offset = 1
    for literals in system.legal:
        allowed = values[offset : offset + len(literals)].T  # states x actions
        offset += len(literals)
        counts = allowed.sum(axis=1)[sources]
        choices = np.flatnonzero(allowed[sources].reshape(-1)) % max(1, len(literals))
        rows_before = np.repeat(np.arange(len(sources)), counts)  # row by row, like choices
        sources = sources[rows_before]
        joints = np.column_stack([joints[rows_before], choices])
    return states[sources], joints


def _successors(system, circuit: BatchCircuit, states: np.ndarray, joints: np.ndarray):
    """The next state (rows of fluent values) of each state under its joint action."""
    count = len(states)
    values = np.zeros((circuit.size, -(-count // 64)), dtype=np.uint64)
    values[np.array(system.fluent_nodes, dtype=int)] = pack(states.T)
    for role, nodes in enumerate(system.action_nodes):
        chosen = np.zeros((len(nodes), count), dtype=bool)
        chosen[joints[:, role], np.arange(count)] = True
        values[np.array(nodes, dtype=int)] = pack(chosen)
    circuit.evaluate(values)
    return unpack(packed_literal_rows(values, system.next), count).T
