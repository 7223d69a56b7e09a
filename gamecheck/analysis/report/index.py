"""The index of a report directory: README.md with one summary table across the games.

Each game's directory holds its summary row (summary.csv) and its times (timings.csv), so the
index can list games produced by earlier runs next to the ones just made.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from gamecheck.analysis.report.markdown import (
    MACHINE_DEPENDENT_END,
    MACHINE_DEPENDENT_START,
    markdown_table,
)
from gamecheck.analysis.report.settings import QUICK
from gamecheck.models import builtin_names

SUMMARY, TIMINGS = "summary.csv", "timings.csv"
TOTAL = "total"


def game_rows(directories: Sequence[Path]) -> pd.DataFrame:
    """The summary rows of the built-in games, each from the first directory holding it."""
    rows = []
    for name in builtin_names():
        for directory in directories:
            summary = directory / name / SUMMARY
            if summary.is_file():
                row = pd.read_csv(summary, keep_default_na=False).iloc[0].to_dict()
                times = pd.read_csv(directory / name / TIMINGS).set_index("part")["seconds"]
                row["wall time (s)"] = float(times[TOTAL])
                rows.append(row)
                break
    return pd.DataFrame(rows)


def index_text(rows: pd.DataFrame) -> str:
    """The Markdown of README.md for a table of game rows."""
    summary = rows.drop(columns=["wall time (s)"]).copy()
    summary["game"] = [f"[{name}]({name}.md)" for name in summary["game"]]
    summary["longest game"] = [
        f"{steps} steps ({status})" if pd.notna(steps) and steps != "" else status
        for steps, status in zip(
            summary.pop("longest game (steps)"), summary["longest game"], strict=True
        )
    ]
    summary["outcomes"] = [
        f"{count} ({status})"
        for count, status in zip(summary["outcomes"], summary.pop("outcome set"), strict=True)
    ]
    runs = set(rows["run"])
    times = rows[["game", "run", "wall time (s)"]].copy()
    times["wall time (s)"] = times["wall time (s)"].round(0).astype(int)
    total = int(round(rows["wall time (s)"].sum()))
    lines = [
        "# gamecheck reports",
        "",
        "One report per game (Markdown, with its CSV tables and PNG plots in the directory of "
        "the same name), made by `gamecheck report`. Every line of play in them was replayed "
        "on the move generator before it was written.",
        "",
        _runs_sentence(runs),
        "",
        "## Summary",
        "",
        "Verify answers with the CNF backend (`unknown`: the time limit ran out), who wins "
        "under the strongest play measured, and forced wins from the start. The details are "
        "in each game's report; the numbers in summary.csv.",
        "",
        markdown_table(summary),
        "",
        "## Run times",
        "",
        MACHINE_DEPENDENT_START,
        "",
        "Wall time of each game's part of the run, on the machine that made it (2 cores "
        "shared with other work):",
        "",
        markdown_table(times),
        "",
        f"In all: {total} s ({total / 60:.1f} min).",
        "",
        MACHINE_DEPENDENT_END,
    ]
    return "\n".join(lines) + "\n"


def _runs_sentence(runs: set[str]) -> str:
    if runs == {QUICK}:
        return (
            "**All reports here come from the quick run** (`gamecheck report --quick`): fewer "
            "playouts, shorter time limits, some parts skipped; each report says what was cut."
        )
    if QUICK in runs:
        return (
            "**The games come from different runs**: the column `run` says which (`full` is "
            "`gamecheck report`, `quick` is `gamecheck report --quick`, whose reports say what "
            "was cut)."
        )
    return (
        "All reports here come from the full run (`gamecheck report`); the quick run "
        "(`gamecheck report --quick`) writes to a directory of its own, quick/ by default."
    )
