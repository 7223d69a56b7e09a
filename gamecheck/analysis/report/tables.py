"""The tables of a report as DataFrames: the Markdown shows them and the CSV files hold them."""

from __future__ import annotations

import re

import pandas as pd

from gamecheck.analysis.balance import share_text, win_rates
from gamecheck.analysis.endgames import endgame_summary
from gamecheck.analysis.openings import opening_summary
from gamecheck.analysis.report.gather import GameResults, SudokuResults
from gamecheck.analysis.sudoku_solve import SudokuAnswer
from gamecheck.analysis.verify.results import REFUTED, Verification
from gamecheck.analysis.verify.text import answer_rows, goal_text, vector_text
from gamecheck.solvers.forced_win.search import Status


def verification_table(result: Verification) -> pd.DataFrame:
    """One row per question: status, value (a whole number, or missing), its unit, detail."""
    rows = [
        {
            "question": label,
            "status": answer.status,
            "value": answer.value,
            "unit": unit if answer.value is not None else "",
            "detail": answer.detail,
        }
        for label, answer, unit in answer_rows(result)
    ]
    return pd.DataFrame(rows).astype({"value": "Int64"})


def witnesses(result: Verification) -> list[tuple[str, tuple]]:
    """Every line of play behind an answer, with a title: counterexamples first, then the
    shortest and longest games, each outcome, each earliest win."""
    answers = [
        ("Counterexample to termination", result.termination),
        ("Counterexample to playability", result.playability),
        ("Counterexample to goal definedness", result.goal_definedness),
        ("Shortest game", result.shortest_game),
        ("Longest game", result.longest_game),
    ]
    found = [
        (title, answer.witness)
        for title, answer in answers
        if answer.witness is not None and (answer.status == REFUTED) == title.startswith("Counter")
    ]
    outcomes = result.outcomes
    found += [
        (f"Outcome {vector_text(vector)}", witness)
        for vector, witness in zip(outcomes.vectors, outcomes.witnesses, strict=True)
    ]
    found += [
        (f"Earliest win of {role}", answer.witness)
        for role, answer in result.earliest_win.items()
        if answer.witness is not None
    ]
    return found


def unique_witnesses(result: Verification) -> dict[tuple, str]:
    """Each distinct line of play, with the title it is first shown under."""
    first: dict[tuple, str] = {}
    for title, witness in witnesses(result):
        first.setdefault(witness, title)
    return first


def board_file(title: str) -> str:
    """The file name of the picture of the board a line of play ends on."""
    return "board-" + re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") + ".png"


def line_steps(result: Verification) -> pd.DataFrame:
    """Every step of every line of play: the line's title, the step number and each role's
    action (lines.csv)."""
    rows = [
        {"line": title, "step": number, **dict(zip(result.roles, joint, strict=True))}
        for title, witness in witnesses(result)
        for number, joint in enumerate(witness, 1)
    ]
    return pd.DataFrame(rows, columns=["line", "step", *result.roles])


