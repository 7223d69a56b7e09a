"""The differential harness: the tic-tac-toe rule sheet against a plain Python tic-tac-toe."""

from collections.abc import Iterable
from pathlib import Path

import pytest

from gamecheck.models.base import Game
from gamecheck.models.sheet import GdlGame
from tests.gdl_differential import assert_same_game

SHEET = Path(__file__).parent / "data" / "gdl" / "tictactoe.kif"
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class PlainTicTacToe(Game):
    """Tic-tac-toe written directly: a state is (9 cells 'x'/'o'/'b' row by row, mover 0/1)."""

    name = "plain-tictactoe"
    roles = ("xplayer", "oplayer")
    marks = ("x", "o")

    def __init__(self, lines=LINES):
        self.lines = lines

    def initial_state(self):
        return ("b",) * 9, 0

    def winner(self, state) -> str | None:
        cells = state[0]
        for a, b, c in self.lines:
            if cells[a] != "b" and cells[a] == cells[b] == cells[c]:
                return cells[a]
        return None

    def is_terminal(self, state) -> bool:
        return self.winner(state) is not None or "b" not in state[0]

    def legal(self, state, role):
        if self.is_terminal(state):
            return []
        if self.roles.index(role) != state[1]:
            return ["noop"]
        return [(m, n) for m in (1, 2, 3) for n in (1, 2, 3) if state[0][3 * m + n - 4] == "b"]

    def apply(self, state, joint):
        cells, mover = list(state[0]), state[1]
        m, n = joint[mover]
        cells[3 * m + n - 4] = self.marks[mover]
        return tuple(cells), 1 - mover

    def goals(self, state):
        winner = self.winner(state)
        if winner is None:
            return (50, 50)
        return (100, 0) if winner == "x" else (0, 100)

    def state_facts(self, state):
        cells = {f"(cell {m} {n} {state[0][3 * m + n - 4]})" for m in (1, 2, 3) for n in (1, 2, 3)}
        return frozenset(cells | {f"(control {self.roles[state[1]]})"})

    def state_from_facts(self, facts: Iterable[str]):
        raise NotImplementedError

    def action_text(self, action):
        return action if action == "noop" else "(mark {} {})".format(*action)

    def parse_action(self, role, text):
        raise NotImplementedError


def test_rule_sheet_matches_plain_tictactoe():
    steps = assert_same_game(GdlGame.from_file(SHEET), PlainTicTacToe(), playouts=300, seed=7)
    assert steps > 300 * 5  # every game lasts at least 5 moves, plus its final state


def test_harness_reports_a_wrong_legal_set_at_the_first_step():
    class NoCentre(PlainTicTacToe):
        def legal(self, state, role):
            return [action for action in super().legal(state, role) if action != (2, 2)]

    with pytest.raises(AssertionError) as raised:
        assert_same_game(GdlGame.from_file(SHEET), NoCentre(), playouts=1, seed=1)
    message = str(raised.value)
    assert "playout 0, step 0 after (initial state)" in message
    assert "legal actions of xplayer differ; only in A: (mark 2 2); only in B: -" in message


def test_harness_finds_a_missing_line_in_random_play():
    without_anti_diagonal = PlainTicTacToe(LINES[:-1])
    with pytest.raises(AssertionError, match=r"playout \d+, step \d+ after .*: terminal is"):
        assert_same_game(GdlGame.from_file(SHEET), without_anti_diagonal, playouts=300, seed=7)


def test_harness_reports_differing_state_facts():
    class OWritesX(PlainTicTacToe):
        marks = ("x", "x")

    with pytest.raises(AssertionError) as raised:
        assert_same_game(GdlGame.from_file(SHEET), OWritesX(), playouts=1, seed=3)
    message = str(raised.value)
    assert "step 2 after" in message and "state facts differ" in message
