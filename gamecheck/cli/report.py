"""`gamecheck report [GAME ...]`: write the analysis reports of the built-in games."""

from __future__ import annotations

import time

from gamecheck.analysis.report.settings import FULL, QUICK
from gamecheck.cli import stopping_at_once
from gamecheck.cli.options import seed
from gamecheck.errors import UnknownGameError
from gamecheck.models import builtin_names

DEFAULT_OUT = {FULL: "reports", QUICK: "reports/quick"}


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "report", help="write Markdown reports with CSV tables and PNG plots, and an index"
    )
    parser.add_argument(
        "games", nargs="*", metavar="GAME", help="built-in games (default: all of them)"
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        help=f"report directory (default {DEFAULT_OUT[FULL]}, or {DEFAULT_OUT[QUICK]} with "
        "--quick); other games' reports already there are kept",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a few minutes in all: fewer playouts, short time limits, slow parts skipped",
    )
    parser.add_argument(
        "--seed", type=seed, default=0, help="seed of the first playout (default 0)"
    )
    parser.set_defaults(run=run)


def run(args, budget) -> int:
    names = args.games or builtin_names()
    for name in names:
        if name not in builtin_names():
            raise UnknownGameError(
                f"unknown game {name!r}; the reports cover the built-in games "
                f"{', '.join(builtin_names())}"
            )
    from gamecheck.analysis.report.build import build_reports

    mode = QUICK if args.quick else FULL
    out = args.out or DEFAULT_OUT[mode]
    start = time.monotonic()
    with stopping_at_once():  # the report's parts keep their own time limits
        index = build_reports(list(dict.fromkeys(names)), out, mode=mode, seed=args.seed)
    minutes = (time.monotonic() - start) / 60
    print(f"wrote the {mode} reports of {', '.join(names)} ({minutes:.1f} min); index: {index}")
    return 0
