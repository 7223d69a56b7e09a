"""Forced-win search from the initial state: the deepest depth settled per game and role.

    /work/venv/bin/python bench/forced_win.py [--seconds S | --quick] [GAME ...]

For every role of each game, runs the forced-win search from the initial state with a time
budget of S seconds (default 600; --quick: 10) and reports how far it got: `found` with the
fewest steps, `none` proved up to the game's step bound, or `unknown` with the depth up to
which no forced win is proved. Then a table and one JSON line.
"""

from __future__ import annotations

import argparse
import json

from gamecheck.analysis.loading import load_game
from gamecheck.solvers.forced_win.search import forced_win

GAMES = ("cubicup", "ttcc4", "tictactoe3d", "tictacchess")
QUICK_SECONDS = 10.0


def measure(name: str, role: str, seconds: float) -> dict:
    """One forced-win search of `role` from the initial state of game `name`."""
    game = load_game(name)
    result = forced_win(game, role, time_limit=seconds, progress=True)
    settled = result.depth if result.depth is not None else result.searched_depth
    return {
        "game": name,
        "role": role,
        "status": str(result.status),
        "depth_settled": settled,
        "step_bound": game.step_bound,
        "first_action": result.first_action,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 1),
        "nodes_per_second": round(result.nodes / result.seconds) if result.seconds else 0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"default: {' '.join(GAMES)}")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument(
        "--seconds", type=float, default=600.0, help="per game and role (default 600)"
    )
    budget.add_argument(
        "--quick", action="store_true", help=f"{QUICK_SECONDS:.0f} s per game and role"
    )
    args = parser.parse_args()
    seconds = QUICK_SECONDS if args.quick else args.seconds
    print(
        f"{'game':12} {'role':8} {'status':8} {'settled':>7} {'nodes':>10} "
        f"{'seconds':>7} {'nodes/s':>8}"
    )
    rows = []
    for name in args.games or GAMES:
        for role in load_game(name).roles:
            rows.append(measure(name, role, seconds))
            row = rows[-1]
            print(
                f"{row['game']:12} {row['role']:8} {row['status']:8} "
                f"{row['depth_settled']:>3}/{row['step_bound']:<3} {row['nodes']:>10} "
                f"{row['seconds']:>7} {row['nodes_per_second']:>8}",
                flush=True,
            )
    print(json.dumps({"benchmark": "forced_win", "seconds_per_role": seconds, "results": rows}))


if __name__ == "__main__":
    main()
