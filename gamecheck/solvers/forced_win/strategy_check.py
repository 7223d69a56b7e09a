"""An independent check of a winning strategy: replay every reply of the other roles.

A strategy gives the joint action of the team (one action per team role, in role order) in
a state: a mapping of states (`check_strategy`), or a function asked as the walk goes
(`check_policy`: a search's proved table, so that a strategy of millions of states is never
held twice). The check walks the whole tree the strategy allows: it checks that each of the
team's actions is among the legal ones, plays it against every legal joint reply with the
game's `apply`, and confirms that every branch ends within the given number of steps in a
terminal state where every team role has goal 100. A state without an action is allowed
only where the team has no choice. Only the states where the team has a choice are
remembered as checked (the others are walked again where met again): in cubicup, where the
team is one role of three, that halves the memory for the same time. It shares no code
with the searches that find strategies.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence

from gamecheck.budget import Budget
from gamecheck.errors import CrossCheckFailure
from gamecheck.models.base import Game, State

WIN = 100
CHECK_EVERY = 1024
"""States replayed between two looks at the budget."""


class StrategyCheckFailure(CrossCheckFailure):
    """A strategy that fails its replay. For a strategy gamecheck found, a bug in gamecheck;
    for a strategy a user gave (`gamecheck check-strategy`), a strategy that does not win."""


Policy = Callable[[State, int], tuple | None]
"""The team's joint action in a state with so many steps left to win in (None: none given)."""


def check_strategy(
    game: Game,
    team: Sequence[str],
    start: State,
    strategy: Mapping[State, tuple],
    depth: int,
    budget: Budget | None = None,
) -> int:
    """Raise StrategyCheckFailure unless `strategy` wins for the `team` roles (in role order)
    from `start` within `depth` steps against every joint reply of the other roles; return
    the number of distinct states where the team had a choice. OutOfBudget if the `budget`
    ends first (a strategy of a million states takes a while)."""
    decisions = check_policy(game, team, start, lambda state, _: strategy.get(state), depth, budget)
    return len(decisions)


def check_policy(
    game: Game,
    team: Sequence[str],
    start: State,
    policy: Policy,
    depth: int,
    budget: Budget | None = None,
) -> dict[State, tuple]:
    """`check_strategy` for the actions `policy` gives as the walk asks; return the strategy
    it checked: the team's action in every state where it had a choice."""
    positions = [game.role_index(role) for role in team]
    others = [role for role in game.roles if role not in team]
    proved: dict[State, int] = {}  # decision state -> fewest remaining steps checked with
    decisions: dict[State, tuple] = {}
    expanded = itertools.count()
    who = team[0] if len(team) == 1 else f"team {','.join(team)}"

    def fail(state: State, reason: str) -> StrategyCheckFailure:
        facts = " ".join(sorted(game.state_facts(state)))
        return StrategyCheckFailure(f"{game.name}, strategy of {who}: {reason} in state {facts}")

    def check(state: State, remaining: int) -> None:
        if proved.get(state, remaining + 1) <= remaining:
            return
        if game.is_terminal(state):
            goals = game.goals(state)
            for role, position in zip(team, positions, strict=True):
                if goals[position] != WIN:
                    raise fail(state, f"a line ends with goal {goals[position]} for {role}")
            return
        if budget is not None and next(expanded) % CHECK_EVERY == 0:
            budget.check()
        if remaining == 0:
            raise fail(state, "a line is not over within the depth")
        legal = {role: game.legal(state, role) for role in game.roles}
        options = list(itertools.product(*(legal[role] for role in team)))
        given = policy(state, remaining)
        if given is not None:
            action = tuple(given)
        elif len(options) == 1:
            action = options[0]
        else:
            raise fail(state, "the strategy has no action")
        if len(action) != len(team):
            raise fail(state, f"the strategy gives {len(action)} actions for {len(team)} roles")
        for role, chosen in zip(team, action, strict=True):
            if chosen not in legal[role]:
                text = game.action_text(chosen)
                raise fail(state, f"{text} is not a legal action of {role} here")
        chosen = dict(zip(team, action, strict=True))
        for reply in itertools.product(*(legal[other] for other in others)):
            replies = iter(reply)
            joint = tuple(chosen[r] if r in chosen else next(replies) for r in game.roles)
            check(game.apply(state, joint), remaining - 1)
        if len(options) > 1:  # only the team's decisions are remembered: the others are
            decisions[state] = action  # walked again where met again, the memory kept small
            proved[state] = remaining

    check(start, depth)
    return decisions
