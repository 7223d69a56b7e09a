"""The installed `gamecheck` command, run as a user runs it: the console script next to this
Python, in a directory outside the checkout. Every exit code of the README's table, for every
command (code 3, a failed cross-check, cannot be provoked from outside: test_cli_exit_codes.py
checks it in-process), and Ctrl-C / SIGTERM in the middle of a solver call.

The commands run concurrently in one fixture (start-up dominates each), and each test checks
one of them.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

import gamecheck
from tests.sudoku_reference import solutions

DATA = Path(__file__).parent / "data"
GDL = DATA / "gdl"
GAMECHECK = shutil.which("gamecheck", path=str(Path(sys.executable).parent))
NO_SOLUTION = "12345678." + "........9" + "." * 63  # row 1 column 9 can take no digit
EMPTY = "." * 81
GRADE1 = "9.......872.....64...528...35.8.7.21....4....46.2.5.89...931...68.....325.......7"
TIMEOUT = 300


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str

    def json(self) -> dict:
        return json.loads(self.out)

    def one_sentence_error(self, *words: str) -> bool:
        """Nothing on stdout, one line on stderr naming the error, no traceback."""
        return (
            self.out == ""
            and self.err.startswith("gamecheck: error: ")
            and self.err.count("\n") == 1
            and all(word in self.err for word in words)
        )


COMMANDS = {
    "version": ["--version"],
    "games": ["games"],
    "games bad option": ["games", "--frobnicate"],
    "lint clean": ["lint", GDL / "tictactoe.kif"],
    "lint errors": ["lint", GDL / "bad_unsafe.kif"],
    "lint missing": ["lint", "missing.kif"],
    "play": ["play", "tictacchess", "--seed", "3", "--json"],
    "play stuck": ["play", GDL / "broken_stuck.kif"],
    "play no variants": ["play", "ttcc4:foo"],
    "play endless": ["play", GDL / "endless_deeper.kif", "--max-steps", "5", "--json"],
    "play to a full disk": ["play", "tictacchess", "--json"],  # stdout: /dev/full
    "stats": ["stats", "tictacchess", "--playouts", "20"],
    "stats stuck": ["stats", GDL / "broken_stuck.kif", "--playouts", "3"],
    "stats unknown game": ["stats", "nosuchgame"],
    "stats endless": ["stats", GDL / "endless_deeper.kif", "--playouts", "2", "--max-steps", "9"],
    "sudoku solve": ["sudoku", "solve", "--json"],
    "sudoku no solution": ["sudoku", "solve", "--puzzle", NO_SOLUTION, "--backend", "cnf"],
    "sudoku bad solver": ["sudoku", "solve", "--sat-solver", "nosuch"],
    "sudoku unwritable": ["sudoku", "solve", "--dimacs", "no/such/dir/p.cnf"],
    "sudoku endless file": ["sudoku", "solve", "--file", "/dev/zero"],
    "sudoku time limit": [
        "sudoku",
        "solve",
        "--puzzle",
        EMPTY,
        "--count",
        "100000",
        "--time-limit",
        "1",
        "--json",
    ],  # fmt: skip
    "bench": ["sudoku", "bench", DATA / "sudoku_sample.txt", "--limit", "2", "--json"],
    "bench no solution": ["sudoku", "bench", "puzzles.txt", "--backend", "cpsat"],
    "bench missing": ["sudoku", "bench", "missing.txt"],
    "bench time limit": ["sudoku", "bench", DATA / "sudoku_sample.txt", "--time-limit", "0.001"],
    "verify": ["verify", GDL / "tictactoe.kif", "--json"],
    "verify defective": ["verify", GDL / "broken_stuck.kif"],
    "verify bad sheet": ["verify", GDL / "bad_unsafe.kif"],
    "verify horizon": ["verify", GDL / "tictactoe.kif", "--horizon", "3", "--no-exhaustive"],
    "verify memory limit": ["verify", GDL / "tictactoe.kif", "--max-memory", "1"],
    "verify memory zero": ["verify", GDL / "tictactoe.kif", "--max-memory", "0"],
    "forced-win": ["forced-win", "tictacchess", "--role", "red", "--max-depth", "2", "--json"],
    "forced-win small tables": [
        *("forced-win", "tictacchess", "--role", "red", "--max-depth", "2", "--memory", "0.5"),
    ],
    "forced-win memory zero": ["forced-win", "tictacchess", "--role", "red", "--memory", "0"],
    "forced-win memory limit": ["forced-win", "cubicup", "--role", "yellow", "--max-memory", "1"],
    "forced-win bad role": ["forced-win", "tictacchess", "--role", "nobody"],
    "forced-win time limit": ["forced-win", "cubicup", "--role", "yellow", "--time-limit", "0.5"],
    "report unknown game": ["report", "nosuchgame"],
    "time limit zero": ["verify", "tictacchess", "--time-limit", "0"],
    "time limit nan": ["stats", "tictacchess", "--time-limit", "nan"],
}


# tictactoe3d's shortest game takes seconds of SAT solving without invariants
VERIFY_SLOWLY = ["verify", "tictactoe3d", "--horizon", "25", "--no-invariants"]
# an empty grid has billions of solutions; the DIMACS file is written just before solving
SUDOKU_SLOWLY = ["sudoku", "solve", "--puzzle", EMPTY, "--count", "10000000", "--dimacs", "p.cnf"]
INTERRUPTED = {
    "verify SIGINT": (VERIFY_SLOWLY + ["--json"], signal.SIGINT, lambda _, err: "shortest" in err),
    "verify SIGTERM": (VERIFY_SLOWLY, signal.SIGTERM, lambda _, err: "shortest" in err),
    "sudoku SIGTERM": (
        SUDOKU_SLOWLY + ["--backend", "cnf", "--json"],
        signal.SIGTERM,
        lambda cwd, _: (cwd / "p.cnf").exists(),
    ),
    "sudoku SIGINT": (  # OR-Tools used to swallow Ctrl-C
        SUDOKU_SLOWLY + ["--backend", "cpsat"],
        signal.SIGINT,
        lambda cwd, _: (cwd / "p.cnf").exists(),
    ),
}
"""Commands interrupted in the middle of a solver call: argv, signal, when to send it."""


def run_installed(argv: list, cwd: Path, stdout=subprocess.PIPE) -> Run:
    process = subprocess.run(
        [GAMECHECK, *map(str, argv)],
        cwd=cwd,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=TIMEOUT,
        env=_environment(),
    )
    return Run(process.returncode, process.stdout or "", process.stderr)


def _environment() -> dict[str, str]:
    """The user's environment, without anything that points Python at the checkout."""
    return {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Run]:
    assert GAMECHECK is not None, f"no gamecheck command next to {sys.executable}"
    cwd = tmp_path_factory.mktemp("user")
    (cwd / "puzzles.txt").write_text(
        f"# one with a solution, one without\n{GRADE1}\n{NO_SOLUTION}\n"
    )

    def one(name: str) -> tuple[str, Run]:
        if name in INTERRUPTED:
            directory = cwd / name.replace(" ", "_")
            directory.mkdir()
            return name, interrupt(*INTERRUPTED[name], directory)
        if name == "play to a full disk":
            with open("/dev/full", "w") as full:
                return name, run_installed(COMMANDS[name], cwd, stdout=full)
        return name, run_installed(COMMANDS[name], cwd)

    with ThreadPoolExecutor(max_workers=4) as pool:  # the slow ones first
        return dict(pool.map(one, [*INTERRUPTED, *COMMANDS]))


