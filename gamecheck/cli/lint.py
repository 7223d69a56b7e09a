"""`gamecheck lint FILE.kif ...`: the static checks of GDL rule sheets, one line per finding
(`file:line:col: error|warning: ...`) and a summary line per sheet; `-` reads a sheet from
the standard input, named `<stdin>`. Exit 1 if any sheet has an error; a sheet that cannot be
read is bad input (exit 2, one sentence), and then no sheet is checked."""

from __future__ import annotations

from gamecheck.cli import status
from gamecheck.errors import GamecheckError
from gamecheck.files import STDIN, input_name
from gamecheck.gdl.checks import Lint, lint_file, lint_text
from gamecheck.gdl.syntax import args_of
from gamecheck.gdl.terms import term_text


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "lint", help="check GDL rule sheets against the GDL specification"
    )
    parser.add_argument(
        "files", nargs="+", metavar="FILE", help="rule sheets (.kif); - reads the standard input"
    )
    parser.set_defaults(run=run)


def run(args, budget) -> int:
    if args.files.count(STDIN) > 1:
        raise GamecheckError("the standard input (-) can be read only once")
    lints = [(input_name(file), lint_sheet(file)) for file in args.files]
    for name, lint in lints:
        for finding in lint.findings:
            print(finding)
        print(summary(name, lint))
    return status(defective=any(lint.errors for _, lint in lints))


def lint_sheet(file: str) -> Lint:
    """The lint of the sheet in `file` (`-`: the standard input, named `<stdin>`)."""
    if file == STDIN:
        from gamecheck.files import read_text

        return lint_text(read_text(file), input_name(file))
    return lint_file(file)


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
