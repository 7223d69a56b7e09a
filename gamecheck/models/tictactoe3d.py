"""Team 3D tic-tac-toe on a 4x4x4 cube for six roles (RULES.md section 3).

Team X (xrow, xcolumn, xlevel) and team O (orow, ocolumn, olevel) alternate whole marks.
A mark takes three steps: the team's roles each select one coordinate of a blank cell (row
roles the first, column roles the second, level roles the third), in the team's rotation
starting at its current first role; the role that opens a team's turn rotates after each mark.

Internally the marks of each team are a 64-bit mask over the cells, cell (r c l) being bit
16(r-1) + 4(c-1) + (l-1); a selection is a coordinate 1..4, or 0 while not yet selected.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gamecheck.errors import BadTermError
from gamecheck.gdl.terms import parse_term, term_text
from gamecheck.models.base import NEVER, Board, Game

ROLES = ("xrow", "xcolumn", "xlevel", "orow", "ocolumn", "olevel")
TEAMS = ("x", "o")
KINDS = ("row", "column", "level")
"""Role index i belongs to team i // 3 and selects coordinate kind i % 3."""
SIZE = 4
CELLS = SIZE**3
FULL = (1 << CELLS) - 1
NOOP = "noop"
WIN, LOSS, DRAW = 100, 0, 50
STEP_BOUND = CELLS * len(KINDS)
"""Every step selects one coordinate and every third completes a mark: 64 marks at most."""


def cell_index(r: int, c: int, level: int) -> int:
    """The bit of cell (r c l), coordinates 1..4."""
    return SIZE * SIZE * (r - 1) + SIZE * (c - 1) + (level - 1)


def cell_coordinates(index: int) -> tuple[int, int, int]:
    """The (r c l) coordinates of a cell bit."""
    return index // 16 + 1, index // 4 % 4 + 1, index % 4 + 1


def _directions() -> list[tuple[int, int, int]]:
    """The 13 directions of the cube: nonzero steps whose first nonzero component is +1."""
    steps = itertools.product((-1, 0, 1), repeat=3)
    return [d for d in steps if any(d) and next(v for v in d if v) == 1]


def _lines() -> tuple[int, ...]:
    """The masks of the 76 lines: four cells in a row along one of the 13 directions."""
    coordinates = range(1, SIZE + 1)
    lines = []
    for direction in _directions():
        for start in itertools.product(coordinates, repeat=3):
            cells = [
                tuple(s + k * d for s, d in zip(start, direction, strict=True)) for k in range(SIZE)
            ]
            if all(v in coordinates for cell in cells for v in cell):
                lines.append(sum(1 << cell_index(*cell) for cell in cells))
    return tuple(lines)


DIRECTIONS = _directions()
LINES = _lines()
LINES_THROUGH = tuple(tuple(line for line in LINES if line >> i & 1) for i in range(CELLS))
"""For each cell bit, the masks of the lines through it."""
PLANES = tuple(
    tuple(
        sum(1 << i for i in range(CELLS) if cell_coordinates(i)[kind] == value)
        for value in range(SIZE + 1)
    )
    for kind in range(len(KINDS))
)
"""PLANES[kind][v]: the cells whose coordinate `kind` is v (v = 0: no cells)."""


@dataclass(frozen=True, slots=True)
class Select:
    """The action `(select K v)`: choose value v (1..4) for coordinate kind K (0 row .. 2 level)."""

    kind: int
    value: int

    def __str__(self) -> str:
        return f"(select {KINDS[self.kind]} {self.value})"


SELECTS = tuple(tuple(Select(kind, value) for value in range(SIZE + 1)) for kind in range(3))
"""The Select actions, shared rather than built on every call: SELECTS[kind][value]."""


@dataclass(frozen=True, slots=True)
class Tictactoe3dState:
    """Both teams' marks, the selections so far, who is in control, who opens each team's turn.

    `lines` (derived, bit 0 team X, bit 1 team O) records which teams have four in a line.
    """

    x_marks: int
    o_marks: int
    selected: tuple[int, int, int]
    control: int
    first: tuple[int, int]
    lines: int

    @property
    def blanks(self) -> int:
        """The mask of blank cells."""
        return FULL & ~(self.x_marks | self.o_marks)


