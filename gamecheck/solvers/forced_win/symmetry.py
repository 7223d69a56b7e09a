"""Symmetries of a game that a forced-win search may fold together.

A symmetry is an automorphism of the game: a map of states and of (role, action) pairs that
commutes with legal, next, terminal and goals. Two states one maps to the other are won or
lost together (for a team the map keeps), so the search keys its tables by one
representative of each class, the least image under the group. The strategy found on
representatives is mapped back to the real states when it is extracted.

The same machinery folds states that differ only in facts the rest of the game can never
look at again (a projection that keeps legal, next, terminal and goals, actions unchanged).

Only declared foldings are used; a game without a declaration has none:
- tictactoe3d: the group of the 4x4x4 cube (the maps of cells that keep the 76 lines) in the
  form that also respects its selection rules;
- cubicup: the colour of a cube whose upper neighbours are all filled is never looked at
  again (colours matter for open cubicups, which are empty positions, and for the goals, which
  look at (7 7 7) and its supporters only), so such cubes are all given the first colour.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache
from typing import Protocol

import numpy as np

from gamecheck.models.base import Action, Game, State
from gamecheck.models.cubicup import (
    TOP_BIT,
    TOP_SUPPORT_MASK,
    UPPER_MASK,
    CubicupGame,
    CubicupState,
)
from gamecheck.models.tictactoe3d import (
    CELLS,
    SELECTS,
    Tictactoe3dGame,
    Tictactoe3dState,
    cell_coordinates,
    cell_index,
)

SYMMETRY_MARKS = 12
"""tictactoe3d states at the start of a mark with at most this many marks are folded; the
others, where two states rarely share a class, are searched as they are (folding costs time
on every key: about a millisecond)."""


class Transform(Protocol):
    """One automorphism of a game."""

    def state(self, state: State) -> State:
        """The image of a state."""

    def action(self, role: int, action: Action) -> tuple[int, Action]:
        """The image of a role's action: the role it becomes and its action."""


class Symmetry(Protocol):
    """A group of automorphisms that folds states into representatives."""

    def canonical(self, state: State) -> tuple[State, Transform | None]:
        """The representative of the state's class and a transform mapping the state to it
        (None: the state itself)."""


def map_team_action(transform: Transform, team: Sequence[int], action: tuple) -> tuple:
    """A team action (role order over `team`) as seen after `transform`."""
    mapped = dict(transform.action(role, chosen) for role, chosen in zip(team, action, strict=True))
    return tuple(mapped[role] for role in team)


def symmetry_of(game: Game, team: Sequence[int]) -> Symmetry | None:
    """The declared foldings of `game` that map the team onto itself (None: none)."""
    if isinstance(game, CubicupGame):
        return _COVERED_COLOURS
    if isinstance(game, Tictactoe3dGame):
        return _cube_symmetry(frozenset(team))
    return None


# -- cubicup ----------------------------------------------------------------------------------
# Position bit b supports the bits b + 64, b + 72 and b + 73 above it (models/cubicup.py).


class _CoveredColours:
    """cubicup: every filled position below no empty position gets the first role's colour,
    but those the goals look at; actions are unchanged."""

    def canonical(self, state: CubicupState) -> tuple[State, Transform | None]:
        folded = self.state(state)
        return (state, None) if folded is state else (folded, self)

    def state(self, state: CubicupState) -> CubicupState:
        first, second, third = state.owned
        filled = first | second | third
        empty = UPPER_MASK & ~filled
        below_empty = (empty >> 64) | (empty >> 72) | (empty >> 73)
        covered = filled & ~below_empty & ~GOAL_MASK
        if not (second | third) & covered:
            return state
        owned = (first | covered, second & ~covered, third & ~covered)
        return CubicupState(owned, state.cubes, state.control)

    def action(self, role: int, action: Action) -> tuple[int, Action]:
        return role, action


_COVERED_COLOURS = _CoveredColours()
GOAL_MASK = 1 << TOP_BIT | TOP_SUPPORT_MASK
"""The positions the goals look at: (7 7 7) and its supporters."""


@cache
def _cube_symmetry(members: frozenset[int]) -> _CubeSymmetry:
    maps = [
        (shift, values)
        for shift, values in _CUBE_MAPS
        if {_role_after(role, shift) for role in members} == members
    ]
    return _CubeSymmetry([_CubeTransform(shift, values) for shift, values in maps[1:]])


