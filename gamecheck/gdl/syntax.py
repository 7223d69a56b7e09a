"""The rule representation of a GDL rule sheet, shared by the parser, checks, reasoner and grounder.

Terms follow gdl/terms.py: a constant is a `str`, a compound term a tuple
`(functor, arg, ...)`; a variable is a `str` starting with `?`. An *atom* (atomic sentence)
is a term too: `('cell', '1', '1', 'b')`, `'terminal'`; its relation is the functor.

A rule sheet is a tuple of `Rule`s. A fact is a rule with an empty body. Body literals are
`Atom`, `Not`, `Distinct` and `Or` (as written: `Or` may nest and `Not` may wrap any literal).
`normal_rules` turns a rule into equivalent rules whose bodies hold only `Atom`, `Not(Atom)`,
`Distinct` and `Not(Distinct)` (disjunctions expanded, negations pushed inwards): the form the
checks and the reasoner work on. Every rule and literal carries the `Position` it was read
from; positions never take part in equality, so rules built by hand compare equal to parsed ones.

Keywords (`role`, `init`, `true`, `does`, `next`, `legal`, `goal`, `terminal`, `base`,
`input`, `distinct`, `not`, `or`, `<=`) are read in any case and stored in lower case. Every
other constant and every variable keeps its case as written and compares exactly, so facts
print as written (`redPawn`); the checks warn when two names differ only in case.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass, field

from gamecheck.errors import GamecheckError
from gamecheck.gdl.terms import Term, term_text

KEYWORDS = frozenset(
    ("role", "init", "true", "does", "next", "legal", "goal", "terminal", "base", "input")
)
OPERATORS = frozenset(("distinct", "not", "or", "<="))
MAX_ALTERNATIVES = 4096
"""Most rules one rule may expand into when its disjunctions are multiplied out."""


@dataclass(frozen=True, slots=True)
class Position:
    """Where something was read: file name, line and column (both from 1)."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class GdlError(GamecheckError):
    """A rule sheet that cannot be read or used; the message starts with file:line:col."""

    def __init__(self, message: str, position: Position | None = None):
        super().__init__(f"{position}: {message}" if position else message)
        self.reason = message
        self.position = position


def _position_field():
    return field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Atom:
    """An atomic sentence such as `(true (cell 1 1 b))` or `terminal`."""

    term: Term
    position: Position | None = _position_field()

    @property
    def relation(self) -> str:
        return relation_of(self.term)

    @property
    def args(self) -> tuple:
        return args_of(self.term)


@dataclass(frozen=True, slots=True)
class Not:
    """`(not literal)`."""

    literal: Literal
    position: Position | None = _position_field()


@dataclass(frozen=True, slots=True)
class Distinct:
    """`(distinct left right)`: true when the two terms (once ground) differ."""

    left: Term
    right: Term
    position: Position | None = _position_field()


@dataclass(frozen=True, slots=True)
class Or:
    """`(or literal ...)`: true when one of the literals is."""

    literals: tuple[Literal, ...]
    position: Position | None = _position_field()


Literal = Atom | Not | Distinct | Or


@dataclass(frozen=True, slots=True)
class Rule:
    """`(<= head body...)`, or a fact when `body` is empty."""

    head: Atom
    body: tuple[Literal, ...] = ()
    position: Position | None = _position_field()

    def __str__(self) -> str:
        if not self.body:
            return literal_text(self.head)
        return "(<= " + " ".join(literal_text(part) for part in (self.head, *self.body)) + ")"


def unnegated(literal: Literal) -> Literal:
    """The literal inside a `not` (a literal without one, itself)."""
    return literal.literal if isinstance(literal, Not) else literal


def relation_of(term: Term) -> str:
    """The relation (or function) name of an atom or term: its functor, or itself if constant."""
    return term if isinstance(term, str) else term[0]


def args_of(term: Term) -> tuple:
    """The arguments of an atom or term (empty for a constant)."""
    return () if isinstance(term, str) else term[1:]


def is_variable(term: Term) -> bool:
    return isinstance(term, str) and term.startswith("?")


def variables(term: Term) -> Iterator[str]:
    """The variables of a term, left to right, with repetitions."""
    if isinstance(term, str):
        if term.startswith("?"):
            yield term
    else:
        for part in term[1:]:
            yield from variables(part)


def is_ground(term: Term) -> bool:
    return next(variables(term), None) is None


def literal_variables(literal: Literal) -> Iterator[str]:
    """The variables of a literal, left to right, with repetitions."""
    if isinstance(literal, Atom):
        yield from variables(literal.term)
    elif isinstance(literal, Not):
        yield from literal_variables(literal.literal)
    elif isinstance(literal, Distinct):
        yield from variables(literal.left)
        yield from variables(literal.right)
    else:
        for part in literal.literals:
            yield from literal_variables(part)


def literal_text(literal: Literal) -> str:
    """The literal written back as GDL text."""
    if isinstance(literal, Atom):
        return term_text(literal.term)
    if isinstance(literal, Not):
        return f"(not {literal_text(literal.literal)})"
    if isinstance(literal, Distinct):
        return f"(distinct {term_text(literal.left)} {term_text(literal.right)})"
    return "(or " + " ".join(literal_text(part) for part in literal.literals) + ")"


NormalLiteral = Atom | Not | Distinct
"""A literal of a normal rule: `Atom`, `Not(Atom)`, `Distinct` or `Not(Distinct)`."""


def normal_rules(rule: Rule) -> list[Rule]:
    """Rules without `Or` and with `Not` only around atoms and distincts, equivalent to `rule`.

    Each disjunction multiplies the rule (one copy per disjunct); `(not (or a b))` becomes
    `(not a) (not b)` and `(not (not a))` becomes `a`. Positions are kept.
    """
    choices = [_conjunctions(literal, positive=True) for literal in rule.body]
    if math.prod(len(choice) for choice in choices) > MAX_ALTERNATIVES:
        raise GdlError(
            f"this rule's (or ...) literals expand into more than {MAX_ALTERNATIVES} "
            "alternatives; split it into several rules",
            rule.position,
        )
    return [
        Rule(rule.head, tuple(itertools.chain.from_iterable(combination)), rule.position)
        for combination in itertools.product(*choices)
    ]


def _conjunctions(
    literal: Literal, positive: bool, negation: Position | None = None
) -> list[list[NormalLiteral]]:
    """The literal (negated unless `positive`) as a disjunction of conjunctions.

    `negation` is the position of the innermost `(not` around the literal, given to the
    `Not` literals this creates.
    """
    if isinstance(literal, Not):
        return _conjunctions(literal.literal, not positive, literal.position)
    if isinstance(literal, Or):
        parts = [_conjunctions(part, positive, negation) for part in literal.literals]
        if positive:
            return [conjunction for part in parts for conjunction in part]
        return [
            list(itertools.chain.from_iterable(combination))
            for combination in itertools.product(*parts)
        ]
    return [[literal if positive else Not(literal, negation)]]
