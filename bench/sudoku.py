"""Sudoku benchmark: both backends on every puzzle file of a folder, uniqueness decided for each.

    python bench/sudoku.py [DATA_DIR] [--limit N] [--backend cnf|cpsat|both] [--sat-solver NAME]

DATA_DIR defaults to ../shared/data/sudoku beside the repository. Prints a table and one
JSON line with, per file and backend, puzzles, seconds, puzzles/s and how many were unique.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from gamecheck.analysis.sudoku_solve import BACKENDS, bench_backend, make_backend, read_puzzle_file
from gamecheck.solvers.sat import check_sat_solver

REPOSITORY = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", default=REPOSITORY.parent / "shared/data/sudoku")
    parser.add_argument("--limit", type=int, help="only the first N puzzles of each file")
    parser.add_argument("--backend", choices=[*BACKENDS, "both"], default="both")
    parser.add_argument("--sat-solver", help="python-sat solver of the CNF backend")
    args = parser.parse_args()
    files = sorted(Path(args.data).glob("*.txt"))
    if not files:
        sys.exit(f"bench/sudoku.py: no puzzle files (*.txt) in {args.data}")
    names = BACKENDS if args.backend == "both" else (args.backend,)
    rows = []
    for path in files:
        puzzles = read_puzzle_file(str(path), args.limit)
        for name in names:
            backend = make_backend(name, sat_solver=args.sat_solver)
            result = bench_backend(backend, puzzles, progress=False)
            rows.append({"file": path.name, "backend": name, **result})
            print(
                f"{path.name:26} {name:6} {result['puzzles']:7} {result['seconds']:9.2f} s "
                f"{result['puzzles_per_second']:9.1f}/s  unique {result['unique_count']}",
                flush=True,
            )
    print(
        json.dumps(
            {
                "benchmark": "sudoku",
                "limit": args.limit,
                "sat_solver": check_sat_solver(args.sat_solver),
                "results": rows,
            }
        )
    )


if __name__ == "__main__":
    main()
