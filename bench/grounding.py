"""The grounder alone on a corpus of rule sheets: which sheets ground, how big and how fast.

    python bench/grounding.py DIR [--time-limit S] [--sample K [--offset I]]

For every .kif file under DIR (e.g. ../shared/data/ggp), in path order (every K-th from the
I-th), it grounds the sheet in a process of its own with a budget of S seconds (default 60)
and records the ground size (fluents, actions, gates, ground atoms, rule instances), the
seconds, the peak memory (the child's maximum resident set), the rules that fire in no
reachable state, or the sentence the grounder stopped with. GDL-II sheets are left out. It
prints the sheets that did not ground, the rules that never fire, a summary and one JSON
line with every row (compare two commits by running each with PYTHONPATH set to
its checkout).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from corpus import run_measured

from gamecheck.errors import GamecheckError
from gamecheck.gdl.checks import is_gdl_ii, lint_file

GROUND_ONE = """
import json, sys, time
from gamecheck.budget import Budget
from gamecheck.errors import GamecheckError
from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.ground.grounder import ground
start, budget = time.perf_counter(), Budget(float(sys.argv[2]))
try:
    system = ground(GdlGame.from_file(sys.argv[1]).rules, "sheet", budget=budget)
except GamecheckError as error:
    row = {"grounded": False, "stopped": str(error)[:300]}
else:
    row = {"grounded": True, **system.size(), **system.statistics,
           "dead_rules": list(system.dead_rules)}
print(json.dumps({**row, "seconds": round(time.perf_counter() - start, 2)}))
"""


def measure(sheet: Path, root: Path, time_limit: float) -> dict:
    """Ground one sheet in a child process; a flat row."""
    return child_row(GROUND_ONE, sheet, root, time_limit, time_limit * 2 + 30, "grounded")


def child_row(script: str, sheet: Path, root: Path, time_limit, timeout, done: str) -> dict:
    """A flat row: the JSON line `script` (a `python -c` child given the sheet and the time
    limit) prints last, or `done` False with the sentence it stopped with."""
    run = run_measured([sys.executable, "-c", script, str(sheet), str(time_limit)],
                       timeout=timeout)  # fmt: skip
    row = {"sheet": str(sheet.relative_to(root)), "peak_mb": round(run["peak_mb"], 1)}
    lines = run["stdout"].strip().splitlines()
    if run["exit"] == 0 and lines:
        return row | json.loads(lines[-1])
    reason = "killed" if run["killed"] else (run["stderr"].strip().splitlines() or ["?"])[-1]
    return row | {done: False, "stopped": reason[:300], "seconds": round(run["seconds"], 2)}


def print_summary(benchmark: str, time_limit: float, summary: dict, rows: list) -> None:
    """The summary, a line each, then one JSON line with it and every row."""
    for key, value in summary.items():
        print(f"{key:22} {value}")
    print(json.dumps({"benchmark": benchmark, "time_limit": time_limit, **summary,
                      "rows": rows}))  # fmt: skip


def _gdl_ii(sheet: Path) -> bool:
    try:
        return any(map(is_gdl_ii, lint_file(str(sheet)).errors))
    except GamecheckError:
        return False


def sheet_parser(description: str, time_limit: float) -> argparse.ArgumentParser:
    """The arguments every per-sheet corpus bench takes: DIR, --time-limit (default
    `time_limit`), --sample K and --offset I."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("directory", type=Path)
    parser.add_argument("--time-limit", type=float, default=time_limit, metavar="S")
    parser.add_argument("--sample", type=int, default=1, metavar="K")
    parser.add_argument("--offset", type=int, default=0, metavar="I")
    return parser


def measure_sheets(parser, args, measure, only: list[str] | None = None) -> list[dict]:
    """`measure(sheet, directory, time_limit)` of every GDL sheet chosen by `args` (every
    K-th from the I-th; with `only`, those whose path contains one of its texts), in path
    order, the progress on stderr."""
    sheets = sorted(args.directory.rglob("*.kif"))[args.offset :: args.sample]
    if only:
        sheets = [sheet for sheet in sheets if any(text in str(sheet) for text in only)]
    sheets = [sheet for sheet in sheets if not _gdl_ii(sheet)]
    if not sheets:
        parser.error(f"no GDL sheets under {args.directory} to measure")
    rows = []
    for number, sheet in enumerate(sheets, 1):
        rows.append(measure(sheet, args.directory, args.time_limit))
        print(f"[{number}/{len(sheets)}] {rows[-1]['sheet']}", file=sys.stderr, flush=True)
    return rows


def main() -> None:
    parser = sheet_parser(__doc__.splitlines()[0], 60.0)
    args = parser.parse_args()
    rows = measure_sheets(parser, args, measure)
    grounded = [row for row in rows if row["grounded"]]
    for row in rows:
        if not row["grounded"]:
            print(f"not grounded  {row['sheet']}: {row['stopped']}")
    for row in grounded:
        for rule in row["dead_rules"]:
            print(f"never fires   {row['sheet']}: {rule[:200]}")
    summary = {
        "sheets": len(rows),
        "grounded": len(grounded),
        "grounded_share": round(len(grounded) / len(rows), 4),
        "seconds_grounded": round(sum(row["seconds"] for row in grounded), 1),
        "gates_grounded": sum(row["gates"] for row in grounded),
        "sheets_with_dead_rules": sum(1 for row in grounded if row["dead_rules"]),
        "peak_mb": max(row["peak_mb"] for row in rows),
    }
    print_summary("grounding", args.time_limit, summary, rows)


if __name__ == "__main__":
    main()
