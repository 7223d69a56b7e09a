"""Random-playout speed of the GDL reasoner on our rule sheets next to the built-in generators.

    /work/venv/bin/python bench/rule_sheets.py [--seconds S] [GAME ...]

For each game (default: the five with a sheet in models/rules) plays seeded random playouts
(every role picks uniformly among its legal actions) for about S seconds on the reasoner and
S seconds on the built-in move generator, then prints a table and one JSON line. A game whose
generator is not registered shows "-" for it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models import get_game  # noqa: E402
from models.base import Game  # noqa: E402
from models.errors import UnknownGameError  # noqa: E402
from models.rules import SHEETS, rule_text  # noqa: E402
from solvers.gdl.game import GdlGame  # noqa: E402


def playout_steps(game: Game, rng: random.Random) -> int:
    """The length of one random playout."""
    state = game.initial_state()
    steps = 0
    while not game.is_terminal(state):
        joint = tuple(rng.choice(game.legal(state, role)) for role in game.roles)
        state = game.apply(state, joint)
        steps += 1
    return steps


def measure(game: Game, seconds: float) -> dict:
    """Playouts with seed 0 for about `seconds` seconds (at least one)."""
    rng = random.Random(0)
    steps = playouts = 0
    start = time.perf_counter()
    while playouts == 0 or time.perf_counter() - start < seconds:
        steps += playout_steps(game, rng)
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
        row = {
            "game": name,
            "sheet": measure(GdlGame.from_text(rule_text(name), name), args.seconds),
        }
        try:
            row["builtin"] = measure(get_game(name), args.seconds)
        except UnknownGameError:
            row["builtin"] = None
        rows.append(row)
    print(f"{'game':16} {'sheet steps/s':>14} {'builtin steps/s':>16} {'ratio':>8}")
    for row in rows:
        sheet, builtin = row["sheet"]["steps_per_second"], row["builtin"]
        fast = f"{builtin['steps_per_second']:16.1f}" if builtin else f"{'-':>16}"
        ratio = f"{builtin['steps_per_second'] / sheet:8.0f}" if builtin else f"{'-':>8}"
        print(f"{row['game']:16} {sheet:14.1f} {fast} {ratio}")
    print(json.dumps({"benchmark": "rule_sheets", "seconds_per_run": args.seconds, "games": rows}))


if __name__ == "__main__":
    main()
