"""`gamecheck verify`: prove or refute the consistency of a game's rules with SAT or CP-SAT."""

from __future__ import annotations

import json
import sys

from gamecheck.budget import Budget, on_stuck_calls
from gamecheck.cli import end_stuck_run, status
from gamecheck.cli.options import add_json, add_time_limit, horizon, megabytes
from gamecheck.errors import GamecheckError

MAX_MEMORY_MB = 3584
"""verify's memory limit by default: the corpus's biggest groundings (amazons) grew past 6 GB
before their time limit."""


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
    parser.add_argument(
        "--max-memory",
        type=megabytes,
        default=MAX_MEMORY_MB,
        metavar="MB",
        help=f"once the process holds more memory, what is not settled is unknown, as at "
        f"the time limit (default {MAX_MEMORY_MB})",
    )
    parser.add_argument("--sat-solver", metavar="NAME", help="python-sat solver (cnf backend)")
    parser.add_argument(
        "--no-invariants",
        action="store_true",
        help="do not look for invariants (slower on deep questions)",
    )
    parser.add_argument(
        "--no-exhaustive",
        action="store_true",
        help="ask the solver even where every reachable state can be listed (a cross-check "
        "of the two methods)",
    )
    parser.add_argument(
        "--dimacs",
        metavar="FILE",
        help="write every SAT query of the run as incremental CNF (p inccnf), variables "
        "named in comments (cnf backend)",
    )
    parser.add_argument(
        "--cpsat-export",
        metavar="FILE",
        help="write the CP-SAT model (text format, variables named) and, in FILE.queries.txt, "
        "every query asked of it (cpsat backend)",
    )
    add_json(parser)
    parser.set_defaults(run=run)


def run(args, budget: Budget) -> int:
    from gamecheck.analysis.loading import load_game
    from gamecheck.analysis.verify.pipeline import Snapshot, verify_game
    from gamecheck.files import write_atomically
    from gamecheck.solvers.sat import check_sat_solver

    check_sat_solver(args.sat_solver)
    budget.limit_memory(int(args.max_memory * 2**20))
    if args.dimacs and args.backend != "cnf":
        raise GamecheckError("--dimacs writes the CNF of the cnf backend; use --cpsat-export")
    if args.cpsat_export and args.backend != "cpsat":
        raise GamecheckError("--cpsat-export needs --backend cpsat; use --dimacs for cnf")

    def progress(stage: str) -> None:
        print(f"[{budget.seconds:7.1f}s] {stage}", file=sys.stderr, flush=True)

    game = load_game(args.game)  # loaded once: the text below replays witnesses on it
    snapshot = Snapshot()

    def end_with_what_is_settled() -> None:  # the main thread is stuck in a solver call
        settled = snapshot.take and snapshot.take("a solver call did not stop in time")
        if settled is not None:
            show(settled, args, game)
            sys.stdout.flush()
        end_stuck_run("without its answers" if settled is None else "with what it settled before")

    with on_stuck_calls(end_with_what_is_settled):
        result = verify_game(
            game,
            backend=args.backend,
            horizon=args.horizon,
            budget=budget,
            sat_solver=args.sat_solver,
            invariants=not args.no_invariants,
            exhaustive=not args.no_exhaustive,
            export=bool(args.dimacs or args.cpsat_export),
            progress=progress,
            snapshot=snapshot,
        )
    files = {
        args.dimacs: result.exports.get("icnf"),
        args.cpsat_export: result.exports.get("cpsat model"),
        f"{args.cpsat_export}.queries.txt": result.exports.get("cpsat queries"),
    }
    for path, text in files.items():
        if path and text is not None:
            write_atomically(path, lambda file, text=text: file.write(text))
    show(result, args, game)
    return status(defective=bool(result.defects), unknown=bool(result.unknown))


def show(result, args, game) -> None:
    """Print the verification as text, or as JSON with --json."""
    from gamecheck.analysis.loading import checking_games
    from gamecheck.analysis.verify.text import verification_text

    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(verification_text(result, checking_games(game)[0]))
