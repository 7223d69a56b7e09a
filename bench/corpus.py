"""The rule-sheet corpus: lint, ground and verify every sheet as a user would, one command
per sheet.

    python bench/corpus.py DIR [--time-limit S] [--jobs N] [--out DIR [--resume]] [--limit N]
                               [--only NAME ...] [--sample K [--offset I]] [--sat-solver NAME]

For every .kif file under DIR (e.g. ../shared/data/ggp) it runs lint's checks (in this
process), then the installed `gamecheck verify SHEET --json --time-limit S` (with
`--sat-solver NAME` if given: solvers compared on the same sheets) as a separate process,
`--jobs` at a time, and records: lint errors and warnings, the ground size (fluents,
actions, gates, ground atoms) and grounding seconds, the method that answered (a solver, or
the exhaustive search with its count of reachable states), each verify answer and its
seconds, the wall time of the command and its overrun past the limit, its peak memory (the
child's maximum resident set, from wait4), its exit status, and whether it printed a
traceback; and, before and after the run, the seconds a fixed Python loop takes (the
machine's speed: runs made on different machines compare only through it). A GDL-II sheet
(`sees`, `(role random)`) is counted as refused (verify must exit 2 on it), not as a sheet
whose questions went unsettled. It prints a summary table and one JSON line; with --out it
writes corpus.csv, summary.json, README.md and two plots there. With --out, each sheet's row
is also appended to rows.jsonl there as soon as it is measured, so a run that is stopped
keeps them: `--resume` (the same options) measures only the sheets that rows.jsonl does not
hold yet, and reports on them all. The installed command imports the installed sources: to
measure a checkout (two commits side by side), run with PYTHONPATH set to it.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from gamecheck.errors import GamecheckError
from gamecheck.gdl.checks import is_gdl_ii, lint_file
from gamecheck.solvers.sat import check_sat_solver

QUESTIONS = (
    "termination",
    "longest_game",
    "shortest_game",
    "playability",
    "goal_definedness",
    "outcomes",
)
"""The questions of every sheet, besides one earliest win per role. Termination came in
later than the others: `settled_share_before_termination` counts as the earlier runs did."""
ROWS = "rows.jsonl"
"""Under --out: one JSON row per sheet, appended as each is measured (for --resume)."""
STARTUP_SECONDS = 5.0
"""Allowance for starting the command (imports) on top of limit + 10%."""
SPEED_LOOP = compile("total = 0\nfor step in range(10**7):\n    total += step\n", "loop", "exec")
"""The pure-Python loop timed before and after a run, at module level as the session notes
time it (`python -c`): runs made on different machines are compared by it (half-120-s55's
machine: 0.74 s; half-120-s63's: 1.1-1.8 s)."""


def gamecheck_command() -> list[str]:
    """The installed console script next to this Python (as a user runs it)."""
    script = Path(sys.executable).with_name("gamecheck")
    return [str(script)] if script.exists() else [shutil.which("gamecheck") or "gamecheck"]


def run_measured(command: list[str], timeout: float) -> dict:
    """Run a command; its wall seconds, peak resident MB (wait4's rusage of the child),
    exit status and output. Killed (with its process group) after `timeout` seconds."""
    start = time.monotonic()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen(command, stdout=out, stderr=err, start_new_session=True)
        killed = False
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - start > timeout and not killed:
                os.killpg(process.pid, signal.SIGKILL)
                killed = True
            time.sleep(0.05)
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return {
            "seconds": time.monotonic() - start,
            "peak_mb": usage.ru_maxrss / 1024,
            "exit": process.returncode,
            "killed": killed,
            "stdout": out.read(),
            "stderr": err.read(),
        }


def measure(sheet: Path, root: Path, time_limit: float, sat_solver: str | None = None) -> dict:
    """Lint and verify one sheet (with that python-sat solver, if given); a flat row for the
    CSV."""
    command = gamecheck_command()
    solver = ["--sat-solver", sat_solver] if sat_solver else []
    row: dict = {"sheet": str(sheet.relative_to(root)), "gdl_ii": False}
    try:
        lint = lint_file(str(sheet))
        errors = lint.errors
        row["lint_errors"], row["lint_warnings"] = len(errors), len(lint.warnings)
        row["lint_first_error"] = errors[0].message[:200] if errors else ""
        row["gdl_ii"] = any(map(is_gdl_ii, errors))
    except GamecheckError as error:
        row["lint_errors"], row["lint_warnings"], row["lint_first_error"] = 1, 0, str(error)
    verify = run_measured(
        [*command, "verify", str(sheet), "--json", "--time-limit", str(time_limit), *solver],
        timeout=time_limit * 2 + 30,
    )
    row.update(
        verify_seconds=round(verify["seconds"], 2),
        overrun=round(verify["seconds"] - time_limit, 2),
        peak_mb=round(verify["peak_mb"], 1),
        exit=verify["exit"],
        killed=verify["killed"],
        traceback="Traceback" in verify["stderr"],
        message=_last_line(verify["stderr"]) if verify["exit"] else "",
    )
    if row["gdl_ii"]:
        row.update(questions=0, settled=0)
        return row
    try:
        result = json.loads(verify["stdout"])
    except json.JSONDecodeError:
        row.update(questions=len(QUESTIONS), settled=0)
        return row
    system = result.get("system", {})
    for key in ("fluents", "actions", "gates", "ground_atoms", "ground_seconds"):
        row[key] = system.get(key, "")
    row["method"] = result["backend"]
    row["reachable_states"] = system.get("reachable_states", "")
    answers = {q: result[q] for q in QUESTIONS} | {
        f"earliest_win {role}": answer for role, answer in result["earliest_win"].items()
    }
    row["questions"] = len(answers)
    row["settled"] = sum(a["status"] != "unknown" for a in answers.values())
    row["defects"] = " ".join(result["defects"])
    row["dead_rules"] = len(result.get("dead_rules", []))
    for question in QUESTIONS:
        row[question] = answers[question]["status"]
        row[f"{question}_seconds"] = answers[question]["seconds"]
    wins = [a for q, a in answers.items() if q.startswith("earliest_win")]
    row["earliest_win"] = f"{sum(a['status'] != 'unknown' for a in wins)}/{len(wins)}"
    row["detail"] = next((a.get("detail", "") for a in answers.values() if a.get("detail")), "")
    row["witnesses"] = json.dumps(
        {q: a["witness"] for q, a in answers.items() if a["status"] == "refuted" and "witness" in a}
    )
    return row


def python_speed() -> float:
    """Seconds the best of three runs of SPEED_LOOP takes here."""
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        exec(SPEED_LOOP, {})
        best = min(best, time.perf_counter() - began)
    return round(best, 2)


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if not line.startswith("[")]
    return lines[-1][:300] if lines else ""


