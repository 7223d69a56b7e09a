"""Both sudoku backends against an independent backtracking solver."""

from pathlib import Path

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

from gamecheck.budget import Budget
from gamecheck.models.sudoku import INSTANCES, parse_puzzle
from gamecheck.solvers.sudoku import ENCODINGS, MODELS
from gamecheck.solvers.sudoku.cnf import CnfSudokuSolver, puzzle_cnf
from gamecheck.solvers.sudoku.cpsat import CpSatSudokuSolver
from tests.sudoku_reference import is_solution_of, solutions

SAMPLE = Path(__file__).parent / "data" / "sudoku_sample.txt"
# Row 1 holds 1..8 and row 2 ends in 9: row 1 column 9 can take no digit, though no two
# givens clash.
NO_SOLUTION = "12345678." + "........9" + "." * 63


def backends():
    return [CnfSudokuSolver(encoding=e) for e in ENCODINGS] + [
        CpSatSudokuSolver(model=m) for m in MODELS
    ]


def text(cells):
    return "".join(map(str, cells))


@pytest.mark.parametrize("name", [n for n in INSTANCES if n != "grade6H"])
def test_unique_instances_match_backtracking(name):
    (expected,) = solutions(INSTANCES[name], cap=2)
    for backend in backends():
        count = backend.count(parse_puzzle(INSTANCES[name]))
        assert count.unique is True, backend
        assert [text(s) for s in count.solutions] == [expected]


def test_grade6h_has_many_solutions_and_counts_stop_at_the_cap():
    # The backtracking solver finds at least 50 solutions of grade6H.
    assert len(solutions(INSTANCES["grade6H"], cap=50)) == 50
    for backend in backends():
        count = backend.count(parse_puzzle(INSTANCES["grade6H"]), cap=20)
        assert count.unique is False
        assert len(set(count.solutions)) == 20 and not count.exhausted
        assert all(is_solution_of(text(s), INSTANCES["grade6H"]) for s in count.solutions)


def test_exact_counts_are_proved_exhaustive():
    # grade1 with its first 7 givens removed: count with backtracking, then with each backend.
    puzzle = "." * 9 + INSTANCES["grade1"][9:]
    puzzle = puzzle.replace("7", ".", 1)
    expected = set(solutions(puzzle, cap=10_000))
    assert 1 < len(expected) < 10_000
    for backend in backends():
        count = backend.count(parse_puzzle(puzzle), cap=10_000)
        assert count.exhausted and {text(s) for s in count.solutions} == expected


def test_no_solution_is_proved():
    assert solutions(NO_SOLUTION, cap=1) == []
    for backend in backends():
        count = backend.count(parse_puzzle(NO_SOLUTION))
        assert count.status == "no solution" and count.exhausted and count.unique is False


def test_a_time_limit_never_claims_uniqueness():
    empty = (0,) * 81
    for backend in (CnfSudokuSolver(), CpSatSudokuSolver()):
        count = backend.count(empty, cap=10**9, budget=Budget(0.3))
        assert count.timed_out and not count.exhausted and count.unique is not True


def test_one_cnf_solver_serves_many_puzzles_in_a_row():
    puzzles = [line for line in SAMPLE.read_text().splitlines() if not line.startswith("#")]
    solver = CnfSudokuSolver()
    solver.queries_per_solver = 3  # also exercise rebuilding the SAT solver
    for puzzle in puzzles + [NO_SOLUTION] + puzzles:
        count = solver.count(parse_puzzle(puzzle))
        if puzzle == NO_SOLUTION:
            assert count.status == "no solution"
        else:
            assert count.unique and is_solution_of(text(count.solutions[0]), puzzle)


@pytest.mark.slow
def test_sample_puzzles_match_backtracking():
    for line in SAMPLE.read_text().splitlines():
        if line.startswith("#"):
            continue
        (expected,) = solutions(line, cap=2)
        for backend in backends():
            count = backend.count(parse_puzzle(line))
            assert count.unique and text(count.solutions[0]) == expected


def test_dimacs_export_is_solved_by_a_fresh_solver(tmp_path):
    path = tmp_path / "grade1.cnf"
    puzzle_cnf(parse_puzzle(INSTANCES["grade1"])).to_file(str(path))
    formula = CNF(from_file=str(path))
    assert formula.nv == 729
    with Solver(name="minisat22", bootstrap_with=formula.clauses) as solver:
        assert solver.solve()
        digits = [0] * 81
        for literal in solver.get_model():
            if literal > 0:
                digits[(literal - 1) // 9] = (literal - 1) % 9 + 1
    assert text(digits) == solutions(INSTANCES["grade1"], cap=1)[0]


def test_cpsat_export_writes_a_model_with_the_givens_fixed(tmp_path):
    path = tmp_path / "grade1.pbtxt"
    CpSatSudokuSolver().export(parse_puzzle(INSTANCES["grade1"]), str(path))
    model = path.read_text()
    assert model.count("all_diff") == 27
    assert 'name: "cell_0" domain: [9, 9]' in model  # row 1 column 1 is given as 9
    assert 'name: "cell_1" domain: [1, 9]' in model
