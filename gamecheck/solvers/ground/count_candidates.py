"""Candidate counters, balances and limits, guessed from how the steps of random playouts
change counts of fluents (induction.py proves them): the features a count may weigh (groups
occupied, registers by their number), and the combinations of them that every sampled step
changes by the same amount."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from gamecheck.gdl.terms import term_text
from gamecheck.solvers.ground.balances import (
    balance_combinations,
    longer_balances,
    register_balances,
)
from gamecheck.solvers.ground.invariant_kinds import Counter, Feature, Limit, StateInvariant
from gamecheck.solvers.ground.sampling import Playouts
from gamecheck.solvers.ground.state_candidates import group_text, numbers_of

COUNTER_PLAYOUTS = 64
"""Playouts whose steps suggest counters (plenty: a counter must fit every step exactly)."""
MAX_WEIGHT = 12
COUNTER_CANDIDATES = 4
"""Counters tried (the first found among single features, then among pairs of them)."""
LONGER_ENCODING = 10_000
"""The largest encoding size a balance of more than three features, or of other weights
than +-1, may have (it is tried beside those and added to every layer): pentago's, 8325,
settles its shortest game in 13 s where 120 s settled none; 3D tic-tac-toe's x - o - (o to
move), 25545, answered the same in twice the time."""
CONSTANT_COUNTS = 6
"""Counts that no step changes tried as balances, the smallest first: with its four sheep,
sheepAndWolf's longest game is proved in 3.5 s (unknown at 120 s without)."""
MAX_LIMITS = 8
"""Limits tried, those with the most room to move first."""
LIMIT_TERMS = 1 << 16
"""A limit bounds its count at each layer until the count could reach its end (its room to
move): at most this many literals over those layers (a wide board's cells rising one a step
for a whole game would cost each layer's solver thousands of clauses)."""


def count_features(system, groups, occupied) -> list[Feature]:
    """Counts a counter may weigh: occupied groups of one family, and fluents of one
    relation with one value at one position."""
    features: dict[tuple, tuple[list[int], list[int]]] = {}
    for key, lit in occupied.items():
        literals, fluents = features.setdefault(("occupied", key[0], key[1]), ([], []))
        literals.append(lit)
        fluents += groups[key]
    for index, fluent in enumerate(system.fluents):
        if isinstance(fluent, str):
            continue
        keys = [("relation", fluent[0])]
        keys += [("value", fluent[0], position, arg) for position, arg in enumerate(fluent[1:])]
        for key in keys:
            literals, fluents = features.setdefault(key, ([], []))
            literals.append(system.fluent_nodes[index])
            fluents.append(index)
    return [
        Feature(tuple(literals), _feature_text(key), tuple(fluents))
        for key, (literals, fluents) in features.items()
    ]


def _feature_text(key: tuple) -> str:
    if key[0] == "occupied":
        return f"{key[1]} facts distinct apart from argument {key[2] + 1}"
    if key[0] == "relation":
        return f"{key[1]} facts"
    return f"{key[1]} facts with {term_text(key[3])} as argument {key[2] + 1}"


@dataclass
class _Changes:
    """How the steps of the first COUNTER_PLAYOUTS playouts changed each feature: per step,
    how many of its literals rose and fell; and its count in the initial state."""

    rises: list[np.ndarray]
    falls: list[np.ndarray]
    counts: list[int]

    @property
    def deltas(self) -> list[np.ndarray]:
        return [r - f for r, f in zip(self.rises, self.falls, strict=True)]

    def dropping(self, first: int) -> _Changes:
        """The changes of the features after the first ones."""
        return _Changes(self.rises[first:], self.falls[first:], self.counts[first:])

    def counter(self, combination, features, rate: int, text: str) -> Counter:
        """The weighted sum of features as a counter growing by `rate` a step, with the
        ways the sampled steps changed it."""
        changes = np.stack(
            [np.stack([self.rises[j], self.falls[j]], axis=1) for _, j in combination], 1
        )
        return Counter(
            features=tuple((w, features[j].literals) for w, j in combination),
            start=sum(w * self.counts[j] for w, j in combination),
            steps=tuple(sorted({tuple(map(tuple, change)) for change in changes.tolist()})),
            description=" + ".join(f"{w} x ({features[j].description})" for w, j in combination)
            + text,
            rate=rate,
        )


