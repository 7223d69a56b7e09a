"""What the invariant search (invariants.py) proves and weighs: state invariants, counters
(balances among them: a counter of rate 0), limits, and the features a count is made of."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

SPLIT_TERMS = 1024
"""A balance with a register is written per number if that takes at most this many terms."""


@dataclass(frozen=True)
class StateInvariant:
    """A circuit literal that holds in every reachable state. `family` names the candidates
    it is first tried with (one relation's, one group family's, the goals', ...)."""

    literal: int
    description: str
    family: str = field(default="", compare=False)
    exclusive: tuple[int, ...] = field(default=(), compare=False)
    """For "at most one of these fluents holds": the fluents (indexes)."""


@dataclass(frozen=True)
class Counter:
    """At layer t: the sum over features of weight * (number of true literals) equals
    start + rate * t: a counter grows by one every step, a balance (rate 0) never changes.
    A counter's `steps` are the ways a step may change the features, each a tuple of
    (rises, falls) per feature: how many of its literals become true, and false (a
    balance, proved on its sum, has none)."""

    features: tuple[tuple[int, tuple[int, ...]], ...]
    start: int
    steps: tuple[tuple[tuple[int, int], ...], ...]
    description: str
    rate: int = 1
    holding: tuple[StateInvariant, ...] = ()
    """State invariants proved together with it (a register's number is always there)."""
    register: int = 0
    """How many of the first literals are a register's: one of them holds in every state."""
    constant: bool = False
    """A balance of one feature that no step changes (each side's three pegs in chinese
    checkers): written on a free start's layers only, as the functional dependencies are,
    since every line of play from the initial state keeps it anyway."""

    @property
    def sums(self) -> list[tuple[int | None, list[tuple[int, int]], int]]:
        """The balance in a state as (literal, terms, total): where the literal holds (always,
        where it is None), the weights of the true terms add up to the total. With a
        register whose other terms weigh differently (else it is `pinned`), one for each of
        its numbers, over the other terms: a weighted count pinned by the number, which
        propagates where a sum of both would not (unless that takes more than SPLIT_TERMS
        terms, as a step counter's hundred numbers would)."""
        terms = self.terms
        if not self.register or self.register * (len(terms) - self.register) > SPLIT_TERMS:
            return [(None, terms, self.start)]
        rest = terms[self.register :]
        return [(lit, rest, self.start - weight) for weight, lit in terms[: self.register]]

    @cached_property
    def pinned(self) -> list[tuple[int, int]] | None:
        """For a balance of a register against a count (its other terms all weigh the same):
        per number of the register, its literal and the count it pins (-1 where none
        fits: the number never holds); None for other sums. Written so, the count is
        taken once, in unary, where a sum per number would be a weighted sum each."""
        if not self.register or self.rate:
            return None
        terms = self.terms
        units = {weight for weight, _ in terms[self.register :]}
        if len(units) != 1:
            return None
        (unit,) = units
        pinned = []
        for weight, literal in terms[: self.register]:
            count, left = divmod(self.start - weight, unit)
            pinned.append((literal, -1 if left or count < 0 else count))
        return pinned

    @property
    def counted(self) -> list[int]:
        """The literals of its terms after the register's."""
        return [literal for _, literal in self.terms[self.register :]]

    @property
    def terms(self) -> list[tuple[int, int]]:
        """(weight, literal) for every literal of every feature."""
        return [(weight, literal) for weight, literals in self.features for literal in literals]

    @property
    def clock(self) -> bool:
        """Whether it is a clock: a register alone, whose one number tells the depth."""
        return self.rate != 0 and self.register == len(self.terms)

    @property
    def most_steps(self) -> int:
        """How deep into a game a state can be by the counter: its largest sum (a clock's
        largest number) less its start."""
        weights = [weight for weight, _ in self.terms]
        return (max(weights) if self.clock else sum(w for w in weights if w > 0)) - self.start

    @property
    def encoding_size(self) -> int:
        """Its terms times their total weight: a rough size of its sum's encoding (of the
        unary count and the register, where it is `pinned`)."""
        terms = self.terms
        if self.pinned is not None:
            return len(self.counted) ** 2 + self.register
        return len(terms) * sum(abs(weight) for weight, _ in terms)


@dataclass(frozen=True)
class Limit:
    """A count of true `literals` that no step moves against `sign` (+1: it never falls,
    -1: it never rises) nor by more than one: at layer t it lies between start and
    start + sign * t."""

    literals: tuple[int, ...]
    start: int
    sign: int
    description: str

    def bounds(self, depth: int) -> tuple[int, int]:
        """The least and the most the count can be `depth` steps into the game."""
        return tuple(sorted((self.start, self.start + self.sign * depth)))


@dataclass(frozen=True)
class Feature:
    """A count over a state: how many of `literals` hold, or, with `weights`, the sum of the
    weights of those that hold (a register's number). `fluents` are the fluents it counts
    (an occupied group's members: one of them, where at most one holds; a register's: one
    per literal)."""

    literals: tuple[int, ...]
    description: str
    fluents: tuple[int, ...]
    weights: tuple[int, ...] | None = None
    holding: StateInvariant | None = None
    """What the count needs in every state (a register: some number is there)."""

    @property
    def terms(self) -> list[tuple[int, int]]:
        """(weight, literal) for every literal."""
        return list(zip(self.weights or (1,) * len(self.literals), self.literals, strict=True))

    @property
    def fluent_weights(self) -> dict[int, int]:
        """What each fluent adds to the count when it holds."""
        return dict(zip(self.fluents, self.weights or (1,) * len(self.fluents), strict=True))
