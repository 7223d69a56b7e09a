"""Solve a sudoku with one or both backends within one budget, cross-check them, and replay
every solution on the game's move generator as it is found (before it counts)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from gamecheck.analysis.replay import ReplayError, replay_line
from gamecheck.budget import Budget
from gamecheck.errors import BadPuzzleError, CrossCheckFailure, GamecheckError
from gamecheck.files import input_name, read_text
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


GRID_SEPARATORS = " \t|-+"
"""Characters a drawn grid may have between its cells (`5 3 . | . 7 .`, `------+------`)."""


@dataclass(frozen=True)
class Puzzle:
    """A puzzle read from a file: its 81 digits (0 = blank) and where it was written."""

    givens: tuple[int, ...]
    file: str
    line: int
    """The line where it starts."""

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


def read_puzzles(path: str, limit: int | None = None) -> list[Puzzle]:
    """The puzzles of a file (`-`: the standard input), at most `limit`; see parse_puzzles."""
    return parse_puzzles(read_text(path), input_name(path), limit)


def parse_puzzles(text: str, file: str = "<text>", limit: int | None = None) -> list[Puzzle]:
    """The puzzles written in `text`, in order: each as one line of 81 characters or as a
    grid of 9 lines of 9 (`1`-`9` givens, `.` or `0` blanks; spaces, `|`, `-` and `+`
    between cells are ignored, so a drawn grid reads too); `#` starts a comment.
    BadPuzzleError naming file:line for anything else, or if there is no puzzle."""
    puzzles: list[Puzzle] = []
    rows: list[str] = []
    start = 0
    for number, line in enumerate(text.splitlines(), start=1):
        cells = "".join(c for c in line.split("#", 1)[0] if c not in GRID_SEPARATORS)
        if not cells:
            continue
        if len(cells) == 81 and not rows:
            puzzles.append(_puzzle(cells, file, number))
        elif len(cells) == 9:
            start = start if rows else number
            rows.append(cells)
            if len(rows) == 9:
                puzzles.append(_puzzle("".join(rows), file, start))
                rows = []
        else:
            grid = f" (row {len(rows) + 1} of the grid begun on line {start})" if rows else ""
            raise BadPuzzleError(
                f"{file}:{number}: a puzzle is a line of 81 cells or 9 lines of 9 cells, "
                f"but this line has {len(cells)} cells{grid}"
            )
        if limit and len(puzzles) >= limit:
            return puzzles
    if rows:
        raise BadPuzzleError(f"{file}:{start}: the grid begun here has {len(rows)} rows, not 9")
    if not puzzles:
        raise BadPuzzleError(f"{file} holds no puzzle")
    return puzzles


def _puzzle(cells: str, file: str, line: int) -> Puzzle:
    try:
        return Puzzle(parse_puzzle(cells), file, line)
    except BadPuzzleError as error:
        raise BadPuzzleError(f"{file}:{line}: {error}") from None


def read_puzzle_file(path: str, limit: int | None = None) -> list[tuple[int, ...]]:
    """The givens of the puzzles of a file (see parse_puzzles)."""
    return [puzzle.givens for puzzle in read_puzzles(path, limit)]


def bench_backend(
    backend,
    puzzles,
    *,
    budget: Budget | None = None,
    progress: bool = True,
    solutions: dict[int, tuple[int, ...] | None] | None = None,
) -> dict:
    """Decide uniqueness of every puzzle with one backend, until `budget` runs out: how many
    puzzles were decided, unique, without solution, and puzzles per second. `solutions`, if
    given, gets for each puzzle decided (by its index) its first solution, or None if it has
    none (a puzzle already there is kept)."""
    from tqdm import tqdm

    budget = budget or Budget()
    decided = unique = no_solution = 0
    start = time.perf_counter()
    disable = None if progress is None else not progress
    bar = tqdm(puzzles, desc=backend.name, unit="puzzle", leave=False, disable=disable)
    for index, cells in enumerate(bar):
        count = backend.count(cells, budget=budget)
        if count.timed_out:
            break
        if solutions is not None and solutions.get(index) is None:
            solutions[index] = count.solutions[0] if count.solutions else None
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
