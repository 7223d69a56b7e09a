"""The unrolled transition system as CNF in one incremental SAT solver (solvers/sat.py).

Gates are Tseitin-encoded; each role's actions get an at-most-one (sequential counter) and,
while the line of play is alive, an at-least-one clause. A query is switched on by an
assumption and retired by a unit clause afterwards, so what the solver learns for one query
serves the next.
"""

from __future__ import annotations

from collections.abc import Container, Sequence

import numpy as np

from gamecheck.budget import Budget
from gamecheck.solvers.ground.transition import TransitionSystem
from gamecheck.solvers.ground.unroll import Unrolling
from gamecheck.solvers.sat import Clauses


class CnfUnrolling(Unrolling):
    """Layers of a transition system as clauses of one incremental SAT solver."""

    name = "cnf"

    def __init__(
        self,
        system: TransitionSystem,
        *,
        sat_solver: str | None = None,
        free_start: bool = False,
        record: bool = False,
        frozen: Sequence[int] = (),
    ):
        super().__init__(system, free_start=free_start, record=record, frozen=frozen)
        self.clauses = Clauses(sat_solver, record=record)
        self.sat_solver = sat_solver

    def fresh_start(self, frozen: Sequence[int] = ()) -> CnfUnrolling:
        """A new free-start unrolling of the same system and kind of solver, whose steps
        keep the `frozen` fluents (close it after use)."""
        return CnfUnrolling(self.system, sat_solver=self.sat_solver, free_start=True, frozen=frozen)

    def __enter__(self) -> CnfUnrolling:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.clauses.close()

    def new_variable(self) -> int:
        return self.clauses.new_variable()

    def _define_and(self, gate: int, literals: tuple[int, ...]) -> None:
        self.clauses.define_and(gate, literals)

    def _new_variables(self, count: int) -> np.ndarray:
        return self.clauses.new_variables(count)

    def _define_ands(self, gates: np.ndarray, inputs: np.ndarray, counts: np.ndarray) -> None:
        self.clauses.define_ands(gates, inputs, counts)

    def _clause(self, literals: list[int]) -> None:
        self.clauses.add(literals)

    def _exactly_one_if(self, condition: int, literals: list[int]) -> None:
        self.clauses.exactly_one_if(condition, literals)

    def _linear_if(
        self, condition: int | None, terms: list[tuple[int, int]], low: int, high: int
    ) -> None:
        self.clauses.linear_if(condition, terms, low, high)

    def _solve(self, assumptions: list[int], budget: Budget, note: str) -> Container[int] | bool:
        return self.clauses.solve(assumptions, budget, note)

    def _retire(self, query: int) -> None:
        self.clauses.add([-query])

    def icnf(self, comment: str) -> str:
        """Every clause and query so far (recorded) as incremental CNF, variables named."""
        return self.clauses.icnf(comment, self.labels)

    def size(self) -> dict[str, int]:
        return self.clauses.size()
