"""Perft (joint-action sequence counts) for any implementation given as plain functions."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence


def perft(
    roles: Sequence[str],
    legal: Callable,
    next_state: Callable,
    state,
    depth: int,
) -> int:
    """The number of joint-action sequences of `depth` steps from `state`.

    A terminal state has no legal action, so it ends every sequence through it early.
    """
    joints = list(itertools.product(*(legal(state, role) for role in roles)))
    if depth == 1:
        return len(joints)
    return sum(perft(roles, legal, next_state, next_state(state, j), depth - 1) for j in joints)


def divide(roles: Sequence[str], legal: Callable, next_state: Callable, state, depth: int) -> dict:
    """Perft to `depth` split by first joint action (shown as text), to locate a mismatch."""
    return {
        " ".join(map(str, joint)): (
            perft(roles, legal, next_state, next_state(state, joint), depth - 1) if depth > 1 else 1
        )
        for joint in itertools.product(*(legal(state, role) for role in roles))
    }
