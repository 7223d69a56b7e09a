"""The tables of a report as DataFrames: the Markdown shows them and the CSV files hold them."""

from __future__ import annotations

import pandas as pd

from gamecheck.analysis.endgames import endgame_summary
from gamecheck.analysis.report.gather import GameResults, SudokuResults
from gamecheck.analysis.sudoku_solve import SudokuAnswer
from gamecheck.analysis.verify.results import Verification
from gamecheck.analysis.verify.text import answer_rows, goal_text, value_text
from gamecheck.solvers.forced_win.search import Status


def verification_table(result: Verification) -> pd.DataFrame:
    """One row per question: status, value, detail."""
    rows = [
        {
            "question": label,
            "status": answer.status,
            "value": value_text(answer, unit),
            "detail": answer.detail,
        }
        for label, answer, unit in answer_rows(result)
    ]
    return pd.DataFrame(rows)


def outcome_set_table(result: Verification) -> pd.DataFrame:
    """One row per reachable outcome, best for the first role first: each role's goal, and
    the length of the line of play that reaches it."""
    found = zip(result.outcomes.vectors, result.outcomes.witnesses, strict=True)
    rows = [
        {
            **{role: goal_text(goal) for role, goal in zip(result.roles, vector, strict=True)},
            "line of play": f"{len(witness)} steps",
        }
        for vector, witness in sorted(found, key=lambda pair: _descending(pair[0]))
    ]
    return pd.DataFrame(rows, columns=[*result.roles, "line of play"])


def _descending(vector: tuple) -> tuple:
    """A sort key putting higher goals of earlier roles first (a role's several values, in
    a broken game, count as their highest)."""
    return tuple(-(max(g, default=-1) if isinstance(g, tuple) else g) for g in vector)


def branching_counts(results: GameResults) -> pd.DataFrame:
    """How many steps of the random playouts had each number of legal joint actions."""
    counts = pd.Series(
        [b for playout in results.playouts for b in playout.branching], dtype="int64"
    ).value_counts()
    table = counts.sort_index().rename_axis("joint actions").reset_index(name="steps")
    return table


def outcome_frequencies(results: GameResults) -> pd.DataFrame:
    """Each outcome of the random playouts with its count and share, most frequent first."""
    table = results.stats.outcomes.reset_index()
    table["frequency"] = table["frequency"].round(4)
    return table


def length_summary(results: GameResults) -> pd.DataFrame:
    """Count, mean, spread and quantiles of the playout lengths, as one row."""
    return _one_row(results.stats.lengths)


def branching_summary(results: GameResults) -> pd.DataFrame:
    """Steps, mean, min and max of the branching factor over all steps, as one row."""
    return _one_row(results.stats.branching)


def _one_row(summary: pd.Series) -> pd.DataFrame:
    cells = {
        key: f"{value:.0f}" if float(value).is_integer() else f"{value:.2f}"
        for key, value in summary.items()
    }
    return pd.DataFrame([cells])


def forced_wins(results: GameResults) -> pd.DataFrame:
    """Per role (or team: roles proved to share their goals, joined by commas), the forced
    win from the initial state: the answer, the fewest steps of a forced win or the depth up
    to which none is proved, the depth below which no win was proved before the main search,
    how it was found, and its size."""
    rows = [
        {
            "role": label,
            "answer": str(win.status),
            "fewest steps": win.depth,
            "proved: none within (steps)": win.searched_depth if win.searched_depth >= 0 else None,
            "no win before (proved first)": win.lower_bound,
            "first action": win.first_action,
            "strategy states": win.strategy_size,
            "method": win.method,
            "nodes": win.nodes,
        }
        for label, win in results.forced_wins.items()
    ]
    return pd.DataFrame(rows).astype(
        {
            "fewest steps": "Int64",
            "proved: none within (steps)": "Int64",
            "strategy states": "Int64",
        }
    )


def endgame_rows(results: GameResults) -> pd.DataFrame:
    """The endgame study, one row per position and role, without its times."""
    return results.endgames.drop(columns=["seconds"])


def endgame_shares(results: GameResults) -> pd.DataFrame:
    """Per K and role: positions, found / none / unknown, and the share found."""
    summary = endgame_summary(results.endgames).reset_index()
    return summary.rename(columns={"before": "K", "found_share": "share found"})


