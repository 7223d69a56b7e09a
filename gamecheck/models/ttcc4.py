"""ttcc4: Tic-Tac-Chess-Checkers-Four for red, yellow and blue (RULES.md section 2).

Cells (x y) have 1 <= x, y <= 7; cells with 2 <= x, y <= 6 are on board, the others are the
border where pieces wait to enter. Each role has a pawn, a checker, a knight and any number of
discs; three of a role's pieces in a line of the centre square 3..5 win. Internally the board is
49 bytes, byte 7(x-1) + (y-1) holding the code of the piece on (x y) (0 for none).

Where RULES.md leaves room, this module chooses (and `state_from_facts` enforces):
- a captured pawn, checker or knight always finds its start cell free: nothing moves onto a
  border cell, so only the piece itself can stand on its start cell. States where a pawn,
  checker or knight stands on another border cell, a disc on the border, a piece is missing or
  doubled, or two pieces share a cell are rejected, which keeps every state a set of facts;
- discs never fall again after their drop (a disc may hang over an emptied cell);
- checkers make single jumps only (RULES.md names no multiple jump).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from gamecheck.errors import BadTermError
from gamecheck.gdl.terms import numeral, parse_term, term_text
from gamecheck.models.base import Board, Game, steps_for_moves
from gamecheck.models.noop import NOOP, NOOP_ONLY, Noop

ROLES = ("red", "yellow", "blue")
ROLE_INDEX = {role: index for index, role in enumerate(ROLES)}
KINDS = ("Pawn", "Checker", "Knight", "Disc")
PAWN, CHECKER, KNIGHT, DISC = range(4)
STEP_LIMIT = 31
"""The state with `(step 31)` is terminal, so a game lasts at most 30 steps."""
WIN, LOSS = 100, 0
SIDE = 7
DROP_COLUMNS = (3, 4, 5)
DROP_ROW, FLOOR_ROW = 6, 2
START_CELLS = (
    ((1, 5), (1, 4), (1, 3)),
    ((3, 1), (4, 1), (5, 1)),
    ((7, 3), (7, 4), (7, 5)),
)
"""Start cells of (pawn, checker, knight) per role, in role order."""


def cell_of(x: int, y: int) -> int:
    """The board index of cell (x y)."""
    return SIDE * (x - 1) + (y - 1)


def coordinates(cell: int) -> tuple[int, int]:
    """The (x y) of a board index."""
    column, row = divmod(cell, SIDE)
    return column + 1, row + 1


def on_board(x: int, y: int) -> bool:
    return 2 <= x <= 6 and 2 <= y <= 6


def piece_code(role: int, kind: int) -> int:
    return 1 + 4 * role + kind


PIECE_NAMES = {piece_code(r, k): ROLES[r] + KINDS[k] for r in range(3) for k in range(4)}
CODES_BY_NAME = {name: code for code, name in PIECE_NAMES.items()}
OWNER = bytes([255] + [(code - 1) // 4 for code in PIECE_NAMES])
"""The role index owning each piece code (255 for an empty cell)."""
KIND = bytes([255] + [(code - 1) % 4 for code in PIECE_NAMES])
START_CELL = {piece_code(r, k): cell_of(*START_CELLS[r][k]) for r in range(3) for k in range(3)}
ENEMY = tuple(
    tuple(code != 0 and OWNER[code] != role for code in range(len(OWNER))) for role in range(3)
)
"""ENEMY[role][code]: whether the piece `code` belongs to a role other than `role`."""
ENEMY_OR_EMPTY = tuple(
    tuple(code == 0 or enemy[code] for code in range(len(OWNER))) for enemy in ENEMY
)
PIECE_CODES = tuple(tuple(piece_code(role, kind) for kind in range(4)) for role in range(3))
"""The codes of (pawn, checker, knight, disc) of each role."""
CELLS = range(SIDE * SIDE)
CELL_COORDINATES = frozenset((x, y) for x in range(1, SIDE + 1) for y in range(1, SIDE + 1))
STEPS = range(1, STEP_LIMIT + 1)
CENTRE_LINES = tuple(
    tuple(cell_of(x, y) for x, y in line)
    for line in (
        *([(x, y) for x in (3, 4, 5)] for y in (3, 4, 5)),
        *([(x, y) for y in (3, 4, 5)] for x in (3, 4, 5)),
        [(3, 3), (4, 4), (5, 5)],
        [(3, 5), (4, 4), (5, 3)],
    )
)
"""The 8 lines (rows, columns, diagonals) of the centre square 3..5."""
LINES_THROUGH = tuple(tuple(line for line in CENTRE_LINES if cell in line) for cell in CELLS)
CENTRE_BITS = tuple(
    (1 << i, cell_of(x, y)) for i, (x, y) in enumerate((x, y) for x in (3, 4, 5) for y in (3, 4, 5))
)
"""The bit of each centre cell in a 9-bit picture of the centre square, and the cell."""
MOVES_TO_LINE = tuple(
    3
    - max(
        sum(1 for bit, cell in CENTRE_BITS if pattern & bit and cell in line)
        for line in CENTRE_LINES
    )
    for pattern in range(1 << 9)
)
"""Per 9-bit picture of a role's centre pieces: 3 minus the most of them on one line."""
LINE_GAPS = tuple(
    tuple(
        (third, pair)
        for line in CENTRE_LINES
        for pair in [tuple(cell for bit, cell in CENTRE_BITS if pattern & bit and cell in line)]
        if len(pair) == 2
        for third in line
        if third not in pair
    )
    for pattern in range(1 << 9)
)
"""Per 9-bit picture of a role's centre pieces: for every line holding exactly two of them,
the line's third cell and the two cells."""


