"""The unrolled transition system as a CP-SAT model (OR-Tools).

Gates are `bool_and` constraints under enforcement literals (gate -> all inputs, not gate ->
some input false); each role's actions get `sum <= 1` and, while the line of play is alive,
`sum == 1`. The model grows with the layers; each query solves a copy with the query's
constraint added, one worker, until the budget ends (then the search is stopped).
"""

from __future__ import annotations

from collections.abc import Container

from ortools.sat.python import cp_model

from gamecheck.budget import Budget, OutOfBudget
from gamecheck.solvers.ground.transition import TransitionSystem
from gamecheck.solvers.ground.unroll import Unrolling
from gamecheck.solvers.sat import Query


class CpSatUnrolling(Unrolling):
    """Layers of a transition system as one CP-SAT model."""

    name = "cpsat"

    def __init__(
        self,
        system: TransitionSystem,
        *,
        workers: int = 1,
        free_start: bool = False,
        record: bool = False,
    ):
        super().__init__(system, free_start=free_start, record=record)
        self.queries: list[Query] = []
        self.model = cp_model.CpModel()
        self.variables: list[cp_model.IntVar] = [None]
        self.workers = workers
        self.constraint_count = 0

    def new_variable(self) -> int:
        self.variables.append(self.model.new_bool_var(f"v{len(self.variables)}"))
        return len(self.variables) - 1

    def _var(self, literal: int):
        variable = self.variables[abs(literal)]
        return variable if literal > 0 else ~variable

    def _define_and(self, gate: int, literals: tuple[int, ...]) -> None:
        inputs = [self._var(literal) for literal in literals]
        self.model.add_bool_and(inputs).only_enforce_if(self._var(gate))
        self.model.add_bool_or([~variable for variable in inputs]).only_enforce_if(~self._var(gate))
        self.constraint_count += 2

    def _clause(self, literals: list[int]) -> None:
        self.model.add_bool_or([self._var(literal) for literal in literals])
        self.constraint_count += 1

    def _exactly_one_if(self, condition: int, literals: list[int]) -> None:
        variables = [self._var(literal) for literal in literals]
        self.model.add_at_most_one(variables)
        self.model.add(sum(variables) == 1).only_enforce_if(self._var(condition))
        self.constraint_count += 2

    def _linear_if(
        self, condition: int | None, terms: list[tuple[int, int]], low: int, high: int
    ) -> None:
        total = sum(weight * self._var(literal) for weight, literal in terms)
        constraint = self.model.add_linear_constraint(total, low, high)
        if condition is not None:
            constraint.only_enforce_if(self._var(condition))
        self.constraint_count += 1

    def _solve(self, assumptions: list[int], budget: Budget, note: str) -> Container[int] | bool:
        answer = "unknown"
        try:
            found = self._solve_copy(assumptions, budget)
            answer = "UNSAT" if found is False else "SAT"
            return found
        finally:
            if self.record:
                self.queries.append(Query(tuple(assumptions), note, answer))

    def _solve_copy(self, assumptions: list[int], budget: Budget) -> Container[int] | bool:
        model = self.model.clone()
        for literal in assumptions:
            model.add_bool_and([self._var(literal)])
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = self.workers
        # Presolve pays off; symmetry detection and probing do not on these models (measured).
        solver.parameters.symmetry_level = 0
        solver.parameters.cp_model_probing_level = 0
        solver.parameters.catch_sigint_signal = False  # Ctrl-C interrupts the budget instead
        budget.check()
        with budget.stopping(solver.stop_search):
            status = solver.solve(model)
        if status == cp_model.INFEASIBLE:
            return False
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            budget.check()
            raise OutOfBudget("CP-SAT stopped without an answer")
        values = solver.response_proto.solution
        return {i for i in range(1, len(self.variables)) if values[self.variables[i].index]}

    def size(self) -> dict[str, int]:
        return {"variables": len(self.variables) - 1, "constraints": self.constraint_count}

    def export(self) -> tuple[str, str]:
        """The model (text format) with the recorded variables named, and the recorded
        queries, one a line: the variables each assumes true, its note and its answer. A
        query is the model plus its assumptions, each asked of a copy."""
        model = self.model.clone()
        for variable, label in self.labels.items():
            model.proto.variables[self.variables[variable].index].name = label
        lines = [
            f"query {number}: {query.note}: {query.answer}; assumes "
            + ", ".join(self._literal_name(literal) for literal in query.assumptions)
            for number, query in enumerate(self.queries, 1)
        ]
        return str(model.proto), "\n".join(lines) + "\n"

    def _literal_name(self, literal: int) -> str:
        name = self.labels.get(abs(literal), f"v{abs(literal)}")
        return name if literal > 0 else f"not ({name})"
