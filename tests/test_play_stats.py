"""`gamecheck play` and `gamecheck stats` through the CLI, and the playout statistics."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from gamecheck.analysis.loading import load_game
from gamecheck.analysis.playouts import (
    STUCK,
    Ending,
    PlayoutError,
    playout_stats,
    random_playout,
    random_steps,
)
from gamecheck.analysis.replay import replay_line
from gamecheck.cli import main
from gamecheck.models import get_game

GAMES = ["tictacchess", "tictactoe3d", "sudoku"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("name", GAMES)
def test_play_json_lines_replay_to_the_same_states(capsys, name):
    status, out, _ = run(capsys, "play", name, "--seed", "7", "--json")
    assert status == 0
    lines = [json.loads(line) for line in out.splitlines()]
    *steps, last = lines
    game = get_game(name)
    assert [line["step"] for line in lines] == list(range(1, len(lines) + 1))
    for line in steps:
        assert list(line["legal"]) == list(game.roles)
        for role, action in zip(game.roles, line["joint"], strict=True):
            assert action in line["legal"][role]
        assert line["state"] == sorted(line["state"])
    replay = replay_line(game, [line["joint"] for line in steps])
    assert [sorted(game.state_facts(s)) for s in replay.states] == [line["state"] for line in lines]
    assert last["terminal"] is True and replay.terminal
    assert list(last["goals"]) == list(game.roles)
    assert tuple(last["goals"].values()) == replay.goals


def test_play_is_deterministic_for_a_seed(capsys):
    first = run(capsys, "play", "tictacchess", "--seed", "3")
    again = run(capsys, "play", "tictacchess", "--seed", "3")
    other = run(capsys, "play", "tictacchess", "--seed", "4")
    assert first == again
    assert first[1] != other[1]
    assert run(capsys, "play", "tictacchess") == run(capsys, "play", "tictacchess", "--seed", "0")


def test_play_trace_shows_boards_joint_actions_and_goals(capsys):
    status, out, _ = run(capsys, "play", "tictactoe3d", "--seed", "1")
    assert status == 0
    game = get_game("tictactoe3d")
    assert out.count("\nstep ") == random_playout(game, 1).length
    assert "step 1\nlevel 1   level 2   level 3   level 4" in out
    assert "joint: xrow (select row " in out
    assert out.rstrip().splitlines()[-1].startswith("goals: xrow ")


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "nosuchgame"],
        ["stats", "nosuchgame"],
        ["play", "sudoku:grade9"],
        ["play", "ttcc4:foo"],
        ["stats", "tictacchess", "--time-limit", "inf"],
        ["stats", "tictacchess", "--playouts", "3", "--csv", "/nonexistent/dir/out.csv"],
    ],
)
def test_bad_input_is_one_sentence_and_status_2(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.startswith("gamecheck: error: ") and err.count("\n") == 1
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "tictacchess", "--seed", "x"],
        ["stats", "tictacchess", "--playouts", "0"],
        ["stats", "tictacchess", "--frobnicate"],
        ["play"],
    ],
)
def test_bad_options_exit_2_without_a_traceback(capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("gamecheck: error:") and err.count("\n") == 1


def test_stats_csv_rows_match_play(capsys, tmp_path):
    csv = tmp_path / "rows.csv"
    status, out, _ = run(
        capsys, "stats", "tictacchess", "--playouts", "40", "--seed", "5", "--csv", str(csv)
    )
    assert status == 0
    assert "tictacchess: 40 random playouts, seeds 5..44" in out
    rows = pd.read_csv(csv)
    assert list(rows.columns) == [
        "seed",
        "length",
        "ending",
        "goal red",
        "goal yellow",
        "goal blue",
        "mean_branching",
        "min_branching",
        "max_branching",
    ]
    assert list(rows["seed"]) == list(range(5, 45))
    assert rows["length"].between(1, 30).all()
    assert not list(tmp_path.glob(".*tmp"))
    # the playout of row seed s is the one `gamecheck play --seed s` shows
    status, played, _ = run(capsys, "play", "tictacchess", "--seed", "17", "--json")
    last = json.loads(played.splitlines()[-1])
    row = rows.set_index("seed").loc[17]
    assert row["length"] == last["step"] - 1
    assert row["ending"] == "terminal"
    assert [row[f"goal {role}"] for role in ("red", "yellow", "blue")] == list(
        last["goals"].values()
    )


def test_stats_output_is_deterministic(capsys):
    assert run(capsys, "stats", "tictactoe3d", "--playouts", "20", "--seed", "2") == run(
        capsys, "stats", "tictactoe3d", "--playouts", "20", "--seed", "2"
    )


@pytest.mark.parametrize("name", GAMES)
def test_playout_stats_are_consistent(name):
    game = get_game(name)
    stats = playout_stats(game, range(30))
    assert stats.outcomes["frequency"].sum() == pytest.approx(1)
    assert stats.outcomes["count"].sum() == 30
    assert stats.lengths["count"] == 30
    assert 1 <= stats.lengths["min"] <= stats.lengths["max"] <= game.step_bound
    assert stats.branching["steps"] == stats.playouts["length"].sum()
    assert 1 <= stats.branching["min"] <= stats.branching["mean"] <= stats.branching["max"]


def test_tictactoe3d_playouts_respect_the_rules():
    # X marks at steps 3, 9, 15, 21, ...: no line before step 21; the controller has <= 4 choices
    stats = playout_stats(get_game("tictactoe3d"), range(30))
    assert stats.lengths["min"] >= 21
    assert stats.branching["max"] <= 4
    allowed = {"100 100 100 0 0 0", "0 0 0 100 100 100", "50 50 50 50 50 50"}
    assert set(stats.outcomes.index) <= allowed


GDL = Path(__file__).parent / "data" / "gdl"


def test_play_reports_a_stuck_role_as_broken_rules(capsys):
    # broken_stuck.kif: count 0 -tick-> 1 -tick-> 2, then p has no legal action, not terminal
    status, out, _ = run(capsys, "play", str(GDL / "broken_stuck.kif"), "--json")
    *steps, last = [json.loads(line) for line in out.splitlines()]
    assert status == 1
    assert [step["joint"] for step in steps] == [["tick"], ["tick"]]
    assert last["state"] == ["(count 2)"] and last["terminal"] is False
    assert last["ending"] == "stuck" and last["goals"] is None
    assert "p has no legal action" in last["detail"]


def test_stats_counts_each_way_of_ending(capsys):
    # broken_goals.kif: `go` ends with two goal values for a, `stop` with 50 50
    status, out, _ = run(capsys, "stats", str(GDL / "broken_goals.kif"), "--playouts", "40")
    outcomes = ("goals undefined ", "50 50 ")
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.startswith(outcomes)}
    assert status == 1
    assert int(rows["goals"][2]) + int(rows["50"][2]) == 40  # "goals undefined" and "50 50"
    assert int(rows["goals"][2]) > 0 and int(rows["50"][2]) > 0
    assert "role a must have exactly one goal value" in out


def test_a_game_that_never_ends_stops_at_the_step_cap(capsys):
    sheet = str(GDL / "endless_deeper.kif")
    status, out, _ = run(capsys, "play", sheet, "--max-steps", "7", "--json")
    last = json.loads(out.splitlines()[-1])
    assert status == 4 and last["step"] == 8 and last["ending"] == "too long"
    assert last["state"] == ["(count " + "(s " * 7 + "0" + ")" * 8]
    status, out, _ = run(capsys, "stats", sheet, "--playouts", "3", "--max-steps", "4")
    assert status == 4 and "too long: no terminal state after 4 steps" in out


def test_stats_within_a_time_limit_summarise_the_playouts_finished(capsys):
    argv = ["stats", "tictactoe3d", "--playouts", "1000000000", "--time-limit", "0.5"]
    status, out, _ = run(capsys, *argv)
    heading = out.splitlines()[0]
    played = int(heading.split(": ")[1].split()[0])
    assert status == 4 and 0 < played < 1000000000
    assert heading.endswith(
        f"(stopped before the other {1000000000 - played}: time limit or interruption)"
    )


def test_random_steps_refuse_a_playout_that_does_not_end_terminal():
    game = load_game(str(GDL / "broken_stuck.kif"))
    with pytest.raises(PlayoutError, match="p has no legal action"):
        list(random_steps(game, 0))
    assert random_playout(game, 0).ending == Ending(
        STUCK, "after 2 steps the state is not terminal but p has no legal action"
    )
