"""Replay solver witnesses on a game's plain move generator before anything is printed."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from gamecheck.budget import Budget
from gamecheck.errors import CrossCheckFailure, GamecheckError
from gamecheck.models.base import Game, State


class ReplayError(CrossCheckFailure):
    """A solver witness that the move generator rejects."""


@dataclass(frozen=True)
class Replay:
    """The states a line of play visits, from the initial state to `states[-1]`."""

    game: Game
    states: tuple[State, ...]
    slowest_step: float = 0.0
    """The most seconds one step took (or the `slowest` the replay was given, if more)."""

    @property
    def terminal(self) -> bool:
        return self.game.is_terminal(self.states[-1])

    @property
    def goals(self) -> tuple[int, ...] | None:
        """The goals of the last state if it is terminal (the game's error if undefined)."""
        return self.game.goals(self.states[-1]) if self.terminal else None


def replay_line(
    game: Game,
    steps: Sequence[Sequence[str]],
    start: State | None = None,
    budget: Budget | None = None,
    slowest: float = 0.0,
) -> Replay:
    """Play joint actions (GDL text, role order) with legality checked at every step;
    OutOfBudget if the budget ends first, or has less time left than the slowest step took
    (this replay's, or `slowest`, an earlier replay's: merrills' take 1.3 s), and the line
    is then not confirmed. A step includes telling whether the state it reaches is terminal
    (a rule sheet's reasoner keeps what that evaluated, so a claim about the last state is
    quick), and a rule sheet's evaluations stop when the budget ends."""
    state = game.initial_state() if start is None else start
    states = [state]
    with game.within(budget):
        for number, joint_text in enumerate(steps, start=1):
            began = time.monotonic()
            if budget is not None:
                budget.check_room(slowest)
            try:
                joint = tuple(
                    game.parse_action(role, text)
                    for role, text in zip(game.roles, joint_text, strict=True)
                )
                state = game.next(state, joint)
                game.is_terminal(state)  # within the budget, kept by a sheet's reasoner
            except (GamecheckError, ValueError) as error:
                raise ReplayError(
                    f"{game.name}: step {number} ({' '.join(joint_text)}): {error}"
                ) from None
            states.append(state)
            slowest = max(slowest, time.monotonic() - began)
    return Replay(game, tuple(states), slowest)
