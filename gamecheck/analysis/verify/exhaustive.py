"""The questions of `gamecheck verify` answered from every reachable state.

Where breadth-first search lists every reachable state within its share of the time
(solvers/ground/explore.py), each question is a look at the list: no solver and no horizon,
and every answer covers all reachable states. The lines of play are the search's shortest
ones (for the longest game, a longest one, or a line that comes back to a state it passed),
replayed on the move generator and the GDL reasoner like any solver's.
"""

from __future__ import annotations

import numpy as np

from gamecheck.analysis.verify.conditions import ends_terminal, ends_with_goals
from gamecheck.analysis.verify.results import NONE, PROVED, Answer, Outcomes
from gamecheck.analysis.verify.search import Verifier
from gamecheck.budget import OutOfBudget
from gamecheck.solvers.ground.explore import StateGraph
from gamecheck.solvers.ground.unroll import Line

EXHAUSTIVE = "exhaustive search"


class ExhaustiveVerifier(Verifier):
    """A Verifier whose every question is answered from the state graph."""

    def __init__(self, graph: StateGraph, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.graph = graph
        self.replays.method = EXHAUSTIVE
        self._known_rows: dict[int, np.ndarray] = {}

    def longest_game(self) -> Answer:
        """The longest path of the state graph to a terminal state, or a cycle."""
        self.progress("longest game")
        paths = self.graph.longest_paths(self.budget)
        if isinstance(paths, list):
            return self._cycle_answer(paths)
        longest, via = paths
        terminal = self._row(self.system.terminal)
        running = longest[~terminal]
        self.deepest = int(running.max()) + 1 if len(running) else 0
        if not terminal.any():
            return Answer(NONE, detail="no terminal state is reachable")
        end = int(np.flatnonzero(terminal)[np.argmax(longest[terminal])])
        line = self.graph.line_by(end, via)
        return Answer(
            PROVED,
            line.depth,
            self.replays.checked(line, ends_terminal),
            f"no non-terminal state is reachable at depth {self.deepest} "
            f"({self.graph.count:,} reachable states, every one searched)",
        )

    def outcomes(self) -> Outcomes:
        """The goal vector of every reachable terminal state, each with a shortest line."""
        self.progress("outcomes")
        found = self._outcome_witnesses
        try:
            terminal = np.flatnonzero(self._row(self.system.terminal))
            rows = self._rows(self.conditions.goal_nodes)[:, terminal]
            _, first = np.unique(rows.T, axis=0, return_index=True)
            for column in sorted(first.tolist()):
                vector = self.conditions.vector_of(rows[:, column].tolist())
                if vector not in found:
                    line = self.graph.line_to(int(terminal[column]))
                    found[vector] = self.replays.checked(line, ends_with_goals(vector))
            complete = True
        except OutOfBudget:
            complete = False
        return Outcomes(tuple(found), tuple(found.values()), complete)

    def _cycle_answer(self, cycle: list[int]) -> Answer:
        """The game need not end: a shortest line to the cycle's first state, then round it."""
        graph = self.graph
        start = graph.line_to(int(graph.sources[cycle[0]]))
        loop = graph.steps(cycle)
        return self._loop(Line(start.steps + loop), start.depth)

    def _shortest(
        self, condition: int, lower: int = 0, best: Line | None = None, *, counted: bool = False
    ) -> Line | None:
        """The first state of the breadth-first search that satisfies `condition` (no other
        line is shorter: `best` and `counted` have nothing to add)."""
        hits = np.flatnonzero(self._row(condition))
        return self.graph.line_to(int(hits[0])) if len(hits) else None

    def _impossible(self, condition: int) -> bool:
        return not self._row(condition).any()

    def _complete(self) -> bool:
        return True

    def _row(self, literal: int) -> np.ndarray:
        """The value of a circuit literal over fluents in every reachable state (worked out
        once: `terminal` serves three questions)."""
        if literal not in self._known_rows:
            self._known_rows[literal] = self._rows([literal])[0]
        return self._known_rows[literal]

    def _rows(self, literals: list[int]) -> np.ndarray:
        circuit = self.playouts.compiled(self.system, literals, self.budget)
        return self.graph.rows(circuit, self.system, literals, self.budget)
