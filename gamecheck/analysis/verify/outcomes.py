"""The outcomes question of `gamecheck verify`: every goal vector of a reachable terminal
state, each with a line of play that ends in it.

The vectors come cheapest first: those the random playouts ended with, those of the lines
other questions replayed (the longest game's, which random play seldom reaches), those of
the playouts' lines extended at the deepest depth a game reaches (a full board's draw: a
solver from the initial state takes long to find one), then one per model of an
enumeration that excludes each vector found. The set is complete once no state the
invariants allow has another vector, the enumeration finds none up to the end of the game,
or k-induction proves none reachable.
"""

from __future__ import annotations

from gamecheck.analysis.verify.conditions import ends_with_goals
from gamecheck.analysis.verify.results import Outcomes
from gamecheck.budget import OutOfBudget
from gamecheck.errors import CrossCheckFailure
from gamecheck.solvers.ground.circuit import value
from gamecheck.solvers.ground.unroll import OpenQuery


class OutcomeQuestion:
    """The outcomes question, a part of the Verifier (search.py): it uses the Verifier's
    system, budget, replays and searches."""

    def _start_outcomes(self) -> None:
        self._outcome_witnesses: dict[tuple, tuple] = {}
        """The goal vectors found so far, each with its line of play (kept between rounds)."""
        self._outcome_lines = 0
        """How many of the replayed lines the outcomes have looked at."""
        self._outcome_query: OpenQuery | None = None
        self._outcome_excluded: set[tuple] = set()
        self._deepest_extended = False
        """Whether the outcomes were sought by extending the playouts' lines."""

    def outcomes(self) -> Outcomes:
        """Every goal vector of a reachable terminal state (those found before the budget
        ends, if it does), and whether that is all of them."""
        self.progress("outcomes")
        found = self._outcome_witnesses
        try:
            if self.playouts is not None and not found:
                self._harvest_outcomes(found)
            self._replayed_outcomes(found)
            self._deepest_outcomes(found)
            complete = self._no_other_outcome(found) or self._enumerate_outcomes(found)
        except OutOfBudget:
            complete = False
        return Outcomes(tuple(found), tuple(found.values()), complete)

    def _harvest_outcomes(self, found: dict[tuple, tuple]) -> None:
        """The goal vectors of the terminal states the random playouts ended in."""
        endings = self.playouts.endings(self.system, self.conditions.goal_nodes, self.budget)
        for values, line in endings.items():
            vector = self.conditions.vector_of(values)
            found.setdefault(vector, self.replays.checked(line, ends_with_goals(vector)))

    def _replayed_outcomes(self, found: dict[tuple, tuple]) -> None:
        """Add the goal vectors of the lines other questions replayed that end in a
        terminal state."""
        for line in list(self.replays.lines)[self._outcome_lines :]:
            values = self.system.evaluate(self._final_state(line))  # OutOfBudget: next round
            if value(values, self.system.terminal):
                vector = self.conditions.vector_at(values)
                if vector not in found:
                    found[vector] = self.replays.checked(line, ends_with_goals(vector))
            self._outcome_lines += 1

    def _deepest_outcomes(self, found: dict[tuple, tuple]) -> None:
        """Add the goal vectors of terminal states at the deepest depth a game reaches
        that extending the playouts' lines finds, each excluding those found (once)."""
        if self._deepest_extended or not self._complete():
            return
        self._deepest_extended = True
        while True:
            line = self._extended(self._other_outcome(found), self.deepest)
            if line is None:
                return
            vector = self._goal_vector(line)
            if vector in found:
                raise CrossCheckFailure(f"{self.method} found goal vector {vector} twice")
            found[vector] = self.replays.checked(line, ends_with_goals(vector))

    def _other_outcome(self, found: dict[tuple, tuple]) -> int:
        """A terminal state with a goal vector not in `found`."""
        others = [-self.conditions.goals_equal(vector) for vector in found]
        return self.system.circuit.conj([self.system.terminal, *others])

    def _no_other_outcome(self, found: dict[tuple, tuple], searched: int = 0) -> bool:
        """Whether no state the invariants allow is terminal with a goal vector not in
        `found`, or (lines of play shorter than `searched` steps having found none) that
        k-induction proves none such reachable."""
        if self.states is None:
            return False
        condition = self._other_outcome(found)
        return self._impossible(condition) or self._inductive(condition, searched)

    def _enumerate_outcomes(self, found: dict[tuple, tuple]) -> bool:
        """Add the goal vector of every line of play to a terminal state up to the deepest
        depth, one model at a time; whether that proves the set complete."""
        query = self._open_outcome_query()
        while True:
            for vector in found.keys() - self._outcome_excluded:
                query.exclude(self.conditions.goal_literals(vector))
                self._outcome_excluded.add(vector)
            result = query.next(self.budget)
            if result is None:
                break
            line, values = result
            vector = self.conditions.vector_of(values)
            if vector in found:
                raise CrossCheckFailure(f"{self.method} found goal vector {vector} twice")
            found[vector] = self.replays.checked(line, ends_with_goals(vector))
            self._keep(self.system.terminal, line)
        query.close()
        self._outcome_query = None
        return self._complete() or self._no_other_outcome(found, searched=self._depths().stop)

    def _open_outcome_query(self) -> OpenQuery:
        """The enumeration's query over every depth a terminal state may lie at, reused
        between rounds while those depths stay the same."""
        depths = list(range(self.shortest_depth, self._depths().stop))
        query = self._outcome_query
        if query is not None and query.depths != depths:
            query.close()
            query = None
        if query is None:
            self._outcome_excluded = set()
            query = OpenQuery(
                self.unrolling,
                self.system.terminal,
                depths,
                self.budget,
                watched=self.conditions.goal_nodes,
            )
            self._outcome_query = query
        return query
