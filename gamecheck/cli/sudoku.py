"""`gamecheck sudoku solve|bench`: solve puzzles with the CNF and CP-SAT models.

Both read puzzle files the same way (analysis.sudoku_solve.parse_puzzles: lines of 81 cells
or grids of 9 lines of 9, `#` comments, `-` for the standard input). The time limit is for
the whole command: the puzzles, then the backends, get equal shares of what is left in turn.
"""

from __future__ import annotations

import json
from pathlib import Path

from gamecheck.budget import Budget
from gamecheck.cli import status
from gamecheck.cli.options import add_json, add_time_limit, positive
from gamecheck.solvers.sudoku import BACKENDS, ENCODINGS, MODELS


def register(subparsers) -> None:
    from gamecheck.models.sudoku import INSTANCES

    parser = subparsers.add_parser("sudoku", help="solve sudoku puzzles with CNF and CP-SAT")
    actions = parser.add_subparsers(dest="sudoku_command", required=True, metavar="ACTION")

    solve_parser = actions.add_parser("solve", help="solve one puzzle and decide uniqueness")
    source = solve_parser.add_mutually_exclusive_group()
    source.add_argument(
        "--instance", choices=list(INSTANCES), help="a built-in instance (default grade1)"
    )
    source.add_argument("--puzzle", help="81 characters, row by row: 1-9 givens, . or 0 blanks")
    source.add_argument(
        "--file",
        nargs="+",
        metavar="F",
        help="files of puzzles (- reads stdin): lines of 81 cells or grids of 9 lines of 9, "
        "# comments; each puzzle is solved in turn (with --json, one object a line)",
    )
    _backend_options(solve_parser)
    solve_parser.add_argument(
        "--count",
        type=positive,
        default=2,
        metavar="N",
        help="count solutions up to N (default 2: decide uniqueness)",
    )
    solve_parser.add_argument(
        "--dimacs", metavar="FILE", help="write the puzzle's CNF in DIMACS form (one puzzle)"
    )
    solve_parser.add_argument(
        "--cpsat-export",
        metavar="FILE",
        help="write the CP-SAT model (text if FILE ends in .txt; one puzzle)",
    )
    add_json(solve_parser)
    solve_parser.set_defaults(run=run_solve)

    bench_parser = actions.add_parser("bench", help="solve a file of puzzles and report puzzles/s")
    bench_parser.add_argument(
        "file", help="puzzles as for solve --file: lines of 81 cells or 9-line grids; - is stdin"
    )
    _backend_options(bench_parser)
    bench_parser.add_argument(
        "--limit", type=positive, metavar="N", help="only the first N puzzles"
    )
    bench_parser.add_argument(
        "--solutions",
        metavar="FILE",
        help="write one line per puzzle, in input order: its solution (81 digits, replayed), "
        "or a # comment saying it has none or was not decided",
    )
    add_json(bench_parser)
    bench_parser.set_defaults(run=run_bench)


def _backend_options(parser) -> None:
    parser.add_argument("--backend", choices=[*BACKENDS, "both"], default="both")
    parser.add_argument(
        "--sat-solver",
        metavar="NAME",
        help="python-sat solver for the CNF backend (default: the one verify uses)",
    )
    parser.add_argument("--encoding", choices=ENCODINGS, help="CNF encoding (default extended)")
    parser.add_argument("--cpsat-model", choices=MODELS, help="CP-SAT model (default int)")
    add_time_limit(parser, "seconds for the whole command, shared by the backends")


def _backends(args) -> list:
    from gamecheck.analysis.sudoku_solve import make_backends

    return make_backends(
        args.backend,
        sat_solver=args.sat_solver,
        encoding=args.encoding,
        cpsat_model=args.cpsat_model,
    )


def _puzzle_games(args) -> list:
    """The games of the puzzles asked for: --puzzle, every puzzle of --file, or --instance."""
    from gamecheck.models.sudoku import SudokuGame, make_game

    if args.puzzle is not None:
        return [SudokuGame(args.puzzle, "puzzle")]
    if args.file is not None:
        return _file_games(args.file)
    return [make_game(args.instance or "grade1")]


def _file_games(files: list[str]) -> list:
    """A game per puzzle of the files; named after its file (and line, if the file holds
    several)."""
    from gamecheck.analysis.sudoku_solve import read_puzzles
    from gamecheck.errors import GamecheckError
    from gamecheck.files import STDIN
    from gamecheck.models.sudoku import SudokuGame

    if files.count(STDIN) > 1:
        raise GamecheckError("the standard input (-) can be read only once")
    games = []
    for file in files:
        puzzles = read_puzzles(file)
        stem = "stdin" if file == STDIN else Path(file).stem
        for puzzle in puzzles:
            name = stem if len(puzzles) == 1 else f"{stem}:{puzzle.line}"
            games.append(SudokuGame("".join(map(str, puzzle.givens)), name))
    return games


def run_solve(args, budget: Budget) -> int:
    from gamecheck.analysis.sudoku_solve import NO_SOLUTION, solve
    from gamecheck.errors import GamecheckError

    games = _puzzle_games(args)
    backends = _backends(args)
    if (args.dimacs or args.cpsat_export) and len(games) > 1:
        raise GamecheckError("--dimacs and --cpsat-export write one puzzle's model, not several")
    if args.dimacs:
        _write_dimacs(games[0].givens, args.encoding, args.dimacs)
    if args.cpsat_export:
        _write_cpsat_model(games[0].givens, args.cpsat_model, args.cpsat_export)
    answers = []
    for left, game in zip(range(len(games), 0, -1), games, strict=True):
        answer = solve(game, backends, cap=args.count, budget=budget.part(share=1 / left))
        answers.append(answer)
        if args.json:
            print(json.dumps(answer.to_json()), flush=True)
        else:
            print(("\n" if len(answers) > 1 else "") + answer_text(answer), flush=True)
    return status(
        defective=any(answer.status == NO_SOLUTION for answer in answers),
        unknown=not all(answer.complete for answer in answers),
    )


