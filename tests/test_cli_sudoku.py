"""`gamecheck sudoku solve|bench` as a user runs them: output, exit status, bad input."""

import json
from pathlib import Path

import pytest

from gamecheck.cli import main
from gamecheck.models.sudoku import INSTANCES
from tests.sudoku_reference import is_solution_of, solutions

SAMPLE = Path(__file__).parent / "data" / "sudoku_sample.txt"


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_solve_json_reports_the_unique_replayed_solution(capsys):
    status, out, _ = run(capsys, "sudoku", "solve", "--instance", "grade2", "--json")
    answer = json.loads(out)
    assert status == 0
    assert answer["instance"] == "grade2"
    assert answer["solution"] == solutions(INSTANCES["grade2"], cap=1)[0]
    assert answer["unique"] is True and answer["replayed"] is True
    assert answer["solutions_found"] == 1
    assert set(answer["backends"]) == {"cnf", "cpsat"}
    assert all(b["status"] == "solved" and b["seconds"] >= 0 for b in answer["backends"].values())


def test_solve_text_draws_the_grid_and_states_uniqueness(capsys):
    status, out, _ = run(capsys, "sudoku", "solve")
    assert status == 0
    assert "9 3 5 | 4 7 6 | 2 1 8" in out  # row 1 of grade1's solution, by backtracking
    assert solutions(INSTANCES["grade1"], cap=1)[0].startswith("935476218")
    assert "unique: proved" in out and "backends agree" in out


def test_count_reports_several_solutions_of_grade6h(capsys):
    status, out, _ = run(
        capsys, "sudoku", "solve", "--instance", "grade6H", "--count", "3", "--json"
    )
    answer = json.loads(out)
    assert status == 0 and answer["unique"] is False and answer["solutions_found"] == 3
    assert is_solution_of(answer["solution"], INSTANCES["grade6H"])


def test_no_solution_exits_1_after_the_proof(capsys):
    puzzle = "12345678." + "........9" + "." * 63
    status, out, _ = run(capsys, "sudoku", "solve", "--puzzle", puzzle, "--backend", "cnf")
    assert status == 1 and "no solution (proved" in out


@pytest.mark.parametrize(
    ("puzzle", "words"),
    [
        ("123", "81 characters"),
        ("a" + "." * 80, "character 1 "),
        ("99" + "." * 79, "9 appears twice in row 1"),
    ],
)
def test_bad_puzzles_exit_2_with_one_sentence(capsys, puzzle, words):
    status, out, err = run(capsys, "sudoku", "solve", "--puzzle", puzzle)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("gamecheck: error:") and words in err


def test_unreadable_file_and_unknown_instance_exit_2(capsys, tmp_path):
    status, _, err = run(capsys, "sudoku", "solve", "--file", str(tmp_path / "missing.txt"))
    assert status == 2 and "cannot read" in err
    status, out, err = run(capsys, "sudoku", "solve", "--instance", "grade9")
    assert status == 2 and out == "" and err.count("\n") == 1 and "grade9" in err


def test_file_may_hold_a_drawn_grid(capsys, tmp_path):
    grid = INSTANCES["grade3"]
    rows = [" ".join(grid[9 * r : 9 * r + 9]) for r in range(9)]
    path = tmp_path / "grid.txt"
    path.write_text("# grade3 drawn as a grid\n" + "\n".join(rows) + "\n")
    status, out, _ = run(capsys, "sudoku", "solve", "--file", str(path), "--json")
    assert status == 0
    assert json.loads(out)["solution"] == solutions(grid, cap=1)[0]


def test_dimacs_export(capsys, tmp_path):
    path = tmp_path / "p.cnf"
    status, _, _ = run(capsys, "sudoku", "solve", "--dimacs", str(path), "--backend", "cnf")
    header = next(line for line in path.read_text().splitlines() if line.startswith("p "))
    assert status == 0 and header.startswith("p cnf 729 ")


def test_bench_counts_unique_puzzles_per_backend(capsys):
    status, out, _ = run(capsys, "sudoku", "bench", str(SAMPLE), "--limit", "3", "--json")
    result = json.loads(out)
    assert status == 0 and result["kind"] == "sudoku_bench"
    for backend in ("cnf", "cpsat"):
        row = result["backends"][backend]
        assert row["puzzles"] == row["decided"] == row["unique_count"] == 3
        assert row["puzzles_per_second"] > 0


def test_bench_names_the_bad_line(capsys, tmp_path):
    path = tmp_path / "puzzles.txt"
    path.write_text("# two puzzles\n" + INSTANCES["grade1"] + "\n" + "12\n")
    status, _, err = run(capsys, "sudoku", "bench", str(path))
    assert status == 2 and f"{path}:3: " in err
