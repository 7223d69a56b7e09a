"""Candidate state invariants, guessed from the sampled states of random playouts
(induction.py proves them): one fluent of a group, implications between groups, clauses
between two relations, exclusions, goal values that never occur together. Also the groups of
fluents they are stated over, and the sampling they are checked against."""

from __future__ import annotations

import itertools

import numpy as np

from gamecheck.gdl.terms import Term, term_text
from gamecheck.solvers.ground.invariant_kinds import StateInvariant
from gamecheck.solvers.ground.transition import TransitionSystem

MAX_SAMPLES = 8192
"""Distinct sampled states that candidates are checked against (a seeded random choice)."""
VALUE_BYTES = 512 << 20
"""The most memory the circuit's node values in the sampled states may take (a byte each):
a big circuit gets fewer samples (at least MIN_SAMPLES), not gigabytes."""
MIN_SAMPLES = 64
MIN_EXPECTED = 5.0
"""A two-literal clause is a candidate only if, were its literals independent, the samples
would falsify it this many times on average: never seeing it fail then means something."""
PAIR_BLOCK = 256
"""Atoms whose pairs are compared at once (a block x atoms matrix) between budget checks."""
PAIR_GROUP = 256
"""Groups over two arguments of more fluents than this are not tried (a 16 x 16 board's
cells for one role are; a whole relation of thousands, whose candidates seldom hold, not)."""
SMALL_RELATION = 48
"""Relations with at most this many fluents are bookkeeping (control, turn, selections)."""
MAX_LABELS = 10
"""Up to this many numbers in one argument are labels (digits 1-9); more are quantities."""


def fluent_groups(fluents: tuple[Term, ...]) -> dict[tuple, list[int]]:
    """Fluents that differ in one argument only, keyed by (relation, position, the other
    arguments): the possible values of one thing, such as one cell's mark."""
    groups: dict[tuple, list[int]] = {}
    for index, fluent in enumerate(fluents):
        if isinstance(fluent, str):
            continue
        relation, args = fluent[0], fluent[1:]
        for position in range(len(args)):
            rest = args[:position] + args[position + 1 :]
            groups.setdefault((relation, position, rest), []).append(index)
    return groups


