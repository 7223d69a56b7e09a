"""Random-playout speed of the GDL reasoner on the small rule sheets of tests/data/gdl.

    /work/venv/bin/python bench/reasoner.py [--playouts N] [--seed S] [SHEET.kif ...]

A step is one joint action: terminal test, every role's legal actions, the next state (as
GdlGame.next does it, legality checked). Prints a table, then one JSON line.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from gamecheck.models.sheet import GdlGame

SHEETS = Path(__file__).resolve().parent.parent / "tests" / "data" / "gdl"
DEFAULT_SHEETS = [SHEETS / name for name in ("tictactoe.kif", "connect4_small.kif", "hanoi.kif")]


def run_playouts(game: GdlGame, playouts: int, seed: int) -> dict:
    """Play random games; return steps, playouts and seconds."""
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    for _ in range(playouts):
        state = game.initial_state()
        while not game.is_terminal(state):
            joint = [rng.choice(game.legal(state, role)) for role in game.roles]
            state = game.next(state, joint)
            steps += 1
        game.goals(state)
    seconds = time.perf_counter() - start
    return {
        "playouts": playouts,
        "steps": steps,
        "seconds": round(seconds, 3),
        "steps_per_second": round(steps / seconds, 1),
        "facts_derived": game.reasoner.statistics.facts,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sheets", nargs="*", type=Path, default=DEFAULT_SHEETS)
    parser.add_argument("--playouts", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    results = {}
    for sheet in args.sheets:
        start = time.perf_counter()
        game = GdlGame.from_file(sheet)
        load_seconds = time.perf_counter() - start
        results[game.name] = {"load_seconds": round(load_seconds, 4)} | run_playouts(
            game, args.playouts, args.seed
        )
    print(f"{'game':16} {'playouts':>8} {'steps':>7} {'seconds':>8} {'steps/s':>9} {'load s':>7}")
    for name, row in results.items():
        print(
            f"{name:16} {row['playouts']:8} {row['steps']:7} {row['seconds']:8.3f} "
            f"{row['steps_per_second']:9.1f} {row['load_seconds']:7.4f}"
        )
    print(json.dumps({"benchmark": "gdl_reasoner", "seed": args.seed, "games": results}))


if __name__ == "__main__":
    main()
