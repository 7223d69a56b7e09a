"""Winning lines: the shortest line of play to a team's win when every role cooperates.

With nobody opposing (a one-role game, or a team of every role) a forced win is exactly a
winning line; otherwise the shortest winning line is a lower bound on any forced win, and
no line at all within a depth proves that there is no forced win within it.

Lines are found with verify's line search: the ground rules unrolled from the start state
(solvers/ground/unroll.py), asked for a line to a terminal state where every team role has
goal 100. Windows of depths twice as wide each time are asked from a lower bound up, then a
binary search below the line found gives the fewest steps. From a reachable state the proved
invariants (counter included, set to the state's depth) constrain every layer. A line is
replayed on the move generator before it is returned, as a strategy of one action per state.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

from gamecheck.analysis.win_bounds import WIN, GroundRules
from gamecheck.budget import Budget, OutOfBudget
from gamecheck.models.base import State
from gamecheck.solvers.forced_win.sat import fluents_of
from gamecheck.solvers.forced_win.search import ForcedWin, Status, depth_bound, first_action
from gamecheck.solvers.forced_win.sides import Sides, StuckState
from gamecheck.solvers.forced_win.strategy import Strategy
from gamecheck.solvers.forced_win.strategy_check import check_strategy
from gamecheck.solvers.ground.invariants import Invariants
from gamecheck.solvers.ground.unroll import Line, make_unrolling


class LineSearch:
    """Shortest lines from one start state to a win of `team` on one unrolling of the ground
    rules; counts its SAT calls and the depth up to which no line is proved (`proved`). Use
    it as a context manager."""

    def __init__(
        self,
        rules: GroundRules,
        team: Sequence[str],
        start: State,
        *,
        reachable: bool,
        budget: Budget,
    ):
        self.rules = rules
        self.start = start
        self.budget = budget
        system = rules.system
        started = replace(system, initial=fluents_of(system, rules.game.state_facts(start)))
        self.unrolling = make_unrolling(started, "cnf")
        if reachable:
            self.unrolling.use_invariants(_invariants_from(rules, start))
        goals = [system.goals[system.roles.index(role)].get(WIN) for role in team]
        self.condition = (
            system.circuit.conj([system.terminal, *goals]) if None not in goals else None
        )
        self.calls = 0
        self.proved = -1

    def __enter__(self) -> LineSearch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.unrolling.close()

    def shortest(self, lower: int, last: int) -> Line | None:
        """The shortest line to a win at a depth in lower..last (none below `lower` is
        possible), or None if there is none; OutOfBudget if the budget ends first."""
        self.proved = lower - 1
        if self.condition is None:  # the rules never give the team 100
            self.proved = last
            return None
        low, width, best = lower, 1, None
        while best is None:
            if low > last:
                return None
            high = min(low + width, last + 1)
            best = self._find(self.condition, range(low, high))
            if best is None:
                self.proved = high - 1
                low, width = high, 2 * width
        while low < best.depth:  # no line shorter than `low` steps
            middle = (low + best.depth) // 2
            shorter = self._find(self.condition, range(low, middle + 1))
            if shorter is None:
                low = middle + 1
            else:
                best = shorter
        return best

    def check_playable(self, last: int) -> None:
        """StuckState if a line of at most `last` steps reaches a non-terminal state where a
        role has no legal action (then `none` would hide that the rules are defective)."""
        system = self.rules.system
        circuit = system.circuit
        stuck = circuit.disj(circuit.conj(-legal for legal in role) for role in system.legal)
        line = self._find(circuit.conj([-system.terminal, stuck]), range(last + 1))
        if line is not None:
            game = self.rules.game
            _, state = replay(self.rules, self.start, line)
            raise StuckState(game, state, next(r for r in game.roles if not game.legal(state, r)))

    def _find(self, condition: int, depths: range) -> Line | None:
        self.calls += 1
        return self.unrolling.find(condition, depths, self.budget)


def winning_line(
    rules: GroundRules,
    sides: Sides,
    *,
    start: State | None = None,
    reachable: bool = True,
    max_depth: int | None = None,
    lower_bound: int = 0,
    budget: Budget | None = None,
) -> ForcedWin:
    """The forced win of a team without opponents: the fewest steps of a line from `start`
    (default: the initial state) won by the team; `reachable`: the start is known reachable,
    so the invariants hold on it."""
    clock = time.monotonic()
    budget = budget or Budget()
    game = rules.game
    state = game.initial_state() if start is None else start
    max_depth = depth_bound(game, max_depth)
    answer = {
        "game": game.name,
        "role": sides.team_roles[0],
        "team": sides.team_roles,
        "max_depth": max_depth,
        "method": "line",
        "lower_bound": lower_bound,
    }
    with LineSearch(rules, sides.team_roles, state, reachable=reachable, budget=budget) as search:
        try:
            line = search.shortest(lower_bound, max_depth)
            if line is None:
                search.check_playable(max_depth)
        except OutOfBudget:
            line = None
    if line is None:
        status = Status.UNKNOWN if search.proved < max_depth else Status.NONE
        return ForcedWin(
            **answer,
            status=status,
            depth=None,
            searched_depth=min(search.proved, max_depth),
            first_action=None,
            strategy_size=None,
            nodes=search.calls,
            seconds=time.monotonic() - clock,
        )
    actions, _ = replay(rules, state, line, sides)
    strategy = Strategy(sides.team_roles, state, line.depth, actions)
    size = check_strategy(game, sides.team_roles, state, actions, line.depth)
    return ForcedWin(
        **answer,
        status=Status.FOUND,
        depth=line.depth,
        searched_depth=line.depth - 1,
        first_action=first_action(sides, strategy),
        strategy_size=size,
        nodes=search.calls,
        seconds=time.monotonic() - clock,
        strategy=strategy,
    )


def replay(
    rules: GroundRules, start: State, line: Line, sides: Sides | None = None
) -> tuple[dict[State, tuple], State]:
    """A line replayed on the move generator (legality checked): the team's action in each
    of its states (all roles' without `sides`), and the state it ends in."""
    game, system = rules.game, rules.system
    positions = [system.roles.index(role) for role in game.roles]
    team = range(len(game.roles)) if sides is None else sides.team
    actions: dict[State, tuple] = {}
    state = start
    for joint in line.steps:
        chosen = tuple(
            game.parse_action(role, system.action_text(positions[i], joint[positions[i]]))
            for i, role in enumerate(game.roles)
        )
        actions.setdefault(state, tuple(chosen[i] for i in team))
        state = game.next(state, chosen)
    return actions, state


def _invariants_from(rules: GroundRules, state: State) -> Invariants:
    """The proved invariants, the counter (if any) starting at the state's depth."""
    invariants = rules.invariants
    depth = rules.depth_of(state)
    if depth is None:
        return Invariants(invariants.state, balances=invariants.balances)
    counters = [replace(rules.counter, start=rules.counter.start + depth)]
    return Invariants(invariants.state, counters, balances=invariants.balances)