def most_samples(system: TransitionSystem) -> int:
    """MAX_SAMPLES, or as many as keep the node values within VALUE_BYTES."""
    return max(MIN_SAMPLES, min(MAX_SAMPLES, VALUE_BYTES // max(1, len(system.circuit))))


def distinct_sample(states: np.ndarray, seed: int, most: int) -> np.ndarray:
    """At most `most` distinct states (rows), chosen at random with the seed."""
    packed = np.packbits(states, axis=1)
    _, first = np.unique(packed.view(f"V{packed.shape[1]}").ravel(), return_index=True)
    states = states[np.sort(first)]
    if len(states) > most:
        chosen = np.random.default_rng(seed).choice(len(states), most, replace=False)
        states = states[np.sort(chosen)]
    return states


def _row(values: np.ndarray, literal: int) -> np.ndarray:
    return values[literal] if literal > 0 else ~values[-literal]


def state_candidates(system, groups, occupied, values, budget) -> list[StateInvariant]:
    candidates = []
    for index, node in enumerate(system.fluent_nodes):
        row = values[node]
        name = term_text(system.fluents[index])
        if row.all():
            family = f"always {_relation(system.fluents[index])}"
            candidates.append(StateInvariant(node, f"{name} always holds", family))
    for key, members in groups.items():
        if len(members) > 1:
            family = f"group {key[0]} {key[1]}"
            candidates += _one_of(system, members, values, group_text(key), family)
    for (relation, free, rest), members in _pair_groups(system.fluents).items():
        args = [term_text(a) for a in rest]
        for position in free:
            args.insert(position, "_")
        text = f"({relation} {' '.join(args)})"
        family = f"pair group {relation} {free[0]} {free[1]}"
        candidates += _one_of(system, members, values, text, family)
    candidates += _implications(system, occupied, values, budget)
    candidates += _goal_exclusions(system, values)
    return candidates + _either_value(system, values)


def _one_of(system, members: list[int], values, text: str, family: str) -> list[StateInvariant]:
    """Candidates: at most one of the fluents `members` holds, where no sample has two (and
    some sample has one); some of them holds, where every sample has one."""
    literals = [system.fluent_nodes[i] for i in members]
    count = values[literals].sum(axis=0)
    found = []
    if (count <= 1).all() and count.any():
        at_most_one = system.circuit.at_most_one(literals)
        found.append(StateInvariant(at_most_one, f"at most one {text}", family, tuple(members)))
    if (count >= 1).all():
        found.append(StateInvariant(system.circuit.disj(literals), f"some {text}", family))
    return found


def _either_value(system, values) -> list[StateInvariant]:
    """Candidates: some fluent of a relation has one of two labels as its last argument,
    where every sample has one: `some (cell _ _ white) or some (cell _ _ black)`, one side's
    pieces or the other's are left. In breakthrough with holes a side without pieces
    passes, so a board with none would be passed on forever; until that board is ruled out,
    no potential bounds the game. The last argument only (what a board's cell holds; a
    file of cells, a..h, always holds something); left out where it is a number or one of
    more than MAX_LABELS labels, and labels whose fluents no sample changes (a hole)."""
    holders: dict[tuple, dict[Term, list[int]]] = {}
    for node, fluent in zip(system.fluent_nodes, system.fluents, strict=True):
        if isinstance(fluent, tuple):
            position = len(fluent) - 2
            holders.setdefault((fluent[0], position), {}).setdefault(fluent[-1], []).append(node)
    found = []
    for (relation, position), by_label in holders.items():
        if len(by_label) > MAX_LABELS or numbers_of(list(by_label)):
            continue
        rows = {label: values[nodes] for label, nodes in by_label.items()}
        moving = [label for label, row in rows.items() if (row != row[:, :1]).any()]
        for a, b in itertools.combinations(moving, 2):
            if (rows[a].any(axis=0) | rows[b].any(axis=0)).all():
                literal = system.circuit.disj(by_label[a] + by_label[b])
                text = f"some {relation} fact with {term_text(a)} or {term_text(b)}"
                found.append(
                    StateInvariant(literal, f"{text} as argument {position + 1}", "either")
                )
    return found


def _pair_groups(fluents: tuple[Term, ...]) -> dict[tuple, list[int]]:
    """Fluents that differ in two arguments only, keyed by (relation, the two positions, the
    other arguments): one role's position (x y) on a board. Groups of more than PAIR_GROUP
    fluents are left out, and so are those one argument tells apart (a group of
    `fluent_groups`)."""
    groups: dict[tuple, list[int]] = {}
    for index, fluent in enumerate(fluents):
        if isinstance(fluent, tuple) and len(fluent) > 2:
            args = fluent[1:]
            for free in itertools.combinations(range(len(args)), 2):
                rest = tuple(arg for position, arg in enumerate(args) if position not in free)
                groups.setdefault((fluent[0], free, rest), []).append(index)
    return {
        key: members
        for key, members in groups.items()
        if 1 < len(members) <= PAIR_GROUP
        and all(len({fluents[i][1 + p] for i in members}) > 1 for p in key[1])
    }


def _implications(system, occupied, values, budget) -> list[StateInvariant]:
    """Two-literal clauses no sample contradicts: between occupied groups of one family
    (`a cube here needs the cubes under it`), and among the fluents and occupied groups of
    small relations, which hold the bookkeeping of whose turn it is (`xcolumn in control:
    no column selected yet`)."""
    families: dict[tuple, list[tuple]] = {}
    for key in occupied:
        families.setdefault(key[:2], []).append(key)
    found = []
    for (relation, position), keys in families.items():
        atoms = [(occupied[key], group_text(key)) for key in keys]
        family = f"implications {relation} {position}"
        found += binary_clauses(
            system.circuit, atoms, values, budget, (False,), (True,), family=family
        )
    small = _small_relations(system.fluents)
    atoms = [
        (node, term_text(fluent))
        for node, fluent in zip(system.fluent_nodes, system.fluents, strict=True)
        if _relation(fluent) in small
    ]
    atoms += [(lit, group_text(key)) for key, lit in occupied.items() if key[0] in small]
    return found + binary_clauses(system.circuit, atoms, values, budget, family="bookkeeping")


def link_candidates(system, groups, occupied, values, budget) -> list[StateInvariant]:
    """Two-literal clauses `group occupied -> fluent` between relations: a box marked
    needs its four lines drawn (dots and boxes), which is what makes the count of boxes
    marked equal a player's score, a balance (a family per relation of the groups)."""
    keys = [key for key in occupied if len(groups[key]) > 1]
    marked = [(occupied[key], group_text(key)) for key in keys]
    nodes = zip(system.fluent_nodes, system.fluents, strict=True)
    fluents = [(node, term_text(fluent)) for node, fluent in nodes]
    relations = [key[0] for key in keys], [_relation(fluent) for fluent in system.fluents]
    return binary_clauses(
        system.circuit,
        marked,
        values,
        budget,
        (False,),
        (True,),
        family="links",
        partners=fluents,
        relations=relations,
    )


def exclusion_candidates(system, values, budget) -> list[StateInvariant]:
    """Pairs of fluents of one large relation that never hold together (`no digit twice in
    a row`). Relations that count (an argument takes more than MAX_LABELS numbers, like
    cube counts or steps) are left out: their exclusions say how far play has gone."""
    small = _small_relations(system.fluents)
    by_relation: dict[str, list[tuple[int, str]]] = {}
    for node, fluent in zip(system.fluent_nodes, system.fluents, strict=True):
        if _relation(fluent) not in small:
            by_relation.setdefault(_relation(fluent), []).append((node, fluent))
    found = []
    for relation, members in sorted(by_relation.items()):
        if _counts_something([fluent for _, fluent in members]):
            continue
        atoms = [(node, term_text(fluent)) for node, fluent in members]
        family = f"exclusions {relation}"
        found += binary_clauses(
            system.circuit, atoms, values, budget, (False,), (False,), family=family
        )
    return found


def _small_relations(fluents) -> set[str]:
    sizes: dict[str, int] = {}
    for fluent in fluents:
        sizes[_relation(fluent)] = sizes.get(_relation(fluent), 0) + 1
    return {relation for relation, size in sizes.items() if size <= SMALL_RELATION}


def _counts_something(fluents) -> bool:
    """Whether some argument position takes more than MAX_LABELS distinct numbers."""
    numbers: dict[int, set[str]] = {}
    for fluent in fluents:
        for position, arg in enumerate(fluent[1:] if isinstance(fluent, tuple) else ()):
            if isinstance(arg, str) and arg.isdigit():
                numbers.setdefault(position, set()).add(arg)
    return any(len(found) > MAX_LABELS for found in numbers.values())


def _relation(fluent: Term) -> str:
    return fluent if isinstance(fluent, str) else fluent[0]


def binary_clauses(
    circuit,
    atoms,
    values,
    budget,
    signs_a=(True, False),
    signs_b=(True, False),
    *,
    family="",
    partners=None,
    relations=None,
) -> list[StateInvariant]:
    """Clauses `a or b` (a and b with the given signs) over pairs of distinct atoms (b among
    `partners` if they are given) that no sample falsifies, though independent literals
    would falsify it MIN_EXPECTED times (the pairs compared a block of atoms at a time, with
    a look at the budget between blocks). With the `relations` of the atoms and of the
    partners, pairs of one relation are left out, and a's relation joins the family."""
    one_list = partners is None
    partners = atoms if one_list else partners
    if not atoms or len(partners) < (2 if one_list else 1):
        return []
    rows = _rows(values, atoms)
    rows_b = rows if one_list else _rows(values, partners)
    samples = rows.shape[1]
    found = []
    for positive_a, positive_b in itertools.product(signs_a, signs_b):
        false_a = 1 - rows if positive_a else rows
        false_b = 1 - rows_b if positive_b else rows_b
        support_a, support_b = false_a.sum(axis=1), false_b.sum(axis=1)
        # a pair can only be expected MIN_EXPECTED times if each side is false often enough
        side_a = np.flatnonzero(support_a * support_b.max() >= MIN_EXPECTED * samples)
        side_b = np.flatnonzero(support_b * support_a.max() >= MIN_EXPECTED * samples)
        pairs = []
        for start in range(0, len(side_a), PAIR_BLOCK):
            budget.check()
            block = side_a[start : start + PAIR_BLOCK]
            both_false = false_a[block] @ false_b[side_b].T
            expected = support_a[block, None] * support_b[None, side_b] / samples
            keep = (both_false == 0) & (expected >= MIN_EXPECTED)
            pairs += zip(block[np.nonzero(keep)[0]], side_b[np.nonzero(keep)[1]], strict=True)
        for a, b in pairs:
            if one_list and (a == b or (positive_a == positive_b and a > b)):
                continue
            named = family
            if relations is not None:
                if relations[0][a] == relations[1][b]:
                    continue
                named = f"{family} {relations[0][a]}"
            (lit_a, text_a), (lit_b, text_b) = atoms[a], partners[b]
            lit_a, lit_b = (lit_a if positive_a else -lit_a), (lit_b if positive_b else -lit_b)
            text = (
                f"{'' if positive_a else 'not '}{text_a} or {'' if positive_b else 'not '}{text_b}"
            )
            found.append(StateInvariant(circuit.disj([lit_a, lit_b]), text, named))
    return found


def _rows(values: np.ndarray, atoms) -> np.ndarray:
    return np.array([_row(values, literal) for literal, _ in atoms], dtype=np.float32)


def _goal_exclusions(system, values) -> list[StateInvariant]:
    """Goal values of two roles that never hold together."""
    goals = [
        (role, value, literal)
        for role, table in zip(system.roles, system.goals, strict=True)
        for value, literal in table.items()
    ]
    found = []
    for (r1, v1, l1), (r2, v2, l2) in itertools.combinations(goals, 2):
        if r1 != r2 and not (_row(values, l1) & _row(values, l2)).any():
            found.append(
                StateInvariant(
                    system.circuit.disj([-l1, -l2]),
                    f"never goal {r1} {v1} with goal {r2} {v2}",
                    "goals",
                )
            )
    return found


def group_text(key: tuple) -> str:
    relation, position, rest = key
    args = [term_text(a) for a in rest]
    args.insert(position, "_")
    return f"({relation} {' '.join(args)})"


def numbers_of(args: list) -> tuple[int, ...] | None:
    """The numbers the arguments write, digits after a prefix they share, if they all do."""
    if not all(isinstance(arg, str) for arg in args):
        return None
    prefix = len(args[0].rstrip("0123456789"))
    if any(not arg[prefix:].isdigit() or arg[:prefix] != args[0][:prefix] for arg in args):
        return None
    return tuple(int(arg[prefix:]) for arg in args)
