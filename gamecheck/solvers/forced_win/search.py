"""Earliest forced win: can role R reach goal 100 within d steps, whatever the others do?

All other roles play together against R (solvers/forced_win/and_or.py gives the exact definition of
"won within d"). `forced_win` deepens d from 0: the first depth that is won is the fewest
steps of a forced win, and a loss proved for a larger depth than asked skips the depths in
between. Each depth is settled by a portfolio of the two methods of and_or.py on the
same tables, depth-first search and df-pn, taking turns with node budgets that double every
round. Every strategy found is replayed by `check_strategy` (on the checked `next`) before it
is returned.
"""

from __future__ import annotations

import gc
import sys
from dataclasses import dataclass, field
from enum import StrEnum

from tqdm import tqdm

from gamecheck.models.base import Action, Game, State
from gamecheck.solvers.forced_win.and_or import Budget, BudgetExhausted, Prover, SliceExhausted
from gamecheck.solvers.forced_win.strategy_check import check_strategy

DEFAULT_MAX_DEPTH = 30
"""The depth bound for games whose rules give no step bound."""
SLICE_NODES = 20_000
"""The first node budget of each method in the portfolio; it doubles every round."""


class Status(StrEnum):
    FOUND = "found"
    NONE = "none"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class ForcedWin:
    """The answer: `found` (with the fewest steps `depth`), `none` (no forced win within
    `searched_depth` steps, proved) or `unknown` (none within `searched_depth`, proved,
    before the time or node budget ran out; -1 if not even depth 0 was settled)."""

    game: str
    role: str
    max_depth: int
    """The depth bound asked about."""
    status: Status
    depth: int | None
    searched_depth: int
    first_action: str | None
    strategy_size: int | None
    """The number of distinct states where the strategy chooses among several actions."""
    nodes: int
    """Search nodes (states expanded); for the sat method, SAT calls."""
    seconds: float
    method: str
    strategy: dict[State, Action] | None = field(default=None, repr=False, compare=False)


def forced_win(
    game: Game,
    role: str,
    *,
    start: State | None = None,
    max_depth: int | None = None,
    time_limit: float | None = 60.0,
    node_limit: int | None = None,
    progress: bool = False,
) -> ForcedWin:
    """Whether `role` can force goal 100 from `start` (default: the initial state) within
    `max_depth` steps (default: the game's step bound), and in how few."""
    index = game.role_index(role)
    state = game.initial_state() if start is None else start
    max_depth = depth_bound(game, max_depth)
    bar = tqdm(
        desc=f"{game.name} {role}",
        unit="node",
        file=sys.stderr,
        disable=None if progress else True,
        leave=False,
        delay=1.0,
    )
    budget = Budget(time_limit, node_limit, bar)
    prover = Prover(game, index, budget)
    searched = -1
    depth = 0
    order = [True, False]  # depth-first search, then df-pn
    collecting = gc.isenabled()
    gc.disable()  # the tables hold millions of objects and no cycles: collections only cost
    try:
        while depth <= max_depth:
            bar.set_postfix(depth=depth)
            budget.check()
            value = _settle(prover, state, depth, order)
            if value >= 0:
                depth = value
                break
            searched = min(-1 - value, max_depth)
            depth = searched + 1
    except BudgetExhausted:
        return _result(game, role, max_depth, Status.UNKNOWN, searched, budget)
    finally:
        bar.close()
        if collecting:
            gc.enable()
    if depth > max_depth:
        return _result(game, role, max_depth, Status.NONE, searched, budget)
    budget.lift()
    strategy = prover.strategy(state, depth)
    size = check_strategy(game, role, state, strategy, depth)
    return _result(
        game,
        role,
        max_depth,
        Status.FOUND,
        depth - 1,
        budget,
        depth=depth,
        strategy=strategy,
        strategy_size=size,
        first_action=first_action(game, role, state, strategy),
    )


def depth_bound(game: Game, max_depth: int | None) -> int:
    """The depth bound asked for, or else the game's step bound (DEFAULT_MAX_DEPTH without)."""
    if max_depth is not None:
        return max_depth
    return game.step_bound if game.step_bound is not None else DEFAULT_MAX_DEPTH


def _settle(prover: Prover, state: State, depth: int, order: list[bool]) -> int:
    """Won within `depth`, by a portfolio: depth-first search and df-pn take turns with node
    budgets that double every round, on the same tables; the method that settles a depth is
    tried first at the next one (`order` is updated)."""
    budget = prover.budget
    share = SLICE_NODES
    while True:
        for depth_first in list(order):
            budget.slice_end = budget.nodes + share
            try:
                value = prover.prove(state, depth, depth_first=depth_first)
            except SliceExhausted:
                continue
            finally:
                budget.slice_end = None
            order.sort(key=lambda method: method != depth_first)
            return value
        share *= 2


def first_action(game: Game, role: str, state: State, strategy: dict) -> str | None:
    """R's first action, or None when the start state is already won."""
    if game.is_terminal(state):
        return None
    action = strategy.get(state)
    return game.action_text(action if action is not None else game.legal(state, role)[0])


def _result(game, role, max_depth, status, searched, budget, **found) -> ForcedWin:
    return ForcedWin(
        game=game.name,
        role=role,
        max_depth=max_depth,
        status=status,
        depth=found.get("depth"),
        searched_depth=searched,
        first_action=found.get("first_action"),
        strategy_size=found.get("strategy_size"),
        nodes=budget.nodes,
        seconds=budget.seconds,
        method="search",
        strategy=found.get("strategy"),
    )
