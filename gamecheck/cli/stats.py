"""`gamecheck stats GAME`: length, branching factor and outcomes of random playouts."""

from __future__ import annotations

import pandas as pd
from tqdm import tqdm

from gamecheck.analysis.files import write_atomically
from gamecheck.analysis.loading import load_game
from gamecheck.analysis.playouts import PlayoutStats, playout_stats
from gamecheck.cli.options import positive, seed


def register(subparsers) -> None:
    parser = subparsers.add_parser("stats", help="statistics of random playouts")
    parser.add_argument("game", metavar="GAME", help="a built-in game name or a GDL rule sheet")
    parser.add_argument(
        "--playouts", type=positive, default=1000, metavar="N", help="playouts (default 1000)"
    )
    parser.add_argument(
        "--seed", type=seed, default=0, help="seed of the first playout; the next use S+1, ..."
    )
    parser.add_argument("--csv", metavar="FILE", help="save one row per playout as CSV")
    parser.set_defaults(run=run)


def run(args, budget) -> int:
    game = load_game(args.game)
    seeds = range(args.seed, args.seed + args.playouts)
    # shown on a terminal only, and only once a run has taken a second
    progress = tqdm(seeds, desc=game.name, unit="playout", leave=False, delay=1.0, disable=None)
    stats = playout_stats(game, progress)
    if args.csv:
        write_atomically(args.csv, lambda file: stats.playouts.to_csv(file, index=False))
    print(stats_text(stats, seeds))
    return 0


def stats_text(stats: PlayoutStats, seeds: range) -> str:
    """The three tables of a PlayoutStats, with headings."""
    outcomes = stats.outcomes.to_string(float_format="{:.4f}".format)
    heading = f"{stats.game}: {len(stats.playouts)} random playouts, seeds {seeds.start}.."
    return "\n".join(
        [
            heading + str(seeds.stop - 1),
            "",
            "game length (steps)",
            _one_row(stats.lengths),
            "",
            "branching factor (legal joint actions per step, over all steps)",
            _one_row(stats.branching),
            "",
            f"outcomes (goal values of {', '.join(stats.roles)})",
            outcomes,
        ]
    )


def _one_row(summary) -> str:
    """A summary Series as a one-row table: whole numbers without decimals, others with two."""
    cells = {
        key: f"{value:.0f}" if float(value).is_integer() else f"{value:.2f}"
        for key, value in summary.items()
    }
    return pd.DataFrame([cells]).to_string(index=False)
