"""df-pn (with the 1 + eps trick) over canonical positions, proving that the attacker wins.

Nodes are canonical keys pack(attacker, defender); the attacker is to move at OR nodes. A
table entry is [proof number, disproof number, children or None]. Move restrictions, and why
they keep a proof sound:

- attacker nodes: any restriction is sound for a proof (one winning move is enough). With a
  defender three, only the block; else if the defender would have a VCF were the attacker to
  pass, only that VCF's cells and the attacker's moves that make a three; at most
  `MOST_ATTACKER_MOVES` by a line-count order. When all of them are refuted at a node with at
  most `WIDEN_MARKS` marks, every other move is added (widening). A disproof is therefore a
  disproof under restriction only, never a proof that the attacker cannot win.
- defender nodes: every reply is covered. With one attacker three, only the block (any other
  reply loses at once; the defender has no three, checked). Otherwise, if the attacker has a
  VCF were the defender to pass (cells S), a reply z outside S is dropped only if replaying
  exactly that sequence with z played still wins (`replay_threats`; a z off every line the
  sequence could notice it on, `sensitive_cells`, changes nothing and is dropped without
  replaying); every other reply is a child. Symmetric children are merged (same canonical key).
- leaves: attacker to move with a VCF is proved; defender to move with a VCF of its own is
  disproved; an attacker double three against a defender without a three is proved.
"""

from __future__ import annotations

from collections.abc import Callable

from gamecheck.budget import Budget
from gamecheck.solvers.forced_win.lines.cube import (
    FULL,
    LINES,
    LINES_THROUGH,
    canonical,
    canonical_children,
    cells_of,
    symmetric_hashes,
    unpack,
    win_cells,
)
from gamecheck.solvers.forced_win.lines.threats import (
    ThreatSolver,
    replay_threats,
    sensitive_cells,
)

INFINITE = 10**9
EPSILON = 0.25
"""The 1 + eps threshold trick: a child is searched until its number passes (1 + eps) times
the second best's (measured in the prototype: 0.25)."""
ATTACKER_PROOF = 6
"""The proof number of a new attacker node: above 1, as such nodes need more work than a
defender node's reply (measured in the prototype: 6)."""
MOST_ATTACKER_MOVES = 8
WIDEN_MARKS = 8
CHECK_EVERY = 256
"""Expansions between two looks at the budget."""

Entry = list  # [proof number, disproof number, children: list of (cell, key, entry) or None]


