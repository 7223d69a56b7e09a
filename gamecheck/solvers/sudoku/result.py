"""What a sudoku backend found: the solutions up to a cap, and whether the count is proved."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SudokuCount:
    """Solutions found (at most the cap asked for) and whether the search was exhaustive.

    `exhausted` means the solver proved there is no solution beyond those listed, so the
    count is exact; otherwise the cap or a time limit stopped it.
    """

    backend: str
    solutions: tuple[tuple[int, ...], ...]
    exhausted: bool
    seconds: float
    timed_out: bool = False

    @property
    def unique(self) -> bool | None:
        """True if proved unique, False if two or more solutions were found, None if unknown."""
        if len(self.solutions) >= 2:
            return False
        if self.exhausted:
            return len(self.solutions) == 1
        return None

    @property
    def status(self) -> str:
        """`solved`, `no solution` (proved) or `unknown` (time ran out before any solution)."""
        if self.solutions:
            return "solved"
        return "no solution" if self.exhausted else "unknown"
