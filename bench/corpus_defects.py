"""The defects that corpus runs found, each shown again on the sheet's GDL reasoner.

    python bench/corpus_defects.py RUN [RUN ...] --data DIR [--out FILE]

For every sheet with a defect in any of the runs (the --out directories of bench/corpus.py,
read with corpus_runs.py), each refuted property's line of play is replayed on the sheet's
GDL reasoner, not on the ground circuit that found it, and described from that replay alone:
the earlier state a game that need not end comes back to, the goal values a terminal state
gives, the roles with no legal action. A role proved never to win has no line to show: the
run's proof (UNSAT, or every reachable state listed) is quoted as such. Markdown to FILE (or
standard output), then one JSON line of the counts.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from corpus_runs import load

from gamecheck.analysis.replay import replay_line
from gamecheck.errors import CrossCheckFailure, GamecheckError
from gamecheck.gdl.syntax import is_variable
from gamecheck.models.sheet import GdlGame

NEVER_WINS = "earliest_win"
WIN = 100


def defects(row: dict) -> list[str]:
    """The run's defect names of a sheet (`earliest_win ROLE` is one name of two words)."""
    words = row.get("defects", "").split()
    names = []
    while words:
        word = words.pop(0)
        names.append(f"{word} {words.pop(0)}" if word == NEVER_WINS else word)
    return names


def gathered(runs: list[dict[str, dict]]) -> dict[str, dict[str, list | None]]:
    """Sheet -> defect -> its line of play (None where the defect has none), from every
    run: the first run that shows a line gives it."""
    found: dict[str, dict[str, list | None]] = {}
    for run in runs:
        for sheet, row in run.items():
            witnesses = json.loads(row.get("witnesses") or "{}")
            for name in defects(row):
                lines = found.setdefault(sheet, {})
                if lines.get(name) is None:
                    lines[name] = witnesses.get(name)
    return dict(sorted(found.items()))


def shown(game: GdlGame, name: str, line: list) -> str:
    """What the reasoner's replay of `line` shows for the refuted property `name`
    (ReplayError, a CrossCheckFailure, if an action of the line is illegal there)."""
    replay = replay_line(game, line)
    last = replay.states[-1]
    depth = len(line)
    if name == "termination":
        facts = [game.state_facts(state) for state in replay.states]
        earlier = [step for step in range(depth) if facts[step] == facts[-1]]
        if not earlier or any(game.is_terminal(state) for state in replay.states):
            return f"not shown: the replay of {depth} steps does not come back to a state"
        return (
            f"after step {depth} the state is again the one after step {earlier[-1]}, and no "
            "state on the way is terminal: those steps can repeat forever"
        )
    if name == "goal_definedness":
        values = game.goal_values(last)
        described = ", ".join(
            f"{role} {', '.join(map(str, sorted(values[role]))) or 'none'}" for role in game.roles
        )
        ending = "terminal" if game.is_terminal(last) else "NOT terminal"
        return f"after {depth} steps the state is {ending}, and the goal values are {described}"
    if name == "playability":
        stuck = [role for role in game.roles if not game.legal(last, role)]
        if game.is_terminal(last) or not stuck:
            return f"not shown: after {depth} steps every role can move, or the game is over"
        return f"after {depth} steps the game is not over and {' and '.join(stuck)} cannot move"
    return f"a line of {depth} steps, replayed"


def may_give(game: GdlGame, role: str, goal: int) -> bool:
    """Whether the head of some goal rule of the sheet matches `(goal role goal)`."""
    for rule in game.rules:
        if rule.head.relation == "goal" and len(rule.head.args) == 2:
            who, value = rule.head.args
            if (who == role or is_variable(who)) and (value == str(goal) or is_variable(value)):
                return True
    return False


def section(sheet: str, found: dict[str, list | None], data: Path) -> tuple[list[str], list]:
    """The sheet's Markdown, and a row per defect: (sheet, defect, steps, confirmed)."""
    text, rows = [f"## {sheet}", ""], []
    game = GdlGame.from_file(data / sheet)
    order = ", ".join(game.roles)
    for name, line in found.items():
        if name.startswith(NEVER_WINS):
            role = name.split()[1]
            why = (
                "a goal rule could give it 100, but no reachable terminal state does (proved "
                "by the run for every reachable state: no line of play to show)"
                if may_give(game, role, WIN)
                else f"no goal rule's head can give it {WIN} (read off the sheet)"
            )
            text += [f"- **{role} never wins**: {why}", ""]
            rows.append((sheet, f"{role} never wins", "", "proof"))
            continue
        if line is None:
            text += [f"- **{name}** refuted (the run kept no line of play)", ""]
            rows.append((sheet, name, "", "no line"))
            continue
        try:
            what = shown(game, name, line)
            confirmed = "no" if what.startswith("not shown") else "yes"
        except (CrossCheckFailure, GamecheckError) as error:  # an illegal action, bad goals
            what, confirmed = f"NOT CONFIRMED by the reasoner: {error}", "no"
        text += [
            f"- **{name}** refuted: {what}. The line of play (joint actions, roles in the "
            f"order {order}):",
            "",
            "```",
            *(f"{step:>4}  {' '.join(joint)}" for step, joint in enumerate(line, start=1)),
            "```",
            "",
        ]
        rows.append((sheet, name, str(len(line)), confirmed))
    return text, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="--out directories of bench/corpus.py")
    parser.add_argument("--data", type=Path, required=True, help="the corpus (../shared/data/ggp)")
    parser.add_argument("--out", type=Path, help="Markdown file (default: standard output)")
    args = parser.parse_args()
    found = gathered([load(run) for run in args.runs])
    sections, rows = [], []
    for sheet, defects_found in found.items():
        part, sheet_rows = section(sheet, defects_found, args.data)
        sections += part
        rows += sheet_rows
    runs = " ".join(str(run) for run in args.runs)
    text = [
        "# Defects of the corpus's rule sheets",
        "",
        f"Made by `python bench/corpus_defects.py {runs} --data ../shared/data/ggp`: every "
        "defect the runs found. Each refuted property's line of play is replayed on the "
        "sheet's GDL reasoner (not on the ground circuit that found it) and described from "
        "that replay alone; a role that never wins is a proof of the run's, with no line.",
        "",
        "| sheet | defect | steps | replayed on the reasoner |",
        "| --- | --- | --- | --- |",
        *(f"| {' | '.join(row)} |" for row in rows),
        "",
        *sections,
    ]
    output = "\n".join(text)
    if args.out:
        args.out.write_text(output)
    else:
        sys.stdout.write(output)
    lines = [row for row in rows if row[2]]
    counts = {"sheets": len(found), "defects": len(rows), "lines": len(lines)}
    print(json.dumps(counts | {"confirmed_on_reasoner": sum(r[3] == "yes" for r in lines)}))


if __name__ == "__main__":
    main()