class Tictactoe3dGame(Game):
    """Team 3D tic-tac-toe: six roles, three per team, one coordinate each."""

    name = "tictactoe3d"
    roles = ROLES
    step_bound = STEP_BOUND

    def initial_state(self) -> Tictactoe3dState:
        return Tictactoe3dState(0, 0, (0, 0, 0), 0, (0, 3), 0)

    def legal(self, state: Tictactoe3dState, role: str) -> list:
        index = self.role_index(role)
        if state.lines or not state.blanks:
            return []
        if index != state.control:
            return [NOOP]
        kind = index % 3
        candidates = state.blanks & _agreeing(state.selected)
        planes = PLANES[kind]
        return [SELECTS[kind][v] for v in range(1, SIZE + 1) if candidates & planes[v]]

    def apply(self, state: Tictactoe3dState, joint: tuple) -> Tictactoe3dState:
        control = state.control
        select = joint[control]
        selected = list(state.selected)
        selected[select.kind] = select.value
        team = control // 3
        if not all(selected):
            return Tictactoe3dState(
                state.x_marks,
                state.o_marks,
                tuple(selected),
                _next_in_team(control),
                state.first,
                state.lines,
            )
        cell = cell_index(*selected)
        marks = [state.x_marks, state.o_marks]
        marks[team] |= 1 << cell
        lines = state.lines
        if any(marks[team] & line == line for line in LINES_THROUGH[cell]):
            lines |= 1 << team
        first = list(state.first)
        first[team] = _next_in_team(first[team])
        return Tictactoe3dState(
            marks[0], marks[1], (0, 0, 0), state.first[1 - team], tuple(first), lines
        )

    def is_terminal(self, state: Tictactoe3dState) -> bool:
        return bool(state.lines) or not state.blanks

    def goals(self, state: Tictactoe3dState) -> tuple[int, ...]:
        """100 to a team with a line, else 0 if the other team has one, else 50.

        (Only a hand-built state can give both teams a line; then both score 100.)
        """
        if not state.lines:
            return (DRAW,) * len(ROLES)
        x_value = WIN if state.lines & 1 else LOSS
        o_value = WIN if state.lines & 2 else LOSS
        return (x_value,) * 3 + (o_value,) * 3

    def steps_to_win(self, state: Tictactoe3dState, team: Sequence[int]) -> int:
        """A team of one side wins with its marks on a line free of the other side's: as many
        more marks as that line has blank cells, its side's turns coming every 6 steps (the
        sides alternate whole marks of 3 steps). A team of both sides never wins (NEVER):
        the first line ends the game, and one mark completes lines of its own side only."""
        if self.is_terminal(state):
            return 0
        sides = {role // 3 for role in team}
        if len(sides) > 1:
            return NEVER
        return _steps_to_line(state, sides.pop())

    def steps_to_loss(self, state: Tictactoe3dState, team: Sequence[int]) -> int:
        """A role of `team` ends below 100 with the other side's line, a full board, or, for
        a team of both sides, any line; each line as in `steps_to_win`."""
        if self.is_terminal(state):
            return 0
        sides = {role // 3 for role in team}
        losing = (0, 1) if len(sides) > 1 else (1 - sides.pop(),)
        return min(_steps_left(state), *(_steps_to_line(state, side) for side in losing))

    def state_facts(self, state: Tictactoe3dState) -> frozenset[str]:
        facts = {
            "(cell {} {} {} {})".format(*cell_coordinates(i), _mark(state, i)) for i in range(CELLS)
        }
        facts.update(
            f"(selected {KINDS[kind]} {value})"
            for kind, value in enumerate(state.selected)
            if value
        )
        facts.add(f"(control {ROLES[state.control]})")
        facts.update(
            f"(first_role_in_team {team} {ROLES[first]})"
            for team, first in zip(TEAMS, state.first, strict=True)
        )
        return frozenset(facts)

    def state_from_facts(self, facts: Iterable[str]) -> Tictactoe3dState:
        marks = [0, 0]
        seen_cells = 0
        selected = [0, 0, 0]
        control: list[int] = []
        first: list[int | None] = [None, None]
        for term in {parse_term(fact) for fact in facts}:
            fact = term_text(term)
            name, *args = term if isinstance(term, tuple) else (term,)
            if name == "cell" and len(args) == 4 and args[3] in ("b", *TEAMS):
                index = cell_index(*(_coordinate(fact, text) for text in args[:3]))
                if seen_cells >> index & 1:
                    raise BadTermError(f"{fact} gives a second mark to a cell")
                seen_cells |= 1 << index
                if args[3] != "b":
                    marks[TEAMS.index(args[3])] |= 1 << index
            elif name == "selected" and len(args) == 2 and args[0] in KINDS:
                kind = KINDS.index(args[0])
                if selected[kind]:
                    raise BadTermError(f"{fact} selects a second {args[0]}")
                selected[kind] = _coordinate(fact, args[1])
            elif name == "control" and len(args) == 1 and args[0] in ROLES:
                control.append(ROLES.index(args[0]))
            elif name == "first_role_in_team" and len(args) == 2 and args[0] in TEAMS:
                team = TEAMS.index(args[0])
                if args[1] not in ROLES[3 * team : 3 * team + 3] or first[team] is not None:
                    raise BadTermError(f"{fact} is not the one first role of team {args[0]}")
                first[team] = ROLES.index(args[1])
            else:
                raise BadTermError(f"{fact} is not a tictactoe3d fact")
        if seen_cells != FULL:
            raise BadTermError(
                "a tictactoe3d state needs one (cell r c l M) fact for each of the 64 cells"
            )
        if len(control) != 1 or None in first:
            raise BadTermError(
                "a tictactoe3d state needs exactly one (control P) fact "
                "and one (first_role_in_team T P) fact per team"
            )
        lines = sum(
            1 << team for team in range(2) if any(marks[team] & line == line for line in LINES)
        )
        return Tictactoe3dState(
            marks[0], marks[1], tuple(selected), control[0], (first[0], first[1]), lines
        )

    def action_text(self, action) -> str:
        return str(action)

    def parse_action(self, role: str, text: str):
        index = self.role_index(role)
        term = parse_term(text)
        if term == NOOP:
            return NOOP
        kind = index % 3
        if (
            isinstance(term, tuple)
            and len(term) == 3
            and term[0] == "select"
            and term[1] == KINDS[kind]
            and term[2] in ("1", "2", "3", "4")
        ):
            return SELECTS[kind][int(term[2])]
        raise BadTermError(f"{text} is not an action of {role}: (select {KINDS[kind]} v) or noop")

    def picture(self, state: Tictactoe3dState) -> str:
        """The four levels side by side (rows down, columns across), then whose turn it is."""
        header = "   ".join(f"level {level}" for level in range(1, SIZE + 1))
        rows = [header]
        for r in range(1, SIZE + 1):
            rows.append(
                "   ".join(
                    " ".join(
                        _mark(state, cell_index(r, c, level)).replace("b", ".")
                        for c in range(1, SIZE + 1)
                    ).ljust(len("level 1"))
                    for level in range(1, SIZE + 1)
                ).rstrip()
            )
        selected = ", ".join(
            f"{KINDS[kind]} {value}" for kind, value in enumerate(state.selected) if value
        )
        rows.append(
            f"control {ROLES[state.control]}; selected: {selected or 'nothing'}; "
            f"first roles {ROLES[state.first[0]]}, {ROLES[state.first[1]]}"
        )
        return "\n".join(rows)

    def board(self, state: Tictactoe3dState) -> Board:
        """The four levels side by side, rows down and columns across."""
        owners = {"x": "x", "o": "o", "b": None}
        grids = tuple(
            (
                f"level {level}",
                tuple(
                    tuple(
                        (mark.replace("b", ""), owners[mark])
                        for mark in (
                            _mark(state, cell_index(r, c, level)) for c in range(1, SIZE + 1)
                        )
                    )
                    for r in range(1, SIZE + 1)
                ),
            )
            for level in range(1, SIZE + 1)
        )
        return Board(grids, f"{ROLES[state.control]} to play")


def _steps_left(state: Tictactoe3dState) -> int:
    """The steps until every blank cell is marked, if no line ends the game first."""
    return len(KINDS) * state.blanks.bit_count() - _selections(state)


def _selections(state: Tictactoe3dState) -> int:
    """The coordinates selected so far in the mark under way."""
    return sum(1 for value in state.selected if value)


def _steps_to_line(state: Tictactoe3dState, side: int) -> int:
    """The fewest steps before `side` (0: x, 1: o) can have a line: the fewest blank cells on
    a line with none of the other side's marks, each a mark of its own (the mark under way
    first if it is its turn); NEVER if no such line is left."""
    other = state.o_marks if side == 0 else state.x_marks
    blanks = state.blanks
    marks = min(((line & blanks).bit_count() for line in LINES if not line & other), default=None)
    if marks is None:
        return NEVER
    done = _selections(state)
    if state.control // 3 != side:
        done -= len(KINDS)  # the other side's mark comes first
    return len(KINDS) - done + 2 * len(KINDS) * (marks - 1)


def _agreeing(selected: tuple[int, int, int]) -> int:
    """The mask of cells that agree with every selected coordinate."""
    mask = FULL
    for kind, value in enumerate(selected):
        if value:
            mask &= PLANES[kind][value]
    return mask


def _next_in_team(role: int) -> int:
    """The next role of the same team in the rotation row -> column -> level -> row."""
    return role - role % 3 + (role % 3 + 1) % 3


def _mark(state: Tictactoe3dState, index: int) -> str:
    if state.x_marks >> index & 1:
        return "x"
    return "o" if state.o_marks >> index & 1 else "b"


def _coordinate(fact: str, text: str) -> int:
    if text not in ("1", "2", "3", "4"):
        raise BadTermError(f"{fact}: coordinates are 1..4, not {text!r}")
    return int(text)


def make_game() -> Tictactoe3dGame:
    """The game (it has no variants)."""
    return Tictactoe3dGame()
