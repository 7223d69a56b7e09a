"""Random playouts of a transition system, many at once: the circuit is evaluated level by
level with numpy over bit-packed batches, 64 playouts to a machine word.

The playouts suggest candidate invariants (solvers/ground/invariants.py), which are then proved,
and offer lines of play to questions that ask for one (analysis/verify/search.py), which are
then replayed on the move generator: nothing is concluded from a playout unchecked.

The playouts stop where the budget ends, and are only as many as their pace says can end
within it; a big system gets fewer (and, if need be, shorter) playouts, so that the states
kept take at most STATE_BYTES.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import numpy as np

from gamecheck.budget import Budget, OutOfBudget
from gamecheck.solvers.ground.circuit import TRUE
from gamecheck.solvers.ground.transition import TransitionSystem
from gamecheck.solvers.ground.unroll import Line

ONES = np.uint64(0xFFFF_FFFF_FFFF_FFFF)
STATE_BYTES = 256 << 20
"""The most memory the states of a batch of playouts may take (one byte per fluent)."""
LOOKAHEAD = 32
"""The most joint actions a lasting playout tries at a step before it takes one that ends
the game."""
MOBILE_PLAYOUTS = 64
"""Lasting playouts that choose by mobility (`_mobile_step`), played after the others."""
MOBILE_CANDIDATES = 12
"""The most joint actions a mobile playout weighs at a step."""
MOBILE_SHARE = 1 / 3
"""The share of the lasting playouts' time that the mobile ones take."""
PACE_PLAYOUTS = 64
"""Playouts played first, to time how many more fit in the budget."""
FIND_CHUNK = 4096
"""States evaluated at once when a playout line is looked for (bounds the node matrix)."""


def pack(rows: np.ndarray) -> np.ndarray:
    """Boolean rows (rows x n) as words (rows x ceil(n/64)), bit i of a row in word i//64."""
    packed = np.packbits(np.asarray(rows, dtype=bool), axis=1, bitorder="little")
    padding = -packed.shape[1] % 8
    if padding:
        packed = np.pad(packed, ((0, 0), (0, padding)))
    return np.ascontiguousarray(packed).view(np.uint64)


def state_hashes(rows: np.ndarray) -> np.ndarray:
    """A hash of each boolean row (a state): its packed words mixed in one at a time,
    each mix splitmix64's finalizer (every bit of a word moves every bit of the hash: a
    plain weighted sum of the words lets states that differ in high bits collide)."""
    hashes = np.zeros(len(rows), dtype=np.uint64)
    for word in pack(rows).T:
        hashes = _mixed(hashes ^ word)
    return hashes


