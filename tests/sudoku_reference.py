"""An independent sudoku solver for the tests: plain backtracking on the 9x9 grid.

It shares no code with gamecheck: rows, columns and boxes are computed here from scratch.
"""

from __future__ import annotations


def _peers(index: int) -> set[int]:
    row, column = divmod(index, 9)
    box_row, box_column = 3 * (row // 3), 3 * (column // 3)
    same_row = {9 * row + c for c in range(9)}
    same_column = {9 * r + column for r in range(9)}
    same_box = {9 * (box_row + r) + box_column + c for r in range(3) for c in range(3)}
    return (same_row | same_column | same_box) - {index}


PEERS = [_peers(index) for index in range(81)]


def solutions(puzzle: str, cap: int) -> list[str]:
    """Up to `cap` solutions of an 81-character puzzle (`.` or `0` blank), by backtracking."""
    grid = [0 if char in ".0" else int(char) for char in puzzle]
    found: list[str] = []

    def search() -> None:
        best, best_options = None, None
        for index in range(81):
            if grid[index] == 0:
                options = set(range(1, 10)) - {grid[p] for p in PEERS[index]}
                if best_options is None or len(options) < len(best_options):
                    best, best_options = index, options
                if not options:
                    return
        if best is None:
            found.append("".join(map(str, grid)))
            return
        for digit in sorted(best_options):
            grid[best] = digit
            search()
            grid[best] = 0
            if len(found) >= cap:
                return

    search()
    return found


def is_solution_of(solution: str, puzzle: str) -> bool:
    """Whether `solution` keeps the givens of `puzzle` and every row, column and box is 1..9."""
    if any(p not in ".0" and p != s for p, s in zip(puzzle, solution, strict=True)):
        return False
    return all(solution[index] not in {solution[p] for p in PEERS[index]} for index in range(81))
