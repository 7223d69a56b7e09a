"""Seeded random playouts and the properties every game must keep along them."""

from __future__ import annotations

import random

import pytest

from gamecheck.errors import IllegalActionError
from gamecheck.models.base import Game


def random_playout(game: Game, seed: int) -> tuple[list, list]:
    """The states (initial to terminal) and joint actions of one random game."""
    rng = random.Random(seed)
    states, joints = [game.initial_state()], []
    while not game.is_terminal(states[-1]):
        joint = tuple(rng.choice(game.legal(states[-1], role)) for role in game.roles)
        joints.append(joint)
        states.append(game.next(states[-1], joint))
    return states, joints


def check_conversions(game: Game, state) -> None:
    """States round-trip through facts, legal actions through text."""
    back = game.state_from_facts(game.state_facts(state))
    assert back == state
    assert hash(back) == hash(state)
    assert game.is_terminal(back) == game.is_terminal(state)
    assert game.goals(back) == game.goals(state)
    for role in game.roles:
        for action in game.legal(state, role):
            text = game.action_text(action)
            assert game.parse_action(role, text) == action
            assert game.parse_action(role, f" {text.replace(' ', '  ')} ") == action


def check_rejects_illegal(game: Game, state, foreign_actions: list) -> None:
    """`next` raises IllegalActionError when any role plays an action not legal for it."""
    legal = [game.legal(state, role) for role in game.roles]
    for index in range(len(game.roles)):
        for action in foreign_actions:
            if action in legal[index]:
                continue
            joint = tuple(action if i == index else legal[i][0] for i in range(len(legal)))
            with pytest.raises(IllegalActionError):
                game.next(state, joint)