def _mixed(words: np.ndarray) -> np.ndarray:
    words = (words ^ (words >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    words = (words ^ (words >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return words ^ (words >> np.uint64(31))


def unpack(words: np.ndarray, width: int) -> np.ndarray:
    """The first `width` bits of every row of words, as booleans."""
    bits = np.unpackbits(np.ascontiguousarray(words).view(np.uint8), axis=1, bitorder="little")
    return bits[:, :width].astype(bool)


class BatchCircuit:
    """A circuit compiled for evaluation over packed batches: gates grouped by depth (only
    the gates some root literal depends on, when roots are given). Each level holds its
    gates, their children (flattened), the masks that negate children, the number of
    children of each gate and where each gate's children start; levels are in an order that
    evaluates children first."""

    def __init__(
        self,
        system: TransitionSystem,
        roots: list[int] | None = None,
        budget: Budget | None = None,
    ):
        self.circuit = system.circuit
        self.size = TRUE + 1
        self.depth = [0] * self.size
        self.levels: list[tuple[np.ndarray, ...]] = []
        wanted = None if roots is None else self.circuit.cone(roots)
        self._compile(wanted, budget)

    def _compile(self, wanted: set[int] | None, budget: Budget | None) -> None:
        """Add levels for the gates the circuit gained since the last compilation (those of
        `wanted` only, if given); if the budget ends first, the compilation is unchanged."""
        children = self.circuit.children
        start, end = self.size, len(children)
        depth = self.depth[:start] + [0] * (end - start)
        levels: dict[int, list[int]] = {}
        for node in range(start, end):
            if budget is not None and node % 65536 == 0:
                budget.check()
            if children[node] and (wanted is None or node in wanted):
                depth[node] = 1 + max(depth[abs(child)] for child in children[node])
                levels.setdefault(depth[node], []).append(node)
        compiled = []
        for level in sorted(levels):
            gates = levels[level]
            flat = [child for gate in gates for child in children[gate]]
            compiled.append(
                _level(
                    np.array(gates),
                    np.array([abs(child) for child in flat]),
                    np.where(np.array([child < 0 for child in flat]), ONES, np.uint64(0))[:, None],
                    np.array([len(children[gate]) for gate in gates]),
                )
            )
        self.size, self.depth = end, depth
        self.levels += compiled

    def extend(self, budget: Budget | None = None) -> None:
        """Compile the gates the circuit gained since (a circuit compiled without roots)."""
        if len(self.circuit.children) > self.size:
            self._compile(None, budget)

    def restricted(self, roots: list[int], budget: Budget | None = None) -> BatchCircuit:
        """Only the gates some root literal depends on, of a circuit compiled without
        roots (the gates the circuit gained since are compiled first): the cone is marked
        level by level, from the top down, with whole-array operations."""
        self.extend(budget)
        wanted = np.zeros(self.size, dtype=bool)
        wanted[np.abs(np.asarray(roots, dtype=np.int64))] = True
        for gates, children, _, counts, _ in reversed(self.levels):
            chosen = wanted[gates]
            if chosen.any():
                wanted[children[np.repeat(chosen, counts)]] = True
        cone = object.__new__(BatchCircuit)
        cone.circuit, cone.size, cone.depth, cone.levels = self.circuit, self.size, self.depth, []
        for gates, children, flips, counts, _ in self.levels:
            chosen = wanted[gates]
            if chosen.any():
                edges = np.repeat(chosen, counts)
                cone.levels.append(
                    _level(gates[chosen], children[edges], flips[edges], counts[chosen])
                )
        return cone

    def evaluate(self, values: np.ndarray) -> None:
        """Fill in every gate row of `values` (nodes x words) from its input rows."""
        values[TRUE] = ONES
        for gates, children, flips, _, offsets in self.levels:
            values[gates] = np.bitwise_and.reduceat(values[children] ^ flips, offsets, axis=0)

    def node_values(self, system: TransitionSystem, states: np.ndarray) -> np.ndarray:
        """Every node's value (rows) in every state (columns) of states (rows x fluents)."""
        return unpack(self._packed_values(system, states), len(states))

    def node_row(self, system: TransitionSystem, states: np.ndarray, literal: int) -> np.ndarray:
        """The value of one circuit literal in every state of states (rows x fluents)."""
        return self.node_rows(system, states, [literal])[0]

    def node_rows(self, system: TransitionSystem, states: np.ndarray, literals) -> np.ndarray:
        """The values of circuit literals (rows) in every state (columns) of states (rows x
        fluents): only these rows are unpacked."""
        values = self._packed_values(system, states)
        return unpack(packed_literal_rows(values, literals), len(states))

    def run(self, system: TransitionSystem, steps, budget: Budget | None = None) -> frozenset[int]:
        """The state (fluent indexes) that the joint actions `steps` lead to from the initial
        state, one step at a time on this compilation, which must hold the cone of the next
        literals (skirmish's 99 steps: 0.13 s, where the circuit's own evaluation takes 7 s);
        OutOfBudget if the budget ends first."""
        fluent_nodes = np.array(system.fluent_nodes, dtype=int)
        state = np.zeros(len(system.fluents), dtype=bool)
        state[sorted(system.initial)] = True
        for joint in steps:
            if budget is not None:
                budget.check()
            values = np.zeros((self.size, 1), dtype=np.uint64)
            values[fluent_nodes[state]] = ONES
            for role, action in enumerate(joint):
                values[system.action_nodes[role][action]] = ONES
            self.evaluate(values)
            state = unpack(packed_literal_rows(values, system.next), 1)[:, 0]
        return frozenset(np.flatnonzero(state).tolist())

    def _packed_values(self, system: TransitionSystem, states: np.ndarray) -> np.ndarray:
        values = np.zeros((self.size, -(-len(states) // 64)), dtype=np.uint64)
        values[np.array(system.fluent_nodes, dtype=int)] = pack(states.T)
        self.evaluate(values)
        return values


def _chunks(total: int, budget: Budget) -> Iterator[slice]:
    """Slices of FIND_CHUNK of `total` states; OutOfBudget before one that the time left may
    not finish (less than the slowest so far took: merrills' take 0.7 s)."""
    slowest = 0.0
    for start in range(0, total, FIND_CHUNK):
        budget.check_room(slowest)
        began = time.monotonic()
        yield slice(start, start + FIND_CHUNK)
        slowest = max(slowest, time.monotonic() - began)


@dataclass(frozen=True)
class Playouts:
    """Seeded random playouts: `states` (step x playout x fluent; a playout that ended keeps
    its last state), `lengths` (steps each playout took) and `actions` (step x playout x
    role: the action index each role chose); `circuit`, the system's circuit compiled for
    them (None if the budget ended first), is reused by every later look at their states."""

    states: np.ndarray
    lengths: np.ndarray
    actions: np.ndarray
    circuit: BatchCircuit | None = field(default=None, repr=False, compare=False)
    lasting: int = 0
    """How many of the playouts, the last ones, are lasting playouts: not independent
    samples (they copy each other's lines)."""

    def joined(self, other: Playouts) -> Playouts:
        """These playouts and then `other`'s as one set, the fewer steps padded with each
        playout's last state (and action)."""
        steps = max(len(self.states), len(other.states))

        def padded(array: np.ndarray) -> np.ndarray:
            return np.pad(array, [(0, steps - len(array))] + [(0, 0)] * 2, mode="edge")

        return Playouts(
            np.concatenate([padded(self.states), padded(other.states)], axis=1),
            np.concatenate([self.lengths, other.lengths]),
            np.concatenate([padded(self.actions), padded(other.actions)], axis=1),
            self.circuit,
            self.lasting + other.lasting,
        )

    def visited(self) -> np.ndarray:
        """Every state some playout visited, one row each (with repetitions)."""
        steps = np.arange(self.states.shape[0])[:, None]
        return self.states[steps <= self.lengths[None, :]]

    def find(
        self, system: TransitionSystem, condition: int, depths, budget: Budget | None = None
    ) -> Line | None:
        """The line of a playout that reaches a state satisfying `condition` (a circuit
        literal over fluents) after a number of steps in `depths`, the shallowest first;
        OutOfBudget if the budget ends first."""
        budget = budget or Budget()
        wanted = np.zeros(self.states.shape[0], dtype=bool)
        wanted[[t for t in depths if t < len(wanted)]] = True
        steps, players = np.nonzero(
            wanted[:, None] & (np.arange(len(wanted))[:, None] <= self.lengths[None, :])
        )
        if not len(steps):
            return None
        circuit = self.compiled(system, [condition], budget)
        first = None
        for chunk in _chunks(len(steps), budget):  # np.nonzero lists shallow steps first
            row = circuit.node_row(system, self.states[steps[chunk], players[chunk]], condition)
            hits = np.flatnonzero(row)
            if len(hits):
                first = chunk.start + hits[0]
                break
        if first is None:
            return None
        return self.line(players[first], steps[first])

    def endings(
        self, system: TransitionSystem, literals: list[int], budget: Budget | None = None
    ) -> dict[tuple[bool, ...], Line]:
        """For every distinct row of values of the circuit `literals` (over fluents) in the
        terminal states that playouts ended in, the line of a shortest playout ending so;
        OutOfBudget if the budget ends first."""
        budget = budget or Budget()
        circuit = self.compiled(system, [system.terminal, *literals], budget)
        by_length = np.argsort(self.lengths, kind="stable")
        lines: dict[tuple[bool, ...], Line] = {}
        for chunk in _chunks(len(by_length), budget):
            players = by_length[chunk]
            finals = self.states[self.lengths[players], players]
            rows = circuit.node_rows(system, finals, [system.terminal, *literals])
            ended = np.flatnonzero(rows[0])
            keys, first = np.unique(rows[1:, ended].T, axis=0, return_index=True)
            for key, index in zip(keys, first, strict=True):
                player = players[ended[index]]
                lines.setdefault(
                    tuple(bool(v) for v in key), self.line(player, self.lengths[player])
                )
        return lines

    def final_states(
        self, system: TransitionSystem, condition: int, budget: Budget | None = None
    ) -> np.ndarray:
        """The distinct states the playouts ended in that satisfy `condition` (a circuit
        literal over fluents), one row each; OutOfBudget if the budget ends first."""
        finals = np.unique(self.states[self.lengths, np.arange(len(self.lengths))], axis=0)
        row = self.compiled(system, [condition], budget).node_row(system, finals, condition)
        return finals[row]

    def compiled(
        self, system: TransitionSystem, roots: list[int] | None = None, budget: Budget | None = None
    ) -> BatchCircuit:
        """The part of the system's circuit that `roots` depend on (all of it, if None),
        cut from the playouts' compiled circuit where there is one."""
        if self.circuit is None:
            return BatchCircuit(system, roots, budget)
        if roots is None:
            self.circuit.extend(budget)
            return self.circuit
        return self.circuit.restricted(roots, budget)

    def lasso(self, budget: Budget | None = None) -> tuple[Line, int] | None:
        """The shortest line of a playout that comes back to a state it passed, none on
        the way terminal, with the step after which it first was in that state; None if no
        playout did. OutOfBudget if the budget ends first."""
        best = None
        for player, length in enumerate(self.lengths.tolist()):
            if budget is not None and player % 64 == 0:
                budget.check()
            rows = self.states[: length + 1, player]
            _, first, inverse = np.unique(
                state_hashes(rows), return_index=True, return_inverse=True
            )
            seen_before = first[inverse]
            for back in np.flatnonzero(seen_before < np.arange(length + 1)):
                if best is not None and back >= best[1]:
                    break
                if np.array_equal(rows[back], rows[seen_before[back]]):  # not a collision
                    best = (player, int(back), int(seen_before[back]))
                    break
        if best is None:
            return None
        player, back, start = best
        return self.line(player, back), start

    def line(self, player: int, steps: int) -> Line:
        """The first `steps` joint actions of a playout."""
        line = self.actions[:steps, player]
        return Line(tuple(tuple(int(a) for a in joint) for joint in line))


def random_playouts(
    system: TransitionSystem,
    playouts: int,
    *,
    max_steps: int,
    seed: int = 0,
    budget: Budget | None = None,
    lasting: int = 0,
) -> Playouts:
    """Seeded random playouts, each ending in a terminal state, where a role has no legal
    action, after max_steps, or where the budget ends (fewer and shorter ones for a system
    too big for STATE_BYTES). Then, with half the time left, `lasting` playouts that take,
    of up to LOOKAHEAD random joint actions, the first whose next state is not terminal:
    they last longer than random ones, to the end of a step counter or to a full board,
    where the longest game and the scores of drawn games lie. A lasting playout that can
    only end the game goes on, instead, as a copy of one that need not (its line and
    states so far): "go with the winners". Last, in MOBILE_SHARE of that time,
    MOBILE_PLAYOUTS lasting playouts that choose by mobility (`_mobile_step`): puzzles
    whose longest line fills a board (a knight's tour, queens) are played to the end."""
    rng = np.random.default_rng(seed)
    circuit = None
    try:
        circuit = BatchCircuit(system, budget=budget)
    except OutOfBudget:
        max_steps = 0  # no time even to compile the circuit: playouts of no step
    state_bytes = STATE_BYTES // 2 if lasting else STATE_BYTES
    first_budget = budget.part(share=0.5) if budget is not None and lasting else budget
    played = _play_paced(system, circuit, playouts, max_steps, state_bytes, rng, first_budget)
    if not lasting or max_steps == 0:
        return played
    try:
        ending = circuit.restricted([system.terminal], budget)
    except OutOfBudget:
        return played
    lasting_budget = budget.part(share=1 - MOBILE_SHARE) if budget is not None else None
    more = _play_paced(
        system, circuit, lasting, max_steps, state_bytes, rng, lasting_budget, ending
    )
    played = played.joined(replace(more, lasting=len(more.lengths)))
    try:
        ahead = circuit.restricted([system.terminal, *itertools.chain(*system.legal)], budget)
    except OutOfBudget:
        return played
    mobile = _play(
        system, circuit, MOBILE_PLAYOUTS, max_steps, state_bytes // 4, rng, budget, ahead, True
    )
    return played.joined(replace(mobile, lasting=len(mobile.lengths)))


def _play_paced(system, circuit, playouts, max_steps, state_bytes, rng, budget, ending=None):
    """`_play`, but as many playouts as can end within the budget: PACE_PLAYOUTS first, then
    as many more as their pace says fit in the time left (all of them if that is enough).
    Long games of a big circuit end then, where a thousand playouts at once would all be
    stopped by the budget halfway through, none ending."""
    if budget is None or budget.remaining() == math.inf or playouts <= PACE_PLAYOUTS:
        return _play(system, circuit, playouts, max_steps, state_bytes, rng, budget, ending)
    start = time.monotonic()
    first = _play(system, circuit, PACE_PLAYOUTS, max_steps, state_bytes, rng, budget, ending)
    seconds_each = (time.monotonic() - start) / PACE_PLAYOUTS
    fitting = int(budget.remaining() / max(seconds_each, 1e-9)) // 64 * 64
    more = min(playouts - PACE_PLAYOUTS, fitting)
    if more <= 0:
        return first
    return first.joined(_play(system, circuit, more, max_steps, state_bytes, rng, budget, ending))


def _play(
    system, circuit, playouts, max_steps, state_bytes, rng, budget, ending=None, mobile=False
):
    """Playouts from the initial state (lasting ones if the terminal's compiled cone
    `ending` is given; mobile ones if it is the cone of the legal actions too and `mobile`),
    their states taking at most `state_bytes`."""
    width = max(1, len(system.fluents))
    playouts = max(64, min(playouts, state_bytes // (width * (max_steps + 1)) // 64 * 64))
    max_steps = min(max_steps, state_bytes // (width * playouts))
    fluent_nodes = np.array(system.fluent_nodes, dtype=int)
    start = np.zeros((len(system.fluents), playouts), dtype=bool)
    start[sorted(system.initial)] = True
    state = pack(start)
    running = np.ones(playouts, dtype=bool)
    lengths = np.zeros(playouts, dtype=int)
    states, actions = [start.T], []
    for _ in range(max_steps):
        if budget is not None and budget.expired:
            break
        values = np.zeros((circuit.size, state.shape[1]), dtype=np.uint64)
        values[fluent_nodes] = state
        circuit.evaluate(values)
        running &= ~_literal_rows(values, [system.terminal], playouts)[0]
        legal = [_literal_rows(values, literals, playouts) for literals in system.legal]
        if not all(len(allowed) for allowed in legal):  # a role without any action
            break
        for allowed in legal:
            running &= allowed.any(axis=0)
        if not running.any():
            break
        scores = [rng.random(allowed.shape) for allowed in legal]
        if ending is None:
            joint, following = _step(system, circuit, values, legal, scores)
        elif mobile:
            step = _mobile_step(system, circuit, ending, values, legal, scores, budget)
            joint, following, lasts = step
        else:
            joint, following, lasts = _lasting_step(system, circuit, ending, values, legal, scores)
        keep = pack(running[None, :])
        state = (following & keep) | (state & ~keep)
        row = unpack(state, playouts).T
        if ending is not None:
            ended = np.flatnonzero(running & ~lasts)
            going = np.flatnonzero(running & lasts)
            if len(ended) and len(going):  # go with the winners
                sources = rng.choice(going, size=len(ended))
                for past in (*states, *actions, row, joint):
                    past[ended] = past[sources]
                state = pack(row.T)
        lengths += running
        states.append(row)
        actions.append(joint)
    actions.append(np.zeros((playouts, len(system.roles)), dtype=np.int32))
    return Playouts(np.stack(states), lengths, np.stack(actions), circuit)


def _step(system, circuit: BatchCircuit, values, legal, scores, rank: int = 0):
    """Every playout's joint action in which each role takes its legal action of the
    `rank`-th highest score (counted round its legal actions), as action indexes (playout x
    role), and the packed next states it leads to; `values` holds the node values of the
    current states."""
    playouts = legal[0].shape[1]
    joint = np.zeros((playouts, len(system.roles)), dtype=np.int32)
    for role, (allowed, score) in enumerate(zip(legal, scores, strict=True)):
        masked = np.where(allowed, score, -1.0)
        if rank == 0:
            joint[:, role] = masked.argmax(axis=0)
        else:
            ranked = np.argsort(-masked, axis=0)
            choices = np.maximum(allowed.sum(axis=0), 1)
            joint[:, role] = ranked[rank % choices, np.arange(playouts)]
        chosen = np.zeros_like(allowed)
        chosen[joint[:, role], np.arange(playouts)] = True
        values[np.array(system.action_nodes[role])] = pack(chosen)
    circuit.evaluate(values)
    return joint, packed_literal_rows(values, system.next)


def _lasting_step(system, circuit, ending, values, legal, scores):
    """Of each playout's joint actions of rank 0, 1, ... (see `_step`; at most LOOKAHEAD,
    and no more than the most legal actions a role has), the first whose next state is not
    terminal (else the last tried), with the next states and whether each is not
    terminal."""
    fluent_nodes = np.array(system.fluent_nodes, dtype=int)
    joint, following = _step(system, circuit, values, legal, scores)
    settled = np.zeros(len(joint), dtype=bool)
    ranks = min(LOOKAHEAD, max(int(allowed.sum(axis=0).max()) for allowed in legal))
    for rank in range(1, ranks + 1):
        after = np.zeros_like(values)
        after[fluent_nodes] = following
        ending.evaluate(after)
        settled |= ~_literal_rows(after, [system.terminal], len(joint))[0]
        if settled.all() or rank == ranks:
            break
        other_joint, other_following = _step(system, circuit, values, legal, scores, rank)
        joint[~settled] = other_joint[~settled]
        take = pack(~settled[None, :])
        following = (other_following & take) | (following & ~take)
    return joint, following, settled


def _mobile_step(system, circuit, ahead, values, legal, scores, budget):
    """Of each playout's joint actions of rank 0, 1, ... (see `_step`; at most
    MOBILE_CANDIDATES, and no more than the most legal actions a role has), one whose next
    state is not terminal (if any) that leaves the most legal actions (in even playouts) or
    the fewest (in odd ones: Warnsdorff's rule for a knight's tour), the first so ranked on
    a tie; with the next states and whether each is not terminal. `ahead` is the compiled
    cone of the terminal and the legal actions; where the budget ends, the joint actions
    weighed so far decide."""
    fluent_nodes = np.array(system.fluent_nodes, dtype=int)
    playouts = legal[0].shape[1]
    signs = np.where(np.arange(playouts) % 2 == 0, 1, -1)
    ceiling = sum(len(literals) for literals in system.legal) + 1  # above any mobility
    ranks = min(MOBILE_CANDIDATES, max(int(allowed.sum(axis=0).max()) for allowed in legal))
    best = np.full(playouts, -2 * ceiling)
    for rank in range(ranks):
        joint, following = _step(system, circuit, values, legal, scores, rank)
        after = np.zeros_like(values)
        after[fluent_nodes] = following
        ahead.evaluate(after)
        going = ~_literal_rows(after, [system.terminal], playouts)[0]
        mobility = sum(
            _literal_rows(after, literals, playouts).sum(axis=0) for literals in system.legal
        )
        key = np.where(going, ceiling, 0) + signs * mobility
        better = key > best
        if rank == 0:
            chosen, reached, lasts = joint, following, going
        else:
            chosen[better] = joint[better]
            take = pack(better[None, :])
            reached = (following & take) | (reached & ~take)
            lasts = np.where(better, going, lasts)
        best = np.maximum(best, key)
        if budget is not None and budget.expired:
            break
    return chosen, reached, lasts


def _level(gates, children, flips, counts) -> tuple[np.ndarray, ...]:
    """A compiled level, with where each gate's children start."""
    return gates, children, flips, counts, np.cumsum(counts) - counts


def packed_literal_rows(values: np.ndarray, literals) -> np.ndarray:
    """The packed rows of circuit literals (negative ones negated) in node values."""
    literals = np.asarray(literals, dtype=np.int64)
    return values[np.abs(literals)] ^ np.where(literals < 0, ONES, np.uint64(0))[:, None]


def _literal_rows(values: np.ndarray, literals, width: int) -> np.ndarray:
    """The rows of circuit literals (negative ones negated), as booleans."""
    return unpack(packed_literal_rows(values, literals), width)
