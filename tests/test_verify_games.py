"""`gamecheck verify` on the built-in games, against facts worked out by hand from RULES.md.

These run for minutes each, so they are marked slow (`pytest -m slow`).
"""

import pytest

from gamecheck.analysis.verify.pipeline import verify_game

pytestmark = pytest.mark.slow


def test_tictacchess():
    result = verify_game("tictacchess", horizon=40)
    # `(step 31)` is terminal, so no game has more than 30 steps.
    assert result.complete and result.longest_game.status == "proved"
    assert result.longest_game.value <= 30
    # Red moves at steps 1, 4, 7, 10. From its spawn cell (1 4) a knight reaches only
    # (2 2), (2 6), (3 3), (3 5); a king step only captures. So three red moves can put at
    # most two red pieces in the centre in a line's cells, and a line needs a fourth move:
    # (1 4)-(2 2), then (1 4)-(3 3), (1 4)-(3 5), (2 2)-(3 4) makes the column x = 3 at
    # step 10. Yellow (spawn (4 1), moves 2, 5, 8, 11) and blue ((7 4), moves 3, 6, 9, 12)
    # mirror this, one and two steps later.
    assert result.shortest_game.value == 10
    wins = {role: a.value for role, a in result.earliest_win.items()}
    assert wins == {"red": 10, "yellow": 11, "blue": 12}
    assert result.playability.status == "proved" and result.goal_definedness.status == "proved"
    # One mover per step: only its own lines can appear, so no shared wins.
    assert set(result.outcomes.vectors) <= {(0, 0, 0), (100, 0, 0), (0, 100, 0), (0, 0, 100)}


def test_ttcc4():
    result = verify_game("ttcc4", horizon=40)
    # Everyone may noop at every step, so play can go on until `(step 31)`: 30 steps.
    assert (result.longest_game.status, result.longest_game.value) == ("proved", 30)
    # A line needs three of a role's pieces in the centre; each move brings at most one
    # there, so red needs three moves: steps 1, 4, 7. It can: knight (1 3)-(3 4) at step 1;
    # yellow and blue drop discs into columns 4 and 5 at steps 2, 3, 5, 6, so red's drops
    # at steps 4 and 7 land on (4 4) and (5 4): the row y = 4 is red's.
    assert result.shortest_game.value == 7
    assert result.earliest_win["red"].value == 7
    assert result.earliest_win["yellow"].value >= 8
    assert result.earliest_win["blue"].value >= 9
    assert result.playability.status == "proved" and result.goal_definedness.status == "proved"
    # A step moves one role's piece: no step makes lines for two roles.
    assert {v for v in result.outcomes.vectors if sum(v) > 100} == set()


def test_sudoku_grade1():
    result = verify_game("sudoku", horizon=60)
    # Each step fills one of the 50 blanks, and grade1 has a (unique) solution.
    assert (result.longest_game.status, result.longest_game.value) == ("proved", 50)
    assert (result.earliest_win["robot"].status, result.earliest_win["robot"].value) == (
        "found",
        50,
    )
    assert (100,) in result.outcomes.vectors and set(result.outcomes.vectors) <= {(100,), (0,)}
    assert result.playability.status == "proved"


def test_cubicup():
    result = verify_game("cubicup", horizon=100)
    # 84 empty positions, one filled per step, and (7 7 7) needs all of them under it.
    assert (result.longest_game.status, result.longest_game.value) == ("proved", 84)
    assert (result.shortest_game.status, result.shortest_game.value) == ("proved", 84)
    assert result.playability.status == "proved" and result.goal_definedness.status == "proved"
    # 50-50-50: the role that fills (6 6 6), (7 6 6) and (7 7 6) last has an open cubicup
    # at (7 7 7) of its own; it has no cubes left, so the next role with cubes fills it.
    assert (50, 50, 50) in result.outcomes.vectors
    assert set(result.outcomes.vectors) <= {(100, 0, 0), (0, 100, 0), (0, 0, 100), (50, 50, 50)}
    assert all(a.value == 84 for a in result.earliest_win.values() if a.status == "found")


def test_tictactoe3d():
    result = verify_game("tictactoe3d", horizon=200)
    # 64 cells, three selections each: a drawn full board exists (tests/test_tictactoe3d.py
    # checks one), and its 32 x and 32 o marks can be played in any alternating order.
    assert (result.longest_game.status, result.longest_game.value) == ("proved", 192)
    # Marks complete at steps 3, 6, 9, ...; x's marks at 3, 9, 15, 21: four in a line at
    # step 21 at the earliest; o's fourth mark at step 24.
    assert result.shortest_game.value == 21
    wins = {role: a.value for role, a in result.earliest_win.items()}
    assert wins == {
        "xrow": 21,
        "xcolumn": 21,
        "xlevel": 21,
        "orow": 24,
        "ocolumn": 24,
        "olevel": 24,
    }
    assert set(result.outcomes.vectors) == {(100,) * 3 + (0,) * 3, (0,) * 3 + (100,) * 3, (50,) * 6}
