"""clingo (an ASP system) against gamecheck on two bounded questions of a rule sheet: is there a
line of play with a dead end (a non-terminal state where some role has no legal action) within
H steps, and is there one still running after H steps (the longest game exceeds H)?

    pip install clingo   # not a gamecheck dependency: only this benchmark needs it
    python bench/clingo_questions.py SHEET.kif [SHEET.kif ...] [--horizon H] [--time-limit S]

The sheet is translated to a temporal ASP program: every relation that depends on `true` or
`does` gets a step argument, `(init F)` holds at step 0, `(next F)` at step t makes `(true F)`
at t+1, and every role does exactly one legal action per step while the game runs. Names are
renamed to ASP-safe ones. For each sheet it prints clingo's answers and seconds (grounding
included), then gamecheck verify's answers to the same questions (playability, longest game) and
the seconds they took (grounding, invariants and the two questions; verify's wall time, which
covers its other questions too, beside it), and the same again with `--no-invariants` (the two
questions are bounded by H: a user who asks only them can skip the invariants, which prove
what holds beyond any horizon), as a table and one JSON line.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import subprocess
import sys
import time
from pathlib import Path

try:
    import clingo
except ModuleNotFoundError:
    sys.exit("bench/clingo_questions.py needs clingo, which gamecheck does not: pip install clingo")

from gamecheck.gdl.checks import lint_file
from gamecheck.gdl.dependencies import DependencyGraph
from gamecheck.gdl.syntax import Atom, Distinct, Not, Rule, normal_rules

RESERVED = ("time", "alive", "running", "dead", "haslegal", "not")
"""Names the translation itself uses (or ASP reserves), renamed where a sheet uses them."""


class Names:
    """GDL names to ASP-safe ones: lower-case identifiers stay, numerals stay, others are
    numbered (`n7`); variables become `V` + a number."""

    def __init__(self) -> None:
        self.table: dict[str, str] = {}

    def constant(self, name: str) -> str:
        plain = name.isdigit() or (name.isidentifier() and name[0].islower() and name.isascii())
        if plain and name not in RESERVED:
            return name
        return self.table.setdefault(name, f"n{len(self.table)}")

    def term(self, term, variables: dict[str, str]) -> str:
        if isinstance(term, str):
            if term.startswith("?"):
                return variables.setdefault(term, f"V{len(variables)}")
            return self.constant(term)
        return f"{self.constant(term[0])}({','.join(self.term(t, variables) for t in term[1:])})"


def translate(rules: tuple[Rule, ...], horizon: int) -> str:
    """The temporal ASP program of a rule sheet (see the module docstring)."""
    normal = [piece for rule in rules for piece in normal_rules(rule)]
    graph = DependencyGraph(normal)
    timed = {r for r in graph.edges if graph.reaches(r) & {"true", "does"} or r in ("true", "does")}
    timed |= {"legal", "terminal", "goal", "next"}
    names = Names()
    lines = [f"time(0..{horizon})."]

    def atom(term, variables, step: str) -> str:
        relation = term if isinstance(term, str) else term[0]
        args = [] if isinstance(term, str) else [names.term(t, variables) for t in term[1:]]
        if relation == "next":
            relation, step = "true", f"{step}+1"
        if relation == "init":
            relation, args = "true", [*args, "0"]
        elif relation in timed:
            args.append(step)
        name = (
            relation
            if relation in ("true", "does", "legal", "terminal", "goal", "role")
            else names.constant(relation)
        )
        return f"{name}({','.join(args)})" if args else name

    for rule in normal:
        variables: dict[str, str] = {}
        head_timed = rule.head.relation in timed
        body = []
        for literal in rule.body:
            inner = literal.literal if isinstance(literal, Not) else literal
            if isinstance(inner, Distinct):
                left, right = names.term(inner.left, variables), names.term(inner.right, variables)
                body.append(f"{left}{'=' if isinstance(literal, Not) else '!='}{right}")
            else:
                text = atom(inner.term, variables, "T")
                body.append(f"not {text}" if isinstance(literal, Not) else text)
        uses_time = head_timed or any(
            isinstance(lit, (Atom, Not)) and getattr(lit, "literal", lit).relation in timed
            for lit in rule.body
            if not isinstance(getattr(lit, "literal", lit), Distinct)
        )
        if uses_time and rule.head.relation != "init":
            body.append("time(T)")
            if rule.head.relation == "next":
                body.append(f"T<{horizon}")
        head = atom(rule.head.term, variables, "T")
        lines.append(f"{head} :- {', '.join(body)}." if body else f"{head}.")
    lines += [
        "alive(0).",
        "alive(T+1) :- alive(T), not terminal(T), time(T+1).",
        "haslegal(R,T) :- legal(R,_,T).",
        f"1 {{ does(R,A,T) : legal(R,A,T) }} 1 :- role(R), alive(T), not terminal(T), T<{horizon}.",
        "running(T) :- alive(T), not terminal(T).",
        "dead(T) :- running(T), role(R), not haslegal(R,T).",
        "#show dead/1.",
    ]
    return "\n".join(lines)


def solve(program: str, question: str, horizon: int, seconds: float) -> tuple[str, float]:
    """'found', 'none' or 'unknown' (time ran out), and the seconds clingo took. clingo grounds
    and solves in a child process that is killed at the time limit: its grounder cannot be
    interrupted, and on some sheets grounding alone outlasts the limit."""
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_solve_in_child, args=(program, question, horizon, sender))
    start = time.monotonic()
    child.start()
    status = receiver.recv() if receiver.poll(seconds) else "unknown"
    child.kill()
    child.join()
    return status, time.monotonic() - start


def _solve_in_child(program: str, question: str, horizon: int, sender) -> None:
    goal = {"dead_end": ":- not dead(_).", "runs_past_horizon": f":- not running({horizon})."}
    control = clingo.Control(["--warn=none"])
    control.add("base", [], program + "\n" + goal[question])
    control.ground([("base", [])])
    sender.send("found" if control.solve().satisfiable else "none")


def gamecheck_answers(sheet: Path, horizon: int, seconds: float, *extra: str) -> dict:
    """verify's answers to the same two questions (playability up to the horizon, and the
    longest game: proved within H, or a state still running at H), and the seconds they took:
    grounding, invariants and the two questions (verify answers more in the same run; `wall`
    is the whole command). `extra`: more options of verify (`--no-invariants`)."""
    gamecheck = Path(sys.executable).with_name("gamecheck")
    command = [str(gamecheck), "verify", str(sheet), "--json", "--horizon", str(horizon), *extra]
    start = time.monotonic()
    done = subprocess.run(
        [*command, "--time-limit", str(seconds)], capture_output=True, text=True, check=False
    )
    wall = time.monotonic() - start
    try:
        result = json.loads(done.stdout)
    except json.JSONDecodeError:
        return {"wall": wall, "error": done.stderr.strip()[-200:]}
    longest, playable = result["longest_game"], result["playability"]
    preparing = (result["system"].get("ground_seconds") or 0.0) + (
        (result.get("invariants") or {}).get("seconds") or 0.0
    )
    return {
        "wall": round(wall, 2),
        "seconds": round(preparing + longest["seconds"] + playable["seconds"], 2),
        "dead_end": {"refuted": "found", "proved": "none"}.get(playable["status"], "unknown"),
        "runs_past_horizon": _runs_past(longest, horizon),
    }


def _cells(answers: dict) -> str:
    """The table's cells of one gamecheck run: dead end, runs past H, seconds."""
    cells = (answers.get("dead_end", "error"), answers.get("runs_past_horizon", "error"))
    return " | ".join((*cells, str(answers.get("seconds", ""))))


