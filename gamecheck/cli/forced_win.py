"""`gamecheck forced-win GAME`: can a role force a win whatever the others do, and how soon?

With `--role R` it answers for one position (the initial state, or `--state FILE`); with
`--endgames N --before K ...` it studies the positions K steps before the end of N random
playouts, for every role (or `--role R`).
"""

from __future__ import annotations

import json

from gamecheck.analysis.endgames import endgame_positions, endgame_study, endgame_summary
from gamecheck.analysis.files import read_text, write_atomically
from gamecheck.analysis.loading import load_game, load_rule_sheet
from gamecheck.cli import status
from gamecheck.cli.options import count, seconds, seed
from gamecheck.errors import GamecheckError
from gamecheck.gdl.terms import canonical
from gamecheck.models.base import Game, State
from gamecheck.solvers.forced_win.sat import forced_win_sat
from gamecheck.solvers.forced_win.search import ForcedWin, Status, forced_win
from gamecheck.solvers.ground.grounder import ground

METHODS = ("search", "sat")
JSON_KEYS = (
    "game",
    "role",
    "status",
    "depth",
    "searched_depth",
    "first_action",
    "strategy_size",
    "nodes",
    "seconds",
    "method",
)


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "forced-win", help="can a role force a win whatever the others do, and how soon?"
    )
    parser.add_argument("game", metavar="GAME", help="a built-in game name or a GDL rule sheet")
    parser.add_argument(
        "--role",
        help="the role that tries to force a win, all others against it (a study: only it)",
    )
    parser.add_argument(
        "--max-depth",
        type=count,
        metavar="D",
        help="look for wins within D steps (default: the game's step bound)",
    )
    parser.add_argument(
        "--state", metavar="FILE", help="start from this state: one GDL fact a line, ; comments"
    )
    parser.add_argument(
        "--time-limit",
        type=seconds,
        default=60.0,
        metavar="S",
        help="seconds (default 60; for --endgames, for the whole study)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--method",
        choices=METHODS,
        default="search",
        help="search (default) on the move generator, or sat on the ground rule sheet",
    )
    study = parser.add_argument_group("endgame study")
    study.add_argument(
        "--endgames", type=count, metavar="N", help="study positions from N random playouts"
    )
    study.add_argument(
        "--before", type=count, nargs="+", metavar="K", help="positions K steps before the end"
    )
    study.add_argument("--seed", type=seed, default=0, help="seed of the first playout (default 0)")
    study.add_argument("--csv", metavar="FILE", help="save one row per position and role as CSV")
    parser.set_defaults(run=run)


def run(args, budget) -> int:
    game = load_game(args.game)
    if args.role is not None:
        game.role_index(args.role)
    if args.endgames is not None:
        return _run_study(game, args)
    if args.role is None:
        raise GamecheckError("forced-win needs --role R (or --endgames N --before K ...)")
    if args.before or args.csv:
        raise GamecheckError("--before and --csv belong to an endgame study (--endgames N)")
    start = read_state(game, args.state) if args.state else None
    options = {"start": start, "max_depth": args.max_depth, "time_limit": args.time_limit}
    if args.method == "sat":
        system = ground(load_rule_sheet(args.game).rules, game.name)
        result = forced_win_sat(game, args.role, system, **options)
    else:
        result = forced_win(game, args.role, **options, progress=True)
    if args.json:
        print(json.dumps(result_json(result)))
    else:
        print(result_text(result, args.state))
    return status(unknown=result.status is Status.UNKNOWN)


def read_state(game: Game, path: str) -> State:
    """The state written in `path`, one GDL fact a line (`;` starts a comment)."""
    facts = []
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        text = line.split(";", 1)[0].strip()
        if text:
            try:
                facts.append(canonical(text))
            except GamecheckError as error:
                raise GamecheckError(f"{path}, line {number}: {error}") from None
    try:
        return game.state_from_facts(facts)
    except GamecheckError as error:
        raise GamecheckError(f"{path}: {error}") from None


def result_json(result: ForcedWin) -> dict:
    row = {key: getattr(result, key) for key in JSON_KEYS}
    row["status"] = str(result.status)
    row["seconds"] = round(result.seconds, 3)
    return row


def result_text(result: ForcedWin, state_file: str | None) -> str:
    """What was asked, the answer with the bound that holds, and the effort."""
    start = f"the state in {state_file}" if state_file else "the initial state"
    bound = _steps(result.max_depth)
    lines = [f"{result.game}: can {result.role} force a win from {start} within {bound}?"]
    if result.status is Status.FOUND:
        lines.append(f"found: {result.role} forces a win in {_steps(result.depth)} (and no fewer)")
        if result.first_action is not None:
            lines.append(f"first action: {result.first_action}")
        lines.append(
            f"strategy: {result.strategy_size} decision state{_plural(result.strategy_size)}, "
            "replayed against every reply"
        )
    elif result.status is Status.NONE:
        lines.append(f"none: no forced win within {_steps(result.searched_depth)} (proved)")
    else:
        proved = (
            f"no forced win within {_steps(result.searched_depth)} (proved), "
            if result.searched_depth >= 0
            else ""
        )
        lines.append(
            f"unknown: {proved}the time limit ran out at depth {result.searched_depth + 1}"
        )
    rate = result.nodes / result.seconds if result.seconds > 0 else 0
    unit = "SAT calls" if result.method == "sat" else "nodes"
    lines.append(
        f"{result.nodes} {unit} in {result.seconds:.2f} s ({rate:.0f}/s), method {result.method}"
    )
    return "\n".join(lines)


def _steps(count: int) -> str:
    return f"{count} step{_plural(count)}"


def _plural(count: int) -> str:
    return "" if count == 1 else "s"


def _run_study(game: Game, args) -> int:
    if not args.before:
        raise GamecheckError("an endgame study needs --before K [K ...]")
    if args.state or args.max_depth is not None or args.json:
        raise GamecheckError("--state, --max-depth and --json do not apply to an endgame study")
    if args.method != "search":
        raise GamecheckError("an endgame study uses the search method")
    positions = endgame_positions(game, args.endgames, args.before, seed=args.seed)
    roles = None if args.role is None else [args.role]
    study = endgame_study(game, positions, roles=roles, time_limit=args.time_limit, progress=True)
    if args.csv:
        write_atomically(args.csv, lambda file: study.to_csv(file, index=False))
    seeds = f"seeds {args.seed}..{args.seed + args.endgames - 1}"
    print(
        f"{game.name}: who can force a win from K steps before the end of "
        f"{args.endgames} random playouts ({seeds})"
    )
    print(endgame_summary(study).to_string() if len(study) else "no positions")
    return status(unknown=bool(len(study)) and (study["status"] == "unknown").any())
