"""`gamecheck verify`: prove or refute the consistency of a game's rules with SAT or CP-SAT."""

from __future__ import annotations

import json
import sys
import time

from analysis.files import write_atomically
from analysis.verify import BACKENDS, Answer, Verification, verify_game

DEFAULT_HORIZON = 300


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "verify", help="prove termination, playability, goal definedness; outcomes, wins"
    )
    parser.add_argument("game", metavar="GAME", help="a built-in game or a .kif rule sheet")
    parser.add_argument("--backend", choices=BACKENDS, default="cnf")
    parser.add_argument(
        "--horizon",
        type=_depth,
        default=DEFAULT_HORIZON,
        metavar="H",
        help=f"deepest layer to unroll (default {DEFAULT_HORIZON})",
    )
    parser.add_argument("--time-limit", type=float, metavar="S", help="seconds for all answers")
    parser.add_argument("--sat-solver", metavar="NAME", help="python-sat solver (cnf backend)")
    parser.add_argument(
        "--no-invariants",
        action="store_true",
        help="do not look for invariants (slower on deep questions)",
    )
    parser.add_argument(
        "--dimacs",
        metavar="FILE",
        help="write the CNF whose UNSAT proves the longest game (cnf backend)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def _depth(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


def run(args) -> int:
    start = time.monotonic()

    def progress(stage: str) -> None:
        print(f"[{time.monotonic() - start:7.1f}s] {stage}", file=sys.stderr, flush=True)

    result = verify_game(
        args.game,
        backend=args.backend,
        horizon=args.horizon,
        time_limit=args.time_limit,
        sat_solver=args.sat_solver,
        invariants=not args.no_invariants,
        dimacs=args.dimacs,
        progress=progress,
    )
    if args.dimacs and result.certificate is not None:
        write_atomically(args.dimacs, lambda file: file.write(result.certificate))
    print(json.dumps(result.to_json()) if args.json else summary(result))
    return 0


def summary(result: Verification) -> str:
    """A readable account of every answer, counterexamples as numbered lines of play."""
    lines = [
        f"verify {result.game} ({len(result.roles)} roles: {', '.join(result.roles)}) "
        f"with {result.backend}, horizon {result.horizon}",
        f"  system: {_sizes(result.system_size)}; {_sizes(result.invariant_statistics)}",
    ]
    rows = [
        ("longest game", result.longest_game, "steps"),
        ("shortest game", result.shortest_game, "steps"),
        ("playability", result.playability, ""),
        ("goal definedness", result.goal_definedness, ""),
    ]
    for label, answer, unit in rows:
        lines += _answer_lines(label, answer, unit)
    vectors = " | ".join(" ".join(map(_goal_text, v)) for v in result.outcomes.vectors) or "none"
    lines.append(f"  {'outcomes':18} {result.outcomes.status:8} {vectors}")
    for role, answer in result.earliest_win.items():
        lines += _answer_lines(f"earliest win {role}", answer, "steps")
    if not result.complete:
        lines.append("  (the longest game is not proved: answers hold up to the horizon only)")
    lines.append(f"  total {result.seconds:.1f} s")
    return "\n".join(lines)


def _answer_lines(label: str, answer: Answer, unit: str) -> list[str]:
    value = f"{answer.value} {unit}".strip() if answer.value is not None else ""
    lines = [f"  {label:18} {answer.status:8} {value:12} {answer.detail}".rstrip()]
    if answer.status == "refuted" and answer.witness is not None:
        lines.append("    counterexample:")
        lines += [f"    {n:4}. {' '.join(step)}" for n, step in enumerate(answer.witness, 1)]
    return lines


def _goal_text(goal) -> str:
    """A role's goal in an outcome: its value, or all its values (`0/100`, `-` for none)."""
    if isinstance(goal, tuple):
        return "/".join(map(str, goal)) or "-"
    return str(goal)


def _sizes(counts: dict) -> str:
    return ", ".join(f"{value} {key.replace('_', ' ')}" for key, value in counts.items())
