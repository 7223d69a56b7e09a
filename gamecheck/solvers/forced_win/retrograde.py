"""Forced wins read off every reachable state: retrograde analysis of a listed state graph.

Where breadth-first search lists every reachable state (solvers/ground/explore.py), the
fewest steps in which a team can force a win is worked out for every state at once, backwards
from the won terminal states: a state is won within d when it is terminal and won (d = 0), or
d > 0 and some joint action of the team has every joint reply of the other roles lead to a
state won within d - 1 (the definition of and_or.py). Level by level, d = 1, 2, ..., until a
level adds no state: a state left then is won at no depth, proved, whether or not the graph
has cycles. The strategy plays, in each state, a team action whose slowest reply is won
soonest; it is followed on the move generator and replayed there like the search's.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from gamecheck.budget import Budget, OutOfBudget
from gamecheck.errors import CrossCheckFailure
from gamecheck.gdl.terms import term_text
from gamecheck.models.base import NEVER, State
from gamecheck.solvers.forced_win.search import ForcedWin, Status, first_action
from gamecheck.solvers.forced_win.sides import Sides
from gamecheck.solvers.forced_win.strategy import Strategy
from gamecheck.solvers.forced_win.strategy_check import check_strategy
from gamecheck.solvers.ground.explore import StateGraph
from gamecheck.solvers.ground.sampling import BatchCircuit
from gamecheck.solvers.ground.transition import TransitionSystem

WIN = 100
EXHAUSTIVE = "exhaustive search"
"""The method's name, as verify names the same listing."""


@dataclass(frozen=True)
class WinDepths:
    """Per state of a graph: the fewest steps in which the team can force a win (NEVER where
    it cannot), and the edge of a team action that does so (-1 where the depth is 0 or
    NEVER)."""

    depth: np.ndarray
    play: np.ndarray


def win_depths(
    graph: StateGraph, team: Sequence[int], won: np.ndarray, budget: Budget
) -> WinDepths:
    """The WinDepths of every state, for the team of system role indexes `team`; `won` says
    per state whether it is terminal and won for the team."""
    depth = np.where(won, 0, NEVER).astype(np.int64)
    sources, targets = graph.sources, graph.targets
    if not len(sources):
        return WinDepths(depth, np.full(graph.count, -1, dtype=np.int64))
    keys = np.column_stack([sources, graph.edge_joints[:, list(team)]])
    _, first_edge, group = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    group = group.reshape(-1)
    owner = sources[first_edge]  # the state of each team action, in group order
    level = 0
    while True:
        level += 1
        budget.check()
        slow = np.bincount(group, weights=depth[targets] >= level, minlength=len(owner))
        winning = np.unique(owner[slow == 0])
        new = winning[depth[winning] == NEVER]
        if not len(new):
            break
        depth[new] = level
    worst = np.full(len(owner), -1, dtype=np.int64)
    np.maximum.at(worst, group, depth[targets])
    fastest = np.flatnonzero((worst == depth[owner] - 1) & (depth[owner] < NEVER))
    play = np.full(graph.count, -1, dtype=np.int64)
    play[owner[fastest[::-1]]] = first_edge[fastest[::-1]]  # the first such action wins ties
    return WinDepths(depth, play)


def won_states(
    system: TransitionSystem, graph: StateGraph, team: Sequence[int], budget: Budget
) -> np.ndarray:
    """Per state, whether it is terminal with goal 100 for every role of `team`."""
    wins = [system.goals[role].get(WIN) for role in team]
    if any(win is None for win in wins):
        return np.zeros(graph.count, dtype=bool)
    literals = [system.terminal, *wins]
    rows = graph.rows(BatchCircuit(system, literals, budget), system, literals, budget)
    return rows.all(axis=0)


