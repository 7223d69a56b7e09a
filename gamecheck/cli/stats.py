"""`gamecheck stats GAME`: length, branching factor and outcomes of random playouts.

Playouts that do not end in a terminal state with goals are counted under how they ended
(`stuck`, `goals undefined`: the rules are broken, exit 1; `too long`: exit 4). When the
time limit runs out, the statistics are of the playouts finished by then (exit 4).
"""

from __future__ import annotations

import json
from dataclasses import replace

from gamecheck.analysis.playouts import MAX_STEPS, TOO_LONG, PlayoutStats
from gamecheck.cli import UNKNOWN, status
from gamecheck.cli.options import (
    add_json,
    add_max_steps,
    add_start,
    add_time_limit,
    from_start,
    positive,
    seed,
    start_state,
)


def register(subparsers) -> None:
    parser = subparsers.add_parser("stats", help="statistics of random playouts")
    parser.add_argument("game", metavar="GAME", help="a built-in game name or a GDL rule sheet")
    parser.add_argument(
        "--playouts", type=positive, default=1000, metavar="N", help="playouts (default 1000)"
    )
    parser.add_argument(
        "--seed", type=seed, default=0, help="seed of the first playout; the next use S+1, ..."
    )
    add_max_steps(parser, MAX_STEPS)
    add_start(parser, "play each playout")
    parser.add_argument(
        "--csv",
        metavar="FILE",
        help="save one row per playout as CSV: seed, length, ending, `goal ROLE` per role "
        "(empty unless terminal), branching",
    )
    add_time_limit(parser, "seconds for all playouts (the statistics of those finished)")
    add_json(parser, "print the statistics as one JSON object")
    parser.set_defaults(run=run)


def run(args, budget) -> int:
    from tqdm import tqdm

    from gamecheck.analysis.loading import load_game
    from gamecheck.analysis.playouts import finished_playouts, summarise_playouts
    from gamecheck.files import write_atomically

    game = load_game(args.game)
    start = start_state(game, args)
    seeds = range(args.seed, args.seed + args.playouts)
    # shown on a terminal only, and only once a run has taken a second
    progress = tqdm(seeds, desc=game.name, unit="playout", leave=False, delay=1.0, disable=None)
    finished = finished_playouts(game, progress, budget, max_steps=args.max_steps, start=start)
    playouts = list(finished)
    progress.close()
    if not playouts:
        print(f"{game.name}: no playout finished within the time limit")
        return UNKNOWN
    stats = summarise_playouts(game, playouts)
    if len(playouts) < len(seeds):
        stats = replace(stats, asked=len(seeds))
    if args.csv:
        write_atomically(args.csv, lambda file: stats.playouts.to_csv(file, index=False))
    if args.json:
        print(json.dumps(stats.to_json()))
    else:
        print(stats_text(stats, seeds, from_start(args)))
        for problem in stats.problems:
            print(problem)
    endings = [playout.ending for playout in playouts if playout.goals is None]
    unfinished = len(playouts) < len(seeds) or any(e.reason == TOO_LONG for e in endings)
    return status(defective=any(e.defective for e in endings), unknown=unfinished)


def stats_text(stats: PlayoutStats, seeds: range, start: str = "") -> str:
    """The three tables of a PlayoutStats, with headings (`start`: options.from_start)."""
    outcomes = stats.outcomes.to_string(float_format="{:.4f}".format)
    played = len(stats.playouts)
    heading = (
        f"{stats.game}: {played} random playouts{start}, "
        f"seeds {seeds.start}..{seeds.start + played - 1}"
    )
    if played < len(seeds):
        heading += f" (stopped before the other {len(seeds) - played}: time limit or interruption)"
    return "\n".join(
        [
            heading,
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
    """A summary Series as a one-row table: whole numbers without decimals, others with two,
    `-` where there is no value (no step was taken)."""
    import pandas as pd

    cells = {key: _number_text(value) for key, value in summary.items()}
    return pd.DataFrame([cells]).to_string(index=False)


def _number_text(value) -> str:
    import pandas as pd

    if pd.isna(value):
        return "-"
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.2f}"
