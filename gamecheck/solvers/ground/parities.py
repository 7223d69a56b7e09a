"""Parities: sets of fluents of which an odd number (or an even number) hold in every
reachable state, because no step flips an odd number of them.

Peg solitaire's position classes are the classic case. A jump flips three holes in a row;
colour the board's diagonals in three colours and every jump flips one hole of each, so the
number of pegs on any two colours keeps its parity, and on the European board no single peg
can be left from the centre start. No count of pegs stays the same (balances.py), only
their parities do, and a SAT solver rediscovers a parity argument only at exponential cost.

Candidates come from linear algebra over GF(2). Each sampled step flips a set of fluents (a
row); the sets that meet every row in an even number of fluents are the rows' null space.
Groups with exactly one member in every sampled state (the values of one cell) and fluents
that no step flips span parities the other invariants already give; the candidates are a
basis of the rest. A step from any state satisfying the proved invariants that flips an odd
number of some candidate's fluents (asked of the SAT solver) is one more row, and the null
space is taken again, until no step flips any candidate: then each keeps its parity of the
initial state in every reachable state, by induction.

Sets of fluents are Python ints here, bit i for fluent i.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from gamecheck.budget import Budget
from gamecheck.gdl.terms import term_text
from gamecheck.solvers.ground.sampling import Playouts
from gamecheck.solvers.ground.transition import TransitionSystem

MAX_ROUNDS = 8
"""The most solver calls: each step the solver finds takes one candidate away, and where
the samples miss that many ways to step, the parities (if any) are not worth the time."""
MAX_FLUENTS = 3000
"""Systems with more fluents are not searched: the row echelon form takes time quadratic in
them (some 3 s at 3000), and the parities sought are those of puzzle boards."""
MAX_CANDIDATES = 32
"""More candidates than this, and the search gives up: the samples show too few of the
ways a step flips fluents to be worth the solver calls (a parity is a rare find)."""
MAX_TERMS = 2000
"""The most fluents that the proved parities may count in all: each is a chain of that
many XOR gates on every layer of a free start."""


@dataclass(frozen=True)
class Parity:
    """An odd number of `fluents` hold in every reachable state (an even number, if not
    `odd`)."""

    fluents: tuple[int, ...]
    odd: bool
    description: str


def find_parities(
    system: TransitionSystem,
    playouts: Playouts,
    samples: np.ndarray,
    groups: Iterable[list[int]],
    flipping: Callable[[list[tuple[int, ...]]], np.ndarray | None],
    budget: Budget,
) -> list[Parity]:
    """The parities proved: `flipping(candidates)` gives the fluents that some step flips
    (a boolean row) where it flips an odd number of some candidate's, else None. `samples`
    are sampled states (one row of fluent values each); `groups` lists of fluent indexes."""
    if len(system.fluents) > MAX_FLUENTS:
        return []
    rows = _Basis()
    for row in _sampled_flips(playouts, budget):
        budget.check()
        rows.add(row)
    ones = [
        _bits(members)
        for members in groups
        if len(members) > 1 and (samples[:, members].sum(axis=1) == 1).all()
    ]
    everything = (1 << len(system.fluents)) - 1
    for _ in range(MAX_ROUNDS):
        budget.check()
        candidates = _candidates(rows, ones, everything)
        if not candidates or len(candidates) > MAX_CANDIDATES:
            return []
        flips = flipping([_members(c) for c in candidates])
        if flips is None:
            break
        row = _bits(np.flatnonzero(flips))
        if not rows.add(row):
            return []  # a step the rows had already: the candidates are not in their null space
        ones = [group for group in ones if (group & row).bit_count() % 2 == 0]
    else:
        return []
    kept, terms = [], 0
    for candidate in sorted(candidates, key=int.bit_count):
        terms += candidate.bit_count()
        if terms > MAX_TERMS:
            break
        kept.append(_parity(system, _members(candidate)))
    return kept


def _parity(system: TransitionSystem, members: tuple[int, ...]) -> Parity:
    odd = len(system.initial.intersection(members)) % 2 == 1
    names = [term_text(system.fluents[i]) for i in members[:3]]
    more = f" and {len(members) - 3} more" if len(members) > 3 else ""
    text = f"an {'odd' if odd else 'even'} number of {', '.join(names)}{more}"
    return Parity(members, odd, text)


def _sampled_flips(playouts: Playouts, budget: Budget) -> set[int]:
    """The fluents each step of the playouts flipped, as sets."""
    states, lengths = playouts.states, playouts.lengths
    found = set()
    for t in range(min(len(states) - 1, int(lengths.max(initial=0)))):
        budget.check()
        flips = states[t + 1, lengths > t] ^ states[t, lengths > t]
        packed = np.packbits(flips, axis=1, bitorder="little")
        found.update(int.from_bytes(row.tobytes(), "little") for row in packed)
    found.discard(0)
    return found


class _Basis:
    """A basis of the span of the sets added, in reduced row echelon form: each member has
    a pivot (its highest fluent) that no other member has."""

    def __init__(self) -> None:
        self.pivots: dict[int, int] = {}
        self.mask = 0
        """The pivots, as a set."""

    def reduce(self, row: int) -> int:
        """The row less its part in the span (0 if it lies in it): each member clears its
        pivot and flips only fluents that are no pivot."""
        for pivot in _members(row & self.mask):
            row ^= self.pivots[pivot]
        return row

    def add(self, row: int) -> bool:
        """Add the row; False if it lay in the span already."""
        row = self.reduce(row)
        if not row:
            return False
        pivot = row.bit_length() - 1
        for other, member in self.pivots.items():
            if member >> pivot & 1:
                self.pivots[other] = member ^ row
        self.pivots[pivot] = row
        self.mask |= 1 << pivot
        return True

    def null_space(self, everything: int) -> list[int]:
        """A basis of the sets (within `everything`) that meet every member in an even
        number of fluents: one per fluent that is no pivot, with the pivots of the members
        that have it."""
        free = everything & ~self.mask
        space = {j: 1 << j for j in _members(free)}
        for pivot, member in self.pivots.items():
            for j in _members(member & free):
                space[j] |= 1 << pivot
        return list(space.values())


def _candidates(rows: _Basis, ones: list[int], everything: int) -> list[int]:
    """A basis of the rows' null space less what the groups of `ones` and the fluents no
    row flips span. (A group with exactly one member in every sample is in the null space
    unless a state of a playout that is no sample has two, or none: then a candidate is not
    either, and the step the solver finds is one of the rows. A step the solver finds from
    a state that no line of play reaches may flip one member: the group is dropped.)"""
    flipped = 0
    for member in rows.pivots.values():
        flipped |= member
    known = _Basis()
    for group in ones:
        known.add(group)
    for j in _members(everything & ~flipped):
        known.add(1 << j)
    found = []
    for vector in rows.null_space(everything):
        rest = known.reduce(vector)
        if rest:
            known.add(rest)
            found.append(rest)
    return found


def _bits(members: Iterable[int]) -> int:
    bits = 0
    for i in members:
        bits |= 1 << int(i)
    return bits


def _members(bits: int) -> tuple[int, ...]:
    found = []
    while bits:
        low = bits & -bits
        found.append(low.bit_length() - 1)
        bits ^= low
    return tuple(found)