class ProofSearch:
    """One df-pn search; its table carries over from one `prove` call to the next."""

    def __init__(
        self,
        lead: int,
        budget: Budget,
        on_expand: Callable[[int], None] = lambda _: None,
    ):
        """`lead`: the defender's marks minus the attacker's when the attacker is to move
        (0 for team x, 1 for team o). `on_expand(n)` is told every CHECK_EVERY expansions."""
        self.lead = lead
        self.budget = budget
        self.on_expand = on_expand
        self.table: dict[int, Entry] = {}
        self.threats = ThreatSolver()
        self.widened: set[int] = set()
        self.expansions = 0
        self.slice_end: int | None = None
        """Where the slice of the current `prove` ends, in expansions (None: no slice)."""

    def attacker_to_move(self, attacker: int, defender: int) -> bool:
        return defender.bit_count() - attacker.bit_count() == self.lead

    def entry(self, key: int) -> Entry:
        """The table entry of a canonical key, evaluated when new."""
        entry = self.table.get(key)
        if entry is None:
            entry = self.table[key] = self._evaluate(*unpack(key))
        return entry

    def prove(self, attacker: int, defender: int, *, expansions: int | None = None) -> Entry:
        """Search the position until it is proved or disproved (under restriction), or for
        `expansions` more expansions; the entry of its canonical key. OutOfBudget when the
        budget ends."""
        key, _ = canonical(attacker, defender)
        entry = self.entry(key)
        self.slice_end = None if expansions is None else self.expansions + expansions
        to_move = self.attacker_to_move(attacker, defender)
        while entry[0] and entry[1] and not self._slice_over():
            self._mid(key, entry, INFINITE, INFINITE, to_move)
        return entry

    def children(self, attacker: int, defender: int) -> list[tuple[int, int, Entry]]:
        """The (move, canonical key, entry) children of a position's canonical key, expanded
        if need be (moves in the key's coordinates)."""
        key, _ = canonical(attacker, defender)
        entry = self.entry(key)
        if entry[2] is None:
            self._expand(key, entry, self.attacker_to_move(attacker, defender))
        return entry[2]

    def _slice_over(self) -> bool:
        return self.slice_end is not None and self.expansions >= self.slice_end

    def _evaluate(self, attacker: int, defender: int) -> Entry:
        """The first numbers of a new node: exact when 0 or INFINITE."""
        occupied = attacker | defender
        wins = win_cells(attacker, defender)
        defender_wins = win_cells(defender, attacker)
        if self.attacker_to_move(attacker, defender):
            if wins:
                return [0, INFINITE, None]
            if defender_wins & (defender_wins - 1) or occupied == FULL:
                return [INFINITE, 0, None]
            if self.threats.solve(attacker, defender, wins=wins, defender_wins=defender_wins):
                return [0, INFINITE, None]
            return [ATTACKER_PROOF, 1, None]
        if defender_wins or occupied == FULL:
            return [INFINITE, 0, None]
        if wins:
            return [0, INFINITE, None] if wins & (wins - 1) else [ATTACKER_PROOF, 1, None]
        if self.threats.solve(defender, attacker, wins=defender_wins, defender_wins=wins):
            return [INFINITE, 0, None]
        line = self.threats.line(attacker, defender, wins=wins, defender_wins=defender_wins)
        replies = FULL & ~occupied
        if line:
            replies &= _cells_of_line(line)
        return [max(1, replies.bit_count()), 1, None]

    def _attacker_moves(self, attacker: int, defender: int) -> list[int]:
        defender_wins = win_cells(defender, attacker)
        if defender_wins:
            return [defender_wins.bit_length() - 1]
        blanks = FULL & ~(attacker | defender)
        moves = _by_lines(attacker, defender, blanks)
        against = self.threats.line(defender, attacker, wins=0)
        if against:
            useful = _cells_of_line(against)
            for line in LINES:
                if not line & defender and (line & attacker).bit_count() == 2:
                    useful |= line & ~attacker
            moves = [cell for cell in moves if useful >> cell & 1]
        return moves[:MOST_ATTACKER_MOVES]

    def _defender_moves(self, attacker: int, defender: int) -> list[int]:
        wins = win_cells(attacker, defender)
        if wins:
            return [wins.bit_length() - 1]
        blanks = FULL & ~(attacker | defender)
        line = self.threats.line(attacker, defender)
        if not line:
            return list(cells_of(blanks))
        cells = _cells_of_line(line)
        sequence = [move for move, _ in line]
        sensitive = sensitive_cells(attacker, defender, sequence)
        return [
            z
            for z in cells_of(blanks)
            if cells >> z & 1
            or sensitive >> z & 1
            and not replay_threats(attacker, defender | 1 << z, sequence)
        ]

    def _expand(self, key: int, entry: Entry, attacker_moves: bool) -> None:
        self.expansions += 1
        if self.expansions % CHECK_EVERY == 0:
            self.budget.check()
            self.on_expand(CHECK_EVERY)
        attacker, defender = unpack(key)
        if attacker_moves:
            moves = self._attacker_moves(attacker, defender)
        else:
            moves = self._defender_moves(attacker, defender)
        entry[2] = []
        self._add_children(key, entry, moves, 0 if attacker_moves else 1)

    def _add_children(self, key: int, entry: Entry, moves: list[int], side: int) -> None:
        attacker, defender = unpack(key)
        hashes = symmetric_hashes(attacker, defender)
        seen = {child for _, child, _ in entry[2]}
        for move, child in zip(
            moves, canonical_children(attacker, defender, hashes, side, moves), strict=True
        ):
            if child not in seen:
                seen.add(child)
                entry[2].append((move, child, self.entry(child)))

    def _widen(self, key: int, entry: Entry) -> None:
        """Every attacker move was refuted under the restriction: add all the others."""
        self.widened.add(key)
        attacker, defender = unpack(key)
        if not win_cells(defender, attacker):
            self._add_children(key, entry, list(cells_of(FULL & ~(attacker | defender))), 0)

    def _mid(self, key: int, entry: Entry, proof: int, disproof: int, to_move: bool) -> None:
        """Search below `entry` until its numbers reach the thresholds or settle."""
        if entry[2] is None:
            self._expand(key, entry, to_move)
        children = entry[2]
        while True:
            if to_move:
                pn, dn, best, second = _or_numbers(children)
            else:
                dn, pn, best, second = _or_numbers(children, flip=True)
            if to_move and dn == 0 and children and key not in self.widened:
                attacker, defender = unpack(key)
                if (attacker | defender).bit_count() <= WIDEN_MARKS:
                    self._widen(key, entry)
                    continue
            entry[0], entry[1] = pn, dn
            if pn >= proof or dn >= disproof or pn == 0 or dn == 0 or self._slice_over():
                return
            move, child, child_entry = best
            if to_move:
                child_proof = min(proof, int(second * (1 + EPSILON)) + 1)
                child_disproof = min(INFINITE, disproof - dn + child_entry[1])
            else:
                child_disproof = min(disproof, int(second * (1 + EPSILON)) + 1)
                child_proof = min(INFINITE, proof - pn + child_entry[0])
            self._mid(child, child_entry, child_proof, child_disproof, not to_move)


def _or_numbers(children: list, flip: bool = False) -> tuple[int, int, tuple | None, int]:
    """At an OR node (an AND node with `flip`, the numbers swapped): the least of the
    children's numbers, the sum of the others (at most INFINITE), the best child, the second
    least number. No children: lost."""
    mine, theirs = (1, 0) if flip else (0, 1)
    least, second, total, best = INFINITE, INFINITE, 0, None
    for child in children:
        numbers = child[2]
        total += numbers[theirs]
        if numbers[mine] < least:
            least, second, best = numbers[mine], least, child
        elif numbers[mine] < second:
            second = numbers[mine]
    if not children:
        return INFINITE, 0, None, INFINITE
    return least, min(total, INFINITE), best, second


def _cells_of_line(line: list[tuple[int, int]]) -> int:
    """The cells a VCF's main line uses: the attacker's moves and the threats."""
    cells = 0
    for move, threats in line:
        cells |= move | threats
    return cells


def _by_lines(attacker: int, defender: int, blanks: int) -> list[int]:
    """The blank cells, most promising first: lines through them still open for the attacker
    (more so with more of its marks), and the defender's that it would block."""
    scored = []
    for cell in cells_of(blanks):
        score = 0
        for line in LINES_THROUGH[cell]:
            if not line & defender:
                mine = (line & attacker).bit_count()
                score += 1 + 4 * mine * mine
            elif not line & attacker:
                theirs = (line & defender).bit_count()
                score += 3 * theirs * theirs
        scored.append((-score, cell))
    scored.sort()
    return [cell for _, cell in scored]
