"""GDL terms: a constant is a `str`, a compound term a tuple `(functor, arg, ...)`.

The text form is canonical, one space between parts: `(cell 1 4 red)`, `noop`.

>>> parse_term("( cell 1  4 red )")
('cell', '1', '4', 'red')
>>> term_text(('put', '3', '1', '1'))
'(put 3 1 1)'
"""

from __future__ import annotations

import re

from gamecheck.errors import BadTermError

Term = str | tuple
_TOKEN = re.compile(r"\s*(?:(\()|(\))|([^\s()]+))")


def term_text(term: Term) -> str:
    """The canonical GDL text of a term."""
    if isinstance(term, str):
        return term
    return "(" + " ".join(term_text(part) for part in term) + ")"


def parse_term(text: str) -> Term:
    """Parse one GDL term such as `(cell 1 4 red)`; raise BadTermError if it is not one."""
    stack: list[list[Term]] = [[]]
    position = 0
    for match in _TOKEN.finditer(text):
        if match.start() != position:
            break
        position = match.end()
        opening, closing, atom = match.groups()
        if opening:
            stack.append([])
        elif closing:
            if len(stack) == 1:
                raise BadTermError(f"unbalanced ')' in term {text!r}")
            done = stack.pop()
            if not done or not isinstance(done[0], str):
                raise BadTermError(f"compound term without a name in {text!r}")
            stack[-1].append(tuple(done))
        else:
            stack[-1].append(atom)
    if text[position:].strip():
        raise BadTermError(f"cannot read {text[position:].strip()!r} in term {text!r}")
    if len(stack) != 1:
        raise BadTermError(f"unbalanced '(' in term {text!r}")
    if len(stack[0]) != 1:
        raise BadTermError(f"expected exactly one term, got {text!r}")
    return stack[0][0]


def canonical(text: str) -> str:
    """The canonical spelling of a term given as text."""
    return term_text(parse_term(text))


def numeral(term: Term) -> int | None:
    """The value of a term that is a plain decimal numeral such as `12`, else None."""
    if isinstance(term, str) and term.isascii() and term.isdigit():
        return int(term)
    return None
