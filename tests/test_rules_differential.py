"""Cross-validation (issue 4): each built-in move generator against the GDL reasoner on our
rule sheet of the same game, on seeded random playouts (tests/gdl_differential.py compares
state facts, legal actions, terminal and terminal goals at every step).

A few playouts per game run by default; many more are marked slow. Along the generator's own
playouts, the sheet must also declare every fact (base) and action (input) it meets, and give
the same goals in every state, not only terminal ones.
"""

import pytest

from gamecheck.models import get_game
from gamecheck.models.base import Game
from gamecheck.models.sheet import GdlGame
from tests.gdl_differential import assert_same_game
from tests.playouts import random_playout
from tests.rule_sheets import sheet_game

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
GAMES = ["cubicup", "ttcc4", "tictactoe3d", "sudoku", "tictacchess"]


@pytest.mark.parametrize(("name", "playouts"), FAST)
def test_generator_and_rule_sheet_agree(name, playouts):
    steps = assert_same_game(get_game(name), sheet_game(name), playouts, seed=2024)
    assert steps > playouts


@pytest.mark.slow
@pytest.mark.parametrize(("name", "playouts"), SLOW)
def test_generator_and_rule_sheet_agree_on_many_playouts(name, playouts):
    steps = assert_same_game(get_game(name), sheet_game(name), playouts, seed=7)
    assert steps > playouts


def check_sheet_along(generator: Game, sheet: GdlGame, seed: int) -> None:
    """Along a generator playout: the sheet reads every state (its base declares each fact)
    and every legal action (its input declares it), with the generator's goals everywhere."""
    states, _ = random_playout(generator, seed)
    for state in states:
        facts = generator.state_facts(state)
        sheet_state = sheet.state_from_facts(facts)
        assert sheet.goals(sheet_state) == generator.goals(state), sorted(facts)
        for role in generator.roles:
            for action in generator.legal(state, role):
                sheet.parse_action(role, generator.action_text(action))


@pytest.mark.parametrize("name", GAMES)
def test_sheet_declares_every_fact_and_action_and_agrees_on_goals_everywhere(name):
    check_sheet_along(get_game(name), sheet_game(name), seed=5)
