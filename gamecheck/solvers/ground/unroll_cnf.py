"""The unrolled transition system as CNF in one incremental SAT solver (python-sat).

Gates are Tseitin-encoded; each role's actions get an at-most-one (sequential counter) and,
while the line of play is alive, an at-least-one clause. A query is switched on by an
assumption and retired by a unit clause afterwards, so what the solver learns for one query
serves the next. Time limits run the solver in conflict budgets and check the clock between.
"""

from __future__ import annotations

import itertools
import time

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.pb import PBEnc
from pysat.solvers import Solver

from gamecheck.solvers.ground.transition import TransitionSystem
from gamecheck.solvers.ground.unroll import Unrolling

DEFAULT_SAT_SOLVER = "glucose4"


class CnfUnrolling(Unrolling):
    """Layers of a transition system as clauses of one incremental SAT solver."""

    name = "cnf"

    def __init__(
        self,
        system: TransitionSystem,
        *,
        sat_solver: str = DEFAULT_SAT_SOLVER,
        free_start: bool = False,
        record: bool = False,
    ):
        super().__init__(system, free_start=free_start)
        self.pool = IDPool()
        self.solver = Solver(name=sat_solver)
        self.recorded: list[list[int]] | None = [] if record else None
        self.clause_count = 0

    def close(self) -> None:
        self.solver.delete()

    def new_variable(self) -> int:
        return self.pool.id()

    def _define_and(self, gate: int, literals: tuple[int, ...]) -> None:
        for literal in literals:
            self._clause([-gate, literal])
        self._clause([gate, *(-literal for literal in literals)])

    def _clause(self, literals: list[int]) -> None:
        self.solver.add_clause(literals)
        self.clause_count += 1
        if self.recorded is not None:
            self.recorded.append(literals)

    def _exactly_one_if(self, condition: int, literals: list[int]) -> None:
        self._clause([-condition, *literals])
        for clause in CardEnc.atmost(literals, 1, vpool=self.pool, encoding=EncType.seqcounter):
            self._clause(clause)

    def _linear_if(
        self, condition: int | None, terms: list[tuple[int, int]], low: int, high: int
    ) -> None:
        weights = [weight for weight, _ in terms]
        literals = [literal for _, literal in terms]
        guard = [] if condition is None else [-condition]
        encodings = []
        if low > 0:
            encodings.append(PBEnc.atleast(literals, weights, bound=low, vpool=self.pool))
        if high < sum(weights):
            encodings.append(PBEnc.atmost(literals, weights, bound=high, vpool=self.pool))
        for encoding in encodings:
            for clause in encoding.clauses:
                self._clause(guard + clause)

    def _solve(self, assumptions: list[int], deadline: float | None) -> set[int] | bool | None:
        if deadline is None:
            answer = self.solver.solve(assumptions=assumptions)
        else:
            answer = self._solve_in_budgets(assumptions, deadline)
        if answer is None:
            return None
        if not answer:
            return False
        model = self.solver.get_model()
        self.solver.set_phases(model)  # the next, often deeper, query starts from this line
        return {literal for literal in model if literal > 0}

    def _solve_in_budgets(self, assumptions: list[int], deadline: float) -> bool | None:
        for budget in (10_000 * 2**k for k in itertools.count()):
            if time.monotonic() > deadline:
                return None
            self.solver.conf_budget(budget)
            answer = self.solver.solve_limited(assumptions=assumptions)
            if answer is not None:
                return answer
        raise AssertionError("unreachable")

    def dimacs(self, units: list, comment: str) -> str:
        """The clauses so far (recorded) plus unit clauses, as DIMACS text."""
        clauses = list(self.recorded or [])
        clauses += [[unit] for unit in units if unit is not True]
        if False in units:
            clauses.append([])
        lines = [f"c {comment}", f"p cnf {self.pool.top} {len(clauses)}"]
        lines += [" ".join(map(str, clause)) + " 0" for clause in clauses]
        return "\n".join(lines) + "\n"

    def size(self) -> dict[str, int]:
        return {"variables": self.pool.top, "clauses": self.clause_count}
