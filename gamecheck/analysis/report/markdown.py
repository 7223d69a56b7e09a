"""A game's report as Markdown: rules, verification, playouts, solver figures.

Everything that depends on the machine (times, and answers that depend on a time limit of
the CP-SAT run) stands between MACHINE_DEPENDENT_START and MACHINE_DEPENDENT_END, so that a
reader sees it marked and a test can leave it out of a comparison.
"""

from __future__ import annotations

import math

import pandas as pd

from gamecheck.analysis.endgames import settled_depth
from gamecheck.analysis.replay import replay_line
from gamecheck.analysis.report import tables
from gamecheck.analysis.report.descriptions import DESCRIPTION_VS_RULES, RULES_IN_BRIEF
from gamecheck.analysis.report.gather import GameResults, SudokuResults
from gamecheck.analysis.report.settings import QUICK, cuts
from gamecheck.analysis.verify.results import REFUTED, Answer
from gamecheck.analysis.verify.text import folded_line
from gamecheck.models.sudoku import grid_text

MACHINE_DEPENDENT_START = "<!-- machine-dependent: begin -->"
MACHINE_DEPENDENT_END = "<!-- machine-dependent: end -->"


def markdown_table(frame: pd.DataFrame) -> str:
    """A DataFrame as a Markdown table (its index is left out; `|` in cells escaped)."""
    header = [str(column) for column in frame.columns]
    lines = [_row(header), _row(["---"] * len(header))]
    lines += [_row([_cell(value) for value in row]) for row in frame.itertuples(index=False)]
    return "\n".join(lines)


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _cell(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return ""
    return str(value).replace("|", "\\|").replace("\n", " ")


def command_line(results: GameResults) -> str:
    """The command that produces this report."""
    quick = " --quick" if results.mode == QUICK else ""
    return f"gamecheck report {results.name}{quick} --seed {results.seed}"


def game_report(results: GameResults) -> str:
    """The whole Markdown report of one game; its files are in the directory `results.name`."""
    sections = [
        _heading(results),
        _rules(results.name),
        _verification(results),
        _balance(results),
        _openings(results),
    ]
    if results.forced_wins:
        sections.append(_forced_wins(results))
    sections.append(_playouts(results))
    if results.sudoku is not None:
        sections.append(_sudoku(results.sudoku))
    sections.append(_solver_figures(results))
    return "\n\n".join(sections) + "\n"


def _heading(results: GameResults) -> str:
    game = results.game
    lines = [
        f"# {results.name}",
        "",
        f"{len(game.roles)} role{'s' if len(game.roles) > 1 else ''}: "
        f"{', '.join(game.roles)}. Produced by `{command_line(results)}` "
        f"({results.mode} run); all games: [index](README.md). The tables are also in "
        f"[{results.name}/]({results.name}/) as CSV files.",
    ]
    notes = cuts(results.name, results.mode)
    if notes:
        lines += ["", "**This is the quick run.** Compared with the full run (`gamecheck report`):"]
        lines += [f"- {note}" for note in notes]
    return "\n".join(lines)


def _rules(name: str) -> str:
    facts = "\n".join(f"- {fact}" for fact in DESCRIPTION_VS_RULES[name])
    return (
        f"## Rules in brief\n\n{RULES_IN_BRIEF[name]}\n\n"
        "## Description vs rules\n\n"
        "Where the short prose description the game comes from disagrees with its rules (the "
        f"rules are right):\n\n{facts}"
    )


def _verification(results: GameResults) -> str:
    result = results.verification
    settings = results.settings
    lines = [
        "## Verification",
        "",
        f"Answers of `gamecheck verify {results.name} --backend cnf --horizon "
        f"{settings.horizon} --time-limit {settings.verify_time_limit:.0f}` on the ground "
        "transition system of our rule sheet. Every line of play below was replayed on the "
        "built-in move generator and on the GDL reasoner before it was written here; "
        "`unknown` means the time limit ran out before an answer.",
        "",
    ]
    bound = results.game.step_bound
    if bound is not None and settings.horizon == bound + 1:
        lines += [
            f"The horizon {settings.horizon} is one more than the {bound} steps the rules allow "
            "at most, so that the longest game can be proved.",
            "",
        ]
    if result.complete:
        lines.append(
            "Every game is proved to end within the horizon, so every answer covers every "
            "reachable state."
        )
    else:
        lines.append(
            "**Not every game is proved to end within the horizon**: the answers hold for "
            f"lines of play of at most {result.horizon} steps only."
        )
    lines += ["", markdown_table(tables.verification_table(result)), ""]
    lines += _outcome_set(results)
    lines += _lines_of_play(results)
    return "\n".join(lines)


def _outcome_set(results: GameResults) -> list[str]:
    outcomes = results.verification.outcomes
    if outcomes.complete:
        status = "proved: no other goal vector occurs in a reachable terminal state."
    else:
        status = (
            "unknown: the goal vectors below occur; whether others do was not settled "
            "(the time limit ran out, or not every game is proved to end within the horizon)."
        )
    lines = [
        "### Outcome set",
        "",
        f"Goal values per role at the end of a game; {status} Beside each, how often the "
        "playouts below end in it (0: never seen).",
        "",
    ]
    if not outcomes.vectors:
        lines += ["No terminal state was reached within the horizon and time limit.", ""]
    lines += [
        markdown_table(tables.observed_outcomes(results)),
        "",
        f"![outcomes proved and observed]({results.name}/outcomes.png)",
        "",
    ]
    return lines


def _lines_of_play(results: GameResults) -> list[str]:
    """Every line of play behind an answer, once: a line met again names where it is shown;
    long lines show their first and last steps (the full lines: lines.csv)."""
    name = results.name
    lines = [
        "### Lines of play",
        "",
        f"Each line once, long ones folded; every step of every line: [{name}/lines.csv]"
        f"({name}/lines.csv).",
        "",
    ]
    lines += _counterexamples(results)
    first = tables.unique_witnesses(results.verification)
    for title, witness in tables.witnesses(results.verification):
        if title.startswith("Counterexample"):
            continue
        if first[witness] != title:
            lines += [f"- {title}: the line of *{first[witness].lower()}*.", ""]
        else:
            lines += _witness(results, title, witness)
    return lines


def _counterexamples(results: GameResults) -> list[str]:
    refuted = [
        (title, witness)
        for title, witness in tables.witnesses(results.verification)
        if title.startswith("Counterexample")
    ]
    if not refuted:
        return ["No property was refuted, so there is no counterexample to show.", ""]
    lines = []
    for title, witness in refuted:
        lines += _witness(results, title, witness, open_=True)
    return lines


def _witness(results: GameResults, title: str, witness, open_: bool = False) -> list[str]:
    """A line of play, numbered and folded, with the picture of the state it ends in."""
    game = results.game
    steps = len(witness)
    final = replay_line(game, witness).states[-1]
    image = []
    if game.board(final) is not None:
        image = [f"![{title}: final board]({results.name}/{tables.board_file(title)})", ""]
    return [
        f"#### {title}: {steps} step{'s' if steps != 1 else ''}",
        "",
        *image,
        f"<details{' open' if open_ else ''}><summary>line of play and final board</summary>",
        "",
        "```",
        *folded_line(game.roles, witness),
        "```",
        "",
        "```",
        game.picture(final),
        "```",
        "",
        "</details>",
        "",
    ]


def _balance(results: GameResults) -> str:
    name, settings = results.name, results.settings
    if len(results.game.roles) == 1:
        return "## Who is favoured\n\nOne role: there is nobody to be favoured over."
    uct = (
        f" and {len(results.uct_playouts)} playouts in which every role plays UCT (Monte "
        f"Carlo tree search, {settings.uct_iterations} iterations a step, seeds from "
        f"{results.seed}; analysis/mcts.py)"
        if results.uct_playouts
        else ""
    )
    return "\n".join(
        [
            "## Who is favoured",
            "",
            f"Share of playouts each role wins (goal 100), with a 95% interval (Wilson), and "
            f"its mean goal: {len(results.playouts)} uniform random playouts{uct}. Stronger "
            "play says more about balance than random play. Numbers: "
            f"[{name}/balance.csv]({name}/balance.csv).",
            "",
            markdown_table(tables.balance_table(results)),
            "",
            f"![win shares]({name}/balance.png)",
        ]
    )


def _openings(results: GameResults) -> str:
    name, settings = results.name, results.settings
    if results.openings.empty:
        return ""
    lines = [
        "## Openings",
        "",
        "For every first move (the joint action of the first step, named by the roles that "
        "have a choice), the share of playouts after it that each role wins. Numbers: "
        f"[{name}/openings.csv]({name}/openings.csv).",
    ]
    plays = {
        "random": f"{settings.opening_playouts} uniform random playouts after each opening",
        "UCT": f"{settings.opening_uct_playouts} UCT playouts ({settings.uct_iterations} "
        "iterations a step) after each opening",
    }
    for play in dict.fromkeys(results.openings["play"]):
        lines += [
            "",
            f"### Under {play} play",
            "",
            plays[play] + ":",
            "",
            markdown_table(tables.opening_table(results, play)),
            "",
            f"![openings, {play} play]({name}/openings_{play.lower()}.png)",
        ]
    return "\n".join(lines)


def _forced_wins(results: GameResults) -> str:
    name, settings = results.name, results.settings
    study = results.endgames
    seeds = f"{results.seed}..{results.seed + settings.endgame_playouts - 1}"
    return "\n".join(
        [
            "## Forced wins",
            "",
            "Can a role reach goal 100 whatever all the other roles do together? Roles whose "
            "goals are equal in every reachable terminal state (proved on the rules) form a "
            "team, one row: they choose together, and all other roles play against them. "
            "(`gamecheck forced-win`: AND/OR search on the move generator, or the shortest "
            "winning line where nobody opposes; a strategy found is replayed against every "
            "reply before it is reported.) `none` is proved up to the depth given; `unknown` "
            "means the budget ran out, with no forced win proved up to that depth. Where the "
            "rules allow no win before some depth (a counter of the rules, or no line at all "
            "where every role helps), the search starts there. Where one team's forced win is "
            "found and no reachable outcome (verify's complete set) gives another team 100 "
            "along with it, that other team has none at any depth: its strategy played against "
            "the one found would reach such an outcome.",
            "",
            _teams_text(results.verification.teams),
            "",
            f"From the initial state, each search stopping after "
            f"{settings.forced_win_nodes} nodes (or {settings.forced_win_time_limit:.0f} s)"
            f"{_lines_text(settings)}:",
            "",
            markdown_table(tables.forced_wins(results)),
            "",
            "### Endgame study",
            "",
            f"From the positions K steps before the end of {settings.endgame_playouts} random "
            f"playouts (seeds {seeds}; a playout shorter than K gives none), can each role (or "
            f"team) force a win within K steps? Each search stops after "
            f"{settings.endgame_nodes} nodes; the study had {settings.endgame_time_limit:.0f} s "
            f"in all. {len(study)} searches; one row per position and role or team: "
            f"[{name}/endgames.csv]({name}/endgames.csv). {_settled_text(study)}",
            "",
            "Positions from which the role or team can force a win, of those looked at (and "
            "how many stayed unknown), by K:",
            "",
            markdown_table(tables.endgame_grid(results)),
            "",
            f"![forced wins before the end]({name}/endgames.png)",
        ]
    )


def _lines_text(settings) -> str:
    if settings.forced_win_lines_time_limit is None:
        return ""
    return (
        f"; for a whole side of tictactoe3d the search leaves unknown, method lines (`gamecheck "
        f"forced-win --method lines`: threat-space search at the level of marks) with "
        f"{settings.forced_win_lines_time_limit:.0f} s, its strategy checked against every "
        f"reply and sampled lines replayed on the move generator and the rule sheet (its steps "
        f"are the strategy's longest line, not proved the fewest)"
    )


def _teams_text(teams: Answer) -> str:
    if teams.status == REFUTED or teams.value is None:
        return f"Teams: {teams.status} (verify)."
    found = "; ".join(", ".join(team) for team in teams.value) or "none (no two roles)"
    return f"Teams ({teams.status} by verify): {found}."


def _settled_text(study) -> str:
    settled = settled_depth(study)
    if settled is None:
        return "Not every position of the smallest K is settled."
    return f"Every position is settled (found or none) for every K up to {settled}."


def _playouts(results: GameResults) -> str:
    name = results.name
    seeds = f"{results.seed}..{results.seed + len(results.playouts) - 1}"
    return "\n".join(
        [
            "## Random playouts",
            "",
            f"{len(results.playouts)} random playouts with seeds {seeds} (every step each "
            "role picks uniformly among its legal actions; `gamecheck stats` plays the same "
            f"playouts). One row per playout: [{name}/playouts.csv]({name}/playouts.csv).",
            "",
            "### Game length (steps)",
            "",
            markdown_table(tables.length_summary(results)),
            "",
            f"![game length histogram]({name}/lengths.png)",
            "",
            "### Branching factor (legal joint actions per step, over all steps)",
            "",
            markdown_table(tables.branching_summary(results)),
            "",
            f"![branching factor histogram]({name}/branching.png)",
        ]
    )


def _sudoku(sudoku: SudokuResults) -> str:
    answer = sudoku.answer
    game = answer.game
    lines = [
        f"## Sudoku {game.instance}",
        "",
        f"The built-in instance, {game.step_bound} blanks:",
        "",
        "![the puzzle](sudoku/sudoku-puzzle.png)",
        "",
        "```",
        grid_text(game.givens),
        "```",
        "",
    ]
    if answer.solutions:
        lines += [
            "Its solution (grey: given; blue: filled in):",
            "",
            "![its solution](sudoku/sudoku-solution.png)",
            "",
            "```",
            grid_text(answer.solutions[0]),
            "```",
            "",
        ]
    lines.append(_uniqueness(answer))
    if answer.replayed:
        lines.append(
            f"Every solution found was replayed as {game.step_bound} legal `(mark i j k l d)` "
            "actions of the game, ending in a terminal state with goal 100."
        )
    lines += [
        "",
        "### All instances",
        "",
        f"Solutions counted by both backends (which agree), up to {sudoku.cap}:",
        "",
        markdown_table(tables.sudoku_instances(sudoku)),
    ]
    return "\n".join(lines)


def _uniqueness(answer) -> str:
    if answer.unique:
        return "Unique: proved (both backends show that no second solution exists)."
    if answer.unique is False:
        return "Not unique: a second solution was found."
    return "Uniqueness unknown: the time limit ran out."


def _solver_figures(results: GameResults) -> str:
    name = results.name
    skipped = (
        []
        if "cpsat" in results.verifications
        else [
            "",
            "The CP-SAT backend was not run in this (quick) run, so there is nothing to compare.",
        ]
    )
    lines = [
        "## Solver figures",
        "",
        MACHINE_DEPENDENT_START,
        "",
        "*Everything in this section depends on the machine: times, and answers that a time "
        "limit cut short. Measured on the machine that produced the report, with other work "
        "sharing its cores.*",
        "",
        "Time per question with each backend (`gamecheck verify --backend cnf|cpsat`); a "
        "question's time includes the encoding of any new layers it needed:",
        *skipped,
        "",
        markdown_table(tables.solver_figures(results)),
        "",
        f"![solver time per question]({name}/solver_times.png)",
        "",
        "Size of the ground system and of the unrolled encoding at the deepest layer reached:",
        "",
        markdown_table(tables.encoding_sizes(results)),
        "",
        f"All times of this run, in seconds: [{name}/timings.csv]({name}/timings.csv).",
        "",
        markdown_table(tables.timings(results)),
        "",
        MACHINE_DEPENDENT_END,
    ]
    return "\n".join(lines)
