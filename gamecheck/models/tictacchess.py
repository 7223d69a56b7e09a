"""Three-player tic-tac-chess (RULES.md section 5): roles red, yellow, blue.

Board cells (x y), 1..7; cells with 2 <= x, y <= 6 are on board, the rest is the border.
The controller moves one of its pieces like a chess knight onto an empty on-board cell, or
captures like a chess king (one step onto an on-board cell holding another role's piece);
with no such move it plays noop. After every step each role gets a piece on its spawn cell
again, so pieces accumulate. Three of one role's pieces in a line of the centre square
3..5 x 3..5 win; the state with (step 31) ends the game with 0 for all.

A state is a set of facts, so a cell holds at most one piece of each role. Pieces only ever
move onto on-board cells and spawn cells are border cells, so in play a spawn cell never holds
another role's piece. In a hand-built state where one does, spawning adds the spawning role's
piece and leaves the other piece where it is: the rule adds a fact and removes none.

Internally each role's pieces are a 49-bit mask, cell (x y) being bit 7(x-1) + (y-1).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gamecheck.errors import BadTermError
from gamecheck.gdl.terms import parse_term, term_text
from gamecheck.models.base import Board, Game, steps_for_moves

ROLES = ("red", "yellow", "blue")
SIZE = 7
ON_BOARD = range(2, SIZE)
CENTRE = range(3, 6)
SPAWNS = ((1, 4), (4, 1), (7, 4))
"""The spawn cell of each role, in role order."""
FIRST_STEP, LAST_STEP = 1, 31
STEP_BOUND = LAST_STEP - FIRST_STEP
"""The state with (step 31) is terminal, so a game has at most 30 steps."""
NOOP = "noop"
WIN, LOSS = 100, 0
KING_STEPS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
KNIGHT_JUMPS = [(dx, dy) for dx in (-2, -1, 1, 2) for dy in (-2, -1, 1, 2) if abs(dx) != abs(dy)]


def cell_index(x: int, y: int) -> int:
    """The bit of cell (x y), coordinates 1..7."""
    return SIZE * (x - 1) + (y - 1)


def cell_coordinates(index: int) -> tuple[int, int]:
    """The (x y) coordinates of a cell bit."""
    return index // SIZE + 1, index % SIZE + 1


def _targets(steps: list[tuple[int, int]]) -> tuple[int, ...]:
    """For each cell bit, the mask of on-board cells one of `steps` away."""
    return tuple(
        sum(
            1 << cell_index(x + dx, y + dy)
            for dx, dy in steps
            if x + dx in ON_BOARD and y + dy in ON_BOARD
        )
        for x, y in map(cell_coordinates, range(SIZE * SIZE))
    )


def _centre_lines() -> list[list[int]]:
    """The 8 lines of the centre square as lists of cell bits."""
    rows = [[cell_index(x, y) for x in CENTRE] for y in CENTRE]
    columns = [[cell_index(x, y) for y in CENTRE] for x in CENTRE]
    diagonals = [[cell_index(3 + k, 3 + k) for k in range(3)]]
    diagonals.append([cell_index(3 + k, 5 - k) for k in range(3)])
    return rows + columns + diagonals


def _centre_cells(pattern: int) -> int:
    """The cell mask of a 9-bit picture of the centre square (inverse of `_centre_pattern`)."""
    return sum(1 << cell_index(3 + b // 3, 3 + b % 3) for b in range(9) if pattern >> b & 1)


KING_TARGETS = _targets(KING_STEPS)
KNIGHT_TARGETS = _targets(KNIGHT_JUMPS)
SPAWN_BITS = tuple(1 << cell_index(*cell) for cell in SPAWNS)
CENTRE_LINES = tuple(sum(1 << i for i in line) for line in _centre_lines())
CENTRE_SHIFTS = tuple(cell_index(x, CENTRE[0]) for x in CENTRE)
"""The bit of (x 3) for x = 3, 4, 5: each starts three consecutive centre cells (x 3..5)."""
HAS_LINE = tuple(
    any(_centre_cells(pattern) & line == line for line in CENTRE_LINES) for pattern in range(1 << 9)
)
"""For each 9-bit picture of the centre square (see `_centre_pattern`), whether it has a line."""
MOVES_TO_LINE = tuple(
    3 - max((_centre_cells(pattern) & line).bit_count() for line in CENTRE_LINES)
    for pattern in range(1 << 9)
)
"""For each 9-bit picture of a role's centre pieces, 3 minus the most it has on one line."""


