"""`gamecheck sudoku solve|bench`: solve puzzles with the CNF and CP-SAT gamecheck.models."""

from __future__ import annotations

import json
from pathlib import Path

from gamecheck.analysis.files import read_text
from gamecheck.analysis.sudoku_solve import (
    BACKENDS,
    SudokuAnswer,
    bench_backend,
    make_backend,
    read_puzzle_file,
    solve,
)
from gamecheck.cli import status
from gamecheck.cli.options import add_time_limit, positive
from gamecheck.errors import BadPuzzleError, GamecheckError
from gamecheck.models.sudoku import INSTANCES, SudokuGame, grid_text, make_game
from gamecheck.solvers.sudoku.cnf import ENCODINGS, puzzle_cnf
from gamecheck.solvers.sudoku.cpsat import MODELS


def register(subparsers) -> None:
    parser = subparsers.add_parser("sudoku", help="solve sudoku puzzles with CNF and CP-SAT")
    actions = parser.add_subparsers(dest="sudoku_command", required=True, metavar="ACTION")

    solve_parser = actions.add_parser("solve", help="solve one puzzle and decide uniqueness")
    source = solve_parser.add_mutually_exclusive_group()
    source.add_argument(
        "--instance", choices=list(INSTANCES), help="a built-in instance (default grade1)"
    )
    source.add_argument("--puzzle", help="81 characters, row by row: 1-9 givens, . or 0 blanks")
    source.add_argument("--file", help="a file holding one puzzle (81 cells; # comments allowed)")
    _backend_options(solve_parser)
    solve_parser.add_argument(
        "--count",
        type=positive,
        default=2,
        metavar="N",
        help="count solutions up to N (default 2: decide uniqueness)",
    )
    solve_parser.add_argument(
        "--dimacs", metavar="FILE", help="write the puzzle's CNF in DIMACS form"
    )
    solve_parser.add_argument(
        "--cpsat-export", metavar="FILE", help="write the CP-SAT model (text if FILE ends in .txt)"
    )
    solve_parser.add_argument("--json", action="store_true", help="print one JSON object")
    solve_parser.set_defaults(run=run_solve)

    bench_parser = actions.add_parser("bench", help="solve a file of puzzles and report puzzles/s")
    bench_parser.add_argument("file", help="one 81-character puzzle per line, # comments allowed")
    _backend_options(bench_parser)
    bench_parser.add_argument(
        "--limit", type=positive, metavar="N", help="only the first N puzzles"
    )
    bench_parser.add_argument("--json", action="store_true", help="print one JSON object")
    bench_parser.set_defaults(run=run_bench)


def _backend_options(parser) -> None:
    parser.add_argument("--backend", choices=[*BACKENDS, "both"], default="both")
    parser.add_argument(
        "--sat-solver", help="python-sat solver for the CNF backend (default glucose3)"
    )
    parser.add_argument("--encoding", choices=ENCODINGS, help="CNF encoding (default extended)")
    parser.add_argument("--cpsat-model", choices=MODELS, help="CP-SAT model (default int)")
    add_time_limit(parser, "seconds per backend per puzzle")


def _backends(args) -> list:
    names = BACKENDS if args.backend == "both" else (args.backend,)
    try:
        return [
            make_backend(
                name,
                sat_solver=args.sat_solver,
                encoding=args.encoding,
                cpsat_model=args.cpsat_model,
            )
            for name in names
        ]
    except (ValueError, KeyError, NotImplementedError) as error:
        raise GamecheckError(f"cannot set up the solver: {error}") from None


def _puzzle_game(args) -> SudokuGame:
    if args.puzzle is not None:
        return SudokuGame(args.puzzle, "puzzle")
    if args.file is not None:
        lines = read_text(args.file).splitlines()
        cells = "".join(line.split("#")[0] for line in lines)
        cells = "".join(char for char in cells if char not in " \t|-+")
        try:
            return SudokuGame(cells, Path(args.file).stem)
        except BadPuzzleError as error:
            raise BadPuzzleError(f"{args.file}: {error}") from None
    return make_game(args.instance or "grade1")


def run_solve(args, budget) -> int:
    game = _puzzle_game(args)
    if args.dimacs:
        puzzle_cnf(game.givens, args.encoding or "extended").to_file(args.dimacs)
    backends = _backends(args)
    if args.cpsat_export:
        cpsat = next((b for b in backends if b.name == "cpsat"), None) or make_backend("cpsat")
        cpsat.export(game.givens, args.cpsat_export)
    answer = solve(game, backends, cap=args.count, time_limit=args.time_limit)
    print(json.dumps(answer_json(answer)) if args.json else answer_text(answer))
    unknown = answer.status == "unknown" or (answer.unique is None and not answer.exhausted)
    return status(defective=answer.status == "no solution", unknown=unknown)


def answer_json(answer: SudokuAnswer) -> dict:
    solutions = answer.solutions
    return {
        "instance": answer.game.instance,
        "puzzle": "".join(str(d) if d else "." for d in answer.game.givens),
        "status": answer.status,
        "solution": "".join(map(str, solutions[0])) if solutions else None,
        "solutions_found": len(solutions),
        "count_exact": answer.exhausted,
        "unique": answer.unique,
        "replayed": answer.replayed,
        "backends": {
            count.backend: {
                "status": count.status,
                "solutions_found": len(count.solutions),
                "unique": count.unique,
                "seconds": round(count.seconds, 6),
            }
            for count in answer.counts
        },
    }


def answer_text(answer: SudokuAnswer) -> str:
    game = answer.game
    lines = [f"sudoku {game.instance}: {game.step_bound} blanks", grid_text(game.givens), ""]
    solutions = answer.solutions
    if answer.status == "no solution":
        lines.append("no solution (proved: the search was exhaustive)")
    elif answer.status == "unknown":
        lines.append("unknown: the time limit ran out before any solution was found")
    else:
        lines += ["solution:", grid_text(solutions[0]), ""]
        if answer.unique:
            lines.append("unique: proved (no second solution exists)")
        elif answer.exhausted:
            lines.append(f"exactly {len(solutions)} solutions (proved: the search was exhaustive)")
        elif answer.unique is False or len(solutions) > 1:
            lines.append(f"not unique: {len(solutions)} solutions found (stopped at the cap)")
        else:
            lines.append("uniqueness unknown: the time limit ran out")
        lines.append(
            f"replayed: {len(solutions)} solution(s) as {game.step_bound} legal (mark ...) actions "
            "each, ending terminal with goal 100"
        )
    for count in answer.counts:
        lines.append(f"  {count.backend:6} {count.status:12} {count.seconds * 1000:9.2f} ms")
    if len(answer.counts) > 1:
        lines.append("backends agree")
    return "\n".join(lines)


def run_bench(args, budget) -> int:
    puzzles = read_puzzle_file(args.file, args.limit)
    results = {
        backend.name: bench_backend(backend, puzzles, time_limit=args.time_limit)
        for backend in _backends(args)
    }
    if args.json:
        print(json.dumps({"file": args.file, **results}))
    else:
        print(f"{'backend':8} {'puzzles':>8} {'seconds':>9} {'puzzles/s':>10} {'unique':>8}")
        for name, row in results.items():
            print(
                f"{name:8} {row['puzzles']:8} {row['seconds']:9.3f} "
                f"{row['puzzles_per_second']:10.1f} {row['unique_count']:8}"
            )
    return 0
