"""Option types and options shared by the subcommands. A bad value gets one sentence that
names the option's meaning, never an internal name."""

from __future__ import annotations

import argparse
import math

MAX_SEED = 2**63 - 1
MAX_COUNT = 10**9
"""The largest count an option takes (playouts, solutions, steps, depths): more could not be
done in any time a run may take, and larger numbers overflow the progress bars."""
MAX_HORIZON = 100_000
"""The deepest verify unrolls: no game of the GGP repository comes near."""


def whole_number(minimum: int, maximum: int = MAX_COUNT) -> type:
    """An argparse type: a whole number from minimum to maximum."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = minimum - 1
        if not minimum <= value <= maximum:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a whole number from {minimum} to {maximum}"
            )
        return value

    return parse


count = whole_number(0)
positive = whole_number(1)
horizon = whole_number(1, MAX_HORIZON)


def seed(text: str) -> int:
    """A random seed: a whole number from 0 to 2**63 - 1."""
    try:
        return whole_number(0, MAX_SEED)(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a seed from 0 to 2**63 - 1") from None


def seconds(text: str) -> float:
    """A time limit: a finite number of seconds > 0."""
    return _positive(text, "seconds")


def megabytes(text: str) -> float:
    """A memory size: a finite number of megabytes > 0."""
    return _positive(text, "megabytes")


def _positive(text: str, unit: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of {unit} > 0")
    return value


def add_time_limit(parser, help: str, default: float | None = None) -> None:
    parser.add_argument("--time-limit", type=seconds, default=default, metavar="S", help=help)


def add_json(parser, help: str = "print one JSON object") -> None:
    parser.add_argument("--json", action="store_true", help=help)


def add_max_steps(parser, default: int) -> None:
    parser.add_argument(
        "--max-steps",
        type=positive,
        default=default,
        metavar="N",
        help=f"stop a playout that has not ended after N steps (default {default})",
    )


def add_start(parser, what: str) -> None:
    """`--state FILE` and `--moves FILE`: where `what` starts (formats:
    gamecheck.analysis.positions)."""
    parser.add_argument(
        "--state",
        metavar="FILE",
        help=f"{what} from this state (- reads stdin): one GDL fact a line (; comments), or "
        "lines of `gamecheck play --json`, the last of which counts: a step's line gives the "
        "state after its joint action, the closing line the final state",
    )
    parser.add_argument(
        "--moves",
        metavar="FILE",
        help="then play these joint moves (- reads stdin), from the initial state or --state: "
        "one a line, each role's action as a GDL term in role order, e.g. `(mark 1 1) noop`, "
        "or `gamecheck play --json` lines (their joint actions); each checked legal",
    )


def start_state(game, args):
    """The state `args.state` and `args.moves` give (see add_start); None: the initial
    state."""
    from gamecheck.analysis.positions import read_moves, read_state
    from gamecheck.errors import GamecheckError
    from gamecheck.files import STDIN

    if args.state == args.moves == STDIN:
        raise GamecheckError("--state and --moves cannot both read the standard input (-)")
    start = read_state(game, args.state) if args.state else None
    return read_moves(game, args.moves, start).state if args.moves else start


def from_start(args) -> str:
    """` from <where the run starts>` after --state or --moves; nothing from the initial
    state."""
    return f" from {start_text(args)}" if args.state or args.moves else ""


def start_text(args) -> str:
    """Where the run starts (see add_start), in words."""
    from gamecheck.files import input_name

    start = f"the state in {input_name(args.state)}" if args.state else "the initial state"
    if args.moves:
        start = f"the position the moves in {input_name(args.moves)} reach from {start}"
    return start