@dataclass(frozen=True, slots=True)
class Drop:
    """The action `(drop x)`: drop a disc of the controller into column x."""

    x: int

    def __str__(self) -> str:
        return f"(drop {self.x})"


@dataclass(frozen=True, slots=True)
class Move:
    """`(pawnMove x1 y1 x2 y2)`, `(knightMove ...)` or `(checkerMove ...)`: cell to cell."""

    name: str
    origin: int
    target: int

    def __str__(self) -> str:
        return "({} {} {} {} {})".format(
            self.name, *coordinates(self.origin), *coordinates(self.target)
        )


@dataclass(frozen=True, slots=True)
class Jump:
    """`(jump x1 y1 x2 y2 x3 y3)`: a checker jumps from `origin` over `over` to `target`."""

    origin: int
    over: int
    target: int

    def __str__(self) -> str:
        cells = (self.origin, self.over, self.target)
        return "(jump {} {} {} {} {} {})".format(*(c for cell in cells for c in coordinates(cell)))


def _moves(
    name: str, offsets: Iterable[tuple[int, int]]
) -> tuple[tuple[tuple[int, Move], ...], ...]:
    """Per origin cell: (target, move) for every offset that lands on board."""
    table = []
    for origin in CELLS:
        x, y = coordinates(origin)
        targets = [cell_of(x + dx, y + dy) for dx, dy in offsets if on_board(x + dx, y + dy)]
        table.append(tuple((target, Move(name, origin, target)) for target in targets))
    return tuple(table)


def _jumps() -> tuple[tuple[tuple[int, int, Jump], ...], ...]:
    """Per origin cell: (over, target, jump) for every diagonal jump that lands on board."""
    table = []
    for origin in CELLS:
        x, y = coordinates(origin)
        jumps = []
        for dx, dy in DIAGONAL:
            if on_board(x + 2 * dx, y + 2 * dy):
                over, target = cell_of(x + dx, y + dy), cell_of(x + 2 * dx, y + 2 * dy)
                jumps.append((over, target, Jump(origin, over, target)))
        table.append(tuple(jumps))
    return tuple(table)


ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT_JUMPS = tuple(
    (a * dx, b * dy) for a, b in ((1, 2), (2, 1)) for dx in (1, -1) for dy in (1, -1)
)
PAWN_STEPS = _moves("pawnMove", ORTHOGONAL)
PAWN_CAPTURES = _moves("pawnMove", DIAGONAL)
CHECKER_STEPS = _moves("checkerMove", DIAGONAL)
KNIGHT_MOVES = _moves("knightMove", KNIGHT_JUMPS)
CHECKER_JUMPS = _jumps()
PAWN_STEP_TO, PAWN_CAPTURE_TO, CHECKER_STEP_TO, KNIGHT_MOVE_TO = (
    tuple(dict(moves) for moves in table)
    for table in (PAWN_STEPS, PAWN_CAPTURES, CHECKER_STEPS, KNIGHT_MOVES)
)
"""Per origin cell, the move of each kind to each cell it reaches."""
DROPS = tuple((cell_of(x, DROP_ROW), Drop(x)) for x in DROP_COLUMNS)
ACTIONS_BY_TEXT = {
    str(action): action
    for action in (
        NOOP,
        *(drop for _, drop in DROPS),
        *(
            move
            for table in (PAWN_STEPS, PAWN_CAPTURES, CHECKER_STEPS, KNIGHT_MOVES)
            for moves in table
            for _, move in moves
        ),
        *(jump for jumps in CHECKER_JUMPS for _, _, jump in jumps),
    )
}


