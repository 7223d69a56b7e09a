"""Corpus runs (the --out directories of bench/corpus.py) read together.

    python bench/corpus_runs.py compare BEFORE AFTER
    python bench/corpus_runs.py best RUN [RUN ...]
    python bench/corpus_runs.py join RUN [RUN ...] --out DIR

`compare` is the side-by-side reading of two runs of the same sheets: each sheet both hold
whose answers differ, with what each run settled and its seconds, then the totals. `best`
asks, of every question of every sheet, whether any of the runs settled it: the most the
methods of those runs settle where every edge goes their way (a whole-corpus figure above
it needs a question settled that none of them ever did), and it lists the questions no run
settled, by kind. A run's earliest wins are one count per sheet (`k/n`): `best` takes the
largest k of any run, which may count low where runs settled different roles. `join` makes
one report of runs of disjoint sheets at the same time limit (the two halves of the corpus):
corpus.csv, summary.json, the plots and README.md in DIR, as bench/corpus.py writes them for
one run.

Each prints its table, then one JSON line of its figures. A run is read from its
corpus.csv, or from rows.jsonl while it is still going.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import Counter
from pathlib import Path

from corpus import QUESTIONS, summarize, table, write_report

FLAGS = ("gdl_ii", "killed", "traceback")
"""The columns of corpus.csv that hold True or False."""
COUNTS = ("lint_errors", "lint_warnings", "exit", "questions", "settled", "dead_rules", "fluents")
COUNTS += ("actions", "gates", "ground_atoms", "reachable_states")
"""The columns of corpus.csv that hold whole numbers; those named *_seconds, overrun and
peak_mb hold decimals."""


def load(run: Path) -> dict[str, dict]:
    """The run's rows by sheet (those of sheets with questions: not those refused)."""
    return {row["sheet"]: row for row in measured(run) if row["questions"]}


def measured(run: Path) -> list[dict]:
    """The run's rows as bench/corpus.py measured them, from its corpus.csv, or from
    rows.jsonl while it is still going."""
    table = run / "corpus.csv"
    if not table.exists():
        return [json.loads(line) for line in (run / "rows.jsonl").read_text().splitlines()]
    with table.open(newline="") as file:
        return [typed(row) for row in csv.DictReader(file)]


def typed(row: dict) -> dict:
    """A row of corpus.csv as bench/corpus.py measured it: numbers and flags as such, and
    without the columns the sheet had no value for (written empty)."""
    values = {}
    for column, text in row.items():
        if text == "":
            continue
        if column in FLAGS:
            values[column] = text == "True"
        elif column in COUNTS:
            values[column] = int(text)
        elif column.endswith("_seconds") or column in ("overrun", "peak_mb"):
            values[column] = float(text)
        else:
            values[column] = text
    return values


def join(runs: list[Path], out: Path, command: str) -> None:
    """One report of the runs' rows in `out`, made by `command`; ValueError where they are
    not parts of one run (a missing report, different time limits, a sheet in two of them)."""
    finished = [run for run in runs if (run / "summary.json").exists()]
    if finished != runs:
        missing = " ".join(str(run) for run in runs if run not in finished)
        raise ValueError(f"no finished bench/corpus.py report (summary.json) in {missing}")
    summaries = [json.loads((run / "summary.json").read_text()) for run in runs]
    limits = {summary["time_limit"] for summary in summaries}
    if len(limits) > 1:
        raise ValueError(f"the runs have different time limits: {sorted(limits)}")
    rows = [row for run in runs for row in measured(run)]
    counts = Counter(row["sheet"] for row in rows)
    twice = sorted(sheet for sheet, count in counts.items() if count > 1)
    if twice:
        raise ValueError(f"the runs share {len(twice)} sheets, {twice[0]} among them")
    rows.sort(key=lambda row: row["sheet"])
    loops = [summary["python_loop_seconds"] for summary in summaries]
    speed = (loops[0]["before"], loops[-1]["after"])
    summary = summarize(rows, limits.pop(), speed)
    print(table(summary))
    print(json.dumps(summary))
    write_report(rows, summary, out, command)


