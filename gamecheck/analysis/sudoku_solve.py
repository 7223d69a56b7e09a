"""Solve a sudoku with one or both backends within one budget, cross-check them, and replay
every solution on the game's move generator as it is found (before it counts)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from gamecheck.analysis.files import read_text
from gamecheck.analysis.replay import ReplayError, replay_line
from gamecheck.budget import Budget
from gamecheck.errors import BadPuzzleError, CrossCheckFailure, GamecheckError
from gamecheck.models.sudoku import WIN, SudokuGame, cell_coordinates, parse_puzzle
from gamecheck.schema import stamped
from gamecheck.solvers.sudoku import BACKENDS
from gamecheck.solvers.sudoku.result import SudokuCount

SOLVED, NO_SOLUTION, UNKNOWN = "solved", "no solution", "unknown"


class BackendDisagreement(CrossCheckFailure):
    """The two backends contradict each other: a bug in gamecheck, not bad input."""


@dataclass(frozen=True)
class SudokuAnswer:
    """The outcome of solving one puzzle: per-backend counts, the agreed answer, the replay."""

    game: SudokuGame
    counts: tuple[SudokuCount, ...]
    replayed: bool
    """Whether solutions were found, every one replayed as legal marks ending in a win."""

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
            return SOLVED
        return NO_SOLUTION if self.exhausted else UNKNOWN

    @property
    def timed_out(self) -> list[str]:
        """The backends the budget stopped before they answered what was asked."""
        return [count.backend for count in self.counts if count.timed_out]

    @property
    def complete(self) -> bool:
        """Whether every backend answered: the count is proved exact or reached the cap."""
        return not self.timed_out

    def to_json(self) -> dict:
        solutions = self.solutions
        return stamped(
            "sudoku_answer",
            {
                "instance": self.game.instance,
                "puzzle": "".join(str(d) if d else "." for d in self.game.givens),
                "status": self.status,
                "solution": "".join(map(str, solutions[0])) if solutions else None,
                "solutions_found": len(solutions),
                "count_exact": self.exhausted,
                "unique": self.unique,
                "complete": self.complete,
                "replayed": self.replayed,
                "backends": {
                    count.backend: {
                        "status": count.status,
                        "solutions_found": len(count.solutions),
                        "unique": count.unique,
                        "timed_out": count.timed_out,
                        "seconds": round(count.seconds, 6),
                    }
                    for count in self.counts
                },
            },
        )


def make_backend(
    name: str,
    *,
    sat_solver: str | None = None,
    encoding: str | None = None,
    cpsat_model: str | None = None,
):
    """A reusable solver for backend `name` (`cnf` or `cpsat`) with the chosen options;
    GamecheckError for an unknown name or option."""
    if name == "cnf":
        from gamecheck.solvers.sudoku.cnf import CnfSudokuSolver

        options = {"sat_solver": sat_solver, "encoding": encoding}
        return CnfSudokuSolver(**{key: value for key, value in options.items() if value})
    if name == "cpsat":
        from gamecheck.solvers.sudoku.cpsat import CpSatSudokuSolver

        return CpSatSudokuSolver(**({"model": cpsat_model} if cpsat_model else {}))
    raise GamecheckError(f"unknown sudoku backend {name!r}; the backends are {', '.join(BACKENDS)}")


def make_backends(backend: str = "both", **options) -> list:
    """The solvers of `backend` (`cnf`, `cpsat` or `both`), made with `options` (see
    make_backend); GamecheckError for an unknown backend or option."""
    names = BACKENDS if backend == "both" else (backend,)
    return [make_backend(name, **options) for name in names]


def solve(
    game: SudokuGame, backends: Sequence, *, cap: int = 2, budget: Budget | None = None
) -> SudokuAnswer:
    """Count solutions up to `cap` with each backend in turn (each gets an equal share of
    the time left), replaying every solution found as it comes; check that they agree."""
    budget = budget or Budget()
    replayed: set[tuple[int, ...]] = set()

    def accept(solution: tuple[int, ...]) -> None:
        if solution not in replayed:
            replay_solution(game, solution)
            replayed.add(solution)

    counts = []
    for left, backend in zip(range(len(backends), 0, -1), backends, strict=True):
        part = budget.part(share=1 / left)
        counts.append(backend.count(game.givens, cap=cap, budget=part, accept=accept))
    counts = tuple(counts)
    check_agreement(counts)
    return SudokuAnswer(game, counts, replayed=bool(replayed))


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


def bench_backend(backend, puzzles, *, budget: Budget | None = None, progress: bool = True) -> dict:
    """Decide uniqueness of every puzzle with one backend, until `budget` runs out: how many
    puzzles were decided, unique, without solution, and puzzles per second."""
    from tqdm import tqdm

    budget = budget or Budget()
    decided = unique = no_solution = 0
    start = time.perf_counter()
    disable = None if progress is None else not progress
    bar = tqdm(puzzles, desc=backend.name, unit="puzzle", leave=False, disable=disable)
    for cells in bar:
        count = backend.count(cells, budget=budget)
        if count.timed_out:
            break
        decided += 1
        unique += count.unique is True
        no_solution += count.status == NO_SOLUTION
    bar.close()
    seconds = time.perf_counter() - start
    return {
        "puzzles": len(puzzles),
        "decided": decided,
        "seconds": round(seconds, 3),
        "puzzles_per_second": round(decided / seconds, 1) if seconds else 0.0,
        "unique_count": unique,
        "no_solution_count": no_solution,
    }