def solver_figures(results: GameResults) -> pd.DataFrame:
    """Per question and backend: status, value and seconds (machine-dependent)."""
    rows = []
    for backend, result in results.verifications.items():
        outcomes = result.outcomes
        answers = [
            (label, a.status, value_text(a, unit), a.seconds)
            for label, a, unit in answer_rows(result)
        ]
        answers.insert(
            4,
            ("outcome set", outcomes.status, f"{len(outcomes.vectors)} found", outcomes.seconds),
        )
        rows += [
            {
                "backend": backend,
                "question": label,
                "status": status,
                "value": value,
                "seconds": round(seconds, 2),
            }
            for label, status, value, seconds in answers
        ]
    return pd.DataFrame(rows, columns=["backend", "question", "status", "value", "seconds"])


def encoding_sizes(results: GameResults) -> pd.DataFrame:
    """Per backend: the ground system, its invariants and the size of the unrolled encoding
    at the deepest layer the run reached."""
    rows = []
    for backend, result in results.verifications.items():
        invariants = result.invariant_statistics
        rows.append(
            {
                "backend": backend,
                **result.system_size,
                "state invariants": invariants.get("state_invariants", 0),
                "counters": invariants.get("counters", 0),
                "variables": result.encoding.get("variables"),
                "clauses or constraints": result.encoding.get(
                    "clauses", result.encoding.get("constraints")
                ),
            }
        )
    return pd.DataFrame(rows)


def timings(results: GameResults) -> pd.DataFrame:
    """Every time measured in this game's run, in seconds (machine-dependent)."""
    rows = [
        {"part": part, "seconds": round(seconds, 2)} for part, seconds in results.seconds.items()
    ]
    for backend, result in results.verifications.items():
        rows.append(
            {
                "part": f"verify ({backend}): invariants",
                "seconds": round(result.invariant_statistics.get("seconds", 0.0), 2),
            }
        )
    if results.sudoku is not None:
        rows += [
            {
                "part": f"sudoku {answer.game.instance} ({count.backend})",
                "seconds": round(count.seconds, 4),
            }
            for answer in (results.sudoku.answer, *results.sudoku.instances)
            for count in answer.counts
        ]
    return pd.DataFrame(rows, columns=["part", "seconds"])


def sudoku_instances(sudoku: SudokuResults) -> pd.DataFrame:
    """Every instance: its blanks and how many solutions it has (up to the cap)."""
    rows = [
        {
            "instance": answer.game.instance,
            "blanks": answer.game.step_bound,
            "solutions": solution_count_text(answer, sudoku.cap),
            "unique": {True: "yes", False: "no", None: "unknown"}[answer.unique],
        }
        for answer in sudoku.instances
    ]
    return pd.DataFrame(rows)


def solution_count_text(answer: SudokuAnswer, cap: int) -> str:
    """`1 (proved)`, `at least 10 (stopped at the cap)` or `unknown`."""
    found = len(answer.solutions)
    if answer.exhausted:
        return f"{found} (proved)"
    if found >= cap:
        return f"at least {found} (stopped at the cap)"
    return f"at least {found} (the time limit ran out)" if found else "unknown"


def summary_table(results: GameResults) -> pd.DataFrame:
    """The game's row in the index's summary table."""
    result = results.verification
    wins = ", ".join(
        f"{role} {value_text(answer, 'steps') or answer.status}"
        for role, answer in result.earliest_win.items()
    )
    outcomes = result.outcomes
    common = results.stats.outcomes.iloc[0]
    row = {
        "game": results.name,
        "run": results.mode,
        "roles": len(results.game.roles),
        "longest game": _answer_cell(result.longest_game, "steps"),
        "shortest game": _answer_cell(result.shortest_game, "steps"),
        "playability": result.playability.status,
        "goal definedness": result.goal_definedness.status,
        "outcomes": f"{len(outcomes.vectors)} ({outcomes.status})",
        "earliest win": wins,
        "random playouts": len(results.playouts),
        "mean length": round(float(results.stats.lengths["mean"]), 1),
        "most frequent outcome": f"{common.name} ({common['frequency']:.0%})",
        "forced win from the start": ", ".join(
            f"{_team_text(label)} {_forced_text(win)}" for label, win in results.forced_wins.items()
        ),
    }
    return pd.DataFrame([row])


def _forced_text(win) -> str:
    if win.depth is not None:
        return f"in {win.depth} steps"
    if win.status is Status.NONE:
        return f"none (proved to {win.searched_depth})"
    return f"unknown (none within {win.searched_depth})" if win.searched_depth >= 0 else "unknown"


def _team_text(label: str) -> str:
    """A role, or a team as `team xrow+xcolumn+xlevel` (commas separate the cell's teams)."""
    return f"team {label.replace(',', '+')}" if "," in label else label


def _answer_cell(answer, unit: str) -> str:
    value = value_text(answer, unit)
    return f"{value} ({answer.status})" if value else answer.status
