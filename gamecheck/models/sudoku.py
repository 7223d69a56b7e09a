"""Sudoku as a one-role GGP game (RULES.md section 4).

Cells are addressed `(i j k l)`, each coordinate 1..3: cells sharing (k l) form a row
(row 3(k-1)+l), cells sharing (i j) a column (3(i-1)+j), cells sharing (i k) a 3x3 box.
Internally a state is 81 digits in row-major order, 0 for a blank.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gamecheck.errors import BadPuzzleError, BadTermError, GamecheckError
from gamecheck.gdl.terms import parse_term
from gamecheck.models.base import Board, Game

ROLE = "robot"
WIN, LOSS = 100, 0
DIGITS = range(1, 10)

INSTANCES = {
    "grade1": "9.......872.....64...528...35.8.7.21....4....46.2.5.89...931...68.....325.......7",
    "grade2": ".1.....2.9.5...7..8..2.7..65..691......4.5......382..12..1.6..5..3...8.2.4.....7.",
    "grade3": "3.......5...9.....2.6.85..7..2.9.1..7.5.6.9.8..4.5.7..5..61.8.2.....2...4.......6",
    "grade4": "...3.......97.15..5.4.....24.....8.3.6.214.9.1.7.....66.....2.9..24.56.......6...",
    "grade5": ".........1...8...65..1.23.747.8.6.3...3...8...1.5.3.926.54.7..17...5...3.........",
    "grade6E": "...3.7..5.6.2...4........81...6..2..4...5....1.........2....3......4........1....",
    "grade6H": ".81....3....9..8..25..............519..6..............3.....2.....45........81...",
}
DEFAULT_INSTANCE = "grade1"


def _units() -> list[tuple[str, list[int]]]:
    rows = [(f"row {r + 1}", [9 * r + c for c in range(9)]) for r in range(9)]
    columns = [(f"column {c + 1}", [9 * r + c for r in range(9)]) for c in range(9)]
    boxes = [
        (
            f"box {b + 1}",
            [9 * (3 * (b // 3) + i) + 3 * (b % 3) + j for i in range(3) for j in range(3)],
        )
        for b in range(9)
    ]
    return rows + columns + boxes


UNITS = _units()
"""The 27 units (name, 9 cell indices): rows, then columns, then boxes."""
PEERS = tuple(
    tuple(sorted({p for _, cells in UNITS if i in cells for p in cells} - {i})) for i in range(81)
)
"""For each cell index, the 20 other cells sharing its row, column or box."""


def cell_index(i: int, j: int, k: int, l: int) -> int:  # noqa: E741 (RULES.md's names)
    """Row-major index of cell (i j k l): row 3(k-1)+l, column 3(i-1)+j."""
    return 9 * (3 * (k - 1) + l - 1) + 3 * (i - 1) + j - 1


def cell_coordinates(index: int) -> tuple[int, int, int, int]:
    """The (i j k l) address of a row-major cell index."""
    row, column = divmod(index, 9)
    return column // 3 + 1, column % 3 + 1, row // 3 + 1, row % 3 + 1


@dataclass(frozen=True, slots=True)
class Mark:
    """The action `(mark i j k l d)`: write digit d into the blank cell at `index`."""

    index: int
    digit: int

    def __str__(self) -> str:
        i, j, k, l = cell_coordinates(self.index)  # noqa: E741
        return f"(mark {i} {j} {k} {l} {self.digit})"


@dataclass(frozen=True, slots=True)
class SudokuState:
    """81 digits in row-major order, 0 for a blank cell."""

    cells: tuple[int, ...]

    @property
    def blanks(self) -> int:
        return self.cells.count(0)


def parse_puzzle(text: str) -> tuple[int, ...]:
    """The 81 digits (0 = blank) of a puzzle written as 81 characters `1`-`9`, `.` or `0`."""
    puzzle = text.strip()
    if len(puzzle) != 81:
        raise BadPuzzleError(f"a puzzle has 81 characters, this one has {len(puzzle)}")
    for position, char in enumerate(puzzle, start=1):
        if char not in "123456789.0":
            raise BadPuzzleError(
                f"character {position} of the puzzle is {char!r}; "
                "use 1-9 for givens, . or 0 for blanks"
            )
    cells = tuple(0 if char in ".0" else int(char) for char in puzzle)
    clash = first_clash(cells)
    if clash:
        raise BadPuzzleError(f"the givens clash: {clash}")
    return cells


def first_clash(cells: tuple[int, ...]) -> str | None:
    """A sentence naming a digit given twice in one unit, or None if there is none."""
    for unit, indices in UNITS:
        seen: set[int] = set()
        for index in indices:
            digit = cells[index]
            if digit and digit in seen:
                return f"{digit} appears twice in {unit}"
            seen.add(digit)
    return None


def grid_text(cells: Iterable[int]) -> str:
    """A 9x9 picture of the grid with box rules, `.` for blanks."""
    cells = tuple(cells)
    lines = []
    for row in range(9):
        if row in (3, 6):
            lines.append("------+-------+------")
        digits = [str(d) if d else "." for d in cells[9 * row : 9 * row + 9]]
        lines.append(" | ".join(" ".join(digits[b : b + 3]) for b in (0, 3, 6)))
    return "\n".join(lines)


def candidates(cells: tuple[int, ...], index: int) -> list[int]:
    """The digits that may go into cell `index`: those not yet in its row, column or box."""
    used = {cells[peer] for peer in PEERS[index]}
    return [digit for digit in DIGITS if digit not in used]


class SudokuGame(Game):
    """One sudoku instance played by the role `robot`."""

    roles = (ROLE,)

    def __init__(self, puzzle: str = INSTANCES[DEFAULT_INSTANCE], instance: str | None = None):
        self.givens = parse_puzzle(puzzle)
        self.instance = instance
        self.name = f"sudoku:{instance}" if instance else "sudoku"
        self.step_bound = self.givens.count(0)

    def initial_state(self) -> SudokuState:
        return SudokuState(self.givens)

    def legal(self, state: SudokuState, role: str) -> list[Mark]:
        self.role_index(role)
        cells = state.cells
        return [
            Mark(index, digit)
            for index in range(81)
            if not cells[index]
            for digit in candidates(cells, index)
        ]

    def apply(self, state: SudokuState, joint: tuple) -> SudokuState:
        (mark,) = joint
        cells = list(state.cells)
        cells[mark.index] = mark.digit
        return SudokuState(tuple(cells))

    def is_terminal(self, state: SudokuState) -> bool:
        cells = state.cells
        return not any(not cells[index] and candidates(cells, index) for index in range(81))

    def goals(self, state: SudokuState) -> tuple[int]:
        return (WIN if 0 not in state.cells else LOSS,)

    def state_facts(self, state: SudokuState) -> frozenset[str]:
        return frozenset(
            "(cell {} {} {} {} {})".format(*cell_coordinates(index), digit or "b")
            for index, digit in enumerate(state.cells)
        )

    def state_from_facts(self, facts: Iterable[str]) -> SudokuState:
        cells: list[int | None] = [None] * 81
        for fact in facts:
            term = parse_term(fact)
            try:
                name, *coordinates, value = term
                if name != "cell" or len(coordinates) != 4:
                    raise ValueError
                index = cell_index(*(_coordinate(c) for c in coordinates))
                digit = 0 if value == "b" else int(value)
                if digit not in range(10) or cells[index] is not None:
                    raise ValueError
            except (ValueError, TypeError):
                raise BadTermError(f"{fact} is not a sudoku fact (cell i j k l v)") from None
            cells[index] = digit
        if None in cells:
            raise BadTermError(
                "a sudoku state needs one (cell i j k l v) fact for each of the 81 cells"
            )
        return SudokuState(tuple(cells))

    def action_text(self, action: Mark) -> str:
        return str(action)

    def parse_action(self, role: str, text: str) -> Mark:
        self.role_index(role)
        term = parse_term(text)
        try:
            name, *coordinates, digit = term
            if name != "mark" or len(coordinates) != 4 or int(digit) not in DIGITS:
                raise ValueError
            return Mark(cell_index(*(_coordinate(c) for c in coordinates)), int(digit))
        except (ValueError, TypeError):
            raise BadTermError(f"{text} is not a sudoku action (mark i j k l d)") from None

    def picture(self, state: SudokuState) -> str:
        return grid_text(state.cells)

    def board(self, state: SudokuState) -> Board:
        """The grid: givens and the digits filled in, told apart by their owner."""
        rows = tuple(
            tuple(
                (str(digit), "given" if self.givens[index] else "filled") if digit else ("", None)
                for index, digit in enumerate(state.cells[row * 9 : row * 9 + 9], row * 9)
            )
            for row in range(9)
        )
        return Board(
            ((f"sudoku {self.instance or ''}".strip(), rows),), "grey: given; blue: filled in"
        )


def _coordinate(text: str) -> int:
    value = int(text)
    if value not in (1, 2, 3):
        raise ValueError(text)
    return value


def make_game(instance: str = DEFAULT_INSTANCE) -> SudokuGame:
    """The built-in instance `instance` (grade1 ... grade6H)."""
    if instance not in INSTANCES:
        raise GamecheckError(
            f"unknown sudoku instance {instance!r}; the instances are {', '.join(INSTANCES)}"
        )
    return SudokuGame(INSTANCES[instance], instance)
