"""The documented Python API: the README's example, the docstring examples of the sudoku API
and the game registry, and the registry's answers."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import gamecheck
import gamecheck.models
import gamecheck.models.rules
import gamecheck.sudoku
from gamecheck.errors import GamecheckError, UnknownGameError
from gamecheck.models import GAMES, builtin_game, builtin_names, get_game

README = Path(__file__).parent.parent / "README.md"


def test_readme_example():
    result = doctest.testfile(str(README), module_relative=False)
    assert result.attempted >= 8 and result.failed == 0


@pytest.mark.parametrize("module", [gamecheck.sudoku, gamecheck.models])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_every_built_in_game_is_registered_with_a_rule_sheet():
    # RULES.md sections 1-5
    assert builtin_names() == ["cubicup", "ttcc4", "tictactoe3d", "sudoku", "tictacchess"]
    assert tuple(builtin_names()) == gamecheck.models.rules.SHEETS
    for name in builtin_names():
        assert get_game(name).name.split(":")[0] == name
        assert gamecheck.models.rules.rule_sheet_path(name).is_file()


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("nosuchgame", "unknown game 'nosuchgame'; the built-in games are cubicup, ttcc4"),
        ("ttcc4:foo", "ttcc4 has no variants"),
        ("cubicup:", "cubicup has no variants"),
        ("sudoku:", "'sudoku:' names no variant of sudoku"),
        ("sudoku:grade9", "unknown sudoku instance 'grade9'"),
    ],
)
def test_bad_game_names_get_one_sentence(name, words):
    with pytest.raises(GamecheckError, match=words) as error:
        get_game(name)
    assert "\n" not in str(error.value)


def test_only_sudoku_takes_a_variant():
    assert [game.name for game in GAMES.values() if game.takes_variant] == ["sudoku"]
    assert builtin_game("sudoku:grade6H").name == "sudoku"
    assert get_game("sudoku:grade6H").instance == "grade6H"
    with pytest.raises(UnknownGameError):
        builtin_game("tictactoe3d:big")


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"count": 0}, "count must be a whole number >= 1"),
        ({"time_limit": 0}, "time_limit must be a number of seconds > 0"),
        ({"time_limit": float("nan")}, "time_limit must be a number of seconds > 0"),
        ({"backend": "minisat"}, "unknown sudoku backend 'minisat'"),
        ({"sat_solver": "cadical195"}, "unknown SAT solver 'cadical195'"),
        ({"encoding": "tiny"}, "unknown CNF encoding 'tiny'"),
    ],
)
def test_sudoku_api_rejects_bad_options_with_one_sentence(options, words):
    with pytest.raises(GamecheckError, match=words):
        gamecheck.sudoku.solve("grade1", **options)


def test_the_api_asks_a_forced_win_by_each_method_of_the_command_line():
    # tictacchess: no role has a line within 4 steps (a line takes three moves of one role,
    # one every 3 steps), so SAT on the ground rules proves none as the search does.
    by_sat = gamecheck.forced_win("tictacchess", "red", max_depth=4, method="sat")
    by_search = gamecheck.forced_win("tictacchess", "red", max_depth=4)
    assert (str(by_sat.status), by_sat.method) == ("none", "sat")
    assert str(by_search.status) == "none"
    with pytest.raises(GamecheckError, match="tictactoe3d only"):
        gamecheck.forced_win("ttcc4", "red", method="lines")
