"""An independent check of a winning strategy: replay every reply of the other roles.

A strategy maps the states where the role has more than one legal action to the action it
plays there. `check_strategy` walks the whole tree the strategy allows, with the game's
checked `next`, and confirms that every branch ends in a terminal state where the role's goal
is 100 within the given number of steps. It shares no code with the search that found it.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from gamecheck.errors import CrossCheckFailure, GamecheckError
from gamecheck.models.base import Action, Game, State

WIN = 100


class StrategyCheckFailure(CrossCheckFailure):
    """A forced-win strategy that fails its replay: a bug in gamecheck, not bad input."""


def check_strategy(
    game: Game, role: str, start: State, strategy: Mapping[State, Action], depth: int
) -> int:
    """Raise StrategyCheckFailure unless `strategy` wins for `role` from `start` within
    `depth` steps against every joint reply of the other roles; return the number of
    distinct states where the strategy was consulted."""
    index = game.role_index(role)
    others = [other for other in game.roles if other != role]
    proved: dict[State, int] = {}  # state -> fewest remaining steps it was checked with
    consulted: set[State] = set()

    def fail(state: State, reason: str) -> StrategyCheckFailure:
        facts = " ".join(sorted(game.state_facts(state)))
        return StrategyCheckFailure(f"{game.name}, strategy of {role}: {reason} in state {facts}")

    def check(state: State, remaining: int) -> None:
        if proved.get(state, remaining + 1) <= remaining:
            return
        if game.is_terminal(state):
            goal = game.goals(state)[index]
            if goal != WIN:
                raise fail(state, f"a line ends with goal {goal}")
        elif remaining == 0:
            raise fail(state, "a line is not over within the depth")
        else:
            mine = game.legal(state, role)
            if len(mine) == 1:
                action = mine[0]
            elif state in strategy:
                action = strategy[state]
                consulted.add(state)
            else:
                raise fail(state, "the strategy has no action")
            for reply in itertools.product(*(game.legal(state, other) for other in others)):
                replies = iter(reply)
                joint = [action if r == role else next(replies) for r in game.roles]
                try:
                    after = game.next(state, joint)
                except GamecheckError as error:
                    raise fail(state, str(error)) from None
                check(after, remaining - 1)
        proved[state] = remaining

    check(start, depth)
    return len(consulted)