def _write_dimacs(givens: tuple[int, ...], encoding: str | None, path: str) -> None:
    from gamecheck.files import write_atomically
    from gamecheck.solvers.sudoku import DEFAULT_ENCODING
    from gamecheck.solvers.sudoku.cnf import puzzle_cnf

    formula = puzzle_cnf(givens, encoding or DEFAULT_ENCODING)
    write_atomically(path, formula.to_fp)


def _write_cpsat_model(givens: tuple[int, ...], model: str | None, path: str) -> None:
    from gamecheck.analysis.sudoku_solve import make_backend
    from gamecheck.files import atomic_path

    # the suffix tells OR-Tools to write text (.txt, .pbtxt) or binary
    with atomic_path(path, suffix=f".tmp{Path(path).suffix}") as temporary:
        make_backend("cpsat", cpsat_model=model).export(givens, str(temporary))


def answer_text(answer) -> str:
    """The puzzle, the solution, what is proved about the count, and each backend's part."""
    from gamecheck.analysis.sudoku_solve import NO_SOLUTION, UNKNOWN
    from gamecheck.models.sudoku import grid_text

    game = answer.game
    lines = [f"sudoku {game.instance}: {game.step_bound} blanks", grid_text(game.givens), ""]
    solutions = answer.solutions
    if answer.status == NO_SOLUTION:
        lines.append("no solution (proved: the search was exhaustive)")
    elif answer.status == UNKNOWN:
        lines.append("unknown: stopped (time limit or interruption) before any solution")
    else:
        lines += ["solution:", grid_text(solutions[0]), "", _count_sentence(answer)]
        lines.append(
            f"replayed: {len(solutions)} solution(s) as {game.step_bound} legal (mark ...) "
            "actions each, ending terminal with goal 100"
        )
    for count in answer.counts:
        lines.append(
            f"  {count.backend:6} {count.status:12} {len(count.solutions):6} found "
            f"{count.seconds * 1000:9.2f} ms{'  (stopped)' if count.timed_out else ''}"
        )
    if len(answer.counts) > 1:
        timed_out = answer.timed_out
        lines.append(
            "backends agree"
            if not timed_out
            else f"backends not compared: {' and '.join(timed_out)} stopped before settling"
        )
    return "\n".join(lines)


def _count_sentence(answer) -> str:
    found = len(answer.solutions)
    if not answer.complete:
        return (
            f"at least {found} solution{'' if found == 1 else 's'}: stopped (time limit or "
            "interruption) before the count was settled"
        )
    if answer.unique:
        return "unique: proved (no second solution exists)"
    if answer.exhausted:
        return f"exactly {found} solutions (proved: the search was exhaustive)"
    if found > 1:
        return f"at least {found} solutions (stopped at the cap)"
    return "at least 1 solution (uniqueness not asked: --count 1)"


def run_bench(args, budget: Budget) -> int:
    from gamecheck.analysis.sudoku_solve import bench_backend, read_puzzles
    from gamecheck.files import input_name
    from gamecheck.schema import stamped

    puzzles = read_puzzles(args.file, args.limit)
    givens = [puzzle.givens for puzzle in puzzles]
    backends = _backends(args)
    results = {}
    solutions: dict = {}
    for left, backend in zip(range(len(backends), 0, -1), backends, strict=True):
        part = budget.part(share=1 / left)
        results[backend.name] = bench_backend(backend, givens, budget=part, solutions=solutions)
    if args.solutions:
        _write_solutions(args.solutions, puzzles, solutions)
    if args.json:
        body = {"file": input_name(args.file), "backends": results}
        print(json.dumps(stamped("sudoku_bench", body)))
    else:
        print(
            f"{'backend':8} {'puzzles':>8} {'decided':>8} {'seconds':>9} {'puzzles/s':>10} "
            f"{'unique':>8} {'none':>6}"
        )
        for name, row in results.items():
            print(
                f"{name:8} {row['puzzles']:8} {row['decided']:8} {row['seconds']:9.3f} "
                f"{row['puzzles_per_second']:10.1f} {row['unique_count']:8} "
                f"{row['no_solution_count']:6}"
            )
    rows = results.values()
    return status(
        defective=any(row["no_solution_count"] for row in rows),
        unknown=any(row["decided"] < row["puzzles"] for row in rows),
    )


def _write_solutions(path: str, puzzles: list, solutions: dict) -> None:
    """One line per puzzle, in order: its solution (replayed on the move generator first),
    or a `#` comment saying it has none or was not decided in time."""
    from gamecheck.analysis.sudoku_solve import replay_solution
    from gamecheck.files import write_atomically
    from gamecheck.models.sudoku import SudokuGame

    lines = []
    for index, puzzle in enumerate(puzzles):
        if index not in solutions:
            lines.append(f"# {puzzle.where}: not decided (time limit or interruption)")
        elif solutions[index] is None:
            lines.append(f"# {puzzle.where}: no solution (proved)")
        else:
            game = SudokuGame("".join(map(str, puzzle.givens)), "puzzle")
            replay_solution(game, solutions[index])
            lines.append("".join(map(str, solutions[index])))
    text = "\n".join(lines) + "\n"
    write_atomically(path, lambda file: file.write(text))
