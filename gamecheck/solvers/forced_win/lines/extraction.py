"""The attacker's strategy read off a finished proof: for every attacker-to-move position the
strategy reaches against every defender reply, one move.

The strategy maps canonical keys (cube.canonical) to a cell in that key's own coordinates.
Positions where the attacker can complete a line are left out: the rule "complete a line when
you can" plays them. Where the proof's table holds no proved child (positions inside a threat
sequence, or replies the search dropped because the sequence still wins), the threat solver
gives the move, without a node budget.
"""

from __future__ import annotations

from collections.abc import Callable

from gamecheck.budget import Budget
from gamecheck.errors import CrossCheckFailure
from gamecheck.solvers.forced_win.lines.cube import (
    FULL,
    GROUP,
    INVERSE,
    LINES_THROUGH,
    canonical,
    canonical_children,
    cells_of,
    symmetric_hashes,
    unpack,
    win_cells,
)
from gamecheck.solvers.forced_win.lines.proof_numbers import ProofSearch
from gamecheck.solvers.forced_win.lines.threats import UNLIMITED

CHECK_EVERY = 1024
"""Defender positions walked between two looks at the budget."""


class UnprovedPosition(CrossCheckFailure):
    """The walk met a position the proof does not cover: a bug in the search."""


def extract_strategy(
    search: ProofSearch,
    attacker: int,
    defender: int,
    budget: Budget,
    on_position: Callable[[int], None] = lambda _: None,
    *,
    first: int | None = None,
) -> dict[int, int]:
    """The strategy of a proved position (attacker to move); OutOfBudget if the budget ends.
    `first`: the attacker's first move, where the search began after it. `on_position(n)` is
    told every CHECK_EVERY defender positions walked."""
    strategy: dict[int, int] = {}
    root, s = canonical(attacker, defender)
    if first is not None:
        strategy[root] = GROUP[s][first]
    walked: set[int] = set()
    done: set[int] = set()
    pending = [root]  # canonical attacker-to-move keys
    while pending:
        key = pending.pop()
        if key in done:
            continue
        done.add(key)
        a, d = unpack(key)
        if win_cells(a, d):
            continue
        move = strategy.get(key)
        if move is None:
            move = strategy[key] = _proved_move(search, key, a, d)
        a |= 1 << move
        if any(a & line == line for line in LINES_THROUGH[move]):
            continue
        reply_key, _ = canonical(a, d)
        if reply_key in walked:
            continue
        walked.add(reply_key)
        if len(walked) % CHECK_EVERY == 0:
            budget.check()
            on_position(CHECK_EVERY)
        pending.extend(_replies(*unpack(reply_key)))
    return strategy


def _proved_move(search: ProofSearch, key: int, attacker: int, defender: int) -> int:
    entry = search.table.get(key)
    if entry is not None and entry[0] == 0 and entry[2]:
        for move, _, child in entry[2]:
            if child[0] == 0:
                return move
    bit = search.threats.solve(attacker, defender, budget=UNLIMITED)
    if not bit:
        raise UnprovedPosition(f"no proved move for attacker {attacker:#x}, defender {defender:#x}")
    return bit.bit_length() - 1


def _replies(attacker: int, defender: int) -> list[int]:
    """The canonical attacker-to-move keys after every defender reply that does not leave the
    attacker a line to complete (those are won at once)."""
    occupied = attacker | defender
    if occupied == FULL:
        raise UnprovedPosition(f"the board fills: attacker {attacker:#x}, defender {defender:#x}")
    if win_cells(defender, attacker):
        raise UnprovedPosition(f"the defender completes a line: {attacker:#x}, {defender:#x}")
    wins = win_cells(attacker, defender)
    replies = [z for z in cells_of(FULL & ~occupied) if not wins & ~(1 << z)]
    hashes = symmetric_hashes(attacker, defender)
    return canonical_children(attacker, defender, hashes, 1, replies)


def strategy_move(strategy: dict[int, int], attacker: int, defender: int) -> int | None:
    """The strategy's cell in a position of real coordinates (None: not listed)."""
    key, s = canonical(attacker, defender)
    move = strategy.get(key)
    return None if move is None else INVERSE[s][move]
