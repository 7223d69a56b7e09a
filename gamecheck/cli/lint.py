"""`gamecheck lint FILE.kif`: the static checks of a GDL rule sheet, one line per finding."""

from __future__ import annotations

from gamecheck.cli import status
from gamecheck.gdl.checks import Lint, lint_file
from gamecheck.gdl.syntax import args_of
from gamecheck.gdl.terms import term_text


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "lint", help="check a GDL rule sheet against the GDL specification"
    )
    parser.add_argument("file", help="the rule sheet (.kif)")
    parser.set_defaults(run=run)


def run(args, budget) -> int:
    lint = lint_file(args.file)
    for finding in lint.findings:
        print(finding)
    print(summary(args.file, lint))
    return status(defective=bool(lint.errors))


def summary(file: str, lint: Lint) -> str:
    """One line: roles, rules and relations, then the number of errors and warnings."""
    counts = f"{_count(len(lint.errors), 'error')}, {_count(len(lint.warnings), 'warning')}"
    if lint.rules is None:
        return f"{file}: not parsed; {counts}"
    roles = [
        args_of(rule.head.term)[0]
        for rule in lint.rules
        if rule.head.relation == "role" and len(rule.head.args) == 1 and not rule.body
    ]
    role_names = ", ".join(map(term_text, dict.fromkeys(roles)))
    relations = {rule.head.relation for rule in lint.rules}
    return (
        f"{file}: {_count(len(dict.fromkeys(roles)), 'role')}"
        + (f" ({role_names})" if roles else "")
        + f", {_count(len(lint.rules), 'rule')}, {_count(len(relations), 'relation')}; {counts}"
    )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
