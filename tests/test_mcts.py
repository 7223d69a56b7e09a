"""UCT playouts (analysis/mcts.py) on Nim, whose perfect play is known: with one heap, taking
1 to 3 tokens a turn and the last token winning, the player to move wins exactly when the
heap is not a multiple of 4, by leaving a multiple of 4."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from gamecheck.analysis.mcts import uct_playout
from gamecheck.analysis.openings import opening_summary, opening_table
from gamecheck.errors import GamecheckError
from gamecheck.models.base import Game

NOOP = "noop"


class Nim(Game):
    """One heap; `first` and `second` alternate taking 1-3 tokens; the last token wins.
    State: (tokens left, index of the role to move)."""

    name = "nim"
    roles = ("first", "second")

    def __init__(self, tokens: int, *, stuck: bool = False):
        self.tokens = tokens
        self.stuck = stuck

    def initial_state(self):
        return (self.tokens, 0)

    def legal(self, state, role):
        left, mover = state
        if self.is_terminal(state):
            return []
        if self.role_index(role) != mover:
            return [] if self.stuck else [NOOP]
        return [take for take in (1, 2, 3) if take <= left]

    def apply(self, state, joint):
        left, mover = state
        return (left - joint[mover], 1 - mover)

    def is_terminal(self, state):
        return state[0] == 0

    def goals(self, state):
        winner = 1 - state[1]  # the role that took the last token
        return tuple(100 if role == winner else 0 for role in range(2))

    def state_facts(self, state) -> frozenset[str]:
        return frozenset({f"(tokens {state[0]})", f"(control {self.roles[state[1]]})"})

    def state_from_facts(self, facts: Iterable[str]):
        raise NotImplementedError

    def action_text(self, action) -> str:
        return str(action)

    def parse_action(self, role, text):
        return text if text == NOOP else int(text)


def moves_of(played) -> list[int]:
    """The tokens taken at each step (the mover's action of each joint action)."""
    return [next(a for a in joint if a != NOOP) for joint in played.joints]


@pytest.mark.parametrize("tokens", [5, 6, 7, 9, 10, 11])
def test_the_player_to_move_wins_a_winning_heap_by_perfect_play(tokens):
    played = uct_playout(Nim(tokens), seed=1, iterations=300)
    assert played.playout.goals == (100, 0)
    assert moves_of(played)[0] == tokens % 4  # the only winning first move


def test_a_lost_heap_is_lost_however_well_the_loser_plays():
    played = uct_playout(Nim(8), seed=2, iterations=300)
    assert played.playout.goals == (0, 100)
    heaps = [8]
    for take in moves_of(played):
        heaps.append(heaps[-1] - take)
    assert all(heap % 4 == 0 for heap in heaps[::2])  # the second player restores it


def test_same_seed_same_playout_and_summary():
    first = uct_playout(Nim(21), seed=7, iterations=40)
    again = uct_playout(Nim(21), seed=7, iterations=40)
    assert first == again
    assert first.playout.seed == 7
    assert first.playout.length == len(first.joints) == len(first.playout.branching)
    assert sum(moves_of(first)) == 21


def test_a_stuck_role_is_reported_not_a_crash():
    with pytest.raises(GamecheckError, match="second has no legal action in a non-terminal state"):
        uct_playout(Nim(5, stuck=True), seed=0, iterations=10)


def test_opening_table_names_the_winning_first_move_under_uct_play():
    game = Nim(6)
    table = opening_table(game, playouts=4, iterations=200)
    summary = opening_summary(table, game.roles)
    assert list(summary.index) == ["1", "2", "3"]
    assert (summary["playouts"] == 4).all()
    # Taking 2 leaves 4, a lost heap for the second player; 1 or 3 leave it a won heap.
    assert summary["first wins"].to_dict() == {"1": 0.0, "2": 1.0, "3": 0.0}
    assert summary["second mean goal"].to_dict() == {"1": 100.0, "2": 0.0, "3": 100.0}


def test_opening_table_under_random_play_has_one_winner_per_playout():
    table = opening_table(Nim(9), playouts=30, seed=5)
    assert len(table) == 90 and set(table["seed"]) == set(range(5, 35))
    assert ((table["first"] + table["second"]) == 100).all()
