"""Prove an attacker's win at the level of marks: search, extract the strategy, check it.

From the empty board the attacker opens on a corner (the 16 cells on seven lines form one
class of the group; restricting the attacker is sound for a proof) and the defender's
replies are proved one class at a time, each first within FIRST_PASS_EXPANSIONS so that one
hard reply does not hold up the others, then the unsettled ones to the end, on one shared
table. The slices are counted in expansions, not seconds, so that a run without a time limit
finds the same strategy on any machine. Any other position is searched as a whole.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from tqdm import tqdm

from gamecheck.budget import Budget
from gamecheck.solvers.forced_win.lines.checker import MarkCheck, check_mark_strategy
from gamecheck.solvers.forced_win.lines.cube import GROUP, canonical, unpack
from gamecheck.solvers.forced_win.lines.extraction import extract_strategy
from gamecheck.solvers.forced_win.lines.proof_numbers import ProofSearch

OPENING_CELL = 0
"""The corner (1 1 1)."""
FIRST_PASS_EXPANSIONS = 150_000
"""Each defender reply to the opening gets this many expansions first (the prototype's
replies took from 27,000 to 139,000, the hardest about 390,000)."""


@dataclass(frozen=True)
class MarkProof:
    """A proved and checked win of the attacker (to move) at the level of marks."""

    strategy: dict[int, int]
    """Canonical key (cube.canonical, attacker to move) -> the attacker's cell in it."""
    check: MarkCheck
    expansions: int
    table_size: int
    search_seconds: float
    extraction_seconds: float
    check_seconds: float


def prove_mark_win(
    attacker: int, defender: int, lead: int, budget: Budget, *, progress: bool = False
) -> MarkProof | None:
    """A checked strategy for the attacker (to move; `lead`: the defender's marks minus the
    attacker's then), or None if the search ends without a proof (a disproof under its move
    restrictions proves nothing). OutOfBudget when the budget ends first."""
    bar = tqdm(
        desc="tictactoe3d lines", unit="node", file=sys.stderr, disable=None if progress else True,
        leave=False, delay=1.0,
    )  # fmt: skip
    try:
        clock = time.monotonic()
        search = ProofSearch(lead, budget, bar.update)
        if attacker | defender:
            proved = search.prove(attacker, defender)[0] == 0
        else:
            proved = _prove_opening(search)
        if not proved:
            return None
        searched = time.monotonic()
        bar.set_description("tictactoe3d strategy")
        first = None if attacker | defender else OPENING_CELL
        strategy = extract_strategy(search, attacker, defender, budget, bar.update, first=first)
        extracted = time.monotonic()
        expansions, table_size = search.expansions, len(search.table)
        del search
        bar.set_description("tictactoe3d check")
        check = check_mark_strategy(
            strategy, attacker, defender, hint=lambda a, d: GROUP[canonical(a, d)[1]], budget=budget
        )
        return MarkProof(
            strategy,
            check,
            expansions,
            table_size,
            searched - clock,
            extracted - searched,
            time.monotonic() - extracted,
        )
    finally:
        bar.close()


def _prove_opening(search: ProofSearch) -> bool:
    """Whether the corner opening is proved, reply class by reply class."""
    opened = 1 << OPENING_CELL
    children = search.children(opened, 0)  # one per class of replies
    for slice_expansions in (FIRST_PASS_EXPANSIONS, None):
        for _, child, entry in children:
            if entry[0] and entry[1]:  # neither proved nor disproved yet
                search.prove(*unpack(child), expansions=slice_expansions)
    return search.prove(opened, 0)[0] == 0
