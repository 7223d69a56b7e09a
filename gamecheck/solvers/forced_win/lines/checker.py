"""An independent check of an attacker's strategy at the level of marks: it shares no code with
the search, the extraction or their cube module.

It derives the 76 lines itself (asserting they are the model's, the ground truth of the rules)
and its own symmetry group by brute force (every map of cells by an axis permutation and a
permutation of values per axis that maps lines onto lines), then plays: at an attacker turn,
complete a line if one can be completed, else the strategy's move, found under some image
g(P) of the position P and mapped back with g's inverse, which must be a blank cell; at a
defender turn, every blank cell. The defender completing a line, a full board, a missing
entry or a move on a marked cell fail the check. Results are memoised per class of symmetric
positions, which is exact: the rules are the same in every image.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from gamecheck.budget import Budget
from gamecheck.errors import CrossCheckFailure
from gamecheck.models.tictactoe3d import LINES as MODEL_LINES

CELLS = 64
FULL = (1 << CELLS) - 1
CHECK_EVERY = 4096
"""Positions expanded between two looks at the budget."""

Hint = Callable[[int, int], Sequence[int] | None]
"""A guess of the symmetry (a cell map) that takes a position to its strategy key: only a
speed-up, used when it is one of the checker's own symmetries."""


class MarkStrategyFailure(CrossCheckFailure):
    """A strategy the mark-level check rejects: a bug in the search or the extraction."""


@dataclass(frozen=True)
class MarkCheck:
    """What a passed check saw."""

    classes: int
    """Classes of symmetric positions expanded."""
    positions: int
    """Positions of the whole tree (every defender reply, nothing merged), counted."""
    longest: int
    """The most marks any line takes, both sides', until the attacker's line."""


def _coordinates(cell: int) -> tuple[int, int, int]:
    return cell // 16, cell // 4 % 4, cell % 4


@cache
def own_lines() -> tuple[int, ...]:
    """The lines of the cube: every four collinear cells with unit steps, derived from pairs
    of neighbouring cells."""
    cells = [(r, c, level) for r in range(4) for c in range(4) for level in range(4)]
    found = set()
    for a, b in itertools.combinations(cells, 2):
        step = tuple(q - p for p, q in zip(a, b, strict=True))
        if any(abs(v) > 1 for v in step):
            continue
        points = [tuple(p + k * v for p, v in zip(a, step, strict=True)) for k in range(-3, 4)]
        points = [p for p in points if all(0 <= v < 4 for v in p)]
        if len(points) == 4:
            found.add(sum(1 << (16 * p[0] + 4 * p[1] + p[2]) for p in points))
    if len(found) != 76 or found != set(MODEL_LINES):
        raise AssertionError("the checker's lines are not the model's")
    return tuple(sorted(found))


@cache
def own_group() -> tuple[tuple[int, ...], ...]:
    """The cell maps (axes permuted, each axis's values permuted) that map lines onto lines."""
    lines = own_lines()
    line_set = set(lines)
    line_cells = [[c for c in range(CELLS) if line >> c & 1] for line in lines]
    group = []
    for axes in itertools.permutations(range(3)):
        for values in itertools.product(itertools.permutations(range(4)), repeat=3):
            cell_map = []
            for cell in range(CELLS):
                old = _coordinates(cell)
                new = [values[k][old[axes[k]]] for k in range(3)]
                cell_map.append(16 * new[0] + 4 * new[1] + new[2])
            if all(sum(1 << cell_map[c] for c in cells) in line_set for cells in line_cells):
                group.append(tuple(cell_map))
    if len(group) != 192 or len(set(group)) != 192:
        raise AssertionError("the checker's symmetry group is not 192 maps")
    return tuple(group)


@cache
def _tables() -> tuple:
    group = own_group()
    inverses = [tuple(sorted(range(CELLS), key=g.__getitem__)) for g in group]
    tables = [
        [[sum(1 << g[8 * k + j] for j in range(8) if byte >> j & 1) for byte in range(256)]
         for k in range(8)]
        for g in group
    ]  # fmt: skip
    through = [[line for line in own_lines() if line >> c & 1] for c in range(CELLS)]
    return group, inverses, tables, through


