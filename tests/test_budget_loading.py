"""The budget reaches loading and every later phase of `verify`: a run whose budget is over
(or interrupted) before a phase answers unknown from there on and keeps what it settled, and
a sheet too big to load is refused at once, naming the rule."""

import json
import signal
import time
from pathlib import Path

import pytest

from gamecheck import cli
from gamecheck.analysis.loading import load_game
from gamecheck.analysis.verify.pipeline import verify_game
from gamecheck.budget import Budget, OutOfBudget
from gamecheck.cli import main
from gamecheck.gdl.datalog import TooLarge

SHEETS = Path(__file__).parent / "data" / "gdl"
HUGE = str(SHEETS / "huge_static.kif")


def statuses(result) -> list[str]:
    answers = [
        result.longest_game,
        result.shortest_game,
        result.playability,
        result.goal_definedness,
        *result.earliest_win.values(),
    ]
    return [answer.status for answer in answers]


def test_loading_stops_at_once_with_an_expired_budget():
    game = load_game(str(SHEETS / "tictactoe.kif"))  # reads and checks the rules only
    with pytest.raises(OutOfBudget):
        game.prepare(Budget(0))
    result = verify_game(str(SHEETS / "tictactoe.kif"), budget=Budget(0))
    assert statuses(result) == ["unknown"] * 6
    assert result.playability.detail == "loading: the time limit ran out"
    assert result.roles == ("xplayer", "oplayer")


def test_the_time_limit_counts_from_the_start_of_the_command(monkeypatch, capsys):
    # Loading the command's modules takes part of the limit: here it is made to take all of it.
    build_parser = cli.build_parser

    def slow_build_parser(argv):
        time.sleep(1.5)
        return build_parser(argv)

    monkeypatch.setattr(cli, "build_parser", slow_build_parser)
    code = main(["verify", str(SHEETS / "tictactoe.kif"), "--time-limit", "1", "--json"])
    answer = json.loads(capsys.readouterr().out)["playability"]
    assert (code, answer["status"]) == (4, "unknown")
    assert answer["detail"] == "loading: the time limit ran out"


def test_a_static_relation_too_big_to_hold_is_refused_naming_its_rule():
    # huge_static.kif: 30 numbers, and a rule over six of them: 30**6 = 7.3e8 instances.
    with pytest.raises(TooLarge, match=r"huge_static.kif:13:1: this rule has about 7.3e\+08"):
        load_game(HUGE).prepare()
    result = verify_game(HUGE, time_limit=60)
    assert statuses(result) == ["unknown"] * 5
    assert result.longest_game.detail.startswith("loading: ")
    assert "huge_static.kif:13:1: this rule has about 7.3e+08 instances" in (
        result.longest_game.detail
    )


def test_verify_of_a_sheet_too_big_to_load_exits_4_without_a_traceback(capsys):
    assert main(["verify", HUGE, "--json"]) == 4
    assert "Traceback" not in capsys.readouterr().err


def test_an_interruption_keeps_the_answers_settled_before_it():
    # tictactoe.kif: the longest game is 9 steps and the shortest 5 (worked out by hand:
    # nine cells; x's third mark comes at step 5 at the earliest); the run is interrupted
    # as playability starts, so that and every later answer is unknown.
    budget = Budget(None)

    def progress(stage: str) -> None:
        if stage == "playability":
            budget.interrupt(signal.SIGINT)

    result = verify_game(
        str(SHEETS / "tictactoe.kif"), budget=budget, horizon=40, progress=progress
    )
    assert (result.longest_game.status, result.longest_game.value) == ("proved", 9)
    assert (result.shortest_game.status, result.shortest_game.value) == ("proved", 5)
    assert statuses(result)[2:] == ["unknown"] * 4
    assert result.playability.detail == "the run was interrupted"
    assert result.interrupted


def test_a_role_without_any_legal_rule_is_refuted_by_verify(capsys):
    # broken_no_legal.kif: role b has no legal rule, and the initial state is not terminal,
    # so b is stuck after 0 steps (worked out by hand from the sheet).
    status = main(["verify", str(SHEETS / "broken_no_legal.kif"), "--time-limit", "30"])
    out, err = capsys.readouterr()
    assert status == 1
    assert "Traceback" not in err
    result = verify_game(str(SHEETS / "broken_no_legal.kif"), time_limit=30)
    assert (result.playability.status, result.playability.value) == ("refuted", 0)
    assert result.playability.detail == "after 0 steps b has no legal action"
    assert result.playability.witness == ()


def test_grounding_refuses_the_same_rule_before_deriving_anything():
    from gamecheck.solvers.ground.grounder import ground

    with pytest.raises(TooLarge, match=r"huge_static.kif:13:1: this rule has about 7.3e\+08"):
        ground(load_game(HUGE).rules, "huge_static")
