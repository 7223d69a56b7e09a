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
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from gamecheck import __version__
from gamecheck.budget import STUCK_SECONDS, Budget, on_signals, on_stuck_calls
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
"""The subcommand modules; the command is the module's name with `-` for `_`. Only the
module of the command being run is imported (all of them for --help), so that a command
starts without loading what other commands need."""
HELP_FLAGS = ("-h", "--help")
FINISH_SECONDS = 1.5
"""The end of a time limit (at most a tenth of it) that the command's work leaves free: for
Python starting before `main` (0.2 s), and printing, freeing memory and exiting after the work
(0.2-0.54 s past the limit without it, at 120 s on the corpus, two commands at a time on 2
cores; merrills, 1.4 GB: 0.6 s freeing the reasoner's cached states and 0.35 s exiting)."""


def status(*, defective: bool = False, unknown: bool = False) -> int:
    """The exit status of a command that ran to its end."""
    return DEFECTIVE if defective else UNKNOWN if unknown else OK


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one sentence, like every other bad input."""

    def error(self, message: str):
        raise GamecheckError(f"{message} (see {self.prog} --help)")


class _Terminated(BaseException):
    """SIGTERM outside a command that shares a budget."""


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser of the command line `argv`: full options for the command it names (for
    every command if it asks for help first), the other commands by name only."""
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
    wanted = _commands_to_load(sys.argv[1:] if argv is None else argv)
    for module in COMMANDS:
        command = module.replace("_", "-")
        if command in wanted:
            importlib.import_module(f"gamecheck.cli.{module}").register(subparsers)
        else:
            subparsers.add_parser(command)
    return parser


def _commands_to_load(argv: list[str]) -> set[str]:
    """The command `argv` runs, or every command if a help flag comes before it."""
    for argument in argv:
        if argument in HELP_FLAGS:
            return {module.replace("_", "-") for module in COMMANDS}
        if not argument.startswith("-"):
            return {argument}
    return set()


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand and return its exit status (see the module docstring). The
    time limit counts from here: loading the command's modules takes part of it, and the
    work stops FINISH_SECONDS before its end."""
    started = time.monotonic()
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        args = build_parser(argv).parse_args(argv)
        limit = getattr(args, "time_limit", None)
        work = None if limit is None else limit - min(FINISH_SECONDS, limit / 10)
        budget = Budget(work, start=started)
        with on_signals(budget), on_stuck_calls(end_stuck_run):
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
    except RecursionError:  # e.g. a rule sheet whose terms nest ever deeper
        print(
            "gamecheck: error: the game's terms nest too deeply for gamecheck to handle",
            file=sys.stderr,
        )
        return BAD_INPUT
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


def end_stuck_run(answers: str = "without its answers") -> None:
    """End the process from the watchdog thread: a solver call ignores its stop. `answers`
    ends the sentence: what the command printed of its answers before."""
    print(
        f"gamecheck: error: a solver call ({_main_thread_calls()}) ran on "
        f"{STUCK_SECONDS:.0f} s after it was told to stop; the run ends {answers}",
        file=sys.stderr,
        flush=True,
    )
    os._exit(UNKNOWN)


def _main_thread_calls(most: int = 3) -> str:
    """Where the main thread is in gamecheck: its innermost `most` calls, for a report."""
    frame = sys._current_frames().get(threading.main_thread().ident)
    package = os.path.dirname(os.path.dirname(__file__))
    calls = []
    while frame is not None and len(calls) < most:
        path = frame.f_code.co_filename
        if path.startswith(package):
            place = os.path.relpath(path, os.path.dirname(package))
            calls.append(f"{frame.f_code.co_name} at {place}:{frame.f_lineno}")
        frame = frame.f_back
    return ", called by ".join(calls) or "outside gamecheck"


def _raise_terminated(_number, _frame) -> None:
    raise _Terminated


@contextmanager
def stopping_at_once() -> Iterator[None]:
    """Inside, for a command whose work does not share the budget: Ctrl-C and SIGTERM stop
    it at once (as exceptions, so that its clean-up runs), exiting 130 or 143."""
    previous = {
        signal.SIGINT: signal.signal(signal.SIGINT, signal.default_int_handler),
        signal.SIGTERM: signal.signal(signal.SIGTERM, _raise_terminated),
    }
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that Python's final flush does not fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