class _Check:
    def __init__(self, strategy: Mapping[int, int], hint: Hint | None, budget: Budget):
        self.strategy = strategy
        self.hint = hint
        self.budget = budget
        self.group, self.inverses, self.tables, self.through = _tables()
        self.index = {g: s for s, g in enumerate(self.group)}
        self.lines = own_lines()
        self.memo: dict[tuple[str, int], tuple[int, int]] = {}
        self.classes = 0

    def image(self, s: int, mask: int) -> int:
        result = 0
        for k, table in enumerate(self.tables[s]):
            result |= table[mask >> 8 * k & 255]
        return result

    def key(self, s: int, attacker: int, defender: int) -> int:
        return self.image(s, attacker) | self.image(s, defender) << CELLS

    def threat_cells(self, mine: int, theirs: int) -> int:
        cells = 0
        for line in self.lines:
            if not line & theirs and (line & mine).bit_count() == 3:
                cells |= line & ~mine
        return cells

    def hinted(self, attacker: int, defender: int) -> int | None:
        if self.hint is None:
            return None
        guess = self.hint(attacker, defender)
        return None if guess is None else self.index.get(tuple(guess))

    def expanded(self) -> None:
        self.classes += 1
        if self.classes % CHECK_EVERY == 0:
            self.budget.check()

    def fail(self, reason: str, attacker: int, defender: int) -> MarkStrategyFailure:
        return MarkStrategyFailure(f"{reason}: attacker {attacker:#x}, defender {defender:#x}")

    def attacker_turn(self, attacker: int, defender: int) -> tuple[int, int]:
        """(positions, longest marks) of the tree below an attacker-to-move position."""
        if self.threat_cells(attacker, defender):
            return 1, 1
        s = self.hinted(attacker, defender)
        if s is not None and (key := self.key(s, attacker, defender)) in self.strategy:
            memo_key = ("a", key)
        else:
            images = [self.key(t, attacker, defender) for t in range(len(self.group))]
            memo_key = ("a", min(images))
            s = next((t for t, k in enumerate(images) if k in self.strategy), None)
        known = self.memo.get(memo_key)
        if known is not None:
            return known
        self.expanded()
        if s is None:
            raise self.fail("the strategy has no move", attacker, defender)
        move = self.inverses[s][self.strategy[self.key(s, attacker, defender)]]
        if (attacker | defender) >> move & 1:
            raise self.fail(f"the strategy marks the taken cell {move}", attacker, defender)
        attacker |= 1 << move
        if any(attacker & line == line for line in self.through[move]):
            result = (2, 1)
        elif attacker | defender == FULL:
            raise self.fail("the board fills without a line", attacker, defender)
        else:
            positions, longest = self.defender_turn(attacker, defender)
            result = (1 + positions, 1 + longest)
        self.memo[memo_key] = result
        return result

    def defender_turn(self, attacker: int, defender: int) -> tuple[int, int]:
        s = self.hinted(attacker, defender)
        if s is None:
            key = min(self.key(t, attacker, defender) for t in range(len(self.group)))
        else:
            key = self.key(s, attacker, defender)
        known = self.memo.get(("d", key))
        if known is not None:
            return known
        self.expanded()
        occupied = attacker | defender
        wins = self.threat_cells(attacker, defender)
        positions, longest = 1, 0
        for z in range(CELLS):
            if occupied >> z & 1:
                continue
            defender2 = defender | 1 << z
            if any(defender2 & line == line for line in self.through[z]):
                raise self.fail("the defender completes a line", attacker, defender2)
            if attacker | defender2 == FULL:
                raise self.fail("the board fills without a line", attacker, defender2)
            # with a three left, the attacker completes a line next
            below = (1, 1) if wins & ~(1 << z) else self.attacker_turn(attacker, defender2)
            positions += below[0]
            longest = max(longest, 1 + below[1])
        self.memo[("d", key)] = (positions, longest)
        return positions, longest


def check_mark_strategy(
    strategy: Mapping[int, int],
    attacker: int,
    defender: int,
    *,
    hint: Hint | None = None,
    budget: Budget | None = None,
) -> MarkCheck:
    """Play `strategy` (key: attacker marks | defender marks << 64 of some image of the
    position, attacker to move; value: the attacker's cell in that image) from the position
    (attacker to move) against every defender reply; MarkStrategyFailure if some line is not
    won, OutOfBudget if the budget ends first."""
    check = _Check(strategy, hint, budget or Budget())
    positions, longest = check.attacker_turn(attacker, defender)
    return MarkCheck(check.classes, positions, longest)
