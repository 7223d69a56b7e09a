"""`gamecheck verify`: prove or refute the consistency of a game's rules with SAT or CP-SAT."""

from __future__ import annotations

import json
import sys
import time

from gamecheck.budget import Budget
from gamecheck.cli import status
from gamecheck.cli.options import add_json, add_time_limit, horizon


def register(subparsers) -> None:
    from gamecheck.analysis.verify.pipeline import DEFAULT_HORIZON
    from gamecheck.solvers.ground.unroll import BACKENDS

    parser = subparsers.add_parser(
        "verify", help="prove termination, playability, goal definedness; outcomes, wins"
    )
    parser.add_argument("game", metavar="GAME", help="a built-in game or a .kif rule sheet")
    parser.add_argument("--backend", choices=BACKENDS, default="cnf")
    parser.add_argument(
        "--horizon",
        type=horizon,
        default=DEFAULT_HORIZON,
        metavar="H",
        help=f"deepest layer to unroll (default {DEFAULT_HORIZON})",
    )
    add_time_limit(parser, "seconds for the whole command, every answer included")
    parser.add_argument("--sat-solver", metavar="NAME", help="python-sat solver (cnf backend)")
    parser.add_argument(
        "--no-invariants",
        action="store_true",
        help="do not look for invariants (slower on deep questions)",
    )
    parser.add_argument(
        "--dimacs",
        metavar="FILE",
        help="write the CNF whose UNSAT proves the longest game (cnf backend)",
    )
    add_json(parser)
    parser.set_defaults(run=run)


def run(args, budget: Budget) -> int:
    from gamecheck.analysis.files import write_atomically
    from gamecheck.analysis.verify.pipeline import verify_game
    from gamecheck.analysis.verify.text import verification_text
    from gamecheck.solvers.sat import check_sat_solver

    check_sat_solver(args.sat_solver)
    start = time.monotonic()

    def progress(stage: str) -> None:
        print(f"[{time.monotonic() - start:7.1f}s] {stage}", file=sys.stderr, flush=True)

    result = verify_game(
        args.game,
        backend=args.backend,
        horizon=args.horizon,
        budget=budget,
        sat_solver=args.sat_solver,
        invariants=not args.no_invariants,
        dimacs=bool(args.dimacs),
        progress=progress,
    )
    if args.dimacs and result.certificate is not None:
        write_atomically(args.dimacs, lambda file: file.write(result.certificate))
    print(json.dumps(result.to_json()) if args.json else verification_text(result))
    return status(defective=bool(result.defects), unknown=bool(result.unknown))