def interrupt(argv: list, number: int, ready, cwd: Path) -> Run:
    """Start the command in `cwd`, send it signal `number` once `ready(cwd, stderr so far)`,
    and wait for it to end."""
    stderr = cwd / "stderr.txt"
    with open(stderr, "w") as err_file:
        process = subprocess.Popen(
            [GAMECHECK, *map(str, argv)],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=err_file,
            text=True,
            env=_environment(),
        )
        deadline = time.monotonic() + TIMEOUT
        while not ready(cwd, stderr.read_text()) and time.monotonic() < deadline:
            if process.poll() is not None:
                break  # ended before it could be interrupted: the test sees its exit code
            time.sleep(0.05)
        else:
            process.send_signal(number)
        out, _ = process.communicate(timeout=TIMEOUT)
    return Run(process.returncode, out, stderr.read_text())


def test_version(runs):
    assert runs["version"].code == 0
    assert runs["version"].out == f"gamecheck {gamecheck.__version__}\n"


def test_games_lists_the_five_games_with_their_roles(runs):
    run = runs["games"]
    assert run.code == 0 and run.err == ""
    lines = run.out.splitlines()
    assert [line.split()[0] for line in lines] == [
        "cubicup",
        "ttcc4",
        "tictactoe3d",
        "sudoku",
        "tictacchess",
    ]
    # RULES.md: tictactoe3d has six roles, one per team and coordinate
    assert "6 role(s): xrow, xcolumn, xlevel, orow, ocolumn, olevel" in lines[2]
    assert runs["games bad option"].code == 2
    assert runs["games bad option"].one_sentence_error("--frobnicate")