def summarize(rows: list[dict], time_limit: float, speed: tuple[float, float]) -> dict:
    """Shares and extremes over all sheets; `speed`: python_speed() before and after."""
    total_questions = sum(row.get("questions", 0) for row in rows)
    settled = sum(row.get("settled", 0) for row in rows)
    per_question = {}
    for question in QUESTIONS:
        asked = [row for row in rows if question in row]
        per_question[question] = round(
            sum(row[question] != "unknown" for row in asked) / max(1, len(asked)), 3
        )
    terminations = [row for row in rows if "termination" in row]
    settled_before = settled - sum(row["termination"] != "unknown" for row in terminations)
    questions_before = total_questions - len(terminations)
    wins = [row["earliest_win"].split("/") for row in rows if "earliest_win" in row]
    per_question["earliest_win"] = round(
        sum(int(a) for a, _ in wins) / max(1, sum(int(b) for _, b in wins)), 3
    )
    worst = max(rows, key=lambda row: row["overrun"])
    heaviest = max(rows, key=lambda row: row["peak_mb"])
    return {
        "sheets": len(rows),
        "time_limit": time_limit,
        "lint_clean_of_errors": sum(row["lint_errors"] == 0 for row in rows),
        "refused_as_gdl_ii": [row["sheet"] for row in rows if row["gdl_ii"]],
        "gdl_ii_refused_in_one_sentence": all(
            row["exit"] == 2 and not row["traceback"] for row in rows if row["gdl_ii"]
        ),
        "grounded": sum(row.get("gates", "") != "" for row in rows),
        "exhaustive": sum(row.get("method") == "exhaustive search" for row in rows),
        "questions": total_questions,
        "settled_share": round(settled / max(1, total_questions), 3),
        "settled_share_per_question": per_question,
        "settled_share_before_termination": round(settled_before / max(1, questions_before), 3),
        "worst_overrun_seconds": worst["overrun"],
        "worst_overrun_sheet": worst["sheet"],
        "within_limit": all(
            row["verify_seconds"] <= time_limit * 1.1 + STARTUP_SECONDS for row in rows
        ),
        "peak_mb": heaviest["peak_mb"],
        "peak_mb_sheet": heaviest["sheet"],
        "tracebacks": sum(row["traceback"] for row in rows),
        "killed": sum(row["killed"] for row in rows),
        "exits": {str(code): sum(row["exit"] == code for row in rows) for code in (0, 1, 2, 3, 4)},
        "refuted": [row["sheet"] for row in rows if row.get("defects")],
        "python_loop_seconds": {"before": speed[0], "after": speed[1]},
    }


