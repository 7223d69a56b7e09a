"""Depth bounds the rules give: how many steps a win takes at least, from a reachable state.

A counter of the rules (solvers/ground/invariants.py: a weighted count of facts that grows by
exactly one every step, such as cubes placed or blank cells left) tells the depth of every
reachable state. One SAT question on a free state under the proved invariants then gives the
least depth E at which any state won by a team can occur: no state that satisfies the
invariants is won by the team with a counter below start + E. From a reachable state at
depth n, a win takes at least E - n steps, so the forced-win search starts there, and every
smaller depth is `none`, proved. In cubicup E = 84: every game fills all 84 positions.

The bound holds for reachable states only (the initial state, positions of played games);
a state read from a file gets none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from gamecheck.analysis.loading import Subject, load_game, load_rule_sheet
from gamecheck.budget import Budget, OutOfBudget
from gamecheck.errors import BadTermError, UnknownGameError
from gamecheck.models.base import Game, State
from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.forced_win.sat import fluents_of
from gamecheck.solvers.ground.circuit import value
from gamecheck.solvers.ground.explore import StateGraph, TooManyStates, explore, worth_listing
from gamecheck.solvers.ground.grounder import ground
from gamecheck.solvers.ground.invariant_kinds import Counter
from gamecheck.solvers.ground.invariants import MAX_STEPS, PLAYOUTS, Invariants, find_invariants
from gamecheck.solvers.ground.sampling import Playouts, random_playouts
from gamecheck.solvers.ground.transition import TransitionSystem
from gamecheck.solvers.ground.unroll import Unrolling, make_unrolling

WIN = 100
DEFAULT_HORIZON = 300
"""Depths looked at for E in a game whose rules give no step bound."""


@dataclass
class GroundRules:
    """A game with its ground rules and their proved invariants, found once and shared by
    every question about the game."""

    game: Game
    system: TransitionSystem
    invariants: Invariants
    _earliest: dict[tuple[str, ...], int] = field(default_factory=dict)
    _states: Unrolling | None = None
    playouts: Playouts | None = None
    """The random playouts the invariants were guessed from."""
    _graph: StateGraph | None = None
    _listable: bool | None = None

    @property
    def listable(self) -> bool:
        """Whether listing every reachable state is worth a try: the random playouts do not
        show the game too big (explore.py `worth_listing`), and no try has shown it."""
        if self._listable is None:
            playouts = self.playouts
            self._listable = (
                playouts is not None and playouts.circuit is not None and worth_listing(playouts)
            )
        return self._listable

    def state_graph(self, budget: Budget) -> StateGraph | None:
        """Every reachable state, listed once (solvers/ground/explore.py); None where the
        game is not `listable` or the list passes its caps, and where `budget` ends first
        (then it is tried again when asked again)."""
        if self._graph is None and self.listable:
            try:
                self._graph = explore(self.system, self.playouts.compiled(self.system), budget)
            except TooManyStates:
                self._listable = False
            except OutOfBudget:
                return None
        return self._graph

    @property
    def counter(self) -> Counter | None:
        return self.invariants.counters[0] if self.invariants.counters else None

    def depth_of(self, state: State) -> int | None:
        """A reachable state's depth by the counter (None: no counter, or the state has a
        fact the ground rules never make true)."""
        counter = self.counter
        if counter is None:
            return None
        try:
            fluents = fluents_of(self.system, self.game.state_facts(state))
        except BadTermError:
            return None
        values = self.system.evaluate(fluents)
        return sum(weight for weight, literal in counter.terms if value(values, literal)) - (
            counter.start
        )

    def lower_bound(self, team: Sequence[str], state: State, budget: Budget) -> int:
        """Steps a win of `team` takes at least from the reachable `state` (0: no bound)."""
        depth = self.depth_of(state)
        if depth is None:
            return 0
        team = tuple(team)
        if team not in self._earliest:
            try:
                self._earliest[team] = self._earliest_win(team, budget)
            except OutOfBudget:
                return 0
        return max(0, self._earliest[team] - depth)

    def _earliest_win(self, team: tuple[str, ...], budget: Budget) -> int:
        """E: the least counter depth of a state won by `team` that satisfies the invariants
        (one more than the horizon if there is none up to it)."""
        system, counter = self.system, self.counter
        if self._states is None:
            self._states = make_unrolling(system, "cnf", free_start=True)
            self._states.use_invariants(self.invariants)
            self._states.alive(0)  # the invariants constrain the free state
        states = self._states
        goals = [system.goals[system.roles.index(role)].get(WIN) for role in team]
        if None in goals:
            return self._horizon() + 1
        won = states.literal(system.circuit.conj([system.terminal, *goals]), 0)
        terms = [(weight, states.literal(literal, 0)) for weight, literal in counter.terms]
        lowest = sum(min(weight, 0) for weight, _ in terms)

        def possible(depth: int) -> bool:
            switch = states.new_variable()
            states.add_linear(terms, lowest, counter.start + depth, condition=switch)
            return states.satisfiable([won, switch], budget) is not False

        low, high = -1, self._horizon() + 1  # impossible up to low, possible at high
        if not possible(high - 1):
            return high
        high -= 1
        while high - low > 1:
            middle = (low + high) // 2
            if possible(middle):
                high = middle
            else:
                low = middle
        return high

    def _horizon(self) -> int:
        bound = self.game.step_bound
        return bound if bound is not None else DEFAULT_HORIZON


def ground_rules(subject: Subject, budget: Budget) -> GroundRules | None:
    """The ground rules and invariants of a game, within `budget` (None if it ends before the
    grounding, or the game has no rule sheet; the invariants proved by then if it ends
    later). A built-in game's are found once per process."""
    game = load_game(subject)
    built_in = not isinstance(game, GdlGame)
    if built_in and game.name in _BUILT_IN:
        return _BUILT_IN[game.name]
    try:
        sheet = load_rule_sheet(game)
        system = ground(sheet.rules, sheet.name, budget=budget)
        playouts = random_playouts(system, PLAYOUTS, max_steps=MAX_STEPS)
        invariants = find_invariants(system, playouts=playouts, budget=budget)
    except (OutOfBudget, UnknownGameError):
        return None
    rules = GroundRules(game, system, invariants, playouts=playouts)
    if built_in and not budget.expired:  # invariants cut short are kept for this call only
        _BUILT_IN[game.name] = rules
    return rules


_BUILT_IN: dict[str, GroundRules] = {}
