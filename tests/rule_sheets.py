"""Helpers for the tests of our rule sheets (models/rules): the two implementations of a game,
and GDL-text shorthands for hand-built positions."""

from __future__ import annotations

import functools
from collections.abc import Iterable

from gamecheck.models import get_game
from gamecheck.models.base import Game
from gamecheck.models.rules import rule_text
from gamecheck.models.sheet import GdlGame

IMPLEMENTATIONS = ("sheet", "builtin")
"""The rule sheet played by the GDL reasoner, and the built-in move generator."""


@functools.cache
def sheet_game(name: str) -> GdlGame:
    """The GDL reasoner on our rule sheet of the built-in game `name` (cached)."""
    return GdlGame.from_text(rule_text(name), name)


def game_under_test(name: str, implementation: str) -> Game:
    """`name` as the rule sheet or as the built-in generator."""
    return sheet_game(name) if implementation == "sheet" else get_game(name)


def legal_texts(game: Game, facts: Iterable[str], role: str) -> set[str]:
    """The legal actions of `role`, as text, in the state the facts describe."""
    state = game.state_from_facts(facts)
    return {game.action_text(action) for action in game.legal(state, role)}


def next_facts(game: Game, facts: Iterable[str], joint: Iterable[str]) -> frozenset[str]:
    """The facts of the next state after a joint action given as text (checked for legality)."""
    state = game.state_from_facts(facts)
    actions = [game.parse_action(role, text) for role, text in zip(game.roles, joint, strict=True)]
    return game.state_facts(game.next(state, actions))


def outcome(game: Game, facts: Iterable[str]) -> tuple[bool, tuple[int, ...]]:
    """Whether the state is terminal, and its goals."""
    state = game.state_from_facts(facts)
    return game.is_terminal(state), game.goals(state)


def joint_for(game: Game, mover: str, action: str) -> list[str]:
    """The joint action in which `mover` plays `action` and everyone else noops."""
    return [action if role == mover else "noop" for role in game.roles]
