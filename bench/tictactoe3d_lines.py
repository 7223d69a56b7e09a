"""The first player's forced win in tictactoe3d (4x4x4 tic-tac-toe, "Qubic"), by method lines.

    python bench/tictactoe3d_lines.py [--seconds S] [--lines N]

From the initial state, for team xrow,xcolumn,xlevel: the threat-space proof at the level of
marks (solvers/forced_win/lines), the extraction of its strategy, the independent check
against every reply of team o, and the replay of N sampled lines (default 200) on the move
generator and the rule sheet: what `gamecheck forced-win tictactoe3d --team
xrow,xcolumn,xlevel --method lines` does, phase by phase. Then one table and one JSON line.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time

from gamecheck.analysis.forced_win_lines import REPLAY_LINES, REPLAY_SEED, replay_sample
from gamecheck.budget import Budget
from gamecheck.models.tictactoe3d import KINDS, make_game
from gamecheck.solvers.forced_win.lines.prover import prove_mark_win
from gamecheck.solvers.forced_win.sides import make_sides

TEAM = ("xrow", "xcolumn", "xlevel")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=7200.0, help="for the whole run (default 7200)"
    )
    parser.add_argument("--lines", type=int, default=REPLAY_LINES, help="lines to replay")
    args = parser.parse_args()
    game = make_game()
    sides = make_sides(game, TEAM)
    state = game.initial_state()
    budget = Budget(args.seconds)
    proof = prove_mark_win(state.x_marks, state.o_marks, 0, budget, progress=True)
    if proof is None:
        print(json.dumps({"benchmark": "tictactoe3d_lines", "status": "unknown"}))
        return 4
    clock = time.monotonic()
    replay_sample(sides, state, proof.strategy, args.lines, REPLAY_SEED, budget)
    row = {
        "status": "found",
        "search_seconds": round(proof.search_seconds, 1),
        "expansions": proof.expansions,
        "table_positions": proof.table_size,
        "extraction_seconds": round(proof.extraction_seconds, 1),
        "strategy_positions": len(proof.strategy),
        "check_seconds": round(proof.check_seconds, 1),
        "checked_classes": proof.check.classes,
        "tree_positions": proof.check.positions,
        "depth_steps": len(KINDS) * proof.check.longest,
        "replayed_lines": args.lines,
        "replay_seconds": round(time.monotonic() - clock, 1),
        "total_seconds": round(budget.seconds, 1),
        "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }
    print("| figure | value |\n| --- | --- |")
    for key, value in row.items():
        print(f"| {key} | {value:,} |" if isinstance(value, int) else f"| {key} | {value} |")
    print(json.dumps({"benchmark": "tictactoe3d_lines", "team": list(TEAM), **row}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
