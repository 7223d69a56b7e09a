"""Forced wins from the initial state: the new search beside plain alpha-beta.

    python bench/forced_win.py [--seconds S | --quick] [--methods new,plain] [GAME ...]

For each game and team (a role alone, or the roles proved to share their goals), both
methods get the same move generator and the same time budget (default 600 s; --quick 10 s):

- new: `gamecheck forced-win` as the command runs it (analysis/forced_wins.py): depth bounds
  from the rules, the shortest cooperative line, then depth-first search and df-pn on shared
  tables with foldings, threat pruning, proved bounds reused across depths, the game's
  per-state bounds (`Game.steps_to_win`) and its moves that end a state at once (ttcc4's
  `ending_move`), beside the spoiler search (the opponents forcing an end without the team's
  win), each taking the other's proved wins as losses;
- plain: alpha-beta on the same AND/OR question (a Boolean minimax, cut at the first
  refuting reply or winning action), deepened one step at a time, with no table at all.

It reports how far each got: `found` with the fewest steps, `none` proved up to a depth, or
`unknown` with the depth up to which none is proved. Then one table and one JSON line.
"""

from __future__ import annotations

import argparse
import json
import sys

from gamecheck.analysis.forced_wins import solve_forced_win
from gamecheck.analysis.loading import load_game
from gamecheck.analysis.teams import find_teams
from gamecheck.budget import Budget, OutOfBudget
from gamecheck.solvers.forced_win.search import depth_bound
from gamecheck.solvers.forced_win.sides import Sides, make_sides

GAMES = ("cubicup", "ttcc4", "tictactoe3d", "sudoku", "tictacchess")
QUICK_SECONDS = 10.0
CHECK_EVERY = 100


class _Plain:
    """Alpha-beta on "won within d" for a team: no table, no move ordering."""

    def __init__(self, sides: Sides, budget: Budget):
        self.sides = sides
        self.game = sides.game
        self.budget = budget
        self.nodes = 0

    def won_within(self, state, depth: int) -> bool:
        game, sides = self.game, self.sides
        if game.is_terminal(state):
            return sides.won(state)
        if depth == 0:
            return False
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0:
            self.budget.check()
        actions, replies = sides.choices(state)
        return any(
            all(
                self.won_within(game.apply(state, sides.joint(action, reply)), depth - 1)
                for reply in replies
            )
            for action in actions
        )


def plain(game, team, seconds: float) -> dict:
    """Alpha-beta deepened from depth 0 until a win, the depth bound, or the time limit."""
    budget = Budget(seconds)
    search = _Plain(make_sides(game, team), budget)
    state, bound = game.initial_state(), depth_bound(game, None)
    settled, status = -1, "none"
    try:
        for depth in range(bound + 1):
            if search.won_within(state, depth):
                return _row("found", depth, search.nodes, budget.seconds)
            settled = depth
    except OutOfBudget:
        status = "unknown"
    return _row(status, settled, search.nodes, budget.seconds)


def new(game, team, seconds: float) -> dict:
    result = solve_forced_win(game, team=team, budget=Budget(seconds), progress=True)
    settled = result.depth if result.depth is not None else result.searched_depth
    row = _row(str(result.status), settled, result.nodes, result.seconds)
    row["method"] = result.method
    return row


def _row(status: str, settled: int, nodes: int, seconds: float) -> dict:
    return {"status": status, "settled": settled, "nodes": nodes, "seconds": round(seconds, 1)}


METHODS = {"new": new, "plain": plain}


def _methods(text: str) -> dict:
    names = text.split(",")
    if not names or any(name not in METHODS for name in names):
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of new,plain")
    return {name: METHODS[name] for name in names}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"default: {' '.join(GAMES)}")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument(
        "--seconds", type=float, default=600.0, help="per game, team and method (default 600)"
    )
    budget.add_argument(
        "--quick", action="store_true", help=f"{QUICK_SECONDS:.0f} s per game, team and method"
    )
    parser.add_argument(
        "--methods",
        type=_methods,
        default=METHODS,
        metavar="M1,M2",
        help="run only these of new,plain (default both; one alone halves the run time)",
    )
    args = parser.parse_args()
    seconds = QUICK_SECONDS if args.quick else args.seconds
    print(
        f"{'game':12} {'team':22} {'bound':>5} | {'new':8} {'settled':>7} {'nodes':>9} "
        f"{'s':>6} | {'plain':8} {'settled':>7} {'nodes':>9} {'s':>6}"
    )
    rows = []
    for name in args.games or GAMES:
        game = load_game(name)
        for team in find_teams(game).groups:
            row = {"game": name, "team": list(team), "step_bound": depth_bound(game, None)}
            for method in args.methods:
                row[method] = METHODS[method](game, team, seconds)
            rows.append(row)
            print(_line(row), flush=True)
    print(json.dumps({"benchmark": "forced_win", "seconds_per_method": seconds, "results": rows}))


def _line(row: dict) -> str:
    cells = [f"{row['game']:12} {','.join(row['team']):22} {row['step_bound']:>5}"]
    for method in METHODS:
        r = row.get(method, {"status": "-", "settled": "-", "nodes": "-", "seconds": "-"})
        cells.append(f"{r['status']:8} {r['settled']:>7} {r['nodes']:>9} {r['seconds']:>6}")
    return " | ".join(cells)


if __name__ == "__main__":
    sys.exit(main())
