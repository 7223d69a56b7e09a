"""The sudoku cube as a CP-SAT model (OR-Tools).

`int` model: one integer variable 1..9 per cell, AllDifferent on every row, column and box.
`bool` model: one Boolean per (cell, digit), exactly one per cell and per (unit, digit).
The model is built once; a puzzle fixes the domains of the given cells, and the solver
enumerates solutions up to a cap, which decides uniqueness in the same search.
"""

from __future__ import annotations

import time

from ortools.sat.python import cp_model

from gamecheck.models.sudoku import UNITS
from gamecheck.solvers.sudoku.result import SudokuCount

MODELS = ("int", "bool")
DEFAULT_MODEL = "int"


class _StopAtCap(cp_model.CpSolverSolutionCallback):
    def __init__(self, decode, cap: int):
        super().__init__()
        self.decode = decode
        self.cap = cap
        self.solutions: list[tuple[int, ...]] = []

    def on_solution_callback(self) -> None:
        self.solutions.append(self.decode(self))
        if len(self.solutions) >= self.cap:
            self.stop_search()


class CpSatSudokuSolver:
    """Counts the solutions of puzzles up to a cap with CP-SAT, one worker."""

    name = "cpsat"

    def __init__(self, *, model: str = DEFAULT_MODEL):
        if model not in MODELS:
            raise ValueError(f"unknown CP-SAT model {model!r}; choose from {', '.join(MODELS)}")
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

    def count(
        self, cells: tuple[int, ...], *, cap: int = 2, time_limit: float | None = None
    ) -> SudokuCount:
        """Solutions of the puzzle, up to `cap` of them; exhaustive unless cap or time stops it."""
        start = time.perf_counter()
        self._fix_givens(cells)
        try:
            self.solver.parameters.max_time_in_seconds = time_limit or float("inf")
            callback = _StopAtCap(self._decode, cap)
            status = self.solver.solve(self.model, callback)
        finally:
            self._fix_givens([0] * 81)
        seconds = time.perf_counter() - start
        solutions = tuple(callback.solutions)
        if status == cp_model.INFEASIBLE:
            return SudokuCount(self.name, (), True, seconds)
        if status == cp_model.OPTIMAL and len(solutions) < cap:
            return SudokuCount(self.name, solutions, True, seconds)
        timed_out = len(solutions) < cap
        return SudokuCount(self.name, solutions, False, seconds, timed_out)

    def export(self, cells: tuple[int, ...], path: str) -> None:
        """Write the model of this puzzle to `path` (text proto if it ends in .txt/.pbtxt)."""
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
