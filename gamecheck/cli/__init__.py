"""The `gamecheck` command line: one subcommand per module of this package.

Exit status, the same for every command (the README's table):

    0    everything asked was answered and nothing is wrong
    1    the rules are shown defective: a refuted property, lint errors, a puzzle with
         no solution, a strategy that does not win
    2    bad invocation or unreadable input (one sentence on stderr)
    3    an internal cross-check failed: a bug in gamecheck
    4    some answer is unknown: the time limit (or a bound) ran out first
    130  interrupted by Ctrl-C (SIGINT); 143 by SIGTERM: what was settled is printed

A command that finds both defects and unknowns exits 1.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys

from gamecheck import __version__
from gamecheck.budget import Budget, on_signals
from gamecheck.errors import CrossCheckFailure, GamecheckError

OK, DEFECTIVE, BAD_INPUT, BUG, UNKNOWN = 0, 1, 2, 3, 4
INTERRUPTED = {signal.SIGINT: 130, signal.SIGTERM: 143}
COMMANDS = (
    "games",
    "lint",
    "play",
    "stats",
    "sudoku",
    "verify",
    "forced_win",
    "check_strategy",
    "report",
)
"""The subcommand modules, imported only when the command line is parsed."""


def status(*, defective: bool = False, unknown: bool = False) -> int:
    """The exit status of a command that ran to its end."""
    return DEFECTIVE if defective else UNKNOWN if unknown else OK


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one sentence, like every other bad input."""

    def error(self, message: str):
        raise GamecheckError(f"{message} (see {self.prog} --help)")


class _Terminated(BaseException):
    """SIGTERM outside a command that shares a budget."""


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="gamecheck",
        description="Analyse General Game Playing games with SAT and CP-SAT solvers.",
        epilog="exit status: 0 answered, 1 defective rules, 2 bad input, 3 internal error, "
        "4 some answer unknown, 130/143 interrupted",
    )
    parser.add_argument("--version", action="version", version=f"gamecheck {__version__}")
    subparsers = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_Parser
    )
    for name in COMMANDS:
        importlib.import_module(f"gamecheck.cli.{name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand and return its exit status (see the module docstring)."""
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        args = build_parser().parse_args(argv)
        budget = Budget(getattr(args, "time_limit", None))
        with on_signals(budget):
            code = args.run(args, budget)
        sys.stdout.flush()
        return INTERRUPTED.get(budget.interrupted, code)
    except GamecheckError as error:
        print(f"gamecheck: error: {error}", file=sys.stderr)
        return BAD_INPUT
    except CrossCheckFailure as failure:
        print(
            f"gamecheck: internal error (a cross-check failed, please report): {failure}",
            file=sys.stderr,
        )
        return BUG
    except KeyboardInterrupt:
        print("gamecheck: interrupted", file=sys.stderr)
        return INTERRUPTED[signal.SIGINT]
    except _Terminated:
        print("gamecheck: terminated", file=sys.stderr)
        return INTERRUPTED[signal.SIGTERM]
    except BrokenPipeError:
        _silence_stdout()
        return OK
    except OSError as error:  # stdout on a full disk, a closed terminal
        _silence_stdout()
        print(f"gamecheck: error: cannot write the output: {error.strerror}", file=sys.stderr)
        return BAD_INPUT
    finally:
        signal.signal(signal.SIGTERM, previous)


def _raise_terminated(_number, _frame) -> None:
    raise _Terminated


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that Python's final flush does not fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