@dataclass(frozen=True, slots=True)
class Move:
    """The action `(move x1 y1 x2 y2)`, between cell bits `source` and `target`."""

    source: int
    target: int

    def __str__(self) -> str:
        return "(move {} {} {} {})".format(
            *cell_coordinates(self.source), *cell_coordinates(self.target)
        )


MOVES = tuple(tuple(Move(source, target) for target in range(SIZE**2)) for source in range(SIZE**2))
"""The Move actions, shared rather than built on every call: MOVES[source][target]."""


@dataclass(frozen=True, slots=True)
class TictacchessState:
    """Each role's pieces as a cell mask, the controller's role index and the step number.

    `lines` (derived) has bit i set when role i has three in a line of the centre square.
    """

    pieces: tuple[int, int, int]
    control: int
    step: int
    lines: int


class TictacchessGame(Game):
    """Tic-tac-chess for three roles with spawning pieces."""

    name = "tictacchess"
    roles = ROLES
    step_bound = STEP_BOUND

    def initial_state(self) -> TictacchessState:
        return TictacchessState(SPAWN_BITS, 0, FIRST_STEP, 0)

    def legal(self, state: TictacchessState, role: str) -> list:
        index = self.role_index(role)
        if state.lines or state.step >= LAST_STEP:
            return []
        if index != state.control:
            return [NOOP]
        return piece_moves(state.pieces, index) or [NOOP]

    def apply(self, state: TictacchessState, joint: tuple) -> TictacchessState:
        control = state.control
        pieces = list(state.pieces)
        move = joint[control]
        if isinstance(move, Move):
            target_bit = 1 << move.target
            pieces = [mask & ~target_bit for mask in pieces]
            pieces[control] ^= (1 << move.source) | target_bit
        pieces = tuple(mask | spawn for mask, spawn in zip(pieces, SPAWN_BITS, strict=True))
        return TictacchessState(pieces, (control + 1) % 3, state.step + 1, _lines(pieces))

    def is_terminal(self, state: TictacchessState) -> bool:
        return bool(state.lines) or state.step >= LAST_STEP

    def steps_to_win(self, state: TictacchessState, team: Sequence[int]) -> int:
        """Each role of the team needs MOVES_TO_LINE moves of its own, one every 3 steps: only
        a role's own move puts its pieces on the centre square (spawn cells are border cells,
        captures only remove), one piece on one cell, so at most one onto any line."""
        if self.is_terminal(state):
            return 0
        return max(
            steps_for_moves(
                MOVES_TO_LINE[_centre_pattern(state.pieces[role])], role, state.control, len(ROLES)
            )
            for role in team
        )

    def steps_to_loss(self, state: TictacchessState, team: Sequence[int]) -> int:
        """The game ends with a team role below 100 by the step limit, or by a line of a
        role other than the team's only one (only the mover can make a line, so nobody else
        has one then); each role's line as in `steps_to_win`."""
        if self.is_terminal(state):
            return 0
        spoiling = [role for role in range(len(ROLES)) if (role,) != tuple(team)]
        return min(
            LAST_STEP - state.step,
            *(self.steps_to_win(state, (role,)) for role in spoiling),
        )

    def goals(self, state: TictacchessState) -> tuple[int, ...]:
        return tuple(WIN if state.lines >> i & 1 else LOSS for i in range(len(ROLES)))

    def state_facts(self, state: TictacchessState) -> frozenset[str]:
        facts = {
            "(cell {} {} {})".format(*cell_coordinates(i), role)
            for role, mask in zip(ROLES, state.pieces, strict=True)
            for i in _bits(mask)
        }
        facts.add(f"(control {ROLES[state.control]})")
        facts.add(f"(step {state.step})")
        return frozenset(facts)

    def state_from_facts(self, facts: Iterable[str]) -> TictacchessState:
        pieces = [0, 0, 0]
        control: list[int] = []
        step: list[int] = []
        for term in {parse_term(fact) for fact in facts}:
            name, *args = term if isinstance(term, tuple) else (term,)
            if name == "cell" and len(args) == 3 and args[2] in ROLES:
                x, y = (_number(term, text, range(1, SIZE + 1)) for text in args[:2])
                pieces[ROLES.index(args[2])] |= 1 << cell_index(x, y)
            elif name == "control" and len(args) == 1 and args[0] in ROLES:
                control.append(ROLES.index(args[0]))
            elif name == "step" and len(args) == 1:
                step.append(_number(term, args[0], range(FIRST_STEP, LAST_STEP + 1)))
            else:
                raise BadTermError(f"{term_text(term)} is not a tictacchess fact")
        if len(control) != 1 or len(step) != 1:
            raise BadTermError(
                "a tictacchess state needs exactly one (control P) and one (step n) fact"
            )
        pieces_tuple = (pieces[0], pieces[1], pieces[2])
        return TictacchessState(pieces_tuple, control[0], step[0], _lines(pieces_tuple))

    def action_text(self, action) -> str:
        return str(action)

    def parse_action(self, role: str, text: str):
        self.role_index(role)
        term = parse_term(text)
        if term == NOOP:
            return NOOP
        if isinstance(term, tuple) and len(term) == 5 and term[0] == "move":
            x1, y1, x2, y2 = (_number(term, text, range(1, SIZE + 1)) for text in term[1:])
            return MOVES[cell_index(x1, y1)][cell_index(x2, y2)]
        raise BadTermError(f"{text} is not a tictacchess action: (move x1 y1 x2 y2) or noop")

    def picture(self, state: TictacchessState) -> str:
        """The 7x7 board, y = 7 at the top, border included; R Y B pieces, `.` empty."""
        letters = "RYB"
        rows = []
        for y in range(SIZE, 0, -1):
            cells = []
            for x in range(1, SIZE + 1):
                bit = cell_index(x, y)
                here = "".join(
                    letter
                    for letter, mask in zip(letters, state.pieces, strict=True)
                    if mask >> bit & 1
                )
                empty = "." if x in ON_BOARD and y in ON_BOARD else " "
                cells.append((here or empty).ljust(2))
            rows.append(f"{y} " + " ".join(cells).rstrip())
        rows.append("  " + " ".join(f"{x:<2}" for x in range(1, SIZE + 1)).rstrip())
        rows.append(f"control {ROLES[state.control]}; step {state.step}")
        return "\n".join(rows)

    def board(self, state: TictacchessState) -> Board:
        """The 7x7 board, y = 7 at the top; the border cells are drawn too."""
        rows = []
        for y in range(SIZE, 0, -1):
            row = []
            for x in range(1, SIZE + 1):
                bit = cell_index(x, y)
                owners = [r for r, mask in zip(ROLES, state.pieces, strict=True) if mask >> bit & 1]
                if owners:
                    row.append((owners[0][0].upper(), owners[0]))
                else:
                    row.append(("", None) if x in ON_BOARD and y in ON_BOARD else None)
            rows.append(tuple(row))
        caption = f"{ROLES[state.control]} to play, step {state.step}"
        return Board((("board", tuple(rows)),), caption)


