"""Read GDL rule sheets (KIF syntax) into the rules of gdl/syntax.py.

>>> rule, = parse_rules("(<= (legal ?p noop) (ROLE ?p) (not (true (control ?p))))")
>>> str(rule)
'(<= (legal ?p noop) (role ?p) (not (true (control ?p))))'
>>> rule.position
Position(file='<text>', line=1, column=1)

Reading happens in two passes: `_read_forms` turns the text into nested lists of symbols with
positions (comments start with `;` and run to the end of the line), then `_Converter` turns
each top-level form into a `Rule`. The first problem raises a GdlError naming file, line and
column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from gamecheck.errors import GamecheckError
from gamecheck.files import read_text
from gamecheck.gdl.syntax import (
    KEYWORDS,
    OPERATORS,
    Atom,
    Distinct,
    GdlError,
    Literal,
    Not,
    Or,
    Position,
    Rule,
)

MAX_DEPTH = 100
"""Deepest nesting of parentheses accepted (real rule sheets stay below 10)."""

_TOKEN = re.compile(r"(?P<space>\s+)|(?P<comment>;[^\n]*)|(?P<open>\()|(?P<close>\))|[^\s();]+")
_RESERVED = KEYWORDS | OPERATORS


@dataclass(slots=True)
class _Symbol:
    text: str
    position: Position


@dataclass(slots=True)
class _List:
    items: list
    position: Position


def read_rules(path: str | Path) -> tuple[Rule, ...]:
    """The rules of the rule sheet at `path` (at most files.MAX_INPUT_BYTES); GdlError if it
    cannot be read or parsed."""
    try:
        text = read_text(path)
    except GamecheckError as error:
        raise GdlError(str(error)) from None
    return parse_rules(text, str(path))


def parse_rules(text: str, file: str = "<text>") -> tuple[Rule, ...]:
    """The rules of a rule sheet given as text; `file` names it in positions."""
    converter = _Converter()
    return tuple(converter.rule(form) for form in _read_forms(text, file))


def _read_forms(text: str, file: str) -> list[_Symbol | _List]:
    """The top-level forms of the text: symbols and nested lists, with positions."""
    top: list = []
    open_lists: list[_List] = []
    line, line_start = 1, 0
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        position = Position(file, line, match.start() - line_start + 1)
        if kind == "space":
            newlines = match.group().count("\n")
            if newlines:
                line += newlines
                line_start = match.start() + match.group().rindex("\n") + 1
            continue
        if kind == "comment":
            continue
        items = open_lists[-1].items if open_lists else top
        if kind == "open":
            if len(open_lists) == MAX_DEPTH:
                raise GdlError(f"parentheses nest deeper than {MAX_DEPTH} levels", position)
            new = _List([], position)
            items.append(new)
            open_lists.append(new)
        elif kind == "close":
            if not open_lists:
                raise GdlError("unbalanced parenthesis: this ')' has no matching '('", position)
            open_lists.pop()
        else:
            word = match.group()
            if word.lower() in _RESERVED:
                word = word.lower()
            items.append(_Symbol(word, position))
    if open_lists:
        raise GdlError("unbalanced parenthesis: this '(' is never closed", open_lists[0].position)
    return top


class _Converter:
    """Turns forms into rules, literals and terms, checking the shape of each."""

    def rule(self, form: _Symbol | _List) -> Rule:
        if isinstance(form, _List) and form.items and _symbol_text(form.items[0]) == "<=":
            if len(form.items) < 2:
                raise GdlError("a rule (<= head body...) needs a head", form.position)
            head = self.atom(form.items[1], "a rule head")
            body = tuple(self.literal(item) for item in form.items[2:])
            return Rule(head, body, form.position)
        return Rule(self.atom(form, "a fact"), (), form.position)

    def literal(self, form: _Symbol | _List) -> Literal:
        operator = _symbol_text(form.items[0]) if isinstance(form, _List) and form.items else None
        if operator == "not":
            (inner,) = self._arguments(form, "not", 1)
            return Not(self.literal(inner), form.position)
        if operator == "distinct":
            left, right = self._arguments(form, "distinct", 2)
            return Distinct(self.term(left), self.term(right), form.position)
        if operator == "or":
            if len(form.items) == 1:
                raise GdlError("(or) needs at least one literal", form.position)
            return Or(tuple(self.literal(item) for item in form.items[1:]), form.position)
        return self.atom(form, "a literal")

    def atom(self, form: _Symbol | _List, role: str) -> Atom:
        name_form = form.items[0] if isinstance(form, _List) and form.items else form
        self._check_name(name_form, form, role)
        return Atom(self.term(form), form.position)

    def term(self, form: _Symbol | _List):
        if isinstance(form, _Symbol):
            if form.text in OPERATORS:
                raise GdlError(
                    f"'{form.text}' is a logical operator and cannot be used as a term",
                    form.position,
                )
            if form.text == "?":
                raise GdlError("a variable needs a name after '?'", form.position)
            return form.text
        if not form.items:
            raise GdlError("empty parentheses '()' are not a term", form.position)
        self._check_name(form.items[0], form, "a function name")
        return tuple(self.term(item) for item in form.items)

    @staticmethod
    def _check_name(name: _Symbol | _List, form: _Symbol | _List, role: str) -> None:
        """Raise GdlError unless `name` can start `form` as `role` (a constant, no operator)."""
        if isinstance(form, _List) and not form.items:
            raise GdlError(f"empty parentheses '()' cannot be {role}", form.position)
        if isinstance(name, _List):
            raise GdlError(f"{role} must start with a name, not '('", name.position)
        if name.text.startswith("?"):
            raise GdlError(f"a variable ({name.text}) cannot be {role} or its name", name.position)
        if name.text in OPERATORS:
            raise GdlError(f"'{name.text}' cannot be {role}", name.position)

    @staticmethod
    def _arguments(form: _List, operator: str, count: int) -> list:
        arguments = form.items[1:]
        if len(arguments) != count:
            plural = "s" if count > 1 else ""
            raise GdlError(
                f"({operator} ...) takes {count} argument{plural}, not {len(arguments)}",
                form.position,
            )
        return arguments


def _symbol_text(form: _Symbol | _List) -> str | None:
    return form.text if isinstance(form, _Symbol) else None
