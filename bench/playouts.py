"""Random-playout speed of the built-in move generators: steps and playouts per second.

    /work/venv/bin/python bench/playouts.py [--seconds S] [GAME ...]

Plays seeded random playouts (gamecheck.analysis.playouts.random_playout, as `gamecheck stats` does)
for about S seconds per game, then prints a table and one JSON line.
"""

from __future__ import annotations

import argparse
import json
import time

from gamecheck.analysis.loading import load_game
from gamecheck.analysis.playouts import random_playout
from gamecheck.models import builtin_names


def measure(name: str, seconds: float) -> dict:
    """Play playouts of game `name` with seeds 0, 1, ... for about `seconds` seconds."""
    game = load_game(name)
    steps = playouts = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        steps += random_playout(game, playouts).length
        playouts += 1
    return {
        "game": name,
        "playouts": playouts,
        "steps": steps,
        "seconds": round(elapsed, 3),
        "steps_per_second": round(steps / elapsed),
        "playouts_per_second": round(playouts / elapsed, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help="default: every built-in game")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per game (default 3)")
    args = parser.parse_args()
    results = [measure(name, args.seconds) for name in args.games or builtin_names()]
    print(f"{'game':14} {'playouts':>9} {'steps':>9} {'steps/s':>9} {'playouts/s':>11}")
    for row in results:
        print(
            f"{row['game']:14} {row['playouts']:9} {row['steps']:9} "
            f"{row['steps_per_second']:9} {row['playouts_per_second']:11.1f}"
        )
    print(json.dumps({"benchmark": "playouts", "seconds_per_game": args.seconds, "games": results}))


if __name__ == "__main__":
    main()