def branching_counts(results: GameResults) -> pd.DataFrame:
    """How many steps of the random playouts had each number of legal joint actions."""
    counts = pd.Series(
        [b for playout in results.playouts for b in playout.branching], dtype="int64"
    ).value_counts()
    table = counts.sort_index().rename_axis("joint actions").reset_index(name="steps")
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
    win from the initial state: the answer, the steps of a forced win (and whether they are
    proved the fewest) or the depth up to which none is proved, the depth below which no win
    was proved before the main search, how it was found, and its size."""
    rows = [
        {
            "role": label,
            "answer": str(win.status),
            "steps": win.depth,
            "fewest": None if win.depth is None else ("yes" if win.fewest else "not proved"),
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
            "steps": "Int64",
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
    """Per question and backend: status, value (a whole number, or missing) and its unit,
    seconds (machine-dependent)."""
    rows = []
    for backend, result in results.verifications.items():
        outcomes = result.outcomes
        answers = [
            (label, a.status, a.value, unit if a.value is not None else "", a.seconds)
            for label, a, unit in answer_rows(result)
        ]
        answers.insert(
            5,
            (
                "outcome set",
                outcomes.status,
                len(outcomes.vectors),
                "outcomes found",
                outcomes.seconds,
            ),
        )
        rows += [
            {
                "backend": backend,
                "question": label,
                "status": status,
                "value": value,
                "unit": unit,
                "seconds": round(seconds, 2),
            }
            for label, status, value, unit, seconds in answers
        ]
    columns = ["backend", "question", "status", "value", "unit", "seconds"]
    return pd.DataFrame(rows, columns=columns).astype({"value": "Int64"})


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
    """Every instance: its blanks, how many solutions were found (up to the cap) and what
    that count is (`exact`, or why it may be more)."""
    rows = [
        {
            "instance": answer.game.instance,
            "blanks": answer.game.step_bound,
            "solutions found": len(answer.solutions),
            "count": solution_count_kind(answer, sudoku.cap),
            "unique": {True: "yes", False: "no", None: "unknown"}[answer.unique],
        }
        for answer in sudoku.instances
    ]
    return pd.DataFrame(rows)


def solution_count_kind(answer: SudokuAnswer, cap: int) -> str:
    """`exact (proved)`, `at least (stopped at the cap)` or `at least (the time limit ran
    out)`."""
    if answer.exhausted:
        return "exact (proved)"
    if len(answer.solutions) >= cap:
        return "at least (stopped at the cap)"
    return "at least (the time limit ran out)"


def summary_table(results: GameResults) -> pd.DataFrame:
    """The game's row in the index's summary table: a few columns, the details being in the
    game's report."""
    result = results.verification
    outcomes = result.outcomes
    row = {
        "game": results.name,
        "run": results.mode,
        "roles": len(results.game.roles),
        "longest game (steps)": result.longest_game.value,
        "longest game": result.longest_game.status,
        "rules": _soundness(result),
        "outcomes": len(outcomes.vectors),
        "outcome set": outcomes.status,
        "who wins (share of playouts, 95% interval)": favoured_text(results),
        "forced win from the start": _forced_summary(results),
    }
    return pd.DataFrame([row])


def _soundness(result: Verification) -> str:
    """`sound (proved)`, the defects found, or what is unknown, of termination, playability
    and goals."""
    if result.defects:
        return "defective: " + ", ".join(d.replace("_", " ") for d in result.defects)
    answers = [result.termination, result.playability, result.goal_definedness]
    if all(answer.status == "proved" for answer in answers):
        return "sound (proved)"
    return "unknown"


def favoured_text(results: GameResults) -> str:
    """The win shares of the strongest play measured (UCT if played, else random), best
    first, roles with the same results (a team) written together."""
    rows = balance_rows(results)
    play = "UCT" if results.uct_playouts else "random"
    part = rows[rows["play"] == play]
    groups: dict[tuple, list[str]] = {}
    for _, row in part.iterrows():
        groups.setdefault((row["wins"], row["mean goal"]), []).append(row["role"])
    ranked = sorted(groups.items(), key=lambda item: -item[0][0])
    by_role = part.set_index("role")
    texts = ["/".join(roles) + " " + share_text(by_role.loc[roles[0]]) for _, roles in ranked]
    return f"{play}: " + "; ".join(texts)


def _forced_summary(results: GameResults) -> str:
    """Each team's forced win; for a one-role game, where nobody opposes, its earliest win."""
    if not results.forced_wins:
        (win,) = results.verification.earliest_win.values()
        steps = f" in {win.value} steps" if win.value is not None else ""
        return f"one role: a winning line {win.status}{steps}"
    return ", ".join(
        f"{_team_text(label)} {_forced_text(win)}" for label, win in results.forced_wins.items()
    )


def _forced_text(win) -> str:
    if win.depth is not None:
        return f"in {win.depth} steps" if win.fewest else f"within {win.depth} steps"
    if win.status is Status.NONE:
        return f"none (proved to {win.searched_depth})"
    return f"unknown (none within {win.searched_depth})" if win.searched_depth >= 0 else "unknown"


