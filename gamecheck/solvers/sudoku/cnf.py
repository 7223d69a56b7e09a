"""The sudoku cube as CNF, solved by one reused SAT solver (python-sat, through the one SAT
layer gamecheck.solvers.sat: its default solver, and the budget that stops a call).

Variable `9*(9r+c) + d` (1-based, d in 1..9) says that the cell in row r, column c
(0-based) holds digit d. Givens are passed as assumptions, so one solver serves a whole
file of puzzles and keeps what it learned; each query's blocking clauses carry a fresh
activation literal and are switched off for good once the query is answered.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable

from pysat.formula import CNF
from pysat.solvers import Solver

from gamecheck.budget import Budget, OutOfBudget
from gamecheck.errors import GamecheckError
from gamecheck.models.sudoku import UNITS
from gamecheck.solvers.sat import check_sat_solver, solve_within
from gamecheck.solvers.sudoku import DEFAULT_ENCODING, ENCODINGS
from gamecheck.solvers.sudoku.result import SudokuCount

CELL_VARIABLES = 729
Solution = tuple[int, ...]


def variable(index: int, digit: int) -> int:
    """The variable saying that cell `index` (row-major) holds `digit`."""
    return 9 * index + digit


def sudoku_clauses(encoding: str = DEFAULT_ENCODING) -> list[list[int]]:
    """The rules of sudoku as clauses.

    `minimal`: every cell has a digit, no digit twice in a unit. `efficient` adds: at most
    one digit per cell. `extended` adds: every digit somewhere in every unit.
    """
    if encoding not in ENCODINGS:
        raise GamecheckError(
            f"unknown CNF encoding {encoding!r}; the encodings are {', '.join(ENCODINGS)}"
        )
    clauses = [[variable(index, d) for d in range(1, 10)] for index in range(81)]
    for _, cells in UNITS:
        for d in range(1, 10):
            clauses += _at_most_one(variable(index, d) for index in cells)
    if encoding in ("efficient", "extended"):
        for index in range(81):
            clauses += _at_most_one(variable(index, d) for d in range(1, 10))
    if encoding == "extended":
        for _, cells in UNITS:
            clauses += [[variable(index, d) for index in cells] for d in range(1, 10)]
    return clauses


def given_literals(cells: tuple[int, ...]) -> list[int]:
    """One positive literal per given digit."""
    return [9 * index + digit for index, digit in enumerate(cells) if digit]


def puzzle_cnf(cells: tuple[int, ...], encoding: str = DEFAULT_ENCODING) -> CNF:
    """The puzzle as a standalone CNF: the rules plus a unit clause per given."""
    formula = CNF(from_clauses=sudoku_clauses(encoding))
    formula.extend([literal] for literal in given_literals(cells))
    formula.comments = [f"c sudoku ({encoding} encoding): variable 9*(9*row+column)+digit"]
    return formula


class CnfSudokuSolver:
    """Counts the solutions of puzzles up to a cap with one incremental SAT solver."""

    name = "cnf"
    queries_per_solver = 1000
    """Each query leaves one retired activation variable behind; after this many queries the
    SAT solver is rebuilt so that models stay short."""

    def __init__(self, *, encoding: str = DEFAULT_ENCODING, sat_solver: str | None = None):
        self.encoding = encoding
        self.sat_solver = check_sat_solver(sat_solver)
        self._clauses = sudoku_clauses(encoding)
        self._solver = Solver(name=self.sat_solver, bootstrap_with=self._clauses)
        self._next_free = CELL_VARIABLES + 1

    def __enter__(self) -> CnfSudokuSolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._solver.delete()

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
        activation = self._fresh_activation()
        assumptions = given_literals(cells) + [activation]
        solutions: list[Solution] = []
        try:
            while len(solutions) < cap:
                if not solve_within(self._solver, assumptions, budget):
                    return SudokuCount(self.name, tuple(solutions), True, _since(start))
                true_cells = [lit for lit in self._solver.get_model()[:CELL_VARIABLES] if lit > 0]
                solution = tuple((lit - 1) % 9 + 1 for lit in true_cells)
                if accept is not None:
                    accept(solution)
                solutions.append(solution)
                self._solver.add_clause([-activation] + [-lit for lit in true_cells])
        except OutOfBudget:
            return SudokuCount(self.name, tuple(solutions), False, _since(start), True)
        finally:
            self._solver.add_clause([-activation])
        return SudokuCount(self.name, tuple(solutions), False, _since(start))

    def _fresh_activation(self) -> int:
        if self._next_free > CELL_VARIABLES + self.queries_per_solver:
            self._solver.delete()
            self._solver = Solver(name=self.sat_solver, bootstrap_with=self._clauses)
            self._next_free = CELL_VARIABLES + 1
        self._next_free += 1
        return self._next_free - 1


def _at_most_one(literals: Iterable[int]) -> list[list[int]]:
    return [[-a, -b] for a, b in itertools.combinations(list(literals), 2)]


def _since(start: float) -> float:
    return time.perf_counter() - start