def piece_moves(pieces: tuple[int, int, int], role: int) -> list[Move]:
    """The moves of `role`'s pieces: king captures onto other roles' pieces, knight jumps
    onto empty cells, all on board."""
    own = pieces[role]
    occupied = pieces[0] | pieces[1] | pieces[2]
    enemies = occupied & ~own
    moves = []
    for source in _bits(own):
        row = MOVES[source]
        targets = (KING_TARGETS[source] & enemies) | (KNIGHT_TARGETS[source] & ~occupied)
        if targets:
            moves.extend([row[target] for target in _bits(targets)])
    return moves


def _lines(pieces: tuple[int, int, int]) -> int:
    """Bit i set when role i has three pieces in a line of the centre square."""
    return sum(1 << role for role, mask in enumerate(pieces) if HAS_LINE[_centre_pattern(mask)])


def _centre_pattern(mask: int) -> int:
    """The centre square of a cell mask as 9 bits: bit 3(x-3) + (y-3) for cell (x y)."""
    low, middle, high = CENTRE_SHIFTS
    return (mask >> low & 7) | (mask >> middle & 7) << 3 | (mask >> high & 7) << 6


def _bits(mask: int) -> list[int]:
    """The indices of the set bits of `mask`, lowest first."""
    bits = []
    while mask:
        low = mask & -mask
        bits.append(low.bit_length() - 1)
        mask ^= low
    return bits


def _number(term: tuple, text: str, allowed: range) -> int:
    if not (isinstance(text, str) and text.isdigit() and int(text) in allowed):
        raise BadTermError(
            f"{term_text(term)}: expected a number {allowed.start}..{allowed.stop - 1}, "
            f"not {term_text(text)}"
        )
    return int(text)


def make_game() -> TictacchessGame:
    """The game (it has no variants)."""
    return TictacchessGame()
