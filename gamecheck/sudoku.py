"""Sudoku from Python: what `gamecheck sudoku solve` does, as a call.

A puzzle is a built-in instance's name (`"grade3"`), 81 characters (`1`-`9` givens, `.`
or `0` blanks, row by row) or a SudokuGame. Each backend counts solutions up to `count`;
every solution is replayed on the game's move generator before it counts, and the
backends are checked against each other. The answer's `to_json()` is what
`gamecheck sudoku solve --json` prints.

>>> from gamecheck import sudoku
>>> answer = sudoku.solve("grade1")
>>> answer.status, answer.unique, answer.complete
('solved', True, True)
>>> "".join(map(str, answer.solutions[0][:9]))
'935476218'
>>> answer.to_json()["kind"], sorted(answer.to_json()["backends"])
('sudoku_answer', ['cnf', 'cpsat'])
>>> sudoku.solve("12345678." + "........9" + "." * 63, backend="cnf").status
'no solution'
"""

from __future__ import annotations

import math

from gamecheck.analysis.sudoku_solve import SudokuAnswer, make_backends
from gamecheck.analysis.sudoku_solve import solve as solve_game
from gamecheck.budget import Budget
from gamecheck.errors import GamecheckError
from gamecheck.models.sudoku import INSTANCES, SudokuGame, make_game


def solve(
    puzzle: str | SudokuGame,
    *,
    backend: str = "both",
    count: int = 2,
    time_limit: float | None = None,
    sat_solver: str | None = None,
    encoding: str | None = None,
    cpsat_model: str | None = None,
) -> SudokuAnswer:
    """Solve `puzzle` with the CNF backend, the CP-SAT backend or `both`, counting solutions
    up to `count` (2 decides uniqueness), within `time_limit` seconds for everything."""
    if not isinstance(count, int) or count < 1:
        raise GamecheckError(f"count must be a whole number >= 1, not {count!r}")
    if time_limit is not None and not 0 < time_limit < math.inf:
        raise GamecheckError(f"time_limit must be a number of seconds > 0, not {time_limit!r}")
    backends = make_backends(
        backend, sat_solver=sat_solver, encoding=encoding, cpsat_model=cpsat_model
    )
    return solve_game(puzzle_game(puzzle), backends, cap=count, budget=Budget(time_limit))


def puzzle_game(puzzle: str | SudokuGame) -> SudokuGame:
    """The game of a puzzle given as an instance name, 81 characters or a SudokuGame."""
    if isinstance(puzzle, SudokuGame):
        return puzzle
    if puzzle in INSTANCES:
        return make_game(puzzle)
    return SudokuGame(puzzle, "puzzle")
