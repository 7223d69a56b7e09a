"""Balances: weighted counts of fluents whose sum no step changes, guessed from the steps
of random playouts.

Placement games keep the stones of each side in step with the turn: in gomoku every state has
(black stones) - (white stones) - (white to move) = 0. With the counter "stones = t" this says
black has at most 3 stones after 6 steps, so no line of 5: a counting argument that CDCL
search, left alone, rediscovers only as a pigeonhole proof per line. A balance is a candidate
here; invariants.py proves it (by k-induction on the sum) and the unrollings add it to every
layer, a free start's too.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import numpy as np

from gamecheck.budget import Budget

BALANCE_CANDIDATES = 4
PAIRS_BETWEEN_CHECKS = 1000

Combination = tuple[tuple[int, int], ...]
"""(weight, feature index) pairs."""


def balance_combinations(
    deltas: Sequence[np.ndarray], fluents: Sequence[Mapping[int, int]], budget: Budget
) -> list[Combination]:
    """Sums of two or three features, with weights +1 or -1, that no sampled step changes:
    `deltas[j]` is how each step changed feature j's count, `fluents[j]` what each fluent it
    counts adds to it. Left out: features that no step changes, and sums that are not
    `_useful`; a feature that changes like an earlier one is only weighed against it, last
    (where there is room)."""
    if not deltas or not len(deltas[0]):
        return []
    patterns = np.unique(np.array(deltas).T, axis=0).T  # the ways steps change features
    alike: dict[bytes, list[int]] = {}
    for j, row in enumerate(patterns):
        if row.any():
            alike.setdefault(row.tobytes(), []).append(j)
    first = {pattern: features[0] for pattern, features in alike.items()}
    moving = sorted(first.values())
    constant = {frozenset(fluents[j]) for j, row in enumerate(patterns) if not row.any()}
    found: list[Combination] = []
    for j in moving:
        k = first.get((-patterns[j]).tobytes())
        if k is not None and k > j and _useful(((1, j), (1, k)), fluents, constant):
            found.append(((1, j), (1, k)))
    for number, (j, k) in enumerate(itertools.combinations(moving, 2)):
        if number % PAIRS_BETWEEN_CHECKS == 0:
            budget.check()
        thirds = (c for c in _thirds(patterns, first, j, k) if _useful(c, fluents, constant))
        found += itertools.islice(thirds, 1)  # the others say the same under the state
        # invariants: x - o + (x to move) and x - o - (o to move)
        if len(found) >= BALANCE_CANDIDATES:
            break
    found += [  # two boards that fill alike, one stone each a step: as many stones on each
        ((1, features[0]), (-1, k))
        for features in alike.values()
        for k in features[1:]
        if _useful(((1, features[0]), (-1, k)), fluents, constant)
    ][: max(0, BALANCE_CANDIDATES - len(found))]
    return found[:BALANCE_CANDIDATES]


def _thirds(patterns: np.ndarray, first: dict[bytes, int], j: int, k: int):
    """The balances j + s k + w m (s, w = +1 or -1) with m after k."""
    for sign in (1, -1):
        rest = -(patterns[j] + sign * patterns[k])
        if not rest.any():
            continue
        for weight in (1, -1):
            m = first.get((weight * rest).tobytes())
            if m is not None and m > k:
                yield (1, j), (sign, k), (weight, m)


def _useful(combination: Combination, fluents: Sequence[Mapping[int, int]], constant) -> bool:
    """Whether the sum says more than its features do: not single fluents alone, not a sum
    whose fluents cancel out, and not one that counts the parts of a feature that no step
    changes alike (a cell's blank, x and o marks; a register's number and its values)."""
    if all(len(fluents[j]) == 1 for _, j in combination):
        return False
    weights: dict[int, int] = {}
    for weight, j in combination:
        for fluent, adds in fluents[j].items():
            weights[fluent] = weights.get(fluent, 0) + weight * adds
    counted = {fluent: weight for fluent, weight in weights.items() if weight}
    if len(set(counted.values())) == 1 and frozenset(counted) in constant:
        return False
    return bool(counted)