def test_lint_codes(runs):
    assert runs["lint clean"].code == 0 and "0 errors, 0 warnings" in runs["lint clean"].out
    # bad_unsafe.kif: two unsafe variables, by hand (see its `; expect:` lines)
    assert runs["lint errors"].code == 1 and "2 errors" in runs["lint errors"].out
    assert runs["lint missing"].code == 2
    assert runs["lint missing"].one_sentence_error("cannot read missing.kif")


def test_play_codes(runs):
    run = runs["play"]
    *steps, last = [json.loads(line) for line in run.out.splitlines()]
    assert run.code == 0 and last["terminal"] and last["ending"] == "terminal"
    assert 1 <= len(steps) <= 30  # RULES.md: tictacchess ends within 30 steps
    # broken_stuck.kif: count 0 -tick-> 1 -tick-> 2, where p has no legal action
    stuck = runs["play stuck"]
    assert stuck.code == 1 and "Traceback" not in stuck.err
    assert "stuck (the rules are broken) after 2 steps" in stuck.out
    assert "p has no legal action" in stuck.out
    assert runs["play no variants"].code == 2
    assert runs["play no variants"].one_sentence_error("ttcc4 has no variants")
    endless = runs["play endless"]
    *steps, last = [json.loads(line) for line in endless.out.splitlines()]
    assert endless.code == 4 and len(steps) == 5 and last["ending"] == "too long"
    assert last["state"] == ["(count (s (s (s (s (s 0))))))"]


def test_output_to_a_full_disk_is_one_sentence(runs):
    run = runs["play to a full disk"]
    assert run.code == 2 and "Traceback" not in run.err
    assert run.err == "gamecheck: error: cannot write the output: No space left on device\n"


def test_stats_codes(runs):
    run = runs["stats"]
    assert run.code == 0 and "tictacchess: 20 random playouts, seeds 0..19" in run.out
    stuck = runs["stats stuck"]
    assert stuck.code == 1 and ["stuck", "3", "1.0000"] in [
        line.split() for line in stuck.out.splitlines()
    ]
    assert runs["stats unknown game"].code == 2
    assert runs["stats unknown game"].one_sentence_error("unknown game 'nosuchgame'")
    endless = runs["stats endless"]
    assert endless.code == 4 and "too long: no terminal state after 9 steps" in endless.out


def test_sudoku_solve_codes(runs):
    answer = runs["sudoku solve"].json()
    assert runs["sudoku solve"].code == 0
    assert answer["kind"] == "sudoku_answer" and answer["gamecheck"] == gamecheck.__version__
    assert answer["solution"] == solutions(GRADE1, cap=2)[0] and answer["unique"] is True
    assert runs["sudoku no solution"].code == 1
    assert "no solution (proved" in runs["sudoku no solution"].out
    assert runs["sudoku bad solver"].code == 2
    assert runs["sudoku bad solver"].one_sentence_error("unknown SAT solver 'nosuch'")
    assert runs["sudoku unwritable"].code == 2
    assert runs["sudoku unwritable"].one_sentence_error("cannot write no/such/dir/p.cnf")
    assert runs["sudoku endless file"].code == 2
    assert runs["sudoku endless file"].one_sentence_error("cannot read /dev/zero: it holds more")
    stopped = runs["sudoku time limit"]
    answer = stopped.json()
    assert stopped.code == 4 and answer["complete"] is False and answer["count_exact"] is False
    assert all(backend["timed_out"] for backend in answer["backends"].values())


