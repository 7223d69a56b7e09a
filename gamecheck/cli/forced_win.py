"""`gamecheck forced-win GAME`: can a role (or a team) force a win whatever the others do,
and how soon?

With `--role R` (R with its proved team) or `--team R1,R2,...` it answers for one position
(the initial state, `--state FILE`, and/or the moves of `--moves FILE` played from there;
see gamecheck.analysis.positions for the formats); with `--endgames N --before K ...` it studies the
positions K steps before the end of N random playouts, for every role (or `--role R`).
A game whose rules leave a role without a legal action in a non-terminal state is
defective: the command says where and exits 1.
"""

from __future__ import annotations

import json
import sys

from gamecheck.budget import Budget, physical_bytes
from gamecheck.cli import DEFECTIVE, status
from gamecheck.cli.options import (
    add_start,
    count,
    megabytes,
    seconds,
    seed,
    start_state,
    start_text,
)
from gamecheck.errors import GamecheckError


def register(subparsers) -> None:
    from gamecheck.analysis.forced_wins import METHODS
    from gamecheck.solvers.forced_win import TABLE_MEGABYTES

    parser = subparsers.add_parser(
        "forced-win", help="can a role or team force a win whatever the others do, and how soon?"
    )
    parser.add_argument("game", metavar="GAME", help="a built-in game name or a GDL rule sheet")
    parser.add_argument(
        "--role",
        help="the role that tries to force a win, with the roles proved to share its goals "
        "(its team); all others against it (a study: only its team)",
    )
    parser.add_argument(
        "--team",
        metavar="R1,R2,...",
        help="the roles that choose together (one role: that role alone), all others against",
    )
    parser.add_argument(
        "--max-depth",
        type=count,
        metavar="D",
        help="look for wins within D steps (default: the game's step bound)",
    )
    add_start(parser, "start")
    parser.add_argument(
        "--time-limit",
        type=seconds,
        default=60.0,
        metavar="S",
        help="seconds for the whole command (default 60; for --endgames, the whole study)",
    )
    parser.add_argument(
        "--memory",
        type=megabytes,
        default=TABLE_MEGABYTES,
        metavar="MB",
        help=f"megabytes for the search's tables (default {TABLE_MEGABYTES}; for --endgames, "
        "each search's)",
    )
    parser.add_argument(
        "--max-memory",
        type=megabytes,
        default=physical_bytes() * 3 // 4 // 2**20 or None,
        metavar="MB",
        help="once the process holds more memory (a found strategy's walk may grow past the "
        "tables), what is not settled is unknown, as at the time limit (default: three "
        "quarters of this machine's memory)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--method",
        choices=METHODS,
        default="search",
        help="search (default) on the move generator, sat on the ground rule sheet, or lines "
        "(tictactoe3d: threat-space search over marks for a whole side to move)",
    )
    parser.add_argument(
        "--strategy",
        metavar="FILE",
        help="write the winning strategy found as JSON (see gamecheck check-strategy)",
    )
    study = parser.add_argument_group("endgame study")
    study.add_argument(
        "--endgames", type=count, metavar="N", help="study positions from N random playouts"
    )
    study.add_argument(
        "--before", type=count, nargs="+", metavar="K", help="positions K steps before the end"
    )
    study.add_argument("--seed", type=seed, default=0, help="seed of the first playout (default 0)")
    study.add_argument("--csv", metavar="FILE", help="save one row per position and team as CSV")
    parser.set_defaults(run=run)


def run(args, budget: Budget) -> int:
    from gamecheck.analysis.loading import load_game
    from gamecheck.solvers.forced_win.sides import StuckState, make_sides, parse_team

    if args.max_memory is not None:
        budget.limit_memory(int(args.max_memory * 2**20))
    game = load_game(args.game)
    team = None
    if args.team is not None:
        if args.role is not None:
            raise GamecheckError("give --role R or --team R1,R2,..., not both")
        team = make_sides(game, parse_team(args.team)).team_roles
    elif args.role is not None:
        game.role_index(args.role)
    try:
        if args.endgames is not None:
            return _run_study(game, args, budget, team)
        return _run_one(game, args, budget, team)
    except StuckState as stuck:
        print(f"gamecheck: the rules are defective: {stuck}", file=sys.stderr)
        return DEFECTIVE


def _run_one(game, args, budget: Budget, team) -> int:
    from gamecheck.analysis.forced_wins import solve_forced_win
    from gamecheck.files import write_atomically
    from gamecheck.solvers.forced_win.search import Status

    if args.role is None and team is None:
        raise GamecheckError(
            "forced-win needs --role R or --team R1,R2,... (or --endgames N --before K)"
        )
    if args.before or args.csv:
        raise GamecheckError("--before and --csv belong to an endgame study (--endgames N)")
    if args.method == "lines" and args.strategy:
        raise GamecheckError("--strategy is not written by method lines (its strategy is of marks)")
    start = start_state(game, args)

    def stage(text: str) -> None:
        print(f"[{budget.seconds:7.1f}s] {text}", file=sys.stderr, flush=True)

    result = solve_forced_win(
        game,
        args.role,
        team=team,
        start=start,
        max_depth=args.max_depth,
        budget=budget,
        method=args.method,
        progress=True,
        stage=stage,
        table_megabytes=args.memory,
    )
    if args.strategy and result.strategy is not None:
        text = json.dumps(result.strategy.to_json(game)) + "\n"
        write_atomically(args.strategy, lambda file: file.write(text))
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result_text(result, start_text(args), args.strategy, budget.stop_reason()))
    return status(unknown=result.status is Status.UNKNOWN)


