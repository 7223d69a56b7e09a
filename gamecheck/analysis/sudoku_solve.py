"""Solve a sudoku with one or both backends, cross-check them, and replay the solutions."""

from __future__ import annotations

import time
from dataclasses import dataclass

from tqdm import tqdm

from gamecheck.analysis.files import read_text
from gamecheck.analysis.replay import ReplayError, replay_line
from gamecheck.errors import BadPuzzleError, CrossCheckFailure
from gamecheck.models.sudoku import WIN, SudokuGame, cell_coordinates, parse_puzzle
from gamecheck.solvers.sudoku.cnf import CnfSudokuSolver
from gamecheck.solvers.sudoku.cpsat import CpSatSudokuSolver
from gamecheck.solvers.sudoku.result import SudokuCount

BACKENDS = ("cnf", "cpsat")


class BackendDisagreement(CrossCheckFailure):
    """The two backends contradict each other: a bug in gamecheck, not bad input."""


@dataclass(frozen=True)
class SudokuAnswer:
    """The outcome of solving one puzzle: per-backend counts, the agreed answer, the replay."""

    game: SudokuGame
    counts: tuple[SudokuCount, ...]
    replayed: bool

    @property
    def solutions(self) -> tuple[tuple[int, ...], ...]:
        """The solutions found, the most any backend found, first found first."""
        return max((count.solutions for count in self.counts), key=len)

    @property
    def unique(self) -> bool | None:
        known = {count.unique for count in self.counts} - {None}
        return known.pop() if known else None

    @property
    def exhausted(self) -> bool:
        return any(count.exhausted for count in self.counts)

    @property
    def status(self) -> str:
        """`solved`, `no solution` (proved) or `unknown`."""
        if self.solutions:
            return "solved"
        return "no solution" if self.exhausted else "unknown"


def make_backend(
    name: str,
    *,
    sat_solver: str | None = None,
    encoding: str | None = None,
    cpsat_model: str | None = None,
):
    """A reusable solver for backend `name` (`cnf` or `cpsat`) with the chosen options."""
    if name == "cnf":
        options = {"sat_solver": sat_solver, "encoding": encoding}
        return CnfSudokuSolver(**{key: value for key, value in options.items() if value})
    return CpSatSudokuSolver(**({"model": cpsat_model} if cpsat_model else {}))


def solve(
    game: SudokuGame, backends, *, cap: int = 2, time_limit: float | None = None
) -> SudokuAnswer:
    """Count solutions up to `cap` with each backend, check they agree, replay every solution."""
    counts = tuple(
        backend.count(game.givens, cap=cap, time_limit=time_limit) for backend in backends
    )
    check_agreement(counts)
    for count in counts:
        for solution in count.solutions:
            replay_solution(game, solution)
    return SudokuAnswer(game, counts, replayed=any(count.solutions for count in counts))


def check_agreement(counts: tuple[SudokuCount, ...]) -> None:
    """Raise BackendDisagreement if one backend's proof contradicts another's finding."""
    for proved in counts:
        if not proved.exhausted:
            continue
        for other in counts:
            if len(other.solutions) > len(proved.solutions) or (
                other.exhausted and set(other.solutions) != set(proved.solutions)
            ):
                raise BackendDisagreement(
                    f"{proved.backend} proved {len(proved.solutions)} solution(s) but "
                    f"{other.backend} found {len(other.solutions)} different or more"
                )


def solution_steps(givens: tuple[int, ...], solution: tuple[int, ...]) -> list[list[str]]:
    """The joint actions that fill the blanks of `givens` with `solution`, row by row."""
    return [
        ["(mark {} {} {} {} {})".format(*cell_coordinates(index), digit)]
        for index, digit in enumerate(solution)
        if not givens[index]
    ]


def replay_solution(game: SudokuGame, solution: tuple[int, ...]) -> None:
    """Replay a solution as legal marks; ReplayError unless it ends terminal with goal 100."""
    replay = replay_line(game, solution_steps(game.givens, solution))
    if not replay.terminal or replay.goals != (WIN,):
        raise ReplayError(
            f"{game.name}: the solution replays to a state that is not a win "
            f"(terminal={replay.terminal}, goals={replay.goals})"
        )


def read_puzzle_file(path: str, limit: int | None = None) -> list[tuple[int, ...]]:
    """The puzzles of a file with one 81-character puzzle per line and # comments."""
    puzzles = []
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        text = line.split("#")[0].strip()
        if not text:
            continue
        try:
            puzzles.append(parse_puzzle(text))
        except BadPuzzleError as error:
            raise BadPuzzleError(f"{path} line {number}: {error}") from None
        if limit and len(puzzles) >= limit:
            break
    if not puzzles:
        raise BadPuzzleError(f"{path} holds no puzzle")
    return puzzles


def bench_backend(
    backend, puzzles, *, time_limit: float | None = None, progress: bool = True
) -> dict:
    """Decide uniqueness of every puzzle with one backend; counts and puzzles per second."""
    unique = no_solution = 0
    start = time.perf_counter()
    bar = tqdm(puzzles, desc=backend.name, unit="puzzle", leave=False, disable=not progress)
    for cells in bar:
        count = backend.count(cells, time_limit=time_limit)
        unique += count.unique is True
        no_solution += count.status == "no solution"
    seconds = time.perf_counter() - start
    return {
        "puzzles": len(puzzles),
        "seconds": round(seconds, 3),
        "puzzles_per_second": round(len(puzzles) / seconds, 1),
        "unique_count": unique,
        "no_solution_count": no_solution,
    }