def test_sudoku_bench_codes(runs):
    bench = runs["bench"].json()
    assert runs["bench"].code == 0 and bench["kind"] == "sudoku_bench"
    assert bench["backends"]["cnf"]["unique_count"] == 2  # the sample's puzzles are unique
    run = runs["bench no solution"]
    cpsat = run.out.splitlines()[1].split()
    assert run.code == 1 and cpsat[:3] == ["cpsat", "2", "2"] and cpsat[-1] == "1"  # none: 1
    assert runs["bench missing"].code == 2
    assert runs["bench missing"].one_sentence_error("cannot read missing.txt")
    assert runs["bench time limit"].code == 4


def test_verify_codes(runs):
    result = runs["verify"].json()
    assert runs["verify"].code == 0 and result["kind"] == "verification"
    assert result["defects"] == [] and result["unknown"] == []
    # a full tic-tac-toe board takes 9 marks; nobody can win before the 5th (x's third)
    assert result["longest_game"]["value"] == 9 and result["shortest_game"]["value"] == 5
    assert runs["verify defective"].code == 1 and "Traceback" not in runs["verify defective"].err
    bad = runs["verify bad sheet"]
    assert bad.code == 2 and "bad_unsafe.kif:" in bad.err and "Traceback" not in bad.err
    # a game of tic-tac-toe can last 9 steps: at horizon 3 the longest game is unknown
    horizon = runs["verify horizon"]
    assert horizon.code == 4 and "longest game       unknown" in horizon.out
    # the interpreter alone holds more than 1 MB: nothing is settled, and that is unknown
    memory = runs["verify memory limit"]
    assert memory.code == 4 and "the memory limit (1 MB) was reached" in memory.out
    assert "longest game       unknown" in memory.out and "Traceback" not in memory.err
    zero = runs["verify memory zero"]
    assert zero.code == 2 and zero.one_sentence_error("'0' is not a number of megabytes > 0")


def test_forced_win_codes(runs):
    result = runs["forced-win"].json()
    # after 2 steps red has at most one piece in the centre square (one knight jump from its
    # spawn cell), so no line of three
    assert runs["forced-win"].code == 0 and result["status"] == "none"
    small = runs["forced-win small tables"]
    assert small.code == 0 and "none: no forced win within 2 steps (proved)" in small.out
    zero = runs["forced-win memory zero"]
    assert zero.code == 2 and zero.one_sentence_error("'0' is not a number of megabytes > 0")
    assert runs["forced-win bad role"].code == 2
    assert runs["forced-win bad role"].one_sentence_error("no role 'nobody'")
    assert runs["forced-win time limit"].code == 4
    assert "unknown" in runs["forced-win time limit"].out
    # the interpreter alone holds more than 1 MB: the search stops at once, unknown
    memory = runs["forced-win memory limit"]
    assert memory.code == 4 and "the memory limit (1 MB) was reached" in memory.out


def test_report_and_option_codes(runs):
    assert runs["report unknown game"].code == 2
    assert runs["report unknown game"].one_sentence_error("unknown game 'nosuchgame'")
    assert runs["time limit zero"].one_sentence_error("'0' is not a number of seconds > 0")
    assert runs["time limit nan"].one_sentence_error("'nan' is not a number of seconds > 0")
    assert runs["time limit zero"].code == runs["time limit nan"].code == 2


def test_interrupted_verify_prints_what_was_settled(runs):
    run = runs["verify SIGINT"]
    assert run.code == 130 and "Traceback" not in run.err
    result = run.json()
    assert result["interrupted"] is True and result["complete"] is False
    assert result["shortest_game"]["status"] == "unknown" and "shortest_game" in result["unknown"]
    run = runs["verify SIGTERM"]
    assert run.code == 143 and "Traceback" not in run.err
    assert "interrupted" in run.out and "shortest game      unknown" in run.out


def test_interrupted_sudoku_prints_what_was_settled(runs):
    run = runs["sudoku SIGTERM"]
    assert run.code == 143 and "Traceback" not in run.err
    answer = run.json()
    assert answer["complete"] is False and answer["count_exact"] is False
    run = runs["sudoku SIGINT"]
    assert run.code == 130 and "Traceback" not in run.err
    assert "stopped (time limit or interruption)" in run.out