def _runs_past(longest: dict, horizon: int) -> str:
    """verify's longest-game answer as the bounded question: is a state still running after
    H steps? No where it is proved, or unknown with its upper bound (`at_most`) within H; yes
    where it is refuted (a loop), or unknown with its lower bound (`at_least`) beyond H."""
    if longest["status"] == "proved" or longest.get("at_most", horizon + 1) <= horizon:
        return "none"
    if longest["status"] == "refuted" or longest.get("at_least", 0) > horizon:
        return "found"
    return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sheets", nargs="+", type=Path)
    parser.add_argument("--horizon", type=int, default=30)
    parser.add_argument("--time-limit", type=float, default=120.0)
    args = parser.parse_args()
    rows = []
    print(
        "| sheet | clingo dead end | clingo runs past H | clingo s | gamecheck dead end "
        "| gamecheck runs past H | gamecheck s | gamecheck wall s | without invariants: dead end "
        "| runs past H | s |\n" + "| --- " * 11 + "|",
        flush=True,
    )
    for sheet in args.sheets:
        program = translate(lint_file(str(sheet)).rules, args.horizon)
        row = {"sheet": str(sheet), "horizon": args.horizon}
        for question in ("dead_end", "runs_past_horizon"):
            row[f"clingo {question}"] = solve(program, question, args.horizon, args.time_limit)
        row["gamecheck"] = ours = gamecheck_answers(sheet, args.horizon, args.time_limit)
        row["gamecheck without invariants"] = bare = gamecheck_answers(
            sheet, args.horizon, args.time_limit, "--no-invariants"
        )
        rows.append(row)
        dead, past = row["clingo dead_end"], row["clingo runs_past_horizon"]
        print(
            f"| {sheet.stem} | {dead[0]} | {past[0]} | {dead[1] + past[1]:.2f} "
            f"| {_cells(ours)} | {ours['wall']} | {_cells(bare)} |",
            flush=True,
        )
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
