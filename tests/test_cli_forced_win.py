"""`gamecheck forced-win` through the CLI: text and JSON output, state files, endgame
studies, bad input (exit 2) and failed strategy checks (exit 3)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import gamecheck.solvers.forced_win.search
from gamecheck.analysis.endgames import endgame_summary
from gamecheck.analysis.playouts import random_playout
from gamecheck.budget import Budget
from gamecheck.cli import main
from gamecheck.models import get_game
from gamecheck.solvers.forced_win.search import Status, forced_win
from gamecheck.solvers.forced_win.strategy_check import StrategyCheckFailure

ROOT = Path(__file__).resolve().parent.parent
JSON_KEYS = [
    "kind",
    "schema_version",
    "gamecheck",
    "game",
    "role",
    "team",
    "team_source",
    "status",
    "max_depth",
    "depth",
    "depth_is_fewest",
    "searched_depth",
    "lower_bound",
    "first_action",
    "strategy_size",
    "nodes",
    "seconds",
    "method",
]
# red's spawn piece (1 4) jumps to (3 5) next to red's (3 3) and (3 4): a win in 1 step
ONE_JUMP = """; red to move, one knight jump from the column x = 3
(cell 1 4 red)
(cell 3 3 red)   ; in the centre
(cell 3 4 red)

