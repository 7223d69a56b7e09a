"""Teams (analysis/teams.py, verify's `teams`), forced wins of teams, strategy files and
`gamecheck check-strategy`. Expected answers are worked out by hand from RULES.md and the
rule sheets in tests/data/gdl."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gamecheck.analysis.forced_wins import solve_forced_win
from gamecheck.analysis.teams import find_teams
from gamecheck.analysis.verify.pipeline import verify_game
from gamecheck.cli import main
from gamecheck.models import get_game
from gamecheck.solvers.forced_win.search import Status, forced_win
from tests.test_forced_win import tictactoe3d_state

GDL = Path(__file__).parent / "data" / "gdl"
RELAY = str(GDL / "relay.kif")
TICTACTOE3D = get_game("tictactoe3d")
TEAM_X = ("xrow", "xcolumn", "xlevel")
TEAM_O = ("orow", "ocolumn", "olevel")

# X has (1 1 1), (1 1 2), (1 1 3): the cell (1 1 4) completes the line. Row 1 has other blank
# cells in columns 2..4, and O has no three in a line. xrow opens X's turn. The team X picks
# row 1, column 1, level 4 and wins at step 3. xrow alone cannot: after its (select row 1),
# xcolumn (an opponent then) selects column 2, 3 or 4, and X's next mark is step 9.
ONE_CELL_FROM_A_LINE = tictactoe3d_state(
    ["1 1 1", "1 1 2", "1 1 3", "2 2 2"],
    ["3 1 1", "4 2 3", "3 4 1", "4 4 4"],
    "xrow",
    "xrow",
    "orow",
)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# -- which roles form teams ----------------------------------------------------------------


def test_tictactoe3d_teams_are_the_two_marks():
    # RULES.md: the roles of the team with a line get 100, the others 0, all 50 without one
    teams = find_teams("tictactoe3d")
    assert teams.groups == (TEAM_X, TEAM_O) and teams.settled
    assert teams.team_of("xlevel") == TEAM_X


@pytest.mark.parametrize("game", ["ttcc4", "tictacchess", "cubicup"])
def test_games_without_teams(game):
    # each of these games has terminal states where exactly one role scores 100
    teams = find_teams(game)
    assert teams.groups == tuple((role,) for role in get_game(game).roles)
    assert teams.settled


def test_a_team_whose_goals_are_written_apart_is_proved_on_the_reachable_states():
    # relay.kif: (scored a) and (scored b) are always set together, so a and b always get the
    # same goal; the judge c gets 100 exactly when they get 0
    assert find_teams(RELAY).groups == (("a", "b"), ("c",))


def test_verify_reports_the_teams_it_proved():
    result = verify_game(RELAY, time_limit=60)
    assert (result.teams.status, result.teams.value) == ("proved", [["a", "b"]])
    assert result.to_json()["teams"]["value"] == [["a", "b"]]
    plain = verify_game(str(GDL / "tictactoe.kif"), time_limit=60)
    assert (plain.teams.status, plain.teams.value) == ("proved", [])


# -- forced wins of teams ------------------------------------------------------------------


def test_a_team_chooses_together():
    team = forced_win(TICTACTOE3D, TEAM_X, start=ONE_CELL_FROM_A_LINE)
    assert (team.status, team.depth, team.team) == (Status.FOUND, 3, TEAM_X)
    assert team.first_action == "xrow (select row 1)"
    alone = forced_win(TICTACTOE3D, "xrow", start=ONE_CELL_FROM_A_LINE, max_depth=8)
    assert (alone.status, alone.searched_depth) == (Status.NONE, 8)


def test_a_role_is_asked_with_its_proved_team():
    result = solve_forced_win("tictactoe3d", "xcolumn", start=ONE_CELL_FROM_A_LINE, max_depth=6)
    assert (result.role, result.team, result.team_source) == ("xcolumn", TEAM_X, "proved")
    assert (result.status, result.depth) == (Status.FOUND, 3)
    given = solve_forced_win(
        "tictactoe3d", team=["xcolumn"], start=ONE_CELL_FROM_A_LINE, max_depth=6
    )
    assert (given.team, given.team_source, given.status) == (("xcolumn",), "given", Status.NONE)


def test_the_judge_of_the_relay_forces_its_win_and_the_runners_cannot():
    # the judge says `miss` three times; the runners' team has no say at all
    judge = solve_forced_win(RELAY, "c")
    assert (judge.status, judge.depth, judge.team) == (Status.FOUND, 3, ("c",))
    runners = solve_forced_win(RELAY, "a")
    assert (runners.status, runners.team) == (Status.NONE, ("a", "b"))


# -- strategy files and check-strategy -------------------------------------------------------


@pytest.fixture
def team_strategy(tmp_path) -> Path:
    state = tmp_path / "state.txt"
    state.write_text("\n".join(sorted(TICTACTOE3D.state_facts(ONE_CELL_FROM_A_LINE))))
    path = tmp_path / "x.json"
    status = main(
        ["forced-win", "tictactoe3d", "--team", "xrow,xcolumn,xlevel"]
        + ["--state", str(state), "--strategy", str(path), "--json"]
    )
    assert status == 0
    return path


def test_a_strategy_file_lists_every_state_where_the_team_chooses(team_strategy):
    data = json.loads(team_strategy.read_text())
    assert (data["kind"], data["game"], data["team"], data["depth"]) == (
        "strategy",
        "tictactoe3d",
        list(TEAM_X),
        3,
    )
    # three steps of X alone: (1 1 4) selected coordinate by coordinate; the row and the
    # column are choices, but (1 1 4) is the only blank cell of row 1, column 1, so the
    # level has no choice and its state need not be listed
    chosen = [entry["actions"] for entry in data["states"]]
    assert sorted(json.dumps(actions, sort_keys=True) for actions in chosen) == sorted(
        json.dumps(actions, sort_keys=True)
        for actions in (
            {"xrow": "(select row 1)", "xcolumn": "noop", "xlevel": "noop"},
            {"xrow": "noop", "xcolumn": "(select column 1)", "xlevel": "noop"},
        )
    )


def test_check_strategy_replays_on_the_reasoner(capsys, team_strategy):
    status, out, _ = run(capsys, "check-strategy", "tictactoe3d", str(team_strategy))
    assert status == 0
    assert "wins within 3 steps against every reply" in out and "GDL reasoner" in out
    status, out, _ = run(capsys, "check-strategy", "tictactoe3d", str(team_strategy), "--json")
    answer = json.loads(out)
    assert (answer["kind"], answer["wins"], answer["failure"]) == ("strategy_check", True, None)


def test_a_strategy_that_does_not_win_exits_3(capsys, team_strategy):
    data = json.loads(team_strategy.read_text())
    for entry in data["states"]:
        if entry["actions"]["xcolumn"] != "noop":
            entry["actions"]["xcolumn"] = "noop"  # xcolumn must select: illegal
    team_strategy.write_text(json.dumps(data))
    status, out, _ = run(capsys, "check-strategy", "tictactoe3d", str(team_strategy))
    assert status == 3
    assert "does not win" in out and "not a legal action" in out


def test_a_strategy_too_slow_for_its_depth_exits_3(capsys, team_strategy):
    data = json.loads(team_strategy.read_text())
    data["depth"] = 2
    team_strategy.write_text(json.dumps(data))
    status, out, _ = run(capsys, "check-strategy", "tictactoe3d", str(team_strategy))
    assert status == 3 and "not over within the depth" in out


def test_a_replay_the_time_limit_ends_is_unknown(capsys, team_strategy):
    # reading the sheet alone takes longer than a microsecond: the replay's first look at
    # the budget ends it
    args = ("check-strategy", "tictactoe3d", str(team_strategy), "--time-limit", "0.000001")
    status, out, _ = run(capsys, *args)
    assert status == 4 and "unknown: the time limit ran out" in out
    status, out, _ = run(capsys, *args, "--json")
    answer = json.loads(out)
    assert status == 4 and (answer["wins"], answer["failure"]) == (None, None)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", ":1:2: not JSON"),
        ('{"kind": "forced_win"}', "its kind is 'forced_win'"),
        ('{"kind": "strategy", "game": "ttcc4"}', "a strategy for ttcc4, not tictactoe3d"),
        ('{"kind": "strategy", "game": "tictactoe3d"}', "the key 'team' is missing"),
    ],
)
def test_bad_strategy_files_are_bad_input(capsys, tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    status, out, err = run(capsys, "check-strategy", "tictactoe3d", str(path))
    assert status == 2 and out == ""
    assert str(path) in err and message in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--team", "xrow,pink"], "has no role 'pink'"),
        (["--team", "xrow,xrow"], "names a role twice"),
        (["--team", "xrow", "--role", "xrow"], "not both"),
        (["--role", "xrow", "--endgames", "2", "--before", "1", "--strategy", "s.json"], "apply"),
    ],
)
def test_bad_teams_are_bad_input(capsys, argv, message):
    status, out, err = run(capsys, "forced-win", "tictactoe3d", *argv)
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1
