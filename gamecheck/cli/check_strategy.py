"""`gamecheck check-strategy GAME FILE`: does a strategy file win, against every reply?

The strategy (as `gamecheck forced-win --strategy FILE` writes it, or from anywhere else) is
replayed on the GDL reasoner over the game's rule sheet, not on the move generator the search
used: from its start state, the team plays the file's actions and the other roles every
joint reply, and every line must end within the file's depth with goal 100 for every team
role. A strategy that fails is exit status 3, with the state where it fails: the check is the
independent cross-check of what forced-win found (a failure is a bug to report), and a script
can tell it from defective rules (1). A replay that the time limit ends is unknown (4).
"""

from __future__ import annotations

import json

from gamecheck.budget import Budget, OutOfBudget
from gamecheck.cli import BUG, OK, UNKNOWN
from gamecheck.cli.options import add_json, add_time_limit


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "check-strategy", help="replay a winning strategy against every reply of the others"
    )
    parser.add_argument("game", metavar="GAME", help="a built-in game name or a GDL rule sheet")
    parser.add_argument("file", metavar="FILE", help="a strategy file (JSON)")
    add_time_limit(parser, "stop the replay after S seconds: the answer is then unknown")
    add_json(parser)
    parser.set_defaults(run=run)


def run(args, budget: Budget) -> int:
    from gamecheck.analysis.loading import load_rule_sheet
    from gamecheck.files import read_text
    from gamecheck.schema import stamped
    from gamecheck.solvers.forced_win.strategy import read_strategy
    from gamecheck.solvers.forced_win.strategy_check import StrategyCheckFailure, check_strategy

    sheet = load_rule_sheet(args.game)
    strategy = read_strategy(sheet, read_text(args.file), args.file)
    decisions = failure = None
    try:
        decisions = check_strategy(
            sheet, strategy.team, strategy.start, strategy.actions, strategy.depth, budget
        )
        wins = True
    except StrategyCheckFailure as error:
        failure, wins = str(error), False
    except OutOfBudget:
        wins = None  # the replay did not end: unknown
    who = strategy.team[0] if len(strategy.team) == 1 else f"team {','.join(strategy.team)}"
    if args.json:
        body = {
            "game": sheet.name,
            "team": list(strategy.team),
            "depth": strategy.depth,
            "states": len(strategy.actions),
            "wins": wins,
            "decision_states": decisions,
            "failure": failure,
        }
        print(json.dumps(stamped("strategy_check", body)))
    elif wins:
        print(
            f"{sheet.name}: the strategy of {who} wins within {strategy.depth} steps against "
            f"every reply, replayed on the GDL reasoner ({decisions} decision states)"
        )
    elif wins is None:
        print(
            f"{sheet.name}: unknown: the time limit ran out before the strategy of {who} "
            "was replayed to its end"
        )
    else:
        print(f"{sheet.name}: the strategy of {who} does not win: {failure}")
    return {True: OK, False: BUG, None: UNKNOWN}[wins]
