"""Start-up time: wall seconds of the installed `gamecheck` for commands that do little work.

    python bench/startup.py [SHEET.kif] [--runs N]

Runs `gamecheck --version`, `gamecheck games` and `gamecheck lint SHEET` (default: the
repository's tests/data/gdl/tictactoe.kif) N times each (default 10) as new processes, the
command being the console script next to this Python. Prints min, median and max per
command, and one JSON line. The goal (issue 10): `games` and `lint` print within 0.5 s.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

DEFAULT_SHEET = Path(__file__).resolve().parent.parent / "tests" / "data" / "gdl" / "tictactoe.kif"


def wall_seconds(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL)  # lint exits 1 on a sheet with errors
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sheet", nargs="?", type=Path, default=DEFAULT_SHEET)
    parser.add_argument("--runs", type=int, default=10, help="runs per command (default 10)")
    args = parser.parse_args()
    gamecheck = shutil.which("gamecheck", path=str(Path(sys.executable).parent))
    if gamecheck is None:
        sys.exit(f"bench/startup.py: no gamecheck command next to {sys.executable}")
    commands = {
        "--version": [gamecheck, "--version"],
        "games": [gamecheck, "games"],
        "lint": [gamecheck, "lint", str(args.sheet)],
    }
    rows = []
    print(f"{'command':10} {'runs':>5} {'min s':>7} {'median s':>9} {'max s':>7}")
    for name, argv in commands.items():
        times = [wall_seconds(argv) for _ in range(args.runs)]
        row = {
            "command": name,
            "runs": args.runs,
            "min": round(min(times), 3),
            "median": round(statistics.median(times), 3),
            "max": round(max(times), 3),
        }
        rows.append(row)
        print(f"{name:10} {args.runs:5} {row['min']:7.3f} {row['median']:9.3f} {row['max']:7.3f}")
    print(json.dumps({"benchmark": "startup", "sheet": str(args.sheet), "results": rows}))


if __name__ == "__main__":
    main()
