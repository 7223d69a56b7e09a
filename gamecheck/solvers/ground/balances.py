"""Balances: weighted counts of fluents whose sum no step changes, guessed from the steps
of random playouts.

Placement games keep the stones of each side in step with the turn: in gomoku every state has
(black stones) - (white stones) - (white to move) = 0. With the counter "stones = t" this says
black has at most 3 stones after 6 steps, so no line of 5: a counting argument that CDCL
search, left alone, rediscovers only as a pigeonhole proof per line. A balance is a candidate
here; invariants.py proves it (by k-induction on the sum) and the unrollings add it to every
layer, a free start's too.

Sums of two or three features are searched for directly; longer ones come from the null
space of the sampled changes (linear algebra modulo a prime), less what the features'
definitions and the sums found already say: pentago's turn has two stages, and its balance
red - black - (red to rotate) - (black to place) has four terms.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction

import numpy as np

from gamecheck.budget import Budget

BALANCE_CANDIDATES = 4
PAIRS_BETWEEN_CHECKS = 1000
NULL_CANDIDATES = 4
"""Balances over more features tried besides (null-space sums the others do not say)."""
NULL_TERMS = 10
"""The most features such a balance may weigh: number tic-tac-toe's (odd numbers placed) -
(even numbers placed) - (even to move) weighs the nine numbers and the turn; it makes every
question of that sheet a matter of 1.4 s (its playability was unknown at 120 s with 6)."""
REGISTER_CANDIDATES = 2
"""Balances of one count against registers alone tried besides (`register_balances`)."""
NULL_FEATURES = 600
"""Features beyond which the null space is not computed (a cubic elimination)."""
MAX_WEIGHT = 12
PRIME = 2_147_483_647

Combination = tuple[tuple[int, int], ...]
"""(weight, feature index) pairs."""
Row = tuple[np.ndarray, np.ndarray]
"""A sparse row: its nonzero columns and their values."""


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
    patterns, constant = _patterns(deltas, fluents)
    alike = _alike_features(patterns)
    first = {pattern: features[0] for pattern, features in alike.items()}
    moving = sorted(first.values())
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


def _alike_features(patterns: np.ndarray) -> dict[bytes, list[int]]:
    """The features that some step changes, grouped by how the steps change them."""
    alike: dict[bytes, list[int]] = {}
    for j, row in enumerate(patterns):
        if row.any():
            alike.setdefault(row.tobytes(), []).append(j)
    return alike


def _patterns(deltas, fluents) -> tuple[np.ndarray, set[frozenset]]:
    """The ways the steps change the features (a column each), and the fluents of the
    features that no step changes."""
    patterns = np.unique(np.array(deltas).T, axis=0).T
    return patterns, {frozenset(fluents[j]) for j, row in enumerate(patterns) if not row.any()}


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


def longer_balances(
    deltas: Sequence[np.ndarray], fluents: Sequence[Mapping[int, int]], found
) -> list[Combination]:
    """Balances of up to NULL_TERMS features that say more than those `found`, the
    features' definitions say (R counts A's fluents and B's: R - A - B; the occupied cells
    less those of rows 2 to 6 count row 1's, which no step changes) and the sums of single
    fluents (a state invariant's business) say together: a sparse basis of the sums that
    no sampled step changes (pentago's red - black - (red to rotate) - (black to place),
    which no pair or triple says). `deltas` and `fluents` as for `balance_combinations`."""
    if not deltas or not len(deltas[0]):
        return []
    patterns, constant = _patterns(deltas, fluents)
    alike = _alike_features(patterns).values()
    representative = {j: features[0] for features in alike for j in features}
    features = list(representative) + [j for j, row in enumerate(patterns) if not row.any()]
    if len(features) > NULL_FEATURES:
        return []
    order = sorted((same[0] for same in alike), key=lambda j: (-len(fluents[j]), j))
    singles = [j for j in order if len(fluents[j]) == 1]
    defined = _null_space(_definitions(features, fluents), features, heaviest=None)
    known = [_alike(c, representative) for c in [*defined, *found]]
    known += _null_space([_sparse(patterns[j]) for j in singles], singles)
    pivots, reduced = _reduced_rows(_vectors(known, len(fluents)))
    extra: list[Combination] = []
    for combination in _null_space([_sparse(patterns[j]) for j in order], order):
        if len(extra) == NULL_CANDIDATES:
            break
        if len(combination) > NULL_TERMS or not _useful(combination, fluents, constant):
            continue
        (vector,) = _vectors([combination], len(fluents))
        for pivot, row in zip(pivots, reduced, strict=True):
            vector = (vector - vector[pivot] * row) % PRIME
        if vector.any():  # not in the span of what is known
            known.append(combination)
            extra.append(combination)
            pivots, reduced = _reduced_rows(_vectors(known, len(fluents)))
    return extra


def register_balances(
    deltas: Sequence[np.ndarray],
    fluents: Sequence[Mapping[int, int]],
    registers: Sequence[int],
    found: Sequence[Combination],
    budget: Budget,
) -> list[Combination]:
    """Balances of one count against two or more `registers` (the features that weigh
    numbers) and nothing else that no sampled step changes, besides those `found`: quad's
    blank cells - x's quads - o's quads - x's blocks - o's blocks = 11. The balances of each
    side's marks against its registers imply it, with each cell's one mark, but only by a
    count over the whole board, which a SAT solver does as a pigeonhole proof (quad_7x7's
    playability: unknown at 400 s); as a balance of its own, "11 blank cells at least"
    propagates. `deltas` and `fluents` as for `balance_combinations`."""
    if not deltas or not len(deltas[0]):
        return []
    patterns, constant = _patterns(deltas, fluents)
    moving = [j for j in registers if patterns[j].any()]
    if len(moving) < 2:
        return []
    known = {_signed(combination) for combination in found}
    extra: list[Combination] = []
    counts = [features[0] for features in _alike_features(patterns).values()]
    registered = set(registers)
    for j in (j for j in counts if j not in registered):
        budget.check()
        order = [j, *moving]
        for combination in _null_space([_sparse(patterns[k]) for k in order], order):
            weighed, signed = {k for _, k in combination}, _signed(combination)
            if j not in weighed or len(weighed) < 3 or signed in known:
                continue
            if _useful(combination, fluents, constant):
                known.add(signed)
                extra.append(combination)
                if len(extra) == REGISTER_CANDIDATES:
                    return extra
    return extra


def _signed(combination: Combination) -> frozenset[tuple[int, int]]:
    """The sum's terms, the sign chosen so that its first feature weighs positive."""
    first = min(j for _, j in combination)
    sign = 1 if next(weight for weight, j in combination if j == first) > 0 else -1
    return frozenset((sign * weight, j) for weight, j in combination)


def _alike(combination: Combination, representative: Mapping[int, int]) -> Combination:
    """The sum with each feature replaced by the first that changes alike (less a balance
    of the two), those that never change left out."""
    weights: dict[int, int] = {}
    for weight, j in combination:
        if j in representative:
            weights[representative[j]] = weights.get(representative[j], 0) + weight
    return tuple((weight, j) for j, weight in weights.items() if weight)


def _definitions(order: Sequence[int], fluents) -> list[Row]:
    """What each feature adds per fluent, a row per feature."""
    rows = []
    for j in order:
        counted = np.array(sorted(fluents[j]), dtype=np.int64)
        rows.append((counted, np.array([fluents[j][f] for f in counted], dtype=np.int64)))
    return rows


def _null_space(
    rows: Sequence[Row], order: Sequence[int], heaviest: int | None = MAX_WEIGHT
) -> list[Combination]:
    """A basis of the weightings of the rows (feature `order[i]`'s is row i) that sum to
    zero, as far as it has integer weights up to `heaviest` (any, if None): computed
    modulo a prime on random mixes of the columns and checked exactly. With the rows of the
    large features first, each sum weighs one of the later rows against few earlier ones."""
    if not len(order):
        return []
    width = 1 + max((int(columns.max()) for columns, _ in rows if len(columns)), default=0)
    mixes = np.random.default_rng(0).integers(0, 1 << 16, size=(width, len(order) + 8))
    mixed = np.array([values @ mixes[columns] for columns, values in rows]) % PRIME
    pivots, reduced = _reduced_rows(mixed.T)
    position = {j: row for row, j in enumerate(order)}
    basis = []
    for free in (column for column in range(len(order)) if column not in pivots):
        weights = {free: Fraction(1)}
        for row, column in enumerate(pivots):
            if reduced[row, free]:
                weights[column] = _rational(int(-reduced[row, free]) % PRIME)
        combination = _integral(weights, order, heaviest)
        if combination is None:
            continue
        total = np.zeros(width, dtype=np.int64)
        for weight, j in combination:
            columns, values = rows[position[j]]
            total[columns] += weight * values
        if not total.any():
            basis.append(combination)  # (else a coincidence modulo the prime)
    return basis


def _sparse(row: np.ndarray) -> Row:
    columns = np.flatnonzero(row)
    return columns, row[columns].astype(np.int64)


def _vectors(combinations: Sequence[Combination], features: int) -> np.ndarray:
    """The combinations as rows over the features, modulo PRIME."""
    matrix = np.zeros((len(combinations), features), dtype=np.int64)
    for row, combination in enumerate(combinations):
        for weight, j in combination:
            matrix[row, j] = weight % PRIME
    return matrix


def _reduced_rows(matrix: np.ndarray) -> tuple[list[int], np.ndarray]:
    """The pivot columns and the reduced row echelon form of an integer matrix modulo
    PRIME (entries below PRIME, so a product fits in 64 bits)."""
    matrix = matrix.copy()
    pivots: list[int] = []
    for column in range(matrix.shape[1]):
        row = len(pivots)
        nonzero = np.flatnonzero(matrix[row:, column])
        if not len(nonzero):
            continue
        matrix[[row, row + nonzero[0]]] = matrix[[row + nonzero[0], row]]
        matrix[row] = matrix[row] * pow(int(matrix[row, column]), PRIME - 2, PRIME) % PRIME
        factors = matrix[:, column].copy()
        factors[row] = 0
        matrix = (matrix - factors[:, None] * matrix[row][None, :]) % PRIME
        pivots.append(column)
        if len(pivots) == matrix.shape[0]:
            break
    return pivots, matrix[: len(pivots)]


def _rational(residue: int) -> Fraction | None:
    """The fraction a/b with small |a| and b that is `residue` modulo PRIME (rational
    reconstruction by the extended Euclidean algorithm), or None."""
    bound = math.isqrt(PRIME // 2)
    r0, r1, t0, t1 = PRIME, residue, 0, 1
    while r1 > bound:
        quotient = r0 // r1
        r0, r1, t0, t1 = r1, r0 - quotient * r1, t1, t0 - quotient * t1
    if t1 == 0 or abs(t1) > bound:
        return None
    return Fraction(r1, t1)


def _integral(weights: Mapping[int, Fraction | None], order, heaviest) -> Combination | None:
    """The weights scaled to coprime integers up to `heaviest` (any, if None), on the
    features they stand for (`order[column]`), or None."""
    if any(weight is None for weight in weights.values()):
        return None
    scale = math.lcm(*(weight.denominator for weight in weights.values()))
    integers = {column: int(weight * scale) for column, weight in weights.items()}
    common = math.gcd(*integers.values())
    if heaviest and max(abs(weight) for weight in integers.values()) > heaviest * common:
        return None
    sign = 1 if integers[min(integers)] > 0 else -1
    return tuple(
        (sign * weight // common, order[column]) for column, weight in sorted(integers.items())
    )