(cell 4 1 yellow)
(cell 7 4 blue)
(control red)
(step 10)
"""


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def one_jump(tmp_path) -> Path:
    path = tmp_path / "one_jump.txt"
    path.write_text(ONE_JUMP)
    return path


def test_found_from_a_state_file(capsys, one_jump):
    status, out, _ = run(
        capsys, "forced-win", "tictacchess", "--role", "red", "--state", str(one_jump)
    )
    assert status == 0
    assert "found: red forces a win in 1 step (and no fewer)" in out
    assert "first action: (move 1 4 3 5)" in out
    assert "strategy: 1 decision state, replayed against every reply" in out


def test_json_keys_and_values(capsys, one_jump):
    argv = ["forced-win", "tictacchess", "--role", "red", "--state", str(one_jump), "--json"]
    status, out, _ = run(capsys, *argv)
    assert status == 0
    answer = json.loads(out)
    assert list(answer) == JSON_KEYS
    assert {
        key: answer[key] for key in JSON_KEYS if key not in ("gamecheck", "nodes", "seconds")
    } == {
        "kind": "forced_win",
        "schema_version": 1,
        "game": "tictacchess",
        "role": "red",
        "team": ["red"],
        "team_source": "alone",
        "status": "found",
        "max_depth": 30,
        "depth": 1,
        "depth_is_fewest": True,
        "searched_depth": 0,
        "lower_bound": 1,  # red needs a move of its own: at least 1 step (steps_to_win)
        "first_action": "(move 1 4 3 5)",
        "strategy_size": 1,
        "method": "search",
    }


def test_none_says_which_bound_is_proved(capsys, one_jump):
    # yellow does not move before red's winning jump
    argv = ["forced-win", "tictacchess", "--role", "yellow", "--state", str(one_jump)]
    status, out, _ = run(capsys, *argv, "--max-depth", "1")
    assert status == 0
    assert "within 1 steps?" not in out and "within 1 step?" in out
    assert "none: no forced win within 1 step (proved)" in out
    status, out, _ = run(capsys, *argv, "--max-depth", "1", "--json")
    assert json.loads(out)["status"] == "none" and json.loads(out)["searched_depth"] == 1


def test_unknown_when_time_runs_out(capsys):
    argv = ["forced-win", "tictacchess", "--role", "red", "--time-limit", "0.2", "--json"]
    status, out, _ = run(capsys, *argv)
    answer = json.loads(out)
    assert status == 4
    assert answer["status"] == "unknown" and answer["depth"] is None
    # none proved below the end of the game (-1: not even depth 0 on a loaded machine)
    assert -1 <= answer["searched_depth"] < 30


def test_output_does_not_depend_on_hash_randomisation(tmp_path, one_jump):
    state = tmp_path / "unstoppable.txt"
    state.write_text(ONE_JUMP.replace("(cell 3 3 red)", "(cell 2 2 red)"))
    argv = [sys.executable, "-m", "gamecheck", "forced-win", "tictacchess", "--role", "red"]
    argv += ["--state", str(state), "--json"]
    answers = []
    for seed in ("1", "2"):
        environment = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        done = subprocess.run(argv, capture_output=True, text=True, env=environment, cwd=ROOT)
        answer = json.loads(done.stdout)
        del answer["seconds"]
        answers.append(answer)
    assert answers[0] == answers[1]
    assert answers[0]["status"] == "found" and answers[0]["depth"] == 4


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--role", "pink"], "has no role 'pink'"),
        ([], "needs --role R"),
        (["--role", "red", "--max-depth", "-2"], "argument --max-depth"),
        (["--role", "red", "--max-depth", "x"], "argument --max-depth"),
        (["--role", "red", "--time-limit", "0"], "argument --time-limit"),
        (["--role", "red", "--state", "/nonexistent/state.txt"], "cannot read"),
        (["--role", "red", "--before", "3"], "belong to an endgame study"),
        (["--endgames", "3"], "needs --before"),
        (["--endgames", "3", "--before", "3", "--state", "s.txt"], "do not apply"),
    ],
)
def test_bad_input_is_one_sentence_and_status_2(capsys, argv, message):
    status, out, err = run(capsys, "forced-win", "tictacchess", *argv)
    assert status == 2
    assert out == ""
    assert err.startswith("gamecheck: error: ") and err.count("\n") == 1
    assert message in err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(cell 1 4 red)\n(cell 3 3 red\n", "line 2"),
        ("(cell 1 4 red)\n(cell 9 9 red)\n(control red)\n(step 3)\n", "expected a number"),
        ("(cell 1 4 red)\n", "exactly one (control P)"),
    ],
)
def test_bad_state_files_name_the_file(capsys, tmp_path, text, message):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    status, _, err = run(capsys, "forced-win", "tictacchess", "--role", "red", "--state", str(path))
    assert status == 2
    assert str(path) in err and message in err and err.count("\n") == 1


def test_a_failed_strategy_check_exits_3(capsys, monkeypatch, one_jump):
    def reject(*args):
        raise StrategyCheckFailure("the strategy loses")

    monkeypatch.setattr(gamecheck.solvers.forced_win.search, "check_policy", reject)
    argv = ["forced-win", "tictacchess", "--role", "red", "--state", str(one_jump)]
    status, out, err = run(capsys, *argv)
    assert status == 3
    assert out == "" and "the strategy loses" in err


def test_endgame_study_one_step_before_the_end(capsys, tmp_path):
    # one step before the end the mover either makes its line (only a move makes a line: it
    # adds the mover's piece, spawn cells are outside the centre) or the game stops at step
    # 31 with no line; so the role that can force a win within 1 step is the playout's winner
    game = get_game("tictacchess")
    csv = tmp_path / "study.csv"
    argv = ["forced-win", "tictacchess", "--endgames", "12", "--before", "1", "2", "--seed", "3"]
    status, out, _ = run(capsys, *argv, "--csv", str(csv), "--time-limit", "30")
    assert status == 0
    assert "seeds 3..14" in out
    rows = pd.read_csv(csv)
    assert list(rows.columns) == [
        "seed",
        "before",
        "step",
        "role",
        "status",
        "depth",
        "searched_depth",
        "nodes",
        "seconds",
    ]
    assert len(rows) == 12 * 2 * 3
    one = rows[rows["before"] == 1]
    for seed in range(3, 15):
        goals = random_playout(game, seed).goals
        found = one[(one["seed"] == seed) & (one["status"] == "found")]["role"]
        assert list(found) == [r for r, g in zip(game.roles, goals, strict=True) if g == 100]
        assert set(one[one["seed"] == seed]["status"]) <= {"found", "none"}
    assert not list(tmp_path.glob(".*tmp"))


def test_endgame_summary_counts():
    study = pd.DataFrame(
        {
            "before": [3, 3, 3, 3, 6, 6],
            "role": ["red", "blue", "red", "blue", "red", "blue"],
            "status": ["found", "none", "unknown", "found", "none", "none"],
        }
    )
    summary = endgame_summary(study)
    assert list(summary.columns) == ["positions", "found", "none", "unknown", "found_share"]
    assert summary.loc[(3, "red")].tolist() == [2, 1, 0, 1, 0.5]
    assert summary.loc[(3, "blue")].tolist() == [2, 1, 1, 0, 0.5]
    assert summary.loc[(6, "red")].tolist() == [1, 0, 1, 0, 0.0]
    assert list(summary.index.get_level_values("role")[:2]) == ["red", "blue"]


def test_endgame_study_of_one_role(capsys):
    argv = ["forced-win", "tictacchess", "--endgames", "2", "--before", "1", "--role", "blue"]
    status, out, _ = run(capsys, *argv)
    assert status == 0
    table = out.splitlines()[2:]
    assert len(table) == 3 and table[1].split()[:3] == ["1", "blue", "2"]
    assert table[2] == "every position is settled (found or none) for every K up to 1"


def test_no_time_left_gives_unknown_past_the_rules_bound_only():
    # red needs three moves of its own for a line (steps 1, 4, 7): none within 6 is known
    # without a search, nothing more
    result = forced_win(get_game("tictacchess"), "red", budget=Budget(1e-9))
    assert (result.status, result.searched_depth, result.nodes) == (Status.UNKNOWN, 6, 0)


def test_a_gdl_rule_sheet_from_a_state_file(capsys, tmp_path):
    # x at (1 3), o at (1 2), x to move. Any x mark with (1 3) makes one threat, which o
    # blocks, so no win in 3 steps; (mark 2 2) forces o to (3 1), then (mark 3 3) threatens
    # (1 1) and (2 3) at once: a win at step 5.
    cells = {(1, 2): "o", (1, 3): "x"}
    facts = [f"(cell {r} {c} {cells.get((r, c), 'b')})" for r in (1, 2, 3) for c in (1, 2, 3)]
    state = tmp_path / "fork.txt"
    state.write_text("\n".join([*facts, "(control xplayer)"]))
    sheet = str(ROOT / "tests" / "data" / "gdl" / "tictactoe.kif")
    argv = ["forced-win", sheet, "--role", "xplayer", "--state", str(state), "--json"]
    status, out, _ = run(capsys, *argv)
    answer = json.loads(out)
    assert status == 0
    assert (answer["status"], answer["depth"], answer["searched_depth"]) == ("found", 5, 4)


def test_endgame_study_as_json(capsys):
    # two playouts, K = 1 and 2, three roles without teams: 12 rows, all settled (a role can
    # always be searched to the end of so few steps)
    argv = ["forced-win", "tictacchess", "--endgames", "2", "--before", "1", "2", "--json"]
    status, out, _ = run(capsys, *argv)
    answer = json.loads(out)
    assert status == 0
    assert (answer["kind"], answer["game"], answer["settled_depth"]) == (
        "endgame_study",
        "tictacchess",
        2,
    )
    assert len(answer["rows"]) == 2 * 2 * 3
    assert {row["status"] for row in answer["rows"]} <= {"found", "none"}
