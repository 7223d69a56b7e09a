"""Victory by continuous threats (VCF): the attacker wins by making threes the defender must
block, one after the other, until it makes two at once or completes a line.

A three is a line with three of the attacker's marks and none of the defender's; its blank
cell is a threat. The attacker plays only moves that make a three. With one threat the
defender must block it (any other reply loses to the completion, since the defender has no
three of its own then: checked). A block may give the defender a three, which the attacker's
next move must block (and that move must again make a three). Two threes at once (their
threats differ: two lines through the move share only the move) win while the defender has
no three. A win found is a real forced win; "none found" may be incomplete when the node
budget ends.
"""

from __future__ import annotations

from collections.abc import Callable

from gamecheck.solvers.forced_win.lines.cube import FULL, LINES, LINES_THROUGH, pack, win_cells

NODE_BUDGET = 5000
"""Threat-search nodes per call in the proof-number search (measured in the prototype)."""
UNLIMITED = 10**9
MEMO_SIZE = 2_000_000
"""The memo is cleared when it holds more positions than this."""
_UNKNOWN = -1


class ThreatSolver:
    """VCF search with a memo of settled positions (attacker to move)."""

    def __init__(self, budget: int = NODE_BUDGET):
        self.memo: dict[int, int] = {}
        """pack(attacker, defender) -> the winning move's bit, or 0: no VCF (complete)."""
        self.budget = budget
        self.nodes = 0
        self.calls = 0
        self._left = 0

    def solve(
        self,
        attacker: int,
        defender: int,
        *,
        budget: int | None = None,
        wins: int | None = None,
        defender_wins: int | None = None,
    ) -> int:
        """The bit of a first move of a VCF of the attacker (to move), or 0 if none is found.
        `wins` and `defender_wins`: the two sides' `win_cells`, if known."""
        self.calls += 1
        if wins is None:
            wins = win_cells(attacker, defender)
        if wins:
            return wins & -wins
        if defender_wins is None:
            defender_wins = win_cells(defender, attacker)
        if defender_wins & (defender_wins - 1):
            return 0
        if len(self.memo) > MEMO_SIZE:
            self.memo.clear()
        settled = self.memo.get(pack(attacker, defender))
        if settled is not None:
            return settled
        twos = [
            line for line in LINES if not line & defender and (line & attacker).bit_count() == 2
        ]
        self._left = self.budget if budget is None else budget
        return max(0, self._search(attacker, defender, twos, defender_wins))

    def line(
        self,
        attacker: int,
        defender: int,
        *,
        wins: int | None = None,
        defender_wins: int | None = None,
    ) -> list[tuple[int, int]] | None:
        """The main line of a VCF as (attacker's move bit, threats after it) pairs: one threat
        bit is the defender's forced block, two or more a double threat, 0 a completed line;
        None if no VCF is found."""
        if wins is None:
            wins = win_cells(attacker, defender)
        if wins:
            return [(wins & -wins, 0)]
        move = self.solve(attacker, defender, wins=wins, defender_wins=defender_wins)
        if not move:
            return None
        line = []
        while True:
            attacker |= move
            threats = 0
            for through in LINES_THROUGH[move.bit_length() - 1]:
                if not through & defender and (through & attacker).bit_count() == 3:
                    threats |= through & ~attacker
            line.append((move, threats))
            if threats & (threats - 1):
                return line
            defender |= threats
            move = self.memo.get(pack(attacker, defender)) or self.solve(
                attacker, defender, budget=UNLIMITED
            )
            if not threats or not move:
                raise AssertionError("the threat memo lost a VCF")

    def _search(self, attacker: int, defender: int, twos: list[int], forced: int) -> int:
        """Attacker to move without a three; `forced`: the one threat of the defender it must
        block, or 0. The winning move's bit, 0 if there is none, _UNKNOWN if the budget ran
        out."""
        key = pack(attacker, defender)
        settled = self.memo.get(key)
        if settled is not None:
            return settled
        self.nodes += 1
        self._left -= 1
        if self._left < 0:
            return _UNKNOWN
        occupied = attacker | defender
        candidates: dict[int, int] = {}  # move bit -> the threat it makes
        for line in twos:
            blank = line & ~occupied
            first = blank & -blank
            second = blank ^ first
            for move, threat in ((first, second), (second, first)):
                if forced and move != forced:
                    continue
                if move in candidates:  # two threes at once; the defender has none
                    self.memo[key] = move
                    return move
                candidates[move] = threat
        unknown = False
        for move, threat in candidates.items():
            attacker2 = attacker | move
            defender2 = defender | threat
            counter = 0  # the defender's threat made by its block
            double = False
            for line in LINES_THROUGH[threat.bit_length() - 1]:
                if not line & attacker2 and (line & defender2).bit_count() == 3:
                    blank = line & ~defender2
                    if counter and counter != blank:
                        double = True
                        break
                    counter = blank
            if double:
                continue
            both = move | threat
            twos2 = [line for line in twos if not line & both]
            twos2 += [
                line
                for line in LINES_THROUGH[move.bit_length() - 1]
                if not line & defender2 and (line & attacker2).bit_count() == 2
            ]
            result = self._search(attacker2, defender2, twos2, counter)
            if result > 0:
                self.memo[key] = move
                return move
            if result < 0:
                unknown = True
                if self._left < 0:
                    break
        if unknown:
            return _UNKNOWN
        self.memo[key] = 0
        return 0


def replay_threats(attacker: int, defender: int, moves: list[int]) -> bool:
    """Whether the attacker (to move) still wins by playing the threat sequence `moves` (bits)
    in this position, every rule re-checked: each move blank and making a three, the defender
    without a three of its own (or with one, which the move blocks), the block forced."""
    return _replay(attacker, defender, moves, lambda *_: None)


def sensitive_cells(attacker: int, defender: int, moves: list[int]) -> int:
    """The cells z for which `replay_threats(attacker, defender | z, moves)` may differ from
    the replay without z (every cell if that one fails). A defender mark at z changes what
    the replay sees only on the lines through z, and only where one of them is, at some
    point of the replay, an attacker three (z would block it) or a line of the defender's
    with two or three marks and none of the attacker's (z would make or fill a three):
    the cells of those lines."""
    cells = 0

    def note(attacker: int, defender: int) -> None:
        nonlocal cells
        cells |= _sensitive_lines(attacker, defender)

    return cells if _replay(attacker, defender, moves, note) else FULL


def _replay(attacker: int, defender: int, moves: list[int], look: Callable) -> bool:
    """replay_threats, showing `look(attacker, defender)` each position it reads."""
    for move in moves:
        look(attacker, defender)
        wins = win_cells(attacker, defender)
        if wins:
            return True
        defender_wins = win_cells(defender, attacker)
        if defender_wins and defender_wins != move or (attacker | defender) & move:
            return False
        attacker |= move
        look(attacker, defender)
        threats = win_cells(attacker, defender)
        if not threats or win_cells(defender, attacker):
            return False
        if threats & (threats - 1):
            return True
        defender |= threats
    look(attacker, defender)
    return bool(win_cells(attacker, defender))


def _sensitive_lines(attacker: int, defender: int) -> int:
    """The cells of the attacker's threes and of the defender's lines with two or more marks
    and none of the attacker's."""
    cells = 0
    for line in LINES:
        if not line & defender:
            if (line & attacker).bit_count() >= 3:
                cells |= line
        elif not line & attacker and (line & defender).bit_count() >= 2:
            cells |= line
    return cells
