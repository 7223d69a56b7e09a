"""Random-playout speed of the GDL reasoner on our rule sheets next to the built-in generators.

    /work/venv/bin/python bench/rule_sheets.py [--seconds S] [GAME ...]

For each game (default: the five with a sheet in models/rules) plays the random playouts with
seeds 0, 1, ... (analysis/playouts.py, as bench/playouts.py and `gamecheck stats`)
for about S seconds on the reasoner and S seconds on the built-in move generator, then prints a
table and one JSON line.
"""

from __future__ import annotations

import argparse
import json
import time

from gamecheck.analysis.playouts import random_playout
from gamecheck.models import get_game
from gamecheck.models.base import Game
from gamecheck.models.rules import SHEETS, rule_text
from gamecheck.models.sheet import GdlGame


def measure(game: Game, seconds: float) -> dict:
    """Playouts with seeds 0, 1, ... for about `seconds` seconds (at least one)."""
    steps = playouts = 0
    start = time.perf_counter()
    while playouts == 0 or time.perf_counter() - start < seconds:
        steps += random_playout(game, playouts).length
        playouts += 1
    elapsed = time.perf_counter() - start
    return {"playouts": playouts, "steps": steps, "steps_per_second": round(steps / elapsed, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help="default: " + " ".join(SHEETS))
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per run (default 5)")
    args = parser.parse_args()
    rows = []
    for name in args.games or SHEETS:
        sheet = GdlGame.from_text(rule_text(name), name)
        rows.append(
            {
                "game": name,
                "sheet": measure(sheet, args.seconds),
                "builtin": measure(get_game(name), args.seconds),
            }
        )
    print(f"{'game':16} {'sheet steps/s':>14} {'builtin steps/s':>16} {'ratio':>8}")
    for row in rows:
        sheet_speed = row["sheet"]["steps_per_second"]
        builtin_speed = row["builtin"]["steps_per_second"]
        print(
            f"{row['game']:16} {sheet_speed:14.1f} {builtin_speed:16.1f} "
            f"{builtin_speed / sheet_speed:8.0f}"
        )
    print(json.dumps({"benchmark": "rule_sheets", "seconds_per_run": args.seconds, "games": rows}))


if __name__ == "__main__":
    main()