def table(summary: dict) -> str:
    loop = summary["python_loop_seconds"]
    lines = [
        f"sheets                 {summary['sheets']}",
        f"time limit             {summary['time_limit']} s",
        f"lint without errors    {summary['lint_clean_of_errors']}",
        f"refused as GDL-II      {len(summary['refused_as_gdl_ii'])} "
        f"(exit 2, one sentence: {summary['gdl_ii_refused_in_one_sentence']})",
        f"grounded               {summary['grounded']}",
        f"all states listed      {summary['exhaustive']} (answered by exhaustive search)",
        f"questions settled      {summary['settled_share']:.1%} of {summary['questions']}",
    ]
    for question, share in summary["settled_share_per_question"].items():
        lines.append(f"  {question:<20} {share:.1%}")
    lines.append(
        f"  without termination  {summary['settled_share_before_termination']:.1%} "
        "(the questions of earlier runs)"
    )
    lines += [
        f"worst overrun          {summary['worst_overrun_seconds']:+.1f} s "
        f"({summary['worst_overrun_sheet']})",
        f"all within limit+10%+{STARTUP_SECONDS:.0f}s  {summary['within_limit']}",
        f"peak memory            {summary['peak_mb']:.0f} MB ({summary['peak_mb_sheet']})",
        f"tracebacks             {summary['tracebacks']}",
        f"killed at 2 x limit+30 {summary['killed']}",
        f"exit statuses          {summary['exits']}",
        f"machine speed          {loop['before']:.2f} s before, {loop['after']:.2f} s after "
        "(a 10^7-step Python loop; lower is faster)",
    ]
    return "\n".join(lines)


def write_report(rows: list[dict], summary: dict, out: Path, command: str) -> None:
    """corpus.csv, summary.json, two plots and README.md into `out`."""
    out.mkdir(parents=True, exist_ok=True)
    columns = list(dict.fromkeys(key for row in rows for key in row))
    with open(out / "corpus.csv", "w", newline="") as file:
        writer = csv.DictWriter(file, columns)
        writer.writeheader()
        writer.writerows(rows)
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    _plots(rows, out)
    refuted = "\n".join(f"- {sheet}" for sheet in summary["refuted"]) or "- none"
    (out / "README.md").write_text(
        f"# The GGP corpus under gamecheck\n\nMade by `{command}`.\n\n"
        f"```\n{table(summary)}\n```\n\n"
        "Per sheet: corpus.csv (lint, ground size and seconds, each answer and its seconds, "
        "wall time, overrun, peak memory, exit status). Plots: settled.png (share of "
        "questions settled against the time they took), ground.png (gates against "
        f"grounding seconds). Wall times are those of a machine whose cores other work may "
        "share; a run still going at twice the limit plus 30 s is killed (column killed)."
        f"\n\nSheets with a defect (a refuted property, or a role proved never to win):"
        f"\n\n{refuted}\n"
    )