@dataclass(frozen=True, slots=True)
class TtccState:
    """The board (49 piece codes), the role in control (index) and the step number.

    `winners` (bit r: role r has a line) follows from the board; it is kept so that the
    terminal test costs nothing, and it takes no part in == and hash.
    """

    board: bytes
    control: int
    step: int
    winners: int = field(compare=False)


class Ttcc4Game(Game):
    """ttcc4 for the roles red, yellow and blue."""

    name = "ttcc4"
    roles = ROLES
    step_bound = STEP_LIMIT - 1

    def initial_state(self) -> TtccState:
        board = bytearray(len(CELLS))
        for code, cell in START_CELL.items():
            board[cell] = code
        return TtccState(bytes(board), 0, 1, 0)

    def legal(self, state: TtccState, role: str) -> list[Drop | Move | Jump | Noop] | tuple:
        index = ROLE_INDEX[role] if role in ROLE_INDEX else self.role_index(role)
        if state.winners or state.step >= STEP_LIMIT:
            return []
        if index != state.control:
            return NOOP_ONLY
        return controller_actions(state.board, index)

    def apply(self, state: TtccState, joint: tuple) -> TtccState:
        mover = state.control
        action = joint[mover]
        if isinstance(action, Noop):
            return TtccState(state.board, (mover + 1) % 3, state.step + 1, 0)
        board, landing = play(state.board, mover, action)
        # Before the move nobody had a line, and only the mover's piece on `landing` is new.
        winners = 0
        for a, b, c in LINES_THROUGH[landing]:
            if OWNER[board[a]] == OWNER[board[b]] == OWNER[board[c]] == mover:
                winners = 1 << mover
        return TtccState(board, (mover + 1) % 3, state.step + 1, winners)

    def is_terminal(self, state: TtccState) -> bool:
        return state.winners != 0 or state.step >= STEP_LIMIT

    def goals(self, state: TtccState) -> tuple[int, int, int]:
        return tuple(WIN if state.winners >> role & 1 else LOSS for role in range(3))

    def steps_to_win(self, state: TtccState, team: Sequence[int]) -> int:
        """Each role of the team needs MOVES_TO_LINE moves of its own, one every 3 steps:
        only a role's own move adds its pieces to the centre (a captured pawn, checker or
        knight goes back to the border), one piece on one cell, so at most one to any line.
        A role in control one move from a line needs two when no action of its makes one."""
        if self.is_terminal(state):
            return 0
        board = state.board
        pieces = centre_pieces(board)
        return max(_steps_to_line(board, pieces, role, state.control) for role in team)

    def steps_to_loss(self, state: TtccState, team: Sequence[int]) -> int:
        """The game ends with a team role below 100 by the step limit, or by a line of a
        role other than the team's only one (a line ends the game at once: only the mover
        can make one, so nobody else has one then); each role's line as in `steps_to_win`."""
        if self.is_terminal(state):
            return 0
        board = state.board
        pieces = centre_pieces(board)
        spoiling = [role for role in range(len(ROLES)) if (role,) != tuple(team)]
        return min(
            STEP_LIMIT - state.step,
            *(_steps_to_line(board, pieces, role, state.control) for role in spoiling),
        )

    def ending_move(self, state: TtccState) -> tuple[int, tuple] | None:
        """A move that ends the non-terminal `state` at once, or None: the role in control
        and a joint action in which it makes a line (the others play noop, their only one)."""
        if self.is_terminal(state):
            return None
        mover, board = state.control, state.board
        action = line_action(board, mover, centre_pieces(board)[mover])
        if action is None:
            return None
        return mover, tuple(action if role == mover else NOOP for role in range(len(ROLES)))

    def state_facts(self, state: TtccState) -> frozenset[str]:
        facts = {
            "(cell {} {} {})".format(*coordinates(cell), PIECE_NAMES[code])
            for cell, code in enumerate(state.board)
            if code
        }
        facts.add(f"(control {ROLES[state.control]})")
        facts.add(f"(step {state.step})")
        return frozenset(facts)

    def state_from_facts(self, facts: Iterable[str]) -> TtccState:
        board = bytearray(len(CELLS))
        controls: set[str] = set()
        steps: set[int] = set()
        for fact in facts:
            kind, value = read_fact(fact)
            if kind == "cell":
                (x, y), code = value
                if board[cell_of(x, y)] not in (0, code):
                    raise BadTermError(f"cell ({x} {y}) holds two pieces")
                board[cell_of(x, y)] = code
            elif kind == "control":
                controls.add(value)
            else:
                steps.add(value)
        if len(controls) != 1 or len(steps) != 1:
            raise BadTermError("a ttcc4 state needs exactly one (control P) and one (step n) fact")
        check_pieces(board)
        (controller,), (step,) = controls, steps
        return TtccState(bytes(board), ROLES.index(controller), step, line_owners(board))

    def action_text(self, action: Drop | Move | Jump | Noop) -> str:
        return str(action)

    def parse_action(self, role: str, text: str) -> Drop | Move | Jump | Noop:
        self.role_index(role)
        action = ACTIONS_BY_TEXT.get(term_text(parse_term(text)))
        if action is None:
            raise BadTermError(
                f"{text} is not a ttcc4 action: noop, (drop x), (pawnMove x1 y1 x2 y2), "
                "(knightMove ...), (checkerMove ...) or (jump x1 y1 x2 y2 x3 y3) "
                "with a destination on board"
            )
        return action

    def picture(self, state: TtccState) -> str:
        lines = [f"control {ROLES[state.control]}, step {state.step}"]
        lines.append(
            "(rP rC rK rD: red pawn, checker, knight, disc; y yellow, b blue; . empty, - border)"
        )
        for y in range(SIDE, 0, -1):
            row = []
            for x in range(1, SIDE + 1):
                code = state.board[cell_of(x, y)]
                if code:
                    name = PIECE_NAMES[code]
                    row.append(name[0] + KINDS[KIND[code]][0])
                else:
                    row.append(" ." if on_board(x, y) else " -")
            lines.append(f"y{y}  " + " ".join(row))
        lines.append("     " + " ".join(f"x{x}" for x in range(1, SIDE + 1)))
        return "\n".join(lines)

    def board(self, state: TtccState) -> Board:
        """The 7x7 board, y = 7 at the top; a piece shows its kind's letter."""
        rows = []
        for y in range(SIDE, 0, -1):
            row = []
            for x in range(1, SIDE + 1):
                code = state.board[cell_of(x, y)]
                if code:
                    row.append((KINDS[KIND[code]][0], ROLES[OWNER[code]]))
                else:
                    row.append(("", None) if on_board(x, y) else None)
            rows.append(tuple(row))
        caption = f"{ROLES[state.control]} to play, step {state.step}"
        caption += "; P C K D: pawn, checker, knight, disc"
        return Board((("board", tuple(rows)),), caption)