def feature_changes(system, playouts: Playouts, features, budget) -> _Changes | None:
    """The features' changes on the sampled steps (a register's: of its number); None if
    there are none."""
    if not features:
        return None
    trajectory = playouts.states[:, :COUNTER_PLAYOUTS]
    lengths = playouts.lengths[:COUNTER_PLAYOUTS]
    steps, runs, _ = trajectory.shape
    literals = sorted({literal for feature in features for literal in feature.literals})
    circuit = playouts.compiled(system, literals, budget)
    states = trajectory.reshape(steps * runs, -1)
    row_of = dict(zip(literals, circuit.node_rows(system, states, literals), strict=True))
    taken = np.arange(steps - 1)[:, None] < lengths[None, :]
    changes = _Changes([], [], [])
    for feature in features:
        budget.check()
        weights, literals = zip(*feature.terms, strict=True)
        rows = np.array([row_of[literal] for literal in literals])
        rows = rows.reshape(len(literals), steps, runs)
        before, after = rows[:, :-1, :], rows[:, 1:, :]
        weights = np.array(weights)[:, None, None]
        changes.rises.append(((after & ~before) * weights).sum(axis=0)[taken])
        changes.falls.append(((before & ~after) * weights).sum(axis=0)[taken])
        changes.counts.append(int((rows[:, 0, 0] * weights[:, 0, 0]).sum()))
    return changes if len(changes.rises[0]) else None


def counter_candidates(
    changes: _Changes | None, features, budget
) -> tuple[list[Counter], list[Counter]]:
    """Weighted sums of one feature, and of two, that grow by exactly one on every sampled
    step, with the ways those steps changed them. Two features can pin down what one does
    not: in gomoku 2 x (black stones) + (black to move) counts the steps as well as all
    stones do, and it bounds black's stones alone."""
    if changes is None:
        return [], []
    deltas = changes.deltas
    singles = [
        ((int(deltas[j][0]), j),)
        for j in range(len(features))
        if deltas[j][0] in (1, -1) and (deltas[j] == deltas[j][0]).all()
    ]
    pairs, mains = [], set()
    distinct = np.unique(np.array(deltas).T, axis=0).T  # the ways steps change features
    moving = [j for j in range(len(features)) if distinct[j].any() and (distinct[j] != 1).any()]
    for number, (j, k) in enumerate(itertools.combinations(moving, 2)):
        if len(pairs) == COUNTER_CANDIDATES:
            break
        if number % PAIRS_BETWEEN_CHECKS == 0:
            budget.check()
        weights = _pair_weights(distinct[j], distinct[k])
        if not weights or (singles and weights == (1, 1)):  # (1, 1): a single's parts
            continue
        main = j if abs(weights[0]) >= abs(weights[1]) else k
        if main not in mains:  # 2 x + (x to move) and 2 x - (o to move) say the same
            mains.add(main)
            pairs.append(((weights[0], j), (weights[1], k)))
    text = " grows by one every step"
    return tuple(
        [changes.counter(combination, features, 1, text) for combination in found]
        for found in (singles[:COUNTER_CANDIDATES], pairs)
    )


def step_registers(changes: _Changes | None, registers, values) -> list[tuple]:
    """Registers whose number every sampled step raises by one (a step counter) or lowers
    by one (a countdown): (register, +1 or -1, its initial number, the farthest number
    the samples reach)."""
    if changes is None:
        return []
    found = []
    for j, register in enumerate(registers):
        delta = changes.deltas[j]
        if delta[0] in (1, -1) and (delta == delta[0]).all():
            sign = int(delta[0])
            reached = [sign * number for number, lit in register.terms if values[lit].any()]
            found.append((register, sign, changes.counts[j], sign * max(reached)))
    return found


def limit_candidates(changes: _Changes | None, features) -> list[Limit]:
    """Features that every sampled step moved by 0 or 1 one way, some by 1 (not every one:
    that is a counter), the MAX_LIMITS with the most room to move (to 0, or to all of
    their literals) first, within LIMIT_TERMS."""
    if changes is None:
        return []
    found = []
    for j, (feature, delta) in enumerate(zip(features, changes.deltas, strict=True)):
        moves = set(np.unique(delta).tolist())
        if moves not in ({0, 1}, {0, -1}):
            continue
        sign = max(moves, key=abs)
        start = changes.counts[j]
        room = len(feature.literals) - start if sign > 0 else start
        if room > 1 and room * len(feature.literals) <= LIMIT_TERMS:
            way = "one more" if sign > 0 else "one fewer"
            text = f"{feature.description}: at most {way} each step, never the other way"
            found.append((-room, j, Limit(feature.literals, start, sign, text)))
    return [limit for *_, limit in sorted(found)[:MAX_LIMITS]]


