"""Split rule bodies so that variables used only inside one part of a body are projected away
before that part is joined with the rest (Fast Downward's translator and pyperplan split rules
the same way before they instantiate).

First, a positive atom with variables that occur nowhere else in the rule (head included)
becomes an auxiliary relation over its other variables, its existential projection. A
capture rule such as

    (<= (next (cell ?hx ?hy ?p)) (does ?r (move ?x1 ?y1 ?x2 ?y2)) (true (cell ?x2 ?y2 ?p))
        (home ?p ?hx ?hy))

would have one instance per move and piece; with

    (<= (#split0 ?x2 ?y2) (does ?r (move ?x1 ?y1 ?x2 ?y2)))

in place of the `does` literal it has one per cell and piece, and #split0 one per move.

Then, a GDL frame axiom such as

    (<= (next (cell ?x ?y ?p)) (true (cell ?x ?y ?p))
        (does ?r (move ?x1 ?y1 ?x2 ?y2)) (distinct-cell ?x ?y ?x1 ?y1) ...)

has one instance per cell, piece and move. The variables that are not in the head
(?x1 ?y1 ?x2 ?y2, once ?r is projected away) touch only the `does` and `distinct-cell`
literals, so those become an auxiliary relation over the head variables they share:

    (<= (#split3 ?x ?y) (#split2 ?x1 ?y1 ?x2 ?y2) (distinct-cell ?x ?y ?x1 ?y1) ...)
    (<= (next (cell ?x ?y ?p)) (true (cell ?x ?y ?p)) (#split3 ?x ?y))

which has one instance per cell and move, and the frame axiom one per cell and piece (the
OR over moves per cell is then written by the few moves that touch the cell, in
solvers/ground/action_sets.py). Each auxiliary relation is the existential projection of
its literals, so the rules mean what they meant before, negations and distincts included.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator

from gamecheck.gdl.dependencies import DependencyGraph
from gamecheck.gdl.syntax import Atom, Rule, literal_variables

PREFIX = "#split"
"""Auxiliary relations are named PREFIX + a number (no GDL name starts with '#')."""


def split_rules(rules: Iterable[Rule]) -> list[Rule]:
    """Equivalent normal rules in which every positive atom's variables that occur nowhere
    else in its rule are projected away, and every group of body literals linked only by
    variables that are not in the head is its own auxiliary rule. Recursive rules stay whole
    (their instances are unfolded by the circuit, which auxiliary atoms would only grow)."""
    rules = list(rules)
    graph = DependencyGraph(rules)
    names = (f"{PREFIX}{number}" for number in itertools.count())
    result: list[Rule] = []
    for rule in rules:
        recursive = any(
            isinstance(literal, Atom) and graph.recursive_with(rule.head.relation, literal.relation)
            for literal in rule.body
        )
        if recursive:
            result.append(rule)
            continue
        projections, rule = _project(rule, names)
        result.extend([*projections, *_split(rule, names)])
    return result


def _project(rule: Rule, names: Iterator[str]) -> tuple[list[Rule], Rule]:
    """Auxiliary rules for the positive atoms of the body that have variables of their own
    (in no other literal and not in the head), and the rule with those atoms replaced."""
    if len(rule.body) < 2:
        return [], rule
    occurrences: dict[str, int] = {v: 1 for v in literal_variables(rule.head)}
    for literal in rule.body:
        for variable in set(literal_variables(literal)):
            occurrences[variable] = occurrences.get(variable, 0) + 1
    projections, body = [], []
    for literal in rule.body:
        mentioned = list(dict.fromkeys(literal_variables(literal)))
        kept = [v for v in mentioned if occurrences[v] > 1]
        if not isinstance(literal, Atom) or len(kept) == len(mentioned):
            body.append(literal)
            continue
        name = next(names)
        atom = Atom((name, *kept) if kept else name, rule.position)
        projections.append(Rule(atom, (literal,), rule.position))
        body.append(atom)
    return projections, Rule(rule.head, tuple(body), rule.position)


def _split(rule: Rule, names: Iterator[str]) -> list[Rule]:
    """The rule as a main rule and its auxiliary rules (the rule itself if nothing splits)."""
    head_variables = set(literal_variables(rule.head))
    parts = _parts(rule.body, head_variables)
    if not parts or sum(map(len, parts)) == len(rule.body) == len(parts[0]):
        return [rule]
    in_parts = {id(literal) for part in parts for literal in part}
    main_body = [literal for literal in rule.body if id(literal) not in in_parts]
    kept = list(main_body)
    auxiliary = []
    for part in parts:
        shared = sorted(
            {v for literal in part for v in literal_variables(literal)} & head_variables
        )
        binding = _binding_atoms(part, shared, kept)
        if binding is None:
            main_body.extend(part)
            continue
        name = next(names)
        atom = Atom((name, *shared) if shared else name, rule.position)
        auxiliary.append(Rule(atom, (*part, *binding), rule.position))
        main_body.append(atom)
    return [*auxiliary, Rule(rule.head, tuple(main_body), rule.position)]


def _parts(body: tuple, head_variables: set[str]) -> list[list]:
    """The body literals that mention some variable not in the head, grouped into parts
    linked by such variables (union-find over the variables)."""
    parent: dict[str, str] = {}

    def find(variable: str) -> str:
        while parent.setdefault(variable, variable) != variable:
            parent[variable] = parent[parent[variable]]
            variable = parent[variable]
        return variable

    local = [
        [v for v in dict.fromkeys(literal_variables(literal)) if v not in head_variables]
        for literal in body
    ]
    for names in local:
        for other in names[1:]:
            parent[find(other)] = find(names[0])
    parts: dict[str, list] = {}
    for literal, names in zip(body, local, strict=True):
        if names:
            parts.setdefault(find(names[0]), []).append(literal)
    return list(parts.values())


def _binding_atoms(part: list, shared: list[str], kept: list) -> list | None:
    """Positive atoms of the rest of the body to add to an auxiliary rule so that each shared
    variable appears in a positive atom of it (safety), or None if no such atoms exist."""
    bound = {v for literal in part if isinstance(literal, Atom) for v in literal_variables(literal)}
    extra = []
    for variable in shared:
        if variable in bound:
            continue
        atom = next(
            (
                literal
                for literal in kept
                if isinstance(literal, Atom) and variable in literal_variables(literal)
            ),
            None,
        )
        if atom is None:
            return None
        extra.append(atom)
        bound.update(literal_variables(atom))
    return extra