def result_text(
    result,
    start: str = "the initial state",
    strategy_file: str | None = None,
    stop_reason: str = "the time limit ran out",
) -> str:
    """What was asked (from `start`, in words), the answer with the bound that holds (an
    unknown says `stop_reason`), and the effort."""
    from gamecheck.solvers.forced_win.search import Status

    bound = _steps(result.max_depth)
    who = _who(result)
    lines = [f"{result.game}: can {who} force a win from {start} within {bound}?"]
    if result.team_source == "proved":
        lines.append(
            f"team: {', '.join(result.team)} (equal goals in every reachable terminal state, "
            "proved): they choose together, all other roles against them"
        )
    if result.lower_bound > 0:
        lines.append(
            f"no win in fewer than {_steps(result.lower_bound)} from here (proved before the "
            "main search: the rules' counter, a line where every role helps, a short search)"
        )
    if result.status is Status.FOUND and not result.fewest:
        lines.append(
            f"found: {who} forces a win within {_steps(result.depth)} (a strategy found by "
            "threat-space search; fewer steps not ruled out)"
        )
        lines.append(f"first action: {result.first_action}")
        lines.append(
            f"strategy: {result.strategy_size} positions where the team chooses a mark (up to "
            "symmetry), checked against every reply; sampled lines replayed on the move "
            "generator and the rule sheet"
        )
    elif result.status is Status.FOUND:
        lines.append(f"found: {who} forces a win in {_steps(result.depth)} (and no fewer)")
        if result.first_action is not None:
            lines.append(f"first action: {result.first_action}")
        lines.append(
            f"strategy: {result.strategy_size} decision state{_plural(result.strategy_size)}, "
            "replayed against every reply"
        )
        if strategy_file:
            lines.append(f"strategy written to {strategy_file}")
    elif result.status is Status.NONE:
        lines.append(f"none: no forced win within {_steps(result.searched_depth)} (proved)")
        if result.method == "exhaustive search":
            lines.append("(every reachable state listed: no forced win at any depth)")
    elif result.method == "lines":
        lines.append(
            "unknown: no strategy proved (the time ran out, the threat-space search's "
            "restricted moves found none, or its strategy is longer than the depth asked; "
            "none of these rules out a win)"
        )
    else:
        proved = (
            f"no forced win within {_steps(result.searched_depth)} (proved), "
            if result.searched_depth >= 0
            else ""
        )
        lines.append(f"unknown: {proved}{stop_reason} at depth {result.searched_depth + 1}")
    unit = {
        "search": "nodes",
        "exhaustive search": "reachable states",
        "lines": "df-pn expansions",
    }.get(result.method, "SAT calls")
    lines.append(
        f"{result.nodes} {unit} in the last phase, {result.seconds:.2f} s in all, "
        f"method {result.method}"
    )
    return "\n".join(lines)


def _who(result) -> str:
    if len(result.team) == 1:
        return result.team[0]
    return f"team {','.join(result.team)}"


def _steps(count: int) -> str:
    return f"{count} step{_plural(count)}"


def _plural(count: int) -> str:
    return "" if count == 1 else "s"


def _run_study(game, args, budget: Budget, team) -> int:
    from gamecheck.analysis.endgames import endgame_positions, endgame_study, endgame_summary
    from gamecheck.files import write_atomically

    if not args.before:
        raise GamecheckError("an endgame study needs --before K [K ...]")
    if args.state or args.moves or args.max_depth is not None or args.strategy:
        raise GamecheckError(
            "--state, --moves, --max-depth and --strategy do not apply to an endgame study"
        )
    if args.method != "search":
        raise GamecheckError("an endgame study uses the search method")
    positions = endgame_positions(game, args.endgames, args.before, seed=args.seed)
    roles = None if args.role is None else [args.role]
    study = endgame_study(
        game,
        positions,
        roles=roles,
        team=team,
        budget=budget,
        progress=True,
        table_megabytes=args.memory,
    )
    rows = study.rows
    if args.csv:
        write_atomically(args.csv, lambda file: rows.to_csv(file, index=False))
    if args.json:
        print(json.dumps(study.to_json()))
        return status(unknown=bool(len(rows)) and (rows["status"] == "unknown").any())
    seeds = f"seeds {args.seed}..{args.seed + args.endgames - 1}"
    print(
        f"{game.name}: who can force a win from K steps before the end of "
        f"{args.endgames} random playouts ({seeds})"
    )
    print(endgame_summary(rows).to_string() if len(rows) else "no positions")
    if study.settled_depth is not None:
        print(f"every position is settled (found or none) for every K up to {study.settled_depth}")
    return status(unknown=bool(len(rows)) and (rows["status"] == "unknown").any())