def balance_candidates(changes: _Changes | None, features, budget) -> list[Counter]:
    """Weighted sums of features that no sampled step changes (balances.py), the terms of
    a register among them first: those of two or three features, then longer ones whose
    sums are small (LONGER_ENCODING), then one count against registers alone."""
    if changes is None:
        return []
    fluents = [feature.fluent_weights for feature in features]
    found = balance_combinations(changes.deltas, fluents, budget)
    longer = [
        balance
        for combination in longer_balances(changes.deltas, fluents, found)
        if (balance := _balance(combination, changes, features)).encoding_size <= LONGER_ENCODING
    ]
    registers = [j for j, feature in enumerate(features) if feature.weights]
    counted = register_balances(changes.deltas, fluents, registers, found, budget)
    return [_balance(combination, changes, features) for combination in found + counted] + longer


def constant_counts(system, changes: _Changes | None, features, groups, values) -> list[Counter]:
    """Balances of one feature that no sampled step changes and no state invariant says:
    counts of at least two (the pegs of one colour), not of fluents that never change (the
    walls), nor of whole groups of which one fluent holds in every sampled state (a board's
    cells: one mark each)."""
    if changes is None:
        return []
    fluent_values = values[list(system.fluent_nodes)]
    changing = fluent_values.any(axis=1) & ~fluent_values.all(axis=1)
    counted = {
        j: set(feature.fluents)
        for j, (feature, delta) in enumerate(zip(features, changes.deltas, strict=True))
        if not feature.weights
        and changes.counts[j] >= 2
        and not delta.any()
        and changing[list(feature.fluents)].any()
    }
    inside = set().union(*counted.values())
    exactly_one = [
        set(members)
        for members in groups.values()
        if inside.issuperset(members) and _one_holds(system, members, values)
    ]
    found = sorted(
        (changes.counts[j], len(fluents), j)
        for j, fluents in counted.items()
        if fluents != set().union(*(group for group in exactly_one if group <= fluents))
    )
    return [
        replace(_balance(((1, j),), changes, features), constant=True)
        for *_, j in found[:CONSTANT_COUNTS]
    ]


def _one_holds(system, members, values) -> bool:
    """Whether exactly one of the fluents holds in every sampled state."""
    return bool((values[[system.fluent_nodes[i] for i in members]].sum(axis=0) == 1).all())


def _balance(combination, changes: _Changes, features) -> Counter:
    """The weighted sum of features as a balance (its register's terms first)."""
    order = sorted(combination, key=lambda pair: features[pair[1]].holding is None)
    first = features[order[0][1]]
    return Counter(
        features=tuple(
            (weight * term_weight, (literal,))
            for weight, j in order
            for term_weight, literal in features[j].terms
        ),
        start=sum(weight * changes.counts[j] for weight, j in combination),
        steps=(),
        description=" + ".join(f"{w} x ({features[j].description})" for w, j in order)
        + " is the same in every state",
        rate=0,
        holding=tuple(features[j].holding for _, j in order if features[j].holding),
        register=len(first.literals) if first.holding else 0,
    )


def register_features(system, groups, occupied, values) -> list[Feature]:
    """Groups that hold exactly one fluent in every sampled state, each with a number in the
    argument they differ in (a capture count, a piece count: `c12` counts as 12): features
    that count that number, for balances such as captures + the opponent's pieces = 12."""
    found = []
    for key, members in groups.items():
        numbers = numbers_of([system.fluents[i][key[1] + 1] for i in members])
        if numbers and len(members) > 2 and _one_holds(system, members, values):
            nodes = [system.fluent_nodes[i] for i in members]
            group = group_text(key)
            holding = StateInvariant(occupied[key], f"some {group}", f"group {key[0]} {key[1]}")
            text = f"the number in {group}"
            found.append(Feature(tuple(nodes), text, tuple(members), numbers, holding))
    return found


def _pair_weights(a: np.ndarray, b: np.ndarray) -> tuple[int, int] | None:
    """Small nonzero integers (x, y) with x*a + y*b == 1 in every position, if any: solved
    exactly on two independent positions, then checked on all."""
    nonzero = np.flatnonzero(a | b)
    if not len(nonzero):
        return None
    a1, b1 = int(a[nonzero[0]]), int(b[nonzero[0]])
    determinants = a1 * b - a * b1
    independent = np.flatnonzero(determinants)
    if not len(independent):
        return None
    a2, b2 = int(a[independent[0]]), int(b[independent[0]])
    determinant = a1 * b2 - a2 * b1
    x, y = Fraction(b2 - b1, determinant), Fraction(a1 - a2, determinant)
    if x.denominator != 1 or y.denominator != 1 or not (x and y):
        return None
    x, y = int(x), int(y)
    if max(abs(x), abs(y)) > MAX_WEIGHT or ((x * a + y * b) != 1).any():
        return None
    return x, y


PAIRS_BETWEEN_CHECKS = 1000