def controller_actions(board: bytes, role: int) -> list[Drop | Move | Jump | Noop]:
    """Every legal action of the role in control (noop included)."""
    enemy, enemy_or_empty = ENEMY[role], ENEMY_OR_EMPTY[role]
    pawn, checker, knight, _ = PIECE_CODES[role]
    actions: list[Drop | Move | Jump | Noop] = [NOOP]
    append = actions.append
    for entry, drop in DROPS:
        if not board[entry]:
            append(drop)
    origin = board.index(pawn)
    for target, move in PAWN_STEPS[origin]:
        if not board[target]:
            append(move)
    for target, move in PAWN_CAPTURES[origin]:
        if enemy[board[target]]:
            append(move)
    for target, move in KNIGHT_MOVES[board.index(knight)]:
        if enemy_or_empty[board[target]]:
            append(move)
    origin = board.index(checker)
    for target, move in CHECKER_STEPS[origin]:
        if not board[target]:
            append(move)
    for over, target, jump in CHECKER_JUMPS[origin]:
        if enemy[board[over]] and not board[target]:
            append(jump)
    return actions


def play(board: bytes, mover: int, action: Drop | Move | Jump) -> tuple[bytes, int]:
    """The board after `mover` plays `action` (not noop), captures included, and the cell
    where the moved or dropped piece lands."""
    cells = bytearray(board)
    if isinstance(action, Drop):
        x = action.x
        y = DROP_ROW
        while y > FLOOR_ROW and not cells[cell_of(x, y - 1)]:
            y -= 1
        cells[cell_of(x, y)] = PIECE_CODES[mover][DISC]
        return bytes(cells), cell_of(x, y)
    captured_cell = action.over if isinstance(action, Jump) else action.target
    captured = cells[captured_cell]
    cells[action.target] = cells[action.origin]
    cells[action.origin] = 0
    if isinstance(action, Jump):
        cells[captured_cell] = 0
    if captured and KIND[captured] != DISC:
        cells[START_CELL[captured]] = captured
    return bytes(cells), action.target


