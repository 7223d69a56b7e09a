"""A ranking: a proof that every game ends within a bound, for games without a step counter.

Many games end because something runs out: cells to mark, squares to burn, pieces to take.
Such a game has *monotone* fluents, which a step may turn only one way: a mark, once made,
stays (it only rises), and a blank cell, once marked, never becomes blank again (it only
falls). Where the marks change (othello's discs flip), a *place* may still be monotone: a
group of fluents of which some holds once the cell is taken, whatever the disc. If every
k steps from non-terminal states turn at least one of a set of monotone fluents (or places),
each still unturned in the initial state, they run out: with R of them, no line of play
is longer than k(R + 1) - 1 steps, and a state t steps into the game has turned t // k of
them. That count, like a step counter, bounds the depth of a state the invariants allow.
Where every k steps turn m of them at least (tron's two riders each leave a wall behind
them every step), the bound is k((R // m) + 1) - 1.

Candidates come from random playouts: a fluent (or place) false in the initial state that no
playout turns off may only rise, and one true initially that none turns on may only fall.
Monotonicity is proved by induction from any state that satisfies the proved invariants:
ask for a step that turns a candidate the wrong way, drop every candidate the model breaks,
and ask again until UNSAT (as Houdini does for state invariants). Progress is one more
UNSAT query over k steps of unchanged fluents; the rate m, one more for each m, over k steps
that turn fewer than m. Over k > 1 steps, the query's lines keep what a step turning none
of the fluents is proved to keep: in othello a pass keeps the board, so the other player's
moves are the same gates at both layers, where two copies of them took minisat 26 s. Where
no fluent is monotone, a weighted sum of fluents may still rise every k steps
(potential.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from gamecheck.budget import Budget, OutOfBudget
from gamecheck.gdl.terms import term_text
from gamecheck.solvers.ground.invariant_kinds import StateInvariant
from gamecheck.solvers.ground.potential import Potential, find_potential, line_under_invariants
from gamecheck.solvers.ground.sampling import Playouts
from gamecheck.solvers.ground.transition import TransitionSystem
from gamecheck.solvers.ground.unroll import Unrolling, unbroken
from gamecheck.solvers.sat import negate

PROGRESS_STEPS = (1, 2, 3)
"""The spans k tried: every k steps turn a monotone fluent (the smallest k first)."""
POTENTIAL_STEPS = 2
"""A potential is sought over the first this many spans (after the monotone fluents), each
span in turn with an equal share of the time left (the last with all of it: pawnWhopping's
potential over 2 steps takes 19 s)."""
RATE_SHARE = 0.25
"""The share of the time left that the queries for a rate above one may take (the ranking
stands with the rate proved when it ends)."""
PLACE_PLAYOUTS = 64
"""The playouts that suggest monotone places (a place's value is computed in each state)."""


@dataclass(frozen=True)
class Place:
    """A group of fluents (one cell's marks) and the circuit literal: some of them holds."""

    literal: int
    fluents: tuple[int, ...]
    description: str


@dataclass(frozen=True)
class _Monotonic:
    """A circuit literal false in the initial state that may only turn true (a fluent that
    only falls is its negation): some of `fluents` holds, or none does."""

    literal: int
    description: str
    fluents: tuple[int, ...]
    none: bool
    """Whether the literal says that none of `fluents` holds (else that some does)."""

    def values(self, states: np.ndarray) -> np.ndarray:
        """The literal's value in states (... x fluent)."""
        return states[..., list(self.fluents)].any(axis=-1) != self.none


@dataclass(frozen=True)
class Ranking:
    """Every `steps` steps of play raise a measure of the state by `rate` at least: the sum
    of the weights of the true `terms` (weight, circuit literal), `start` in the initial
    state. Monotone fluents give each fluent that turned weight 1 (start 0); a potential
    (potential.py) weighs fluents as they are."""

    terms: tuple[tuple[int, int], ...]
    start: int
    most: int
    """The largest the measure can be in a state the invariants allow."""
    steps: int
    description: str
    rate: int = 1

    def least(self, depth: int) -> int:
        """The measure, at least, in a state `depth` steps into the game."""
        return self.start + self.rate * (depth // self.steps)

    @property
    def longest(self) -> int:
        """No line of play has more steps: one more block of `steps` would raise the
        measure past its largest."""
        return self.steps * ((self.most - self.start) // self.rate + 1) - 1


def find_ranking(
    system: TransitionSystem,
    unrolling: Unrolling,
    playouts: Playouts,
    state: Sequence[StateInvariant],
    budget: Budget,
    places: Sequence[Place] = (),
    *,
    potentials: bool = True,
) -> Ranking | None:
    """A ranking of the system (monotone fluents, then with monotone `places` too, else a
    potential, unless not `potentials`), or None if none of the tried kinds is proved.
    `unrolling` has a free start; `state` are the proved state invariants. OutOfBudget if
    the budget ends first."""
    proved = [invariant.literal for invariant in state]
    exclusive = [invariant.exclusive for invariant in state if invariant.exclusive]
    prover = _Monotone(unrolling, proved, budget, playouts.states[:, :PLACE_PLAYOUTS])
    fluents = [prover.monotone(kind) for kind in _fluent_candidates(system, playouts)]
    options = _options(*fluents)
    turning = prover.first_progress(options)
    if turning is None and places:  # the places only where the fluents do not do
        more = [prover.monotone(kind) for kind in _place_candidates(playouts, places)]
        wider = _options(*map(list.__add__, fluents, more))
        turning = prover.first_progress([option for option in wider if option not in options])
    if turning is not None:
        candidates, steps = turning
        terms = tuple((1, candidate.literal) for candidate in candidates)
        most = _largest(system, terms, exclusive)
        rate = prover.rate(candidates, steps, budget.part(share=RATE_SHARE))
        return Ranking(terms, 0, most, steps, _description(candidates, steps, rate), rate)
    spans = PROGRESS_STEPS[:POTENTIAL_STEPS] if potentials else ()
    for number, steps in enumerate(spans):
        try:
            part = budget.part(share=1 / (len(spans) - number))
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


def _options(falling: list[_Monotonic], rising: list[_Monotonic]) -> list[tuple]:
    """The sets of monotone literals tried, the smallest first: the falling fluents alone,
    the rising ones alone, then both."""
    choices = [tuple(choice) for choice in (falling, rising, falling + rising) if choice]
    return sorted(dict.fromkeys(choices), key=len)


def _fluent_candidates(system: TransitionSystem, playouts: Playouts) -> list[list[_Monotonic]]:
    """[falling, rising]: fluents true initially that no playout turns on, and false ones
    that none turns off (the playouts may not have turned them at all: a proof may still
    need them)."""
    rises, falls = _turns(playouts.states)
    initial = np.zeros(len(system.fluents), dtype=bool)
    initial[sorted(system.initial)] = True
    nodes = system.fluent_nodes
    return [
        [
            _Monotonic(sign * nodes[f], term_text(system.fluents[f]), (f,), sign < 0)
            for f in map(int, np.flatnonzero(~turns & (initial == (sign < 0))))
        ]
        for sign, turns in ((-1, rises), (1, falls))
    ]


def _place_candidates(playouts: Playouts, places: Sequence[Place]) -> list[list[_Monotonic]]:
    """[falling, rising]: places that some playout empties (and none fills again), and
    places that some playout fills (and none empties), of fluents that the playouts turn
    both ways (a fluent turned one way only is a candidate itself)."""
    states = playouts.states[:, :PLACE_PLAYOUTS]
    rises, falls = _turns(states)
    found: list[list[_Monotonic]] = [[], []]
    for place in places:
        members = list(place.fluents)
        if not (rises[members].any() and falls[members].any()):
            continue
        taken = states[:, :, members].any(axis=2)
        place_rises, place_falls = _turns(taken[:, :, None])
        if taken[0, 0] and place_falls[0] and not place_rises[0]:
            found[0].append(
                _Monotonic(-place.literal, f"no {place.description}", place.fluents, True)
            )
        elif not taken[0, 0] and place_rises[0] and not place_falls[0]:
            found[1].append(
                _Monotonic(place.literal, f"some {place.description}", place.fluents, False)
            )
    return found


def _turns(states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per column of states (step x playout x column): whether some step turns it on, and
    whether some step turns it off."""
    rises = np.zeros(states.shape[2], dtype=bool)
    falls = np.zeros(states.shape[2], dtype=bool)
    for before, after in zip(states[:-1], states[1:], strict=True):  # a step at a time
        rises |= (after & ~before).any(axis=0)
        falls |= (before & ~after).any(axis=0)
    return rises, falls


def _changed_quietly(states: np.ndarray, candidates: Sequence[_Monotonic]) -> np.ndarray:
    """Per fluent: whether a step of the sampled lines (step x playout x fluent) that turns
    none of the `candidates` changes it."""
    values = np.stack([candidate.values(states) for candidate in candidates], axis=-1)
    changed = np.zeros(states.shape[2], dtype=bool)
    for t in range(len(states) - 1):
        quiet = ~(values[t + 1] & ~values[t]).any(axis=-1)
        changed |= (states[t] != states[t + 1])[quiet].any(axis=0)
    return changed


class _Monotone:
    """Steps from an arbitrary state that satisfies the proved invariants."""

    def __init__(self, unrolling: Unrolling, proved: Sequence[int], budget: Budget, states):
        self.unrolling = unrolling
        self.proved = proved
        self.budget = budget
        self.states = states
        """Sampled lines of play (step x playout x fluent): what their steps change is not
        asked of the solver."""
        self._kept_by: dict[tuple, list[int]] = {}

    def monotone(self, candidates: list[_Monotonic]) -> list[_Monotonic]:
        """The largest subset of `candidates` that no step turns false."""
        unrolling = self.unrolling
        known = line_under_invariants(unrolling, self.proved, 1)
        wrong = {c: unrolling.turned(c.literal, 1, rising=False) for c in candidates}
        return unbroken(
            unrolling, wrong, lambda some, _: unrolling.satisfiable([*known, some], self.budget)
        )

    def first_progress(self, options: list[tuple]) -> tuple[tuple, int] | None:
        """(option, k): the first of `options` (sets of monotone candidates) that every k
        steps turn, the smallest k of PROGRESS_STEPS first; None if none does."""
        for steps in PROGRESS_STEPS:
            for option in options:
                if self.progress(option, steps):
                    return option, steps
        return None

    def progress(self, candidates: Sequence[_Monotonic], steps: int) -> bool:
        """Whether every `steps` steps from non-terminal states turn one of the monotone
        `candidates` true. Over more than one step, the lines asked about keep what a step
        that turns none of them keeps (`kept_by_quiet_steps`): othello's board, when a
        player passes, so that the other's moves are the same gates again."""
        frozen = self._kept(candidates) if steps > 1 else []
        if not frozen:
            return self._none_turned(self.unrolling, candidates, steps) is False
        with self.unrolling.fresh_start(frozen) as unrolling:
            unrolling.budget = self.budget
            return self._none_turned(unrolling, candidates, steps) is False

    def _none_turned(self, unrolling: Unrolling, candidates, steps: int):
        """A model of `steps` steps from a non-terminal state that turn none of the
        monotone `candidates`, or False."""
        turned = [unrolling.turned(c.literal, steps, rising=True) for c in candidates]
        known = line_under_invariants(unrolling, self.proved, steps)
        return unrolling.satisfiable([*known, *map(negate, turned)], self.budget)

    def _kept(self, candidates: Sequence[_Monotonic]) -> list[int]:
        """`kept_by_quiet_steps`, asked once per set of candidates."""
        key = tuple(candidates)
        if key not in self._kept_by:
            self._kept_by[key] = self.kept_by_quiet_steps(candidates)
        return self._kept_by[key]

    def kept_by_quiet_steps(self, candidates: Sequence[_Monotonic]) -> list[int]:
        """The fluents that no step from a non-terminal state turning none of the monotone
        `candidates` changes (no line that turns none changes them, then): those that no
        such step of the sampled lines changes, and the solver finds none that does."""
        unrolling = self.unrolling
        known = line_under_invariants(unrolling, self.proved, 1)
        quiet = [negate(unrolling.turned(c.literal, 1, rising=True)) for c in candidates]
        sampled = _changed_quietly(self.states, candidates)
        changes = {
            f: negate(
                unrolling.conjunction(
                    negate(unrolling.turned(node, 1, rising=rising)) for rising in (True, False)
                )
            )
            for f, node in enumerate(unrolling.system.fluent_nodes)
            if not sampled[f]
        }
        known += quiet
        return unbroken(
            unrolling, changes, lambda some, _: unrolling.satisfiable([*known, some], self.budget)
        )

    def rate(self, candidates: Sequence[_Monotonic], steps: int, budget: Budget) -> int:
        """How many of the monotone `candidates` every `steps` steps from non-terminal
        states turn true at least (they turn one, as `progress` proved): 2, 3, ... in turn,
        up to the first that some line does not reach or the end of `budget`."""
        unrolling = self.unrolling
        turned = [(1, unrolling.turned(c.literal, steps, rising=True)) for c in candidates]
        known = line_under_invariants(unrolling, self.proved, steps)
        rate = 1
        while rate < len(candidates):
            fewer = unrolling.new_variable()  # at most `rate` of them turn
            unrolling.add_linear(turned, 0, rate, condition=fewer)
            try:
                if unrolling.satisfiable([*known, fewer], budget) is not False:
                    break
            except OutOfBudget:
                break
            finally:
                unrolling.add_clause([-fewer])  # retired: later queries do without it
            rate += 1
        return rate


def _description(turning: Sequence[_Monotonic], steps: int, rate: int) -> str:
    names = [candidate.description for candidate in turning[:3]]
    more = f" and {len(turning) - 3} more" if len(turning) > 3 else ""
    every = "every step" if steps == 1 else f"every {steps} steps"
    count = "one" if rate == 1 else f"{rate}"
    return f"{every} turns {count} of {', '.join(names)}{more} for good"
