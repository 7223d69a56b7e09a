"""Relations asked for only at named constants, derived only there.

chineseCheckers6 scores each player on three named cells of its home corner:

    (<= (goal red ?payoff) (count h1 h2 i1 red ?payoff))
    (<= (count ?x ?y ?z ?player 0) (devoid ?x ?player) (devoid ?y ?player) ...)

Bottom up, `count` holds in every state for any three cells, about a million facts a
state, where six are ever asked for. A relation that every atom asking for it (in a rule
body, under `not` or not) gives constants at the same argument places is derived only where
some atom asks: each of its rules gets a first literal that holds for exactly those
constants, a static relation of facts. Every asked atom keeps all its instances, so every
other relation's facts, negation included, are unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from gamecheck.gdl.syntax import Atom, Rule, unnegated, variables

ASKED = "#asked"
"""The guard of relation R is named ASKED(R): no GDL name starts with '#'."""


def guard_constant_asks(rules: Sequence[Rule], exempt: set[str]) -> list[Rule]:
    """`rules` with each relation they define (but those of `exempt`) that every asking
    atom gives constants at the same places derived only for the constants asked."""
    places = constant_places(rules)
    defined = {rule.head.relation for rule in rules}
    guarded = {
        relation: shared
        for relation, shared in places.items()
        if shared and relation in defined and relation not in exempt
    }
    guards = {
        Rule(_guard(atom, guarded[atom.relation]))
        for rule in rules
        for atom in _asking_atoms(rule)
        if atom.relation in guarded
    }
    return [
        Rule(rule.head, (_guard(rule.head, guarded[rule.head.relation]), *rule.body), rule.position)
        if rule.head.relation in guarded
        else rule
        for rule in rules
    ] + sorted(guards, key=str)


def constant_places(rules: Sequence[Rule]) -> dict[str, tuple[int, ...]]:
    """Per relation asked for in some body, the argument places every asking atom gives a
    constant (a term without variables)."""
    places: dict[str, set[int]] = {}
    for rule in rules:
        for atom in _asking_atoms(rule):
            constant = {i for i, arg in enumerate(atom.args) if not any(variables(arg))}
            places[atom.relation] = places.get(atom.relation, constant) & constant
    return {relation: tuple(sorted(shared)) for relation, shared in places.items()}


def _asking_atoms(rule: Rule) -> Iterator[Atom]:
    for literal in rule.body:
        atom = unnegated(literal)
        if isinstance(atom, Atom):
            yield atom


def _guard(atom: Atom, places: tuple[int, ...]) -> Atom:
    return Atom((f"{ASKED}({atom.relation})", *(atom.args[place] for place in places)))
