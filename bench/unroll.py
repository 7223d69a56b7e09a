"""Encoding speed of the unrolled transition system: seconds to build layers.

    python bench/unroll.py [--depth D] [--backend cnf|cpsat] GAME_OR_SHEET ...

For each game (a built-in name or a rule sheet's path) it grounds the rules, then builds an
unrolling layer by layer up to depth D, asking at every layer for the line of play to be
alive there and for the terminal and goal literals (what `verify`'s questions touch), and
times the building only (no solver call). It prints a table and one JSON line.
"""

from __future__ import annotations

import argparse
import json
import time

from gamecheck.analysis.loading import load_game, load_rule_sheet
from gamecheck.solvers.ground.grounder import ground
from gamecheck.solvers.ground.unroll import make_unrolling


def measure(subject: str, depth: int, backend: str) -> dict:
    """Ground `subject`, then time building its unrolling to `depth`."""
    sheet = load_rule_sheet(load_game(subject))
    system = ground(sheet.rules, sheet.name)
    goals = [literal for values in system.goals for literal in values.values()]
    start = time.perf_counter()
    unrolling = make_unrolling(system, backend)
    for t in range(depth + 1):
        unrolling.alive(t)
        for literal in [system.terminal, *goals]:
            unrolling.literal(literal, t)
    seconds = time.perf_counter() - start
    return {
        "game": sheet.name,
        "gates": system.size()["gates"],
        "depth": depth,
        "seconds": round(seconds, 3),
        "seconds_per_layer": round(seconds / (depth + 1), 3),
        **unrolling.size(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+", metavar="GAME_OR_SHEET")
    parser.add_argument("--depth", type=int, default=10, help="last layer built (default 10)")
    parser.add_argument("--backend", choices=("cnf", "cpsat"), default="cnf")
    args = parser.parse_args()
    results = [measure(game, args.depth, args.backend) for game in args.games]
    print(f"{'game':28} {'gates':>8} {'seconds':>8} {'s/layer':>8} {'variables':>10}")
    for row in results:
        print(
            f"{row['game']:28} {row['gates']:8} {row['seconds']:8.2f} "
            f"{row['seconds_per_layer']:8.3f} {row.get('variables', 0):10}"
        )
    print(
        json.dumps(
            {"benchmark": "unroll", "depth": args.depth, "backend": args.backend, "games": results}
        )
    )


if __name__ == "__main__":
    main()
