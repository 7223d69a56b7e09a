"""`gamecheck verify`: prove or refute the consistency of a game's rules with SAT or CP-SAT."""

from __future__ import annotations

import json
import sys
import time

from gamecheck.analysis.files import write_atomically
from gamecheck.analysis.verify import BACKENDS, Answer, Verification, verify_game
from gamecheck.analysis.verify_text import (
    answer_rows,
    numbered_line,
    sizes_text,
    value_text,
    vector_text,
)

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
        f"  system: {sizes_text(result.system_size)}; {sizes_text(result.invariant_statistics)}",
    ]
    rows = answer_rows(result)
    for label, answer, unit in rows[:4]:
        lines += _answer_lines(result.roles, label, answer, unit)
    vectors = " | ".join(map(vector_text, result.outcomes.vectors)) or "none"
    lines.append(f"  {'outcomes':18} {result.outcomes.status:8} {vectors}")
    for label, answer, unit in rows[4:]:
        lines += _answer_lines(result.roles, label, answer, unit)
    if not result.complete:
        lines.append("  (the longest game is not proved: answers hold up to the horizon only)")
    lines.append(f"  total {result.seconds:.1f} s")
    return "\n".join(lines)


def _answer_lines(roles, label: str, answer: Answer, unit: str) -> list[str]:
    lines = [
        f"  {label:18} {answer.status:8} {value_text(answer, unit):12} {answer.detail}".rstrip()
    ]
    if answer.status == "refuted" and answer.witness is not None:
        lines.append("    counterexample:")
        lines += [f"    {step}" for step in numbered_line(roles, answer.witness)]
    return lines
