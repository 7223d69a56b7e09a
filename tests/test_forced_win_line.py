"""Forced wins answered from the rules: winning lines where nobody opposes, the depth bounds
the rules give, stuck games, and team endgame studies. Expected answers are worked out by
hand (RULES.md, the rule sheets in tests/data/gdl)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

from gamecheck.analysis import endgames
from gamecheck.analysis.endgames import endgame_positions, endgame_study, settled_depth
from gamecheck.analysis.forced_wins import QUICK_NODES, solve_forced_win
from gamecheck.analysis.loading import load_game
from gamecheck.analysis.playouts import random_playout, random_steps
from gamecheck.analysis.win_bounds import ground_rules
from gamecheck.analysis.winning_line import LineSearch
from gamecheck.budget import Budget
from gamecheck.cli import main
from gamecheck.models import get_game
from gamecheck.models.sudoku import INSTANCES
from gamecheck.solvers.forced_win.and_or import CHECK_EVERY, NodeCounter
from gamecheck.solvers.forced_win.search import Status
from gamecheck.solvers.forced_win.sides import StuckState

GDL = Path(__file__).parent / "data" / "gdl"
HANOI = str(GDL / "hanoi.kif")
STUCK = str(GDL / "broken_stuck.kif")


def test_a_one_role_puzzle_is_won_by_its_shortest_line():
    # three discs take 2**3 - 1 = 7 moves at least, and hanoi.kif allows 10
    result = solve_forced_win(HANOI, "solver")
    assert (result.status, result.depth, result.searched_depth, result.method) == (
        Status.FOUND,
        7,
        6,
        "line",
    )
    assert result.first_action == "(move 1 c)"  # the smallest disc goes to c first (odd n)
    short = solve_forced_win(HANOI, "solver", max_depth=6)
    assert (short.status, short.searched_depth) == (Status.NONE, 6)


def test_the_line_is_written_as_a_strategy(capsys, tmp_path):
    path = tmp_path / "hanoi.json"
    assert main(["forced-win", HANOI, "--role", "solver", "--strategy", str(path)]) == 0
    assert "found: solver forces a win in 7 steps" in capsys.readouterr().out
    assert main(["check-strategy", HANOI, str(path)]) == 0
    assert "wins within 7 steps" in capsys.readouterr().out


def test_a_counter_of_the_rules_bounds_the_depth_of_a_win():
    # pennies.kif lasts exactly two rounds: no terminal state before step 2, and after one
    # round (a reachable state) one step is left
    rules = ground_rules(str(GDL / "pennies.kif"), Budget(60))
    game = rules.game
    start = game.initial_state()
    assert rules.lower_bound(("matcher",), start, Budget(60)) == 2
    after_one_round = next(random_steps(game, 0)).after
    assert rules.lower_bound(("mismatcher",), after_one_round, Budget(60)) == 1


def test_no_forced_win_is_faster_than_the_shortest_cooperative_line():
    # tictactoe.kif: x marks at steps 1, 3, 5, so a line of x takes 5 steps even when o helps;
    # o marks at steps 2, 4, 6
    rules = ground_rules(str(GDL / "tictactoe.kif"), Budget(60))
    start = rules.game.initial_state()
    for role, steps in (("xplayer", 5), ("oplayer", 6)):
        with LineSearch(rules, [role], start, reachable=True, budget=Budget(60)) as search:
            assert search.shortest(0, 9).depth == steps


def test_a_stuck_game_is_reported_not_answered(capsys):
    # broken_stuck.kif: after two ticks p has no legal action, and the game is not over
    with pytest.raises(StuckState, match=r"role p has no legal action.*\(count 2\)"):
        solve_forced_win(STUCK, "p")
    status, out = main(["forced-win", STUCK, "--role", "p"]), capsys.readouterr()
    assert status == 1 and "the rules are defective" in out.err and out.out == ""
    study = ["forced-win", STUCK, "--endgames", "2", "--before", "1"]
    status, out = main(study), capsys.readouterr()
    assert status == 1 and "role p has no legal action" in out.err


def test_a_question_whose_share_went_to_setup_is_asked_again(monkeypatch):
    # The first question of a study pays for what is made once (ground rules, tables): a
    # share gone before its first node is no answer, so it is asked once more. Stand-in:
    # the first call of each study ends unknown at once, as a spent share would.
    calls = []
    real = endgames.solve_forced_win

    def spent_first(*args, **kwargs):
        calls.append(kwargs["start"])
        if len(calls) == 1:
            spent = real(*args, **{**kwargs, "max_depth": 0})
            return replace(spent, status=Status.UNKNOWN, nodes=0)
        return real(*args, **kwargs)

    monkeypatch.setattr(endgames, "solve_forced_win", spent_first)
    game = get_game("tictactoe3d")
    positions = endgame_positions(game, 1, [3])
    study = endgame_study(game, positions, team=["xrow", "xcolumn", "xlevel"]).rows
    assert len(calls) == 2 and calls[0] is calls[1]
    assert list(study["status"]) != ["unknown"] and settled_depth(study) == 3


def test_a_study_out_of_time_asks_each_question_once(monkeypatch):
    # with the study's time gone, a question ended before its first node is not asked again:
    # the time limit ends the study
    calls = []
    real = endgames.solve_forced_win
    monkeypatch.setattr(
        endgames, "solve_forced_win", lambda *a, **k: calls.append(1) or real(*a, **k)
    )
    game = get_game("tictactoe3d")
    positions = endgame_positions(game, 2, [3])
    team = ["xrow", "xcolumn", "xlevel"]
    study = endgame_study(game, positions, team=team, budget=Budget(0)).rows
    assert len(calls) == len(study) == 2


@pytest.mark.parametrize(("node_limit", "asks"), [(None, 3), (5, 2)])
def test_a_question_cut_short_by_its_share_is_asked_again(monkeypatch, node_limit, asks):
    # Of two questions the first stops on its share (half the study's time: unknown after 5
    # nodes), the second settles at once; the first is asked again with all the time left,
    # about twice its first share. Not where it stopped on the node limit instead.
    calls = []
    real = endgames.solve_forced_win

    def cut_first(*args, **kwargs):
        calls.append((kwargs["start"], kwargs["budget"].remaining()))
        answer = real(*args, **kwargs)
        if len(calls) == 1:
            return replace(answer, status=Status.UNKNOWN, depth=None, nodes=5)
        return answer

    monkeypatch.setattr(endgames, "solve_forced_win", cut_first)
    game = get_game("tictactoe3d")
    positions = endgame_positions(game, 2, [3])
    team = ["xrow", "xcolumn", "xlevel"]
    study = endgame_study(game, positions, team=team, budget=Budget(600), node_limit=node_limit)
    assert len(calls) == asks
    if node_limit is None:
        (first, first_share), _, (again, second_share) = calls
        assert again is first and first_share < 301 and second_share > 1.8 * first_share
        assert "unknown" not in set(study.rows["status"])
    else:
        assert list(study.rows["status"])[0] == "unknown"


def test_team_endgame_study_one_mark_before_the_end():
    # Three steps before the end of a tictactoe3d playout one team opens its last mark; it
    # chooses all three coordinates, so it forces the win exactly when the playout's last
    # mark made a line (the team that made it), and the other team cannot win in 3 steps.
    game = get_game("tictactoe3d")
    positions = endgame_positions(game, 3, [3])
    study = endgame_study(game, positions, budget=Budget(120)).rows
    assert set(study["role"]) == {"xrow,xcolumn,xlevel", "orow,ocolumn,olevel"}
    for position in positions:
        goals = random_playout(game, position.seed).goals
        rows = study[study["seed"] == position.seed]
        found = set(rows[rows["status"] == "found"]["role"])
        winners = {"xrow,xcolumn,xlevel"} if goals[0] == 100 else set()
        winners |= {"orow,ocolumn,olevel"} if goals[3] == 100 else set()
        assert found == winners
    assert settled_depth(study) == 3


def test_settled_depth_is_the_last_k_before_an_unknown():
    study = pd.DataFrame(
        {
            "before": [1, 1, 2, 3, 3, 4],
            "status": ["found", "none", "none", "none", "unknown", "found"],
        }
    )
    assert settled_depth(study) == 2
    assert settled_depth(study[study["before"] > 2]) is None


@pytest.mark.slow
def test_sudoku_is_won_at_its_number_of_blanks():
    # every mark fills one blank, and only a full grid scores 100 (RULES.md section 4)
    result = solve_forced_win("sudoku", "robot", budget=Budget(300))
    assert (result.status, result.depth) == (Status.FOUND, INSTANCES["grade1"].count("."))
    assert result.lower_bound == result.depth


@pytest.mark.slow
def test_cubicup_wins_take_every_empty_position():
    # every game of cubicup lasts exactly 84 steps (RULES.md section 1)
    game = load_game("cubicup")
    rules = ground_rules("cubicup", Budget(300))
    for position in endgame_positions(game, 2, [1, 10, 30]):
        for role in game.roles:
            bound = rules.lower_bound((role,), position.state, Budget(60))
            assert bound == 84 - position.step == position.before
    start = solve_forced_win("cubicup", "red", budget=Budget(120))
    assert start.lower_bound == 84
    assert (start.status, start.searched_depth) == (Status.UNKNOWN, 83)


def test_a_node_limit_covers_the_quick_search_too(monkeypatch):
    # ttcc4 from the start takes red's search millions of nodes, far past the quick search's
    # QUICK_NODES: the search goes on with what is left of the limit. Every node counted
    # (by every counter) is in the answer, and they stay within the limit.
    counted = []
    count = NodeCounter.count
    monkeypatch.setattr(NodeCounter, "count", lambda self: counted.append(1) or count(self))
    limit = 2 * QUICK_NODES
    result = solve_forced_win("ttcc4", "red", node_limit=limit, rules=lambda: None)
    assert result.status == Status.UNKNOWN
    assert QUICK_NODES < result.nodes == len(counted) <= limit + CHECK_EVERY
