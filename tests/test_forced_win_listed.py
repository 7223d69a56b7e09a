"""Forced wins read off every reachable state (solvers/forced_win/retrograde.py): by hand on a
take-away game, and against the AND/OR search on the move generator."""

from pathlib import Path

import pytest

import gamecheck.analysis.forced_wins as forced_wins
from gamecheck.analysis.loading import load_game
from gamecheck.analysis.win_bounds import ground_rules
from gamecheck.budget import Budget
from gamecheck.cli import main
from gamecheck.models.base import NEVER
from gamecheck.solvers.forced_win.retrograde import (
    EXHAUSTIVE,
    ListedStrategy,
    listed_forced_win,
    win_depths,
    won_states,
)
from gamecheck.solvers.forced_win.search import Status, forced_win
from gamecheck.solvers.forced_win.sides import make_sides
from gamecheck.solvers.forced_win.strategy_check import check_strategy

GDL = Path(__file__).parent / "data" / "gdl"
TAKEAWAY = str(GDL / "takeaway.kif")


def listed(path: str, team: list[str], max_depth: int = 30):
    game = load_game(path)
    rules = ground_rules(game, Budget())
    graph = rules.state_graph(Budget())
    sides = make_sides(game, team)
    return listed_forced_win(
        sides, rules.system, graph, game.initial_state(), max_depth, Budget()
    ), rules


def test_take_away_by_hand():
    # Heaps of 3k lose for the player to move. From 7 the first player takes 1 (leaving 6);
    # whatever the second takes, the first leaves 3, and then takes what is left: 5 steps,
    # and the second, taking 1 or 2 each time, can make it no shorter.
    first, _ = listed(TAKEAWAY, ["first"])
    assert (first.status, first.depth, first.first_action) == (Status.FOUND, 5, "(take 1)")
    assert first.method == EXHAUSTIVE and first.strategy is not None
    second, _ = listed(TAKEAWAY, ["second"])
    assert (second.status, second.depth, second.searched_depth) == (Status.NONE, None, 30)


@pytest.mark.parametrize(
    ("heap", "mover", "fewest"),
    [(4, "first", 3), (5, "first", 3), (3, "first", NEVER), (3, "second", 2), (6, "second", 4)],
)
def test_take_away_depth_of_every_state_by_hand(heap, mover, fewest):
    # The first player's fewest steps to a forced win, by hand: to move at 4 or 5, leave 3
    # (1 step), the second leaves 1 or 2 (1), take them (1): 3. To move at 3 (or 6), every
    # move leaves the second a heap it wins from: never. The second to move at 3 leaves 1 or
    # 2, which the first takes: 2; at 6 it leaves 5 or 4: 1 + 3 = 4.
    game = load_game(TAKEAWAY)
    rules = ground_rules(game, Budget())
    graph = rules.state_graph(Budget())
    team = [rules.system.roles.index("first")]
    depths = win_depths(graph, team, won_states(rules.system, graph, team, Budget()), Budget())
    took = "second" if mover == "first" else "first"  # whoever moved last
    state = game.state_from_facts([f"(heap {heap})", f"(control {mover})", f"(took {took})"])
    number = ListedStrategy(make_sides(game, ["first"]), rules.system, graph, depths).index(state)
    assert depths.depth[number] == fewest


@pytest.mark.parametrize(
    ("sheet", "teams", "max_depth"),
    [
        ("takeaway.kif", [["first"], ["second"]], 12),
        ("tictactoe.kif", [["xplayer"], ["oplayer"]], 9),
        ("relay.kif", [["a", "b"], ["c"], ["a"]], 3),
        ("pennies.kif", None, 4),
        ("hops.kif", None, 12),
    ],
)
def test_the_listing_and_the_search_agree(sheet, teams, max_depth):
    path = str(GDL / sheet)
    game = load_game(path)
    for team in teams or [[role] for role in game.roles]:
        by_list, _ = listed(path, team, max_depth)
        by_search = forced_win(game, team, max_depth=max_depth, table_megabytes=64)
        assert (by_list.status, by_list.depth) == (by_search.status, by_search.depth), team
        if by_list.status is Status.FOUND:
            check_strategy(
                game, by_list.team, game.initial_state(), by_list.strategy.actions, by_list.depth
            )


def test_a_state_not_reached_from_the_start_is_left_to_the_search():
    game = load_game(TAKEAWAY)
    rules = ground_rules(game, Budget())
    graph = rules.state_graph(Budget())
    nowhere = game.state_from_facts(["(heap 7)", "(control second)"])
    sides = make_sides(game, ["second"])
    assert listed_forced_win(sides, rules.system, graph, nowhere, 30, Budget()) is None


def test_the_command_lists_the_states_where_the_quick_search_does_not_settle(monkeypatch, capsys):
    monkeypatch.setattr(forced_wins, "QUICK_NODES", 2)
    assert main(["forced-win", str(GDL / "tictactoe.kif"), "--role", "xplayer"]) == 0
    out = capsys.readouterr().out
    assert "none: no forced win within 30 steps (proved)" in out
    assert "no forced win at any depth" in out
    assert "5478 reachable states" in out and "method exhaustive search" in out
