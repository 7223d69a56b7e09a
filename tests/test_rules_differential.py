"""Cross-validation (issue 4): each built-in move generator against the GDL reasoner on our
rule sheet of the same game, on seeded random playouts (tests/differential.py).

A few playouts per game run by default; many more are marked slow. A game whose generator is
not registered yet is skipped.
"""

from pathlib import Path

import pytest

from solvers.gdl.game import GdlGame
from tests.differential import Disagreement, assert_same_game
from tests.rule_sheets import builtin_game, sheet_game

FAST = [
    ("cubicup", 1),
    ("ttcc4", 8),
    ("tictactoe3d", 1),
    ("sudoku", 2),
    ("sudoku:grade6H", 1),
    ("tictacchess", 8),
]
SLOW = [
    ("cubicup", 40),
    ("ttcc4", 400),
    ("tictactoe3d", 40),
    ("tictacchess", 400),
    *((f"sudoku:{instance}", 15) for instance in ("grade1", "grade2", "grade3", "grade4")),
    *((f"sudoku:{instance}", 15) for instance in ("grade5", "grade6E", "grade6H")),
]
TICTACTOE = Path(__file__).parent / "data" / "gdl" / "tictactoe.kif"


@pytest.mark.parametrize(("name", "playouts"), FAST)
def test_generator_and_rule_sheet_agree(name, playouts):
    steps = assert_same_game(builtin_game(name), sheet_game(name), playouts, seed=2024)
    assert steps >= playouts


@pytest.mark.slow
@pytest.mark.parametrize(("name", "playouts"), SLOW)
def test_generator_and_rule_sheet_agree_on_many_playouts(name, playouts):
    steps = assert_same_game(builtin_game(name), sheet_game(name), playouts, seed=7)
    assert steps >= playouts


def test_a_wrong_rule_is_reported_at_the_first_differing_step():
    right = GdlGame.from_file(TICTACTOE)
    text = TICTACTOE.read_text(encoding="utf-8")
    # A sheet in which oplayer's marks are written as x: the first o mark (step 1) differs.
    wrong_text = text.replace("(mark oplayer o)", "(mark oplayer x)")
    assert wrong_text != text
    wrong = GdlGame.from_text(wrong_text, "wrong")
    with pytest.raises(Disagreement, match=r"step 2 after .*: state facts differ") as raised:
        assert_same_game(right, wrong, playouts=1, seed=0)
    assert "only in a: ['(cell" in str(raised.value)
    assert " o)']" in str(raised.value)