def _plots(rows: list[dict], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    times = sorted(
        float(row[f"{q}_seconds"])
        for row in rows
        for q in QUESTIONS
        if row.get(q) not in (None, "", "unknown")
    )
    # a sheet without answers counts as unsettled, unless refused as GDL-II
    asked = sum(not row["gdl_ii"] for row in rows) * len(QUESTIONS)
    figure, axes = plt.subplots(figsize=(6, 4))
    axes.step(times, [(i + 1) / asked for i in range(len(times))], where="post")
    axes.set(xlabel="seconds", ylabel="share of questions settled", xscale="symlog")
    axes.set_title("Share of verify questions settled within a time")
    figure.tight_layout()
    figure.savefig(out / "settled.png", dpi=100)
    grounded = [row for row in rows if row.get("gates", "") not in ("", None)]
    figure, axes = plt.subplots(figsize=(6, 4))
    axes.scatter(
        [float(row["ground_seconds"]) for row in grounded],
        [int(row["gates"]) + 1 for row in grounded],
        s=8,
    )
    axes.set(xlabel="grounding seconds", ylabel="gates + 1", yscale="log")
    axes.set_title("Ground size against grounding time")
    figure.tight_layout()
    figure.savefig(out / "ground.png", dpi=100)
    plt.close("all")


def _measured_rows(out: Path) -> list[dict]:
    """The rows an earlier run with the same --out appended to rows.jsonl."""
    path = out / ROWS
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _chosen(sheet: Path, args) -> bool:
    """Whether --only names the sheet (or there is no --only)."""
    return not args.only or any(_named(sheet, args, name) for name in args.only)


def _named(sheet: Path, args, name: str) -> bool:
    """Whether `name` is the sheet's path relative to DIR or its top folder."""
    relative = sheet.relative_to(args.directory)
    return name in (str(relative), relative.parts[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--time-limit", type=float, default=120.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, help="write the report into this directory")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="keep the rows in --out's rows.jsonl and measure only the other sheets",
    )
    parser.add_argument("--limit", type=int, help="only the first N sheets (sorted by path)")
    parser.add_argument(
        "--only",
        nargs="+",
        metavar="NAME",
        help="only these sheets: a path relative to DIR (4pffa/v1/4pffa.kif) or a folder "
        "name (4pffa: every sheet under it)",
    )
    parser.add_argument(
        "--sample",
        type=int,
        default=1,
        metavar="K",
        help="only every K-th sheet (sorted by path, from the first): a sample blind to names",
    )
    parser.add_argument(
        "--offset",
        type=int,
        default=0,
        metavar="I",
        help="with --sample K, start at the I-th sheet (0-based): --sample 2 --offset 1 is "
        "the half that --sample 2 leaves out",
    )
    parser.add_argument(
        "--sat-solver",
        metavar="NAME",
        help="verify with this python-sat solver, not the default one",
    )
    args = parser.parse_args()
    if args.sample < 1:
        parser.error("--sample needs a positive K")
    if not 0 <= args.offset < args.sample:
        parser.error("--offset needs 0 <= I < K (--sample K)")
    if args.resume and not args.out:
        parser.error("--resume needs --out")
    try:
        check_sat_solver(args.sat_solver)
    except GamecheckError as error:
        parser.error(str(error))
    every = sorted(args.directory.rglob("*.kif"))
    unmatched = [name for name in args.only or () if not any(_named(s, args, name) for s in every)]
    if unmatched:
        parser.error(f"--only names no sheet under {args.directory}: {' '.join(unmatched)}")
    sheets = [s for s in every if _chosen(s, args)]
    sheets = sheets[args.offset :: args.sample][: args.limit]
    if not sheets:
        parser.error(f"no .kif files under {args.directory}")
    rows = _measured_rows(args.out) if args.resume else []
    measured = {row["sheet"] for row in rows}
    sheets = [s for s in sheets if str(s.relative_to(args.directory)) not in measured]
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        if not args.resume:
            (args.out / ROWS).write_text("")
    speed_before = python_speed()
    with ThreadPoolExecutor(args.jobs) as pool:
        futures = [
            pool.submit(measure, s, args.directory, args.time_limit, args.sat_solver)
            for s in sheets
        ]
        for future in futures:
            row = future.result()
            rows.append(row)
            if args.out:
                with open(args.out / ROWS, "a") as file:
                    file.write(json.dumps(row) + "\n")
            print(
                f"{row['sheet']:<60} exit {row['exit']} {row['verify_seconds']:7.1f} s "
                f"{row['peak_mb']:7.0f} MB settled {row.get('settled', 0)}/"
                f"{row.get('questions', '?')}",
                file=sys.stderr,
                flush=True,
            )
    summary = summarize(rows, args.time_limit, (speed_before, python_speed()))
    print(table(summary))
    print(json.dumps(summary))
    if args.out:
        write_report(rows, summary, args.out, "python " + " ".join(sys.argv))


if __name__ == "__main__":
    main()