class ListedStrategy:
    """The strategy of a WinDepths, as the team's joint action per state of the game (the
    move generator), found by following the game and the graph side by side."""

    def __init__(self, sides: Sides, system: TransitionSystem, graph: StateGraph, depths):
        self.sides = sides
        self.system = system
        self.graph = graph
        self.depths = depths
        self._fluents = {term_text(fluent): i for i, fluent in enumerate(system.fluents)}
        self._states = {row.tobytes(): i for i, row in enumerate(graph.packed)}

    def index(self, state: State) -> int | None:
        """The graph's number of a state of the game, or None if it is not reachable."""
        row = np.zeros(self.graph.fluents, dtype=bool)
        for fact in self.sides.game.state_facts(state):
            fluent = self._fluents.get(fact)
            if fluent is None:
                return None
            row[fluent] = True
        return self._states.get(np.packbits(row).tobytes())

    def actions(self, start: State) -> dict[State, tuple]:
        """The team's joint action in every non-terminal state the strategy reaches from
        `start`, which must be won at some depth."""
        game, sides = self.sides.game, self.sides
        strategy: dict[State, tuple] = {}
        stack = [start]
        while stack:
            state = stack.pop()
            if state in strategy or game.is_terminal(state):
                continue
            number = self.index(state)
            if number is None or self.depths.play[number] < 0:
                facts = " ".join(sorted(game.state_facts(state)))
                raise CrossCheckFailure(
                    f"{game.name}: the listed states and the move generator disagree at {facts}"
                )
            action = self._team_action(int(self.depths.play[number]))
            strategy[state] = action
            _, replies = sides.choices(state)
            stack.extend(game.apply(state, sides.joint(action, reply)) for reply in replies)
        return strategy

    def _team_action(self, edge: int) -> tuple:
        """The team's part of an edge's joint action, as the game's actions (role order)."""
        system, game = self.system, self.sides.game
        joint = self.graph.edge_joints[edge]
        actions = []
        for role in self.sides.team_roles:
            index = system.roles.index(role)
            actions.append(game.parse_action(role, system.action_text(index, int(joint[index]))))
        return tuple(actions)


def listed_forced_win(
    sides: Sides,
    system: TransitionSystem,
    graph: StateGraph,
    start: State,
    max_depth: int,
    budget: Budget,
) -> ForcedWin | None:
    """The question of search.forced_win read off `graph`, every reachable state of `system`
    (the ground rules of the sides' game): exact at every depth. The strategy found is
    replayed on the game like the search's. None where `start` is not in the graph or the
    budget ends before the depths are known. `nodes` counts the reachable states."""
    clock = time.monotonic()
    game = sides.game
    team = [system.roles.index(role) for role in sides.team_roles]
    try:
        depths = win_depths(graph, team, won_states(system, graph, team, budget), budget)
    except OutOfBudget:
        return None
    strategy = ListedStrategy(sides, system, graph, depths)
    number = strategy.index(start)
    if number is None:
        return None
    depth = int(depths.depth[number])
    answer = {
        "game": game.name,
        "role": sides.team_roles[0],
        "team": sides.team_roles,
        "max_depth": max_depth,
        "nodes": graph.count,
        "method": EXHAUSTIVE,
        "first_action": None,
        "strategy_size": None,
    }
    if depth > max_depth:
        return ForcedWin(
            **answer,
            status=Status.NONE,
            depth=None,
            searched_depth=max_depth,
            seconds=time.monotonic() - clock,
        )
    try:
        actions = strategy.actions(start)
        size = check_strategy(game, sides.team_roles, start, actions, depth, budget)
    except OutOfBudget:  # a win whose replay did not end in time is not reported
        return ForcedWin(
            **answer,
            status=Status.UNKNOWN,
            depth=None,
            searched_depth=depth - 1,
            seconds=time.monotonic() - clock,
        )
    won = Strategy(sides.team_roles, start, depth, actions)
    return ForcedWin(
        **answer | {"first_action": first_action(sides, won), "strategy_size": size},
        status=Status.FOUND,
        depth=depth,
        searched_depth=depth - 1,
        seconds=time.monotonic() - clock,
        strategy=won,
    )
