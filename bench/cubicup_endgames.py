"""The forced-win search alone on cubicup endgames, with a node budget (issue 12).

    python bench/cubicup_endgames.py K PLAYOUTS NODES [--each]

For the positions K steps before the end of the random playouts with seeds 0..PLAYOUTS-1 (the
positions of `gamecheck forced-win cubicup --endgames PLAYOUTS --before K`), asks each role
`forced_win` with at most NODES nodes, and prints per status the questions, their nodes and
their seconds as a table and one JSON line (--each: one `seed role status nodes seconds` line
per question first). Nodes do not depend on the machine's load; seconds do.
"""

from __future__ import annotations

import argparse
import collections
import json
import time

from gamecheck.analysis.endgames import endgame_positions
from gamecheck.models.cubicup import ROLES, make_game
from gamecheck.solvers.forced_win.search import forced_win


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=int)
    parser.add_argument("playouts", type=int)
    parser.add_argument("nodes", type=int)
    parser.add_argument("--each", action="store_true")
    args = parser.parse_args()
    game = make_game()
    questions, nodes, seconds = collections.Counter(), collections.Counter(), collections.Counter()
    started = time.monotonic()
    for position in endgame_positions(game, args.playouts, [args.before]):
        for role in ROLES:
            result = forced_win(
                game, role, start=position.state, max_depth=args.before, node_limit=args.nodes
            )
            status = str(result.status)
            questions[status] += 1
            nodes[status] += result.nodes
            seconds[status] += result.seconds
            if args.each:
                print(position.seed, role, status, result.nodes, f"{result.seconds:.1f}")
    print(f"{'status':8} {'questions':>9} {'nodes':>10} {'s':>8}")
    for status in sorted(questions):
        print(f"{status:8} {questions[status]:>9} {nodes[status]:>10} {seconds[status]:>8.1f}")
    total = round(time.monotonic() - started, 1)
    print(f"total {total} s")
    rows = {
        status: {
            "questions": questions[status],
            "nodes": nodes[status],
            "seconds": round(seconds[status], 3),
        }
        for status in sorted(questions)
    }
    print(
        json.dumps(
            {"benchmark": "cubicup_endgames", **vars(args), "results": rows, "seconds": total}
        )
    )


if __name__ == "__main__":
    main()
