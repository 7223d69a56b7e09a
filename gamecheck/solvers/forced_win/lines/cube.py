"""The 4x4x4 cube at the level of marks: the 76 lines, threes, and the 192 symmetries.

A position is two 64-bit masks, the side to move's (the attacker's or the defender's) and the
other's; cell (r c l), coordinates 0..3 here, is bit 16r + 4c + l, the bit of the model
(models/tictactoe3d.py), whose lines are taken as they are. The symmetries are the maps of
cells that keep the set of lines: permute the three axes, then map each coordinate by a
permutation of 0..3 that commutes with the reversal v -> 3 - v, all three from the same coset
of {identity, reversal}: 6 x 32 = 192 maps, each checked to map lines onto lines. A
position's canonical form is its image under the map that gives the least Zobrist hash: equal
for symmetric positions, and always an exact image (a hash collision can only cost a missed
transposition, never merge two positions that are not symmetric).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import numpy as np

from gamecheck.models.tictactoe3d import CELLS, FULL, LINES, LINES_THROUGH

__all__ = ["CELLS", "FULL", "LINES", "LINES_THROUGH"]

_REVERSAL = (3, 2, 1, 0)
_COSETS = ((0, 1, 2, 3), (1, 0, 3, 2), (0, 2, 1, 3), (2, 0, 3, 1))
"""Permutations of 0..3 commuting with the reversal, one per coset of {identity, reversal}."""
ZOBRIST_SEED = 12345


def cells_of(mask: int) -> Iterator[int]:
    """The cells (bit numbers) of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def win_cells(attacker: int, defender: int) -> int:
    """The mask of blank cells that complete a line of `attacker` (its threes' fourth cells)."""
    cells = 0
    for line in LINES:
        if not line & defender and (line & attacker).bit_count() == 3:
            cells |= line
    return cells & ~attacker


def has_line(marks: int) -> bool:
    return any(marks & line == line for line in LINES)


def _permutations() -> list[tuple[int, ...]]:
    """The 192 cell maps that keep the lines, the identity first."""
    maps = []
    for axes in itertools.permutations(range(3)):
        for representative in _COSETS:
            options = (representative, tuple(_REVERSAL[v] for v in representative))
            for values in itertools.product(options, repeat=3):
                image = []
                for cell in range(CELLS):
                    old = (cell >> 4, cell >> 2 & 3, cell & 3)
                    new = [values[k][old[axes[k]]] for k in range(3)]
                    image.append(16 * new[0] + 4 * new[1] + new[2])
                maps.append(tuple(image))
    line_set = set(LINES)
    for image in maps:
        if any(sum(1 << image[c] for c in cells_of(line)) not in line_set for line in LINES):
            raise AssertionError("a cube map that does not keep the lines")
    if len(set(maps)) != 192 or maps[0] != tuple(range(CELLS)):
        raise AssertionError("the cube's symmetry group is not 192 maps")
    return maps


GROUP = _permutations()
"""GROUP[s][cell]: the image of a cell under symmetry s (s = 0: the identity)."""
INVERSE = [tuple(sorted(range(CELLS), key=image.__getitem__)) for image in GROUP]
_TABLES = [
    [[sum(1 << image[8 * k + j] for j in range(8) if byte >> j & 1) for byte in range(256)]
     for k in range(8)]
    for image in GROUP
]  # fmt: skip
"""_TABLES[s][k][byte]: the image under symmetry s of `byte` placed at byte k of a mask."""

_random = random.Random(ZOBRIST_SEED)
_ZOBRIST = [[_random.getrandbits(63) for _ in range(CELLS)] for _ in range(2)]
_HASHES = np.array(
    [
        [[_ZOBRIST[side][image[cell]] for image in GROUP] for cell in range(CELLS)]
        for side in (0, 1)
    ],
    dtype=np.int64,
)
"""_HASHES[side, cell, s]: the hash of a mark of `side` (0 first mask, 1 second) on `cell`'s
image under symmetry s."""


def image(s: int, mask: int) -> int:
    """The image of a mask under symmetry s."""
    t = _TABLES[s]
    return (
        t[0][mask & 255] | t[1][mask >> 8 & 255] | t[2][mask >> 16 & 255]
        | t[3][mask >> 24 & 255] | t[4][mask >> 32 & 255] | t[5][mask >> 40 & 255]
        | t[6][mask >> 48 & 255] | t[7][mask >> 56]
    )  # fmt: skip


def pack(first: int, second: int) -> int:
    """A position as one key: the first mask in the low 64 bits."""
    return first | second << CELLS


def unpack(key: int) -> tuple[int, int]:
    return key & FULL, key >> CELLS


def symmetric_hashes(first: int, second: int) -> np.ndarray:
    """The Zobrist hash of the position's image under every symmetry."""
    hashes = np.zeros(len(GROUP), dtype=np.int64)
    for cell in cells_of(first):
        hashes ^= _HASHES[0, cell]
    for cell in cells_of(second):
        hashes ^= _HASHES[1, cell]
    return hashes


def canonical(first: int, second: int) -> tuple[int, int]:
    """The canonical key of a position and the symmetry s that maps it there."""
    s = int(np.argmin(symmetric_hashes(first, second)))
    return pack(image(s, first), image(s, second)), s


def canonical_children(
    first: int, second: int, hashes: np.ndarray, side: int, cells: list[int]
) -> list[int]:
    """The canonical keys of the position with a mark of `side` (0: first, 1: second) added on
    each of `cells`; `hashes` are the position's `symmetric_hashes`."""
    if not cells:
        return []
    chosen = np.argmin(hashes[None, :] ^ _HASHES[side, cells], axis=1).tolist()
    keys = []
    for cell, s in zip(cells, chosen, strict=True):
        if side == 0:
            keys.append(pack(image(s, first | 1 << cell), image(s, second)))
        else:
            keys.append(pack(image(s, first), image(s, second | 1 << cell)))
    return keys
