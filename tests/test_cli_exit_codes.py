"""What the installed-command tests cannot provoke from outside: a failed cross-check (exit 3),
a write that fails half-way, a solver that ignores its stop, and what the command line imports
to start."""

from __future__ import annotations

import errno
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gamecheck.analysis import sudoku_solve
from gamecheck.analysis.replay import ReplayError
from gamecheck.cli import COMMANDS, main
from gamecheck.solvers.sudoku.cnf import CnfSudokuSolver
from gamecheck.solvers.sudoku.result import SudokuCount


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_a_solution_that_fails_its_replay_exits_3(capsys, monkeypatch):
    def reject(game, solution):
        raise ReplayError(f"{game.name}: the solution replays to a state that is not a win")

    monkeypatch.setattr(sudoku_solve, "replay_solution", reject)
    status, out, err = run(capsys, "sudoku", "solve", "--backend", "cpsat")
    assert status == 3 and out == ""
    assert err.startswith("gamecheck: internal error (a cross-check failed, please report)")


def test_backends_that_contradict_each_other_exit_3(capsys, monkeypatch):
    # the CNF backend "proves" grade1 has no solution, CP-SAT finds one
    def no_solution(self, cells, **_):
        return SudokuCount("cnf", (), True, 0.0)

    monkeypatch.setattr(CnfSudokuSolver, "count", no_solution)
    status, out, err = run(capsys, "sudoku", "solve")
    assert status == 3 and out == "" and "cnf proved 0 solution(s)" in err


def test_a_write_that_fails_half_way_leaves_no_file(capsys, monkeypatch, tmp_path):
    from pysat.formula import CNF

    def half_then_full_disk(self, file, comments=None):
        file.write("p cnf 729 ")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(CNF, "to_fp", half_then_full_disk)
    status, out, err = run(capsys, "sudoku", "solve", "--dimacs", str(tmp_path / "p.cnf"))
    assert status == 2 and out == ""
    assert err == f"gamecheck: error: cannot write {tmp_path / 'p.cnf'}: No space left on device\n"
    assert list(tmp_path.iterdir()) == []


def test_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    out = capsys.readouterr().out
    assert exit_.value.code == 0
    listed = re.findall(r"^    (\S+)", out, re.MULTILINE)
    assert listed == [module.replace("_", "-") for module in COMMANDS]
    assert "list the built-in games" in out  # each with its help


@pytest.mark.parametrize(
    "argv",
    [["games"], ["lint", "tests/data/gdl/tictactoe.kif"], ["sudoku", "solve", "--help"]],
)
def test_light_commands_import_no_solver_or_table_library(argv):
    heavy = ("pandas", "matplotlib", "numpy", "ortools", "pysat")
    script = (
        "import sys\n"
        "from gamecheck.cli import main\n"
        "try:\n"
        f"    main({argv!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(sorted(name for name in {heavy!r} if name in sys.modules), file=sys.stderr)\n"
    )
    process = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert process.stderr.splitlines()[-1] == "[]"


def test_a_stuck_call_ends_verify_with_the_answers_settled_before_it():
    # the outcomes question's call never stops: the four questions before it are answered
    # (tic-tac-toe: longest 9, shortest 5 steps), printed as JSON, then exit 4
    sheet = Path(__file__).parent / "data" / "gdl" / "tictactoe.kif"
    script = (
        "import sys, time\n"
        "import gamecheck.budget\n"
        "from gamecheck.analysis.verify import search\n"
        "def stuck(self):\n"
        "    with self.budget.stopping(lambda: None):\n"
        "        time.sleep(60)\n"
        "search.Verifier.outcomes = stuck\n"
        "gamecheck.budget.STUCK_SECONDS = 1.0\n"
        "from gamecheck.cli import main\n"
        f"sys.exit(main(['verify', {str(sheet)!r}, '--json', '--no-exhaustive',"
        " '--time-limit', '6']))\n"
    )
    started = time.monotonic()
    process = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert process.returncode == 4 and time.monotonic() - started < 20
    assert process.stderr.splitlines()[-1].endswith("the run ends with what it settled before")
    result = json.loads(process.stdout)
    assert (result["longest_game"]["status"], result["longest_game"]["value"]) == ("proved", 9)
    assert (result["shortest_game"]["status"], result["shortest_game"]["value"]) == ("proved", 5)
    assert result["playability"]["status"] == result["goal_definedness"]["status"] == "proved"
    assert result["outcomes"]["status"] == "unknown"


def test_a_solver_that_ignores_its_stop_ends_the_run_soon_after_the_limit():
    # every SAT call sleeps 60 s and cannot be stopped: verify ends at its 4 s limit, or
    # 1 s after it first stopped the call, with one sentence and exit 4 (answers unknown)
    script = (
        "import sys, time\n"
        "from pysat import solvers\n"
        "import gamecheck.budget\n"
        "solvers.Minisat22.solve_limited = lambda self, *a, **k: time.sleep(60)\n"
        "solvers.Minisat22.interrupt = lambda self: None\n"
        "gamecheck.budget.STUCK_SECONDS = 1.0\n"
        "from gamecheck.cli import main\n"
        "sys.exit(main(['verify', 'cubicup', '--time-limit', '4']))\n"
    )
    started = time.monotonic()
    process = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert process.returncode == 4 and 3.5 < time.monotonic() - started < 20
    # the sentence names where the call was made, for a bug report; the answers (all
    # unknown: the first call was in the invariants) are printed before it
    assert process.stderr.splitlines()[-1].startswith(
        "gamecheck: error: a solver call (solve_within at gamecheck/solvers/sat.py:"
    )
    assert process.stderr.splitlines()[-1].endswith(
        "ran on 1 s after it was told to stop; the run ends with what it settled before"
    )
    assert process.stdout.startswith("verify cubicup (3 roles")
    assert "termination        unknown" in process.stdout
