"""Verify speed: seconds per question of `gamecheck verify`, per game and backend, and the
size of each encoding per unrolled step.

    /work/venv/bin/python bench/verify.py [--backend cnf|cpsat ...] [--time-limit S]
                                          [--horizon H] [GAME|FILE.kif ...]

For each game and backend: all answers of verify to the game's full length (horizon one
past the rules' step bound) under a time limit for the whole run, each answer's status and
time; and the variables and clauses (CNF) or constraints (CP-SAT) that one more step of
unrolling adds, without invariants. Prints a table and one JSON line.

A rule sheet's path times another encoding of a game beside the built-in one, e.g.
`bench/verify.py --horizon 31 ttcc4 tests/data/gdl/ttcc4_pttc_style.kif`; without
--horizon a rule sheet is unrolled to verify's default horizon.
"""

from __future__ import annotations

import argparse
import json
import time

from gamecheck.analysis.loading import load_game, load_rule_sheet
from gamecheck.analysis.verify.pipeline import DEFAULT_HORIZON, verify_game
from gamecheck.models import builtin_names
from gamecheck.solvers.ground.grounder import ground
from gamecheck.solvers.ground.unroll import BACKENDS, make_unrolling

QUESTIONS = ("longest_game", "shortest_game", "playability", "goal_definedness", "outcomes")
SIZE_STEPS = 10


def size_per_step(name: str, backend: str) -> dict[str, float]:
    """What one step of unrolling adds to the encoding, averaged over steps 1..10."""
    system = ground(load_rule_sheet(name).rules, name)
    unrolling = make_unrolling(system, backend)
    unrolling.alive(1)
    before = unrolling.size()
    unrolling.alive(1 + SIZE_STEPS)
    after = unrolling.size()
    return {key: round((after[key] - before[key]) / SIZE_STEPS) for key in after}


def full_length(name: str) -> int:
    """One past the game's step bound, or verify's default horizon where it has none."""
    bound = load_game(name).step_bound
    return DEFAULT_HORIZON if bound is None else bound + 1


def measure(name: str, backend: str, time_limit: float, horizon: int | None) -> dict:
    start = time.perf_counter()
    result = verify_game(
        name, backend=backend, horizon=horizon or full_length(name), time_limit=time_limit
    ).to_json()
    answers = {q: result[q] for q in QUESTIONS} | {
        f"earliest_win {role}": answer for role, answer in result["earliest_win"].items()
    }
    return {
        "game": result["game"],
        "backend": backend,
        "seconds": round(time.perf_counter() - start, 2),
        "complete": result["complete"],
        "answers": {
            question: {"status": a["status"], "value": a.get("value"), "seconds": a["seconds"]}
            for question, a in answers.items()
        },
        "size_per_step": size_per_step(name, backend),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "games", nargs="*", metavar="GAME", help="a game or rule sheet (default: every built-in)"
    )
    parser.add_argument("--backend", action="append", choices=BACKENDS, help="default: both")
    parser.add_argument("--time-limit", type=float, default=600.0, help="per run (default 600)")
    parser.add_argument("--horizon", type=int, help="default: one past the game's step bound")
    args = parser.parse_args()
    rows = [
        measure(name, backend, args.time_limit, args.horizon)
        for name in args.games or builtin_names()
        for backend in args.backend or BACKENDS
    ]
    print(f"{'game':18} {'backend':7} {'question':26} {'status':8} {'value':>8} {'seconds':>8}")
    for row in rows:
        for question, answer in row["answers"].items():
            value = answer["value"] if isinstance(answer["value"], int) else ""
            print(
                f"{row['game']:18} {row['backend']:7} {question:26} {answer['status']:8} "
                f"{value!s:>8} {answer['seconds']:8.2f}"
            )
        size = ", ".join(f"{n} {key}" for key, n in row["size_per_step"].items())
        print(
            f"{row['game']:18} {row['backend']:7} {'all':26} {'':8} {'':>8} {row['seconds']:8.2f}"
        )
        print(f"{'':18} {'':7} per step: {size}")
    print(json.dumps({"benchmark": "verify", "time_limit": args.time_limit, "runs": rows}))


if __name__ == "__main__":
    main()
