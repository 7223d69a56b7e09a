"""The sudoku cube as a CP-SAT model (OR-Tools).

`int` model: one integer variable 1..9 per cell, AllDifferent on every row, column and box.
`bool` model: one Boolean per (cell, digit), exactly one per cell and per (unit, digit).
The model is built once; a puzzle fixes the domains of the given cells, and the solver
enumerates solutions up to a cap, which decides uniqueness in the same search. The budget
stops the search (Ctrl-C goes to the budget, not to OR-Tools).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ortools.sat.python import cp_model

from gamecheck.budget import Budget
from gamecheck.errors import GamecheckError
from gamecheck.models.sudoku import UNITS
from gamecheck.solvers.sudoku import DEFAULT_MODEL, MODELS
from gamecheck.solvers.sudoku.result import SudokuCount

Solution = tuple[int, ...]


class _StopAtCap(cp_model.CpSolverSolutionCallback):
    """Collects solutions (each passed to `accept` first) and stops the search at the cap or
    when `accept` raises; the error is kept to be raised once the solver has returned."""

    def __init__(self, decode, cap: int, accept: Callable[[Solution], object] | None):
        super().__init__()
        self.decode = decode
        self.cap = cap
        self.accept = accept
        self.solutions: list[Solution] = []
        self.error: BaseException | None = None

    def on_solution_callback(self) -> None:
        solution = self.decode(self)
        try:
            if self.accept is not None:
                self.accept(solution)
        except BaseException as error:  # raised again in the caller's thread
            self.error = error
            self.stop_search()
            return
        self.solutions.append(solution)
        if len(self.solutions) >= self.cap:
            self.stop_search()


class CpSatSudokuSolver:
    """Counts the solutions of puzzles up to a cap with CP-SAT, one worker."""

    name = "cpsat"

    def __init__(self, *, model: str = DEFAULT_MODEL):
        if model not in MODELS:
            raise GamecheckError(
                f"unknown CP-SAT model {model!r}; the models are {', '.join(MODELS)}"
            )
        self.model_kind = model
        self.model = cp_model.CpModel()
        if model == "int":
            self.digits = [self.model.new_int_var(1, 9, f"cell_{i}") for i in range(81)]
            for _, cells in UNITS:
                self.model.add_all_different([self.digits[i] for i in cells])
        else:
            self.holds = [
                [self.model.new_bool_var(f"cell_{i}_is_{d}") for d in range(1, 10)]
                for i in range(81)
            ]
            for literals in self.holds:
                self.model.add_exactly_one(literals)
            for _, cells in UNITS:
                for d in range(9):
                    self.model.add_exactly_one([self.holds[i][d] for i in cells])
        self.solver = cp_model.CpSolver()
        self.solver.parameters.num_workers = 1
        self.solver.parameters.enumerate_all_solutions = True
        self.solver.parameters.catch_sigint_signal = False  # Ctrl-C interrupts the budget

    def count(
        self,
        cells: tuple[int, ...],
        *,
        cap: int = 2,
        budget: Budget | None = None,
        accept: Callable[[Solution], object] | None = None,
    ) -> SudokuCount:
        """Solutions of the puzzle, up to `cap` of them; exhaustive unless the cap or the
        budget stops it. `accept` is called on each solution before it counts (a check that
        raises to reject it)."""
        budget = budget or Budget()
        start = time.perf_counter()
        callback = _StopAtCap(self._decode, cap, accept)
        if budget.expired:
            return SudokuCount(self.name, (), False, 0.0, True)
        self._fix_givens(cells)
        try:
            self.solver.parameters.max_time_in_seconds = budget.remaining()
            with budget.stopping(self.solver.stop_search):
                status = self.solver.solve(self.model, callback)
        finally:
            self._fix_givens([0] * 81)
        if callback.error is not None:
            raise callback.error
        seconds = time.perf_counter() - start
        solutions = tuple(callback.solutions)
        if status == cp_model.INFEASIBLE:
            return SudokuCount(self.name, (), True, seconds)
        if status == cp_model.OPTIMAL and len(solutions) < cap and not budget.expired:
            return SudokuCount(self.name, solutions, True, seconds)
        timed_out = len(solutions) < cap
        return SudokuCount(self.name, solutions, False, seconds, timed_out)

    def export(self, cells: tuple[int, ...], path: str) -> None:
        """Write the model of this puzzle to `path` (text proto if it ends in .txt/.pbtxt);
        OSError if it cannot be written."""
        self._fix_givens(cells)
        try:
            if not self.model.export_to_file(path):
                raise OSError(f"could not write the CP-SAT model to {path}")
        finally:
            self._fix_givens([0] * 81)

    def _fix_givens(self, cells) -> None:
        """Narrow given cells to their digit; a 0 restores the full domain."""
        proto = self.model.proto
        for index, digit in enumerate(cells):
            if self.model_kind == "int":
                domain = proto.variables[self.digits[index].index].domain
                domain[0], domain[1] = (digit, digit) if digit else (1, 9)
            else:
                for d, literal in enumerate(self.holds[index], start=1):
                    domain = proto.variables[literal.index].domain
                    domain[0] = 1 if digit == d else 0
                    domain[1] = 0 if digit and digit != d else 1

    def _decode(self, values: cp_model.CpSolverSolutionCallback) -> tuple[int, ...]:
        if self.model_kind == "int":
            return tuple(values.value(var) for var in self.digits)
        return tuple(
            next(d for d, literal in enumerate(row, start=1) if values.boolean_value(literal))
            for row in self.holds
        )
