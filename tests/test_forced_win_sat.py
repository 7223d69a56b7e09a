"""The SAT method of forced wins (solvers/forced_win/sat.py, counterexample-guided refinement
on the ground rule sheets) on the hand-worked positions of test_forced_win.py and against
the search."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from gamecheck.analysis.loading import load_game, load_rule_sheet
from gamecheck.budget import Budget, OutOfBudget
from gamecheck.cli import main
from gamecheck.models import get_game
from gamecheck.solvers.forced_win.sat import forced_win_sat
from gamecheck.solvers.forced_win.search import Status, forced_win
from gamecheck.solvers.ground.grounder import ground
from tests.test_forced_win import (
    ONE_JUMP_FROM_A_LINE,
    ROW_ONE_O,
    ROW_ONE_X,
    TWO_MOVES_STOPPED,
    TWO_MOVES_UNSTOPPABLE,
    UNSTOPPABLE_FIRST_ACTIONS,
    before_the_end,
    tictacchess_state,
    tictactoe3d_state,
)
from tests.test_forced_win_teams import ONE_CELL_FROM_A_LINE, TEAM_X

GDL = Path(__file__).parent / "data" / "gdl"


@cache
def system_of(spec: str):
    """The ground transition system of a built-in game's rule sheet or of a sheet file."""
    return ground(load_rule_sheet(spec).rules, load_game(spec).name)


def sat(spec: str, role: str, start=None, max_depth=None):
    return forced_win_sat(load_game(spec), role, system_of(spec), start=start, max_depth=max_depth)


def test_tictacchess_positions_by_hand():
    one = sat("tictacchess", "red", tictacchess_state(*ONE_JUMP_FROM_A_LINE))
    assert (one.status, one.depth, one.first_action) == (Status.FOUND, 1, "(move 1 4 3 5)")
    two = sat("tictacchess", "red", tictacchess_state(*TWO_MOVES_UNSTOPPABLE))
    assert (two.status, two.depth, two.searched_depth) == (Status.FOUND, 4, 3)
    assert two.strategy_size == UNSTOPPABLE_FIRST_ACTIONS[two.first_action]
    stopped = sat("tictacchess", "red", tictacchess_state(*TWO_MOVES_STOPPED), max_depth=6)
    assert (stopped.status, stopped.searched_depth, stopped.method) == (Status.NONE, 6, "sat")


def test_tictactoe3d_double_threat_by_hand():
    start = tictactoe3d_state(ROW_ONE_X, ROW_ONE_O, "orow", "xrow", "orow")
    result = sat("tictactoe3d", "xrow", start)
    assert (result.status, result.depth, result.first_action) == (Status.FOUND, 6, "noop")
    assert result.strategy_size == 50
    assert sat("tictactoe3d", "xcolumn", start, max_depth=6).status is Status.NONE


def test_a_replay_out_of_time_is_no_answer(monkeypatch):
    # as for the search (test_forced_win.py): a win whose replay the time limit ends is not
    # reported; no win within 5 steps stays proved (found at 6 by hand above)
    budget = Budget()

    def out_of_time(game, team, start, strategy, depth, replay_budget):
        assert replay_budget is budget
        raise OutOfBudget("the time limit ran out")

    monkeypatch.setattr("gamecheck.solvers.forced_win.sat.check_strategy", out_of_time)
    start = tictactoe3d_state(ROW_ONE_X, ROW_ONE_O, "orow", "xrow", "orow")
    game = load_game("tictactoe3d")
    system = system_of("tictactoe3d")
    result = forced_win_sat(game, "xrow", system, start=start, budget=budget)
    assert (result.status, result.depth, result.searched_depth) == (Status.UNKNOWN, None, 5)


def test_simultaneous_moves():
    # tests/data/gdl/pennies.kif: in round 2 the mismatcher can only show heads, so the
    # matcher wins in 2 steps (not 1: the game lasts 2); the mismatcher can never force it
    sheet = str(GDL / "pennies.kif")
    matcher = sat(sheet, "matcher")
    assert (matcher.status, matcher.depth, matcher.strategy_size) == (Status.FOUND, 2, 3)
    mismatcher = sat(sheet, "mismatcher", max_depth=4)
    assert (mismatcher.status, mismatcher.searched_depth) == (Status.NONE, 4)


@pytest.mark.parametrize(
    ("name", "before", "seeds"),
    [("tictacchess", 3, range(4)), ("cubicup", 4, range(3)), ("tictactoe3d", 1, range(4))],
)
def test_endgames_agree_with_the_search(name, before, seeds):
    game = get_game(name)
    for start in before_the_end(game, before, seeds):
        for role in game.roles:
            expected = forced_win(game, role, start=start, max_depth=before)
            result = sat(name, role, start, before)
            assert (result.status, result.depth) == (expected.status, expected.depth)


def test_gdl_tictactoe_fork_through_the_cli(capsys, tmp_path):
    # as in test_cli_forced_win.py: x at (1 3), o at (1 2), x to move wins at step 5
    cells = {(1, 2): "o", (1, 3): "x"}
    facts = [f"(cell {r} {c} {cells.get((r, c), 'b')})" for r in (1, 2, 3) for c in (1, 2, 3)]
    state = tmp_path / "fork.txt"
    state.write_text("\n".join([*facts, "(control xplayer)"]))
    argv = ["forced-win", str(GDL / "tictactoe.kif"), "--role", "xplayer", "--state", str(state)]
    assert main([*argv, "--method", "sat", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert (answer["status"], answer["depth"], answer["method"]) == ("found", 5, "sat")


def test_a_state_outside_the_ground_rules_is_bad_input(capsys, tmp_path):
    # pieces only move onto on-board cells and spawn on (1 4), (4 1) and (7 4): the corner
    # (1 1) never holds one, which the move generator accepts in a hand-built state
    state = tmp_path / "corner.txt"
    state.write_text("(cell 1 1 red)\n(cell 1 4 red)\n(control red)\n(step 3)\n")
    argv = ["forced-win", "tictacchess", "--role", "red", "--state", str(state)]
    assert main([*argv, "--method", "sat"]) == 2
    assert "never make" in capsys.readouterr().err


def test_a_team_chooses_together():
    # as in test_forced_win_teams.py: the team X completes (1 1 4) in three steps; the judge
    # of relay.kif wins by saying miss three times, and the runners' team never can
    team = sat("tictactoe3d", list(TEAM_X), ONE_CELL_FROM_A_LINE)
    assert (team.status, team.depth, team.first_action) == (
        Status.FOUND,
        3,
        "xrow (select row 1)",
    )
    relay = str(GDL / "relay.kif")
    judge = sat(relay, "c")
    assert (judge.status, judge.depth, judge.first_action) == (Status.FOUND, 3, "miss")
    runners = sat(relay, ["a", "b"], max_depth=5)
    assert (runners.status, runners.searched_depth) == (Status.NONE, 5)