# -- tictactoe3d ------------------------------------------------------------------------------
# A cell (r c l) is coordinates (v0 v1 v2). The maps of cells that keep every line: permute the
# three axes, then map each coordinate's value by a permutation of 1..4 that commutes with the
# reversal v -> 5 - v (the dihedral group of order 8), all three from the same coset of
# {identity, reversal}: 6 x 4 x 2^3 = 192 maps. A role selects the coordinate of its kind
# (row 0, column 1, level 2), and a team's kinds take turns in the rotation row -> column ->
# level, so only the three cyclic shifts of the axes keep the rules (the others reverse the
# rotation): 96 automorphisms. A shift moves each role to the same team's role of the shifted
# kind.

_REVERSAL = (0, 4, 3, 2, 1)
_COSET_REPRESENTATIVES = ((0, 1, 2, 3, 4), (0, 2, 1, 4, 3), (0, 1, 3, 2, 4), (0, 3, 1, 4, 2))
"""Permutations of 1..4 (index 0 unused) commuting with the reversal, one per coset."""


def _value_maps() -> list[tuple[tuple[int, ...], ...]]:
    maps = []
    for representative in _COSET_REPRESENTATIVES:
        options = (representative, tuple(_REVERSAL[v] for v in representative))
        maps.extend(itertools.product(options, repeat=3))
    return maps


_CUBE_MAPS = [(shift, values) for shift in range(3) for values in _value_maps()]
"""(axis shift, per-axis value map): axis k goes to axis (k + shift) % 3."""


def _role_after(role: int, shift: int) -> int:
    return role - role % 3 + (role % 3 + shift) % 3


class _CubeTransform:
    """A map of the cube: cells by byte tables, selections and roles by the axis shift."""

    def __init__(self, shift: int, values: tuple[tuple[int, ...], ...]):
        cell_map = []
        for index in range(CELLS):
            old = cell_coordinates(index)
            new = [0, 0, 0]
            for axis in range(3):
                new[(axis + shift) % 3] = values[axis][old[axis]]
            cell_map.append(cell_index(*new))
        self.tables = [
            [
                sum(1 << cell_map[8 * chunk + bit] for bit in range(8) if byte >> bit & 1)
                for byte in range(256)
            ]
            for chunk in range(CELLS // 8)
        ]
        self.shift = shift
        self.values = values

    def mask(self, bits: int) -> int:
        result = 0
        for table in self.tables:
            result |= table[bits & 255]
            bits >>= 8
        return result

    def state(self, s: Tictactoe3dState, x_marks: int | None = None) -> Tictactoe3dState:
        """The image of a state (`x_marks`: the image of its x marks, if known)."""
        shift, values = self.shift, self.values
        selected = [0, 0, 0]
        for axis, value in enumerate(s.selected):
            if value:
                selected[(axis + shift) % 3] = values[axis][value]
        return Tictactoe3dState(
            self.mask(s.x_marks) if x_marks is None else x_marks,
            self.mask(s.o_marks),
            tuple(selected),
            _role_after(s.control, shift),
            (_role_after(s.first[0], shift), _role_after(s.first[1], shift)),
            s.lines,
        )

    def action(self, role: int, chosen) -> tuple[int, object]:
        moved = _role_after(role, self.shift)
        if chosen == "noop":
            return moved, chosen
        kind = chosen.kind
        return moved, SELECTS[(kind + self.shift) % 3][self.values[kind][chosen.value]]


class _CubeSymmetry:
    """tictactoe3d's automorphisms that keep a team; the representative of a state is its
    least image by (x marks, o marks, control, first roles). Only states at the start of a
    mark with few marks are folded (SYMMETRY_MARKS)."""

    def __init__(self, transforms: Sequence[_CubeTransform]):
        self.transforms = tuple(transforms)
        """Every transform but the identity."""
        self.tables = np.array(
            [
                [[t.tables[chunk][byte] for t in transforms] for byte in range(256)]
                for chunk in range(CELLS // 8)
            ],
            dtype=np.uint64,
        )
        """tables[chunk, byte]: the images of that byte of a mask under every transform."""
        self.chunks = np.arange(CELLS // 8)

    def canonical(self, state: Tictactoe3dState) -> tuple[State, Transform | None]:
        if any(state.selected) or (state.x_marks | state.o_marks).bit_count() > SYMMETRY_MARKS:
            return state, None
        data = np.frombuffer(state.x_marks.to_bytes(CELLS // 8, "little"), dtype=np.uint8)
        images = np.bitwise_or.reduce(self.tables[self.chunks, data], axis=0)
        least = min(int(images.min()), state.x_marks)
        candidates = [self.transforms[i] for i in np.flatnonzero(images == least)]
        best, chosen, key = None, None, None
        if least == state.x_marks:  # the identity is a candidate
            best, key = state, (state.o_marks, state.control, state.first)
        for transform in candidates:
            image = transform.state(state, least)
            image_key = (image.o_marks, image.control, image.first)
            if best is None or image_key < key:
                best, chosen, key = image, transform, image_key
        return best, chosen
