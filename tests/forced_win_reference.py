"""A second, deliberately plain forced-win solver for the tests: the definition, recursively,
with the checked `next`, no tables, no ordering. Only for small depths."""

from __future__ import annotations

import itertools

from gamecheck.models.base import Game, State


def won_within(game: Game, role: str, state: State, depth: int) -> bool:
    """Terminal with goal 100, or some action of `role` after which every joint reply of
    the others leads to a state won within depth - 1."""
    if game.is_terminal(state):
        return game.goals(state)[game.roles.index(role)] == 100
    if depth == 0:
        return False
    choices = [game.legal(state, r) for r in game.roles]
    position = game.roles.index(role)
    for action in choices[position]:
        choices_with_action = [*choices[:position], [action], *choices[position + 1 :]]
        if all(
            won_within(game, role, game.next(state, joint), depth - 1)
            for joint in itertools.product(*choices_with_action)
        ):
            return True
    return False


def earliest_forced_win(game: Game, role: str, state: State, max_depth: int) -> int | None:
    """The fewest steps within which `role` forces a win, or None within `max_depth`."""
    return next(
        (d for d in range(max_depth + 1) if won_within(game, role, state, d)),
        None,
    )
