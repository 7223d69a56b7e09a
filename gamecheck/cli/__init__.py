"""The `gamecheck` command line: one subcommand per module of gamecheck.cli."""

from __future__ import annotations

import argparse
import sys

from gamecheck.analysis.replay import CrossCheckFailure
from gamecheck.cli import forced_win, games, lint, play, report, stats, sudoku, verify
from gamecheck.errors import GamecheckError
from gamecheck.solvers.forced_win.strategy_check import StrategyCheckFailure

COMMANDS = (games, lint, play, stats, sudoku, verify, forced_win, report)
USAGE_ERROR = 2
BUG = 3


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one sentence, like every other bad input."""

    def error(self, message: str):
        raise GamecheckError(f"{self.prog}: {message} (see {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="gamecheck",
        description="Analyse General Game Playing games with SAT and CP-SAT gamecheck.solvers.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; bad input gives one sentence on stderr and exit status 2."""
    try:
        args = build_parser().parse_args(argv)
        return args.run(args) or 0
    except GamecheckError as error:
        print(f"gamecheck: error: {error}", file=sys.stderr)
        return USAGE_ERROR
    except (CrossCheckFailure, StrategyCheckFailure) as failure:
        print(
            f"gamecheck: internal error (a cross-check failed, please report): {failure}",
            file=sys.stderr,
        )
        return BUG
    except KeyboardInterrupt:
        print("gamecheck: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