def settled(row: dict) -> dict[str, int]:
    """Per question of the sheet, 1 if the run settled it (earliest wins: how many)."""
    marks = {question: int((row.get(question) or "unknown") != "unknown") for question in QUESTIONS}
    marks["earliest_win"] = _wins(row)[0]
    return marks


def _wins(row: dict) -> tuple[int, int]:
    """(earliest wins settled, earliest wins asked) of the sheet."""
    settled_wins, _, asked = (row.get("earliest_win") or "0/0").partition("/")
    return int(settled_wins), int(asked or 0)


def compare(before: dict[str, dict], after: dict[str, dict]) -> None:
    sheets = sorted(before.keys() & after.keys())
    for sheet in sheets:
        old, new = before[sheet], after[sheet]
        changed = [q for q in QUESTIONS if (old.get(q) or "") != (new.get(q) or "")]
        if old.get("earliest_win") != new.get("earliest_win"):
            changed.append(f"wins {old.get('earliest_win')} -> {new.get('earliest_win')}")
        if changed:
            print(
                f"{sheet:60} {old['settled']} -> {new['settled']}  "
                f"({old['verify_seconds']} s, {new['verify_seconds']} s)  {', '.join(changed)}"
            )
    total = [sum(int(run[sheet]["settled"]) for sheet in sheets) for run in (before, after)]
    asked = sum(int(after[sheet]["questions"]) for sheet in sheets)
    print(f"{len(sheets)} sheets, {asked} questions: settled {total[0]} -> {total[1]}")
    print(json.dumps({"sheets": len(sheets), "questions": asked, "settled": total}))


def best(runs: list[dict[str, dict]]) -> None:
    sheets = sorted(set().union(*runs))
    most: dict[str, dict[str, int]] = {}  # per sheet and question: settled in some run
    asked: dict[str, dict[str, int]] = {}  # per sheet and question: how many
    least = 0  # settled in every run
    for sheet in sheets:
        rows = [run[sheet] for run in runs if sheet in run]
        marks = [settled(row) for row in rows]
        most[sheet] = {question: max(mark[question] for mark in marks) for question in marks[0]}
        least += sum(min(mark[question] for mark in marks) for question in marks[0])
        wins = max(_wins(row)[1] for row in rows)
        asked[sheet] = dict.fromkeys(QUESTIONS, 1) | {"earliest_win": wins}
    total, questions = (sum(sum(count.values()) for count in per.values()) for per in (most, asked))
    print(
        f"{len(sheets)} sheets, {questions} questions: {total} ({total / max(1, questions):.1%}) "
        f"settled in at least one of {len(runs)} runs, {least} in every one"
    )
    unsettled = {}
    for question in (*QUESTIONS, "earliest_win"):
        never = {  # sheet -> questions of this kind no run settled
            sheet: asked[sheet][question] - most[sheet][question]
            for sheet in sheets
            if asked[sheet][question] > most[sheet][question]
        }
        print(f"\n{question}: {sum(never.values())} never settled, on {len(never)} sheets")
        for sheet, count in never.items():
            print(f"  {sheet}" + (f" ({count})" if question == "earliest_win" else ""))
        unsettled[question] = sum(never.values())
    figures = {"sheets": len(sheets), "questions": questions, "runs": len(runs)}
    print(json.dumps(figures | {"settled_any": total, "settled_every": least} | unsettled))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    pair = commands.add_parser("compare", help="two runs of the same sheets, side by side")
    pair.add_argument("before", type=Path)
    pair.add_argument("after", type=Path)
    many = commands.add_parser("best", help="per question, settled in any of the runs")
    many.add_argument("runs", type=Path, nargs="+")
    whole = commands.add_parser("join", help="one report of runs of disjoint sheets")
    whole.add_argument("runs", type=Path, nargs="+")
    whole.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.command == "compare":
        compare(load(args.before), load(args.after))
    elif args.command == "best":
        best([load(run) for run in args.runs])
    else:
        try:
            join(args.runs, args.out, "python " + " ".join(sys.argv))
        except ValueError as error:
            parser.error(str(error))


if __name__ == "__main__":
    main()
