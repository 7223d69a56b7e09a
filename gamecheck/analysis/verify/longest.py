"""The longest game and termination questions of `gamecheck verify`: the most steps any game
can last, and whether every game ends.

The first depth with no non-terminal state comes from the invariants where they bound the
game (a counter or a ranking: where their bound lies beyond the horizon, a non-terminal
state is first asked for at the horizon), else from probes at 1, 2, 4, ... steps; a binary
search below it proves the longest game. The depth found is the last any other question
needs: once it is within the horizon, every answer covers all reachable states. A line of
play that comes back to a state it passed (a random playout's, or the solver's) refutes
termination.
"""

from __future__ import annotations

from gamecheck.analysis.verify.conditions import ends_running, ends_terminal
from gamecheck.analysis.verify.results import NONE, PROVED, REFUTED, UNKNOWN, Answer
from gamecheck.budget import OutOfBudget
from gamecheck.solvers.ground.unroll import Line

PAST_HORIZON_SHARE = 0.5
"""The share of the longest game's time that asking for a non-terminal state at the horizon
may take, where the invariants bound every game only beyond it: one is a lower bound past
the horizon; none lets the search below the horizon prove the longest game (their bound is
loose: 48 steps where 3pConnectFour's horizon is 30)."""


class LongestGameQuestion:
    """The longest game and termination, a part of the Verifier (search.py): it uses the
    Verifier's system, budget, invariants, replays and searches."""

    def _start_longest(self) -> None:
        self.deepest: int | None = None
        """The last depth any question needs: no non-terminal state is reachable there
        (proved; None while unknown, and where the game need not end)."""
        self._nonterminal: dict[int, Line | None] = {}
        """Depth -> a line of play to a non-terminal state that deep (None: none is)."""
        self.ends_within: int | None = None
        """Every game ends within this many steps, beyond the horizon (by the invariants)."""

    def longest_game(self) -> Answer:
        """The most steps any game can last, proved by a depth with no non-terminal state.
        The first such depth comes from the counters or the ranking where there are some
        (no state the invariants allow is non-terminal that deep), else from probes at 1,
        2, 4, ...; then a binary search below it, above the longest line of play any
        question has found so far."""
        self.progress("longest game")
        nonterminal = -self.system.terminal
        if self._nonterminal_at(0) is None:
            self.deepest = 0
            return self._longest_ending_by(0)
        # non-terminal at `low`: a line replayed or a playout passed a non-terminal state there
        replayed = 0 if self.replays.longest is None else self.replays.longest.depth
        low = max(replayed - 1, self._deepest_playout_state())
        self._bound_by_invariants()
        high = self._counted_bound(nonterminal)  # non-terminal at low, none from high on
        if high is not None and high > self.horizon:
            self.ends_within = high
            past = self._past_horizon(low, high)
            if past is not None:
                return past
            high = self.horizon  # no non-terminal state there: search below it
        if high is None and self.playouts is not None:
            found = self.playouts.lasso(self.budget)
            if found is not None:
                return self._loop(*found)
        while high is None:
            probe = min(max(1, 2 * low), self.horizon)
            if probe == low:
                return self._endless()
            if self._nonterminal_at(probe) is None:
                high = probe
            else:
                low = probe
        self.deepest = high
        try:
            if high - 1 > low and self._nonterminal_at(high - 1):
                low = high - 1
            while high - low > 1:
                middle = (low + high) // 2
                if self._nonterminal_at(middle) is not None:
                    low = middle
                else:
                    self.deepest = high = middle
            return self._longest_ending_by(high)
        except OutOfBudget:
            reason = self.budget.stop_reason()
            return Answer(
                UNKNOWN,
                detail=f"{reason} between bounds: every game ends within "
                f"{high} steps (no non-terminal state is reachable at depth {high}), and "
                f"some game lasts {low + 1} or more",
                at_least=low + 1,
                at_most=high,
            )

    def _past_horizon(self, low: int, high: int) -> Answer | None:
        """Where the invariants bound every game by `high` steps, beyond the horizon: the
        longest game's bounds if a non-terminal state is reachable at the horizon (a line
        of play replayed), or if PAST_HORIZON_SHARE of the time runs out first; None if
        no such state is reachable (every game ends within the horizon)."""
        bound = (
            f"every game ends within {high} steps (no non-terminal state the invariants "
            "allow is that deep)"
        )
        try:
            with self._within(self.budget.part(share=PAST_HORIZON_SHARE)):
                line = self._nonterminal_at(self.horizon)
                if line is not None:
                    self.replays.checked(line, ends_running)
        except OutOfBudget:
            self.budget.check()  # only the share ran out
            return Answer(
                UNKNOWN,
                detail=f"{bound}, beyond the horizon ({self.horizon}): whether a game lasts "
                "longer than the horizon is unknown",
                at_least=low + 1,
                at_most=high,
            )
        if line is None:
            return None
        return Answer(
            UNKNOWN,
            detail=f"some game lasts more than {self.horizon} steps (a non-terminal state is "
            f"reachable at depth {self.horizon}, the horizon), and {bound}",
            at_least=self.horizon + 1,
            at_most=high,
        )

    def _bound_by_invariants(self) -> None:
        """Where the ranking or a counter bounds every game, take its bound before any
        search: the searches that narrow it may run out of time, and the bound alone
        proves that every game ends."""
        most = self._steps_at_most()
        if most is None:
            return
        beyond = most + 1  # no line of play reaches it: no non-terminal state is there
        if beyond <= self.horizon:
            self.deepest = beyond if self.deepest is None else min(beyond, self.deepest)
        else:
            self.ends_within = beyond

    def _steps_at_most(self) -> int | None:
        """No line of play has more steps, by the ranking or a counter of the proved
        invariants (None if there are neither)."""
        return min(self._depth_bounds(), default=None)

    def _depth_bounds(self) -> list[int]:
        """How many steps into a game a state can be at most, by each counter and by the
        ranking of the proved invariants (none without them)."""
        invariants = self.states.invariants if self.states is not None else None
        if invariants is None:
            return []
        bounds = [counter.most_steps for counter in invariants.counters]
        if invariants.ranking is not None:
            bounds.append(invariants.ranking.longest)
        return bounds

    def _nonterminal_at(self, depth: int) -> Line | None:
        """A line of play to a non-terminal state after `depth` steps, None if none is
        reachable: the start of the longest line replayed, if it is longer, or the line
        found before at that depth, else one searched for."""
        replayed = self.replays.longest
        if replayed is not None and replayed.depth > depth:
            return Line(replayed.steps[:depth])
        if depth not in self._nonterminal:
            self._nonterminal[depth] = self._find(-self.system.terminal, [depth])
        return self._nonterminal[depth]

    def _deepest_playout_state(self) -> int:
        """The deepest step at which a random playout was in a non-terminal state (0 if
        none): lasting playouts reach the end of a step counter, or near a full board,
        where solvers take long to find a line."""
        if self.playouts is None:
            return 0
        return max(0, int(self.playouts.lengths.max(initial=0)) - 1)

    def _termination(self, longest: Answer) -> Answer:
        """Whether every game ends, from the longest game's search: refuted by its loop,
        proved by the depth it found with no non-terminal state (where the exact longest
        game may still be unknown)."""
        if longest.status == REFUTED:
            return longest
        if longest.status == PROVED:
            bound, note = longest.value, ""
        elif self._complete():
            bound, note = self.deepest, " (how long the longest game is, exactly, is unknown)"
        elif self.ends_within is not None:
            bound, note = (
                self.ends_within,
                " (by the invariants, a bound beyond the horizon)",
            )
        else:
            return Answer(UNKNOWN, detail=longest.detail, seconds=longest.seconds)
        return Answer(
            PROVED,
            bound,
            detail=f"no line of play lasts more than {bound} steps{note}",
            seconds=longest.seconds,
        )

    def _endless(self) -> Answer:
        """Where a non-terminal state is reachable at the horizon: refuted by a line of play
        that comes back to a non-terminal state it passed (searched at 1, 2, 4, ... steps:
        a loop of any length also closes at the next of them), else unknown."""
        depths = sorted({*(2**n for n in range(self.horizon.bit_length())), self.horizon})
        found = self.unrolling.lasso(depths, self.budget)
        if found is None:
            return Answer(
                UNKNOWN,
                detail=f"a non-terminal state is reachable at depth {self.horizon} "
                "(the horizon) and no line of play up to it comes back to a state it "
                "passed: the game lasts longer or never ends",
                at_least=self.horizon + 1,
            )
        return self._loop(*found)

    def _loop(self, line: Line, start: int) -> Answer:
        """The longest game refuted by a line of play that comes back, at its end, to the
        state after step `start`."""
        end = line.depth
        loop = f"step {end}" if start + 1 == end else f"steps {start + 1}-{end}"
        return Answer(
            REFUTED,
            witness=self.replays.checked_loop(line, start),
            detail=f"the game need not end: after step {line.depth} the state is again the "
            f"one after step {start}, none on the way is terminal, and {loop} can repeat "
            "forever",
        )

    def _counted_bound(self, condition: int) -> int | None:
        """The least depth h from which on no state the invariants allow satisfies
        `condition`, where the counters or the ranking tell a state's depth (h may lie
        beyond the horizon, up to the deepest state they allow); None if there are none or
        they bound nothing that deep."""
        bounds = self._depth_bounds()
        if not bounds:
            return None
        deepest = max(self.horizon, *bounds)
        if self._possible(condition, deepest + 1):
            return None
        low, high = 0, deepest + 1  # possible from low on, impossible from high on
        while high - low > 1:
            middle = (low + high) // 2
            if self._possible(condition, middle):
                low = middle
            else:
                high = middle
        return high

    def _possible(self, condition: int, from_depth: int) -> bool:
        return self.states.state_possible(condition, self.budget, from_depth=from_depth)

    def _longest_ending_by(self, depth: int) -> Answer:
        """No state at `depth` is non-terminal: the longest game is the deepest terminal
        state at or before it. Where a non-terminal state at `depth` - 1 has legal actions,
        any joint action there ends the game at `depth`."""
        detail = f"no non-terminal state is reachable at depth {depth}"
        before = self._nonterminal_at(depth - 1) if depth > 0 else None
        if before is not None:
            legal = self.system.legal_actions(self._final_state(before))
            if all(legal):
                line = Line((*before.steps, tuple(actions[0] for actions in legal)))
                return Answer(PROVED, depth, self.replays.checked(line, ends_terminal), detail)
        for candidate in range(depth, -1, -1):
            line = self._find(self.system.terminal, [candidate])
            if line is not None:
                return Answer(PROVED, candidate, self.replays.checked(line, ends_terminal), detail)
        return Answer(NONE, detail="no terminal state is reachable")

    def _complete(self) -> bool:
        """Whether the depths searched hold every reachable state: no non-terminal state is
        reachable at `deepest` (a depth the horizon reaches)."""
        return self.deepest is not None and self.deepest <= self.horizon