def _steps_to_line(board: bytes, pieces: list[int], role: int, control: int) -> int:
    """The fewest steps before `role` can have a line, given each role's centre pieces: one
    move away and in control, it needs a second move (at its next turn) unless one of its
    actions makes a line now."""
    moves = MOVES_TO_LINE[pieces[role]]
    if moves == 1 and role == control and line_action(board, role, pieces[role]) is None:
        moves = 2
    return steps_for_moves(moves, role, control, len(ROLES))


def line_action(board: bytes, role: int, pieces: int) -> Drop | Move | Jump | None:
    """An action of `role` (in control, its centre pieces `pieces` as in `centre_pieces`)
    that gives it a line, or None. Only the cell where its piece lands gains a piece of the
    role, so the line is one where the role has two pieces, the third cell empty or an
    enemy's, and the action lands a piece there without moving either of the two."""
    for target, pair in LINE_GAPS[pieces]:
        action = _landing_action(board, role, target, pair)
        if action is not None:
            return action
    return None


def _landing_action(
    board: bytes, role: int, target: int, keep: tuple[int, ...]
) -> Drop | Move | Jump | None:
    """An action of `role` that puts one of its pieces on the centre cell `target` (empty or
    an enemy's) without moving a piece off a cell of `keep`, or None."""
    enemy = ENEMY[role]
    empty = not board[target]
    pawn, checker, knight, _ = PIECE_CODES[role]
    top = target - target % SIDE + DROP_ROW - 1  # the cell (x 6) of the target's column
    if empty and board[target - 1] and not any(board[target + 1 : top + 1]):
        return Drop(target // SIDE + 1)  # a disc dropped into the column stops on the target
    origin = board.index(pawn)
    pawn_moves = (PAWN_STEP_TO if empty else PAWN_CAPTURE_TO)[origin]
    if origin not in keep and target in pawn_moves:
        return pawn_moves[target]
    origin = board.index(knight)
    if origin not in keep and target in KNIGHT_MOVE_TO[origin]:
        return KNIGHT_MOVE_TO[origin][target]
    origin = board.index(checker)
    if origin in keep or not empty:
        return None
    if target in CHECKER_STEP_TO[origin]:
        return CHECKER_STEP_TO[origin][target]
    for over, to, jump in CHECKER_JUMPS[origin]:
        if to == target and enemy[board[over]]:
            return jump
    return None


def centre_pieces(board: bytes) -> list[int]:
    """Per role, its pieces on the centre square as 9 bits (see CENTRE_BITS)."""
    pieces = [0, 0, 0]
    for bit, cell in CENTRE_BITS:
        code = board[cell]
        if code:
            pieces[OWNER[code]] |= bit
    return pieces


def line_owners(board: bytes) -> int:
    """A bit mask of the roles with a line in the centre square (bit r for role r)."""
    owners = 0
    for a, b, c in CENTRE_LINES:
        owner = OWNER[board[a]]
        if owner != 255 and owner == OWNER[board[b]] == OWNER[board[c]]:
            owners |= 1 << owner
    return owners


def read_fact(fact: str) -> tuple[str, object]:
    """One fact as ("cell", ((x, y), code)), ("control", P) or ("step", n)."""
    term = parse_term(fact)
    if isinstance(term, tuple):
        match term:
            case ("cell", x, y, piece) if piece in CODES_BY_NAME:
                cell = (numeral(x), numeral(y))
                if cell in CELL_COORDINATES:
                    return "cell", (cell, CODES_BY_NAME[piece])
            case ("control", role) if role in ROLES:
                return "control", role
            case ("step", n) if numeral(n) in STEPS:
                return "step", numeral(n)
    raise BadTermError(
        f"{fact} is not a ttcc4 fact: (cell x y Piece) with 1 <= x, y <= 7, (control P), "
        f"or (step n) with 1 <= n <= {STEP_LIMIT}"
    )


def check_pieces(board: bytearray) -> None:
    """BadTermError unless every pawn, checker and knight stands once, on board or at its start,
    and every disc stands on board."""
    for code, name in PIECE_NAMES.items():
        cells = [cell for cell in CELLS if board[cell] == code]
        if KIND[code] == DISC:
            stray = [cell for cell in cells if not on_board(*coordinates(cell))]
        else:
            if len(cells) != 1:
                raise BadTermError(f"a ttcc4 state has one {name}, this one has {len(cells)}")
            stray = [
                cell
                for cell in cells
                if not on_board(*coordinates(cell)) and cell != START_CELL[code]
            ]
        if stray:
            raise BadTermError(
                "{} cannot stand on the border cell ({} {})".format(name, *coordinates(stray[0]))
            )


def make_game() -> Ttcc4Game:
    """ttcc4 (it has no variants)."""
    return Ttcc4Game()
