"""Invariant mining alone on a corpus of rule sheets: how much it proves, and at what cost.

    python bench/invariants.py DIR [--time-limit S] [--sample K [--offset I]] [--only TEXT...]

For every .kif file under DIR (e.g. ../shared/data/ggp), in path order (every K-th from the
I-th; with --only, those whose path contains one of the TEXTs), in a process of its own: it
grounds the sheet, plays the random playouts `gamecheck verify` plays, then runs
`find_invariants` with a budget of S seconds (default 35, about what verify gives it at 120
s) and records what was proved (state invariants, counters, balances, limits, the ranking's
bound), the Houdini SAT calls (and those of its last run over the candidates no batch proved,
with what that run proved) and the seconds. Sheets that do not ground, or are GDL-II,
are left out. It prints a table, a summary and one JSON line with every row (compare two
commits by running each from its own checkout: the child is a `python -c`, which puts the
working directory first on its path).
"""

from __future__ import annotations

from pathlib import Path

from grounding import child_row, measure_sheets, print_summary, sheet_parser

MINE_ONE = """
import json, sys, time
from gamecheck.analysis.verify.pipeline import LASTING_PLAYOUTS
from gamecheck.budget import Budget
from gamecheck.errors import GamecheckError
from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.ground.grounder import ground
from gamecheck.solvers.ground.invariants import PLAYOUTS, find_invariants
from gamecheck.solvers.ground.sampling import random_playouts
try:
    system = ground(GdlGame.from_file(sys.argv[1]).rules, "sheet", budget=Budget(60))
except GamecheckError as error:
    print(json.dumps({"mined": False, "stopped": str(error)[:300]}))
    sys.exit()
playouts = random_playouts(system, PLAYOUTS, max_steps=300, budget=Budget(12),
                           lasting=LASTING_PLAYOUTS)
start = time.perf_counter()
found = find_invariants(system, playouts=playouts, budget=Budget(float(sys.argv[2])))
row = {"mined": True, **found.statistics, "seconds": round(time.perf_counter() - start, 2)}
print(json.dumps(row))
"""
COLUMNS = (
    "state_invariants",
    "counters",
    "balances",
    "limits",
    "steps_at_most_by_ranking",
    "houdini_sat_calls",
    "houdini_together_proved",
    "houdini_together_calls",
    "seconds",
)


def measure(sheet: Path, root: Path, time_limit: float) -> dict:
    """Mine one sheet's invariants in a child process; a flat row."""
    return child_row(MINE_ONE, sheet, root, time_limit, time_limit * 2 + 120, "mined")


def main() -> None:
    parser = sheet_parser(__doc__.splitlines()[0], 35.0)
    parser.add_argument("--only", nargs="+", default=None, metavar="TEXT")
    args = parser.parse_args()
    rows = measure_sheets(parser, args, measure, args.only)
    mined = [row for row in rows if row["mined"]]
    print(f"{'sheet':48} " + " ".join(f"{column[:12]:>12}" for column in COLUMNS))
    for row in mined:
        cells = " ".join(f"{str(row.get(column, '')):>12}" for column in COLUMNS)
        print(f"{row['sheet'][:48]:48} {cells}")
    summary = {
        "sheets": len(rows),
        "mined": len(mined),
        "state_invariants": sum(row["state_invariants"] for row in mined),
        "houdini_sat_calls": sum(row["houdini_sat_calls"] for row in mined),
        "houdini_together_proved": sum(row.get("houdini_together_proved", 0) for row in mined),
        "houdini_together_calls": sum(row.get("houdini_together_calls", 0) for row in mined),
        "proved_together_on": sum(row.get("houdini_together_proved", 0) > 0 for row in mined),
        "seconds": round(sum(row["seconds"] for row in mined), 1),
        "peak_mb": max(row["peak_mb"] for row in rows),
    }
    print_summary("invariants", args.time_limit, summary, rows)


if __name__ == "__main__":
    main()