def balance_rows(results: GameResults) -> pd.DataFrame:
    """Per play (random, UCT) and role: playouts, wins, win share with its 95% interval and
    mean goal; numeric columns."""
    plays = {"random": results.playouts, "UCT": results.uct_playouts}
    frames = [
        win_rates(results.game.roles, [p.goals for p in playouts]).assign(play=play)
        for play, playouts in plays.items()
        if playouts
    ]
    table = pd.concat(frames, ignore_index=True)
    return table[["play", *table.columns.drop("play")]]


def balance_table(results: GameResults) -> pd.DataFrame:
    """Per role: its win share (95% interval) and mean goal under each play, as text."""
    rows = balance_rows(results)
    table = pd.DataFrame({"role": list(results.game.roles)})
    for play, part in rows.groupby("play", sort=False):
        part = part.set_index("role")
        count = int(part["playouts"].iloc[0])
        table[f"wins, {play} ({count})"] = [share_text(part.loc[r]) for r in table["role"]]
        table[f"mean goal, {play}"] = [f"{part.loc[r, 'mean goal']:.1f}" for r in table["role"]]
    return table


def opening_rows(results: GameResults) -> pd.DataFrame:
    """Per play and opening: playouts, and per role its win share and mean goal (numeric)."""
    frames = [
        opening_summary(part, results.game.roles).reset_index().assign(play=play)
        for play, part in results.openings.groupby("play", sort=False)
    ]
    if not frames:
        return pd.DataFrame(columns=["play", "opening", "playouts"])
    table = pd.concat(frames, ignore_index=True)
    return table[["play", *table.columns.drop("play")]]


def opening_table(results: GameResults, play: str) -> pd.DataFrame:
    """Per opening under one play: playouts and each role's win share, as text."""
    rows = opening_rows(results)
    rows = rows[rows["play"] == play]
    table = rows[["opening", "playouts"]].copy()
    for role in results.game.roles:
        table[f"{role} wins"] = [f"{share:.0%}" for share in rows[f"{role} wins"]]
    return table


def observed_outcomes(results: GameResults) -> pd.DataFrame:
    """Every outcome proved (or found) reachable, and any other observed, with its share of
    the random and of the UCT playouts (0 where never observed)."""
    roles = results.game.roles
    found = [tuple(v) for v in results.verification.outcomes.vectors]
    plays = {"random": results.playouts, "UCT": results.uct_playouts}
    observed = {
        play: pd.Series([tuple(p.goals) for p in playouts]).value_counts(normalize=True)
        for play, playouts in plays.items()
        if playouts
    }
    vectors = found + sorted({v for s in observed.values() for v in s.index} - set(found))
    rows = []
    for vector in vectors:
        row = {
            role: goal if isinstance(goal, int) else goal_text(goal)
            for role, goal in zip(roles, vector, strict=True)
        }
        row["reachable"] = "proved" if vector in found else "seen in playouts"
        for play, shares in observed.items():
            row[f"share, {play}"] = round(float(shares.get(vector, 0.0)), 4)
        rows.append(row)
    return pd.DataFrame(rows)


def endgame_grid(results: GameResults) -> pd.DataFrame:
    """K x role: `found/positions` (and how many were left unknown), one row per K."""
    summary = endgame_summary(results.endgames).reset_index()
    if summary.empty:
        return pd.DataFrame(columns=["K"])

    def cell(row) -> str:
        unknown = f", {row['unknown']} unknown" if row["unknown"] else ""
        return f"{row['found']}/{row['positions']}{unknown}"

    summary["cell"] = summary.apply(cell, axis=1)
    grid = summary.pivot(index="before", columns="role", values="cell")
    grid = grid[list(dict.fromkeys(summary["role"]))]
    return grid.rename_axis("K").reset_index().rename_axis(columns=None)


def _team_text(label: str) -> str:
    """A role, or a team as `team xrow+xcolumn+xlevel` (commas separate the cell's teams)."""
    return f"team {label.replace(',', '+')}" if "," in label else label
