"""Arguments of view relations that hold of every value of a type alike: dropped before
grounding.

An argument of a relation (not a GDL keyword) is uniform where every rule for the relation
has a variable there, nowhere else in its head, that the body only tests against a type (a
static relation of one argument, such as `(bit ?b)`) or hands on to uniform arguments of
other relations: the relation then holds of all the values of one domain alike (the same
in every rule, and not empty), and of nothing else. ruleDepthExponential's

    (<= (prereq2 ?b1 ?b0) (bit ?b1) (bit ?b0) (not (true (step 2)))
        (prereq3 ?b1 ?b0 0) (prereq3 ?b1 ?b0 1))

hands bits down twenty relations: 2^20 instances of prereq20 that are all one; without the
uniform arguments, one atom per relation.

Where such a relation is used, the dropped argument tested that its value lies in the
domain. A constant outside the domain makes the literal false; a variable must be tested
there already (by a type within the domain, in the same rule), or be free: only in type
tests and uniform arguments of positive atoms, whose domains meet. Otherwise the argument
is kept, and the relations that hand it on keep theirs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

from gamecheck.gdl.datalog import Relation
from gamecheck.gdl.syntax import (
    KEYWORDS,
    Atom,
    Distinct,
    Not,
    Rule,
    is_variable,
    literal_variables,
    unnegated,
    variables,
)

Place = tuple[str, int]
"""A relation and the index of one of its arguments."""
Domains = dict[Place, frozenset]
"""The uniform arguments, each with the values its relation holds of."""


def drop_uniform_arguments(rules: Sequence[Rule], types: Mapping[str, frozenset]) -> list[Rule]:
    """The normal rules without the uniform arguments of their relations (see the module
    docstring); `types` gives the values of each static relation of one argument."""
    domains = uniform_domains(rules, types)
    if not domains:
        return list(rules)
    return [_without(rule, domains, types) for rule in rules]


def types_of(static_model: Mapping[str, Relation]) -> dict[str, frozenset]:
    """The values of each static relation of one argument, from a model of them."""
    return {
        relation: frozenset(args[0] for args in facts.known)
        for relation, facts in static_model.items()
        if facts.known and all(len(args) == 1 for args in facts.known)
    }


def uniform_domains(rules: Sequence[Rule], types: Mapping[str, frozenset]) -> Domains:
    """The uniform arguments of the rules' relations, with their domains."""
    candidates = _candidates(rules)
    while True:
        domains, failed = _domains(rules, types, candidates)
        if not failed:
            failed = {place for rule in rules for place in _untested_uses(rule, types, domains)}
        if not failed:
            return domains
        candidates -= failed


def _candidates(rules: Sequence[Rule]) -> set[Place]:
    """Every argument of the relations the rules define (but GDL's own), where a relation
    has one number of arguments wherever it occurs."""
    arities: dict[str, set[int]] = {}
    for rule in rules:
        for atom in (rule.head, *map(unnegated, rule.body)):
            if isinstance(atom, Atom):
                arities.setdefault(atom.relation, set()).add(len(atom.args))
    defined = {rule.head.relation for rule in rules} - KEYWORDS
    return {
        (relation, index)
        for relation in defined
        if len(arities[relation]) == 1
        for index in range(min(arities[relation]))
    }


def _domains(
    rules: Sequence[Rule], types: Mapping[str, frozenset], candidates: set[Place]
) -> tuple[Domains, set[Place]]:
    """The domain of each candidate whose every rule has the same one, and the candidates
    that have none (or take part in a cycle of them)."""
    by_head: dict[str, list[Rule]] = {}
    for rule in rules:
        by_head.setdefault(rule.head.relation, []).append(rule)
    domains: Domains = {}
    failed: set[Place] = set()

    def domain(place: Place, visiting: frozenset[Place]) -> frozenset | None:
        if place in domains or place in failed or place not in candidates or place in visiting:
            return domains.get(place)
        inner = visiting | {place}
        found = {
            _rule_domain(rule, place[1], types, lambda other: domain(other, inner))
            for rule in by_head[place[0]]
        }
        if len(found) != 1 or None in found:
            failed.add(place)
            return None
        domains[place] = found.pop()
        return domains[place]

    for place in candidates:
        domain(place, frozenset())
    return domains, failed


def _rule_domain(
    rule: Rule, index: int, types: Mapping[str, frozenset], domain_of: Callable
) -> frozenset | None:
    """The values the rule's head holds of at argument `index` alike, if they are the
    domain of a variable found nowhere else in the head (see _free_domain)."""
    variable = rule.head.args[index]
    others = rule.head.args[:index] + rule.head.args[index + 1 :]
    if not is_variable(variable) or any(variable in variables(arg) for arg in others):
        return None
    return _free_domain(variable, rule.body, types, domain_of)


def _free_domain(
    variable: str, body: Sequence, types: Mapping[str, frozenset], domain_of: Callable
) -> frozenset | None:
    """Where `variable` occurs in `body` only in type tests and (whole) uniform arguments
    of positive atoms, the values they all allow; None if it occurs elsewhere, or they
    allow none."""
    allowed = []
    for literal in body:
        if variable not in literal_variables(literal):
            continue
        if not isinstance(literal, Atom):
            return None
        tested = _type_test(literal, types)
        if tested is not None and tested[0] == variable:
            allowed.append(tested[1])
            continue
        for index, arg in enumerate(literal.args):
            if arg == variable:
                allowed.append(domain_of((literal.relation, index)))
            elif variable in variables(arg):
                return None
    if not allowed or None in allowed:
        return None
    return frozenset.intersection(*allowed) or None


def _untested_uses(rule: Rule, types: Mapping[str, frozenset], domains: Domains) -> Iterator[Place]:
    """The uniform arguments the rule uses in a way that dropping them would change: a
    function term there, or a variable that nothing else in the rule keeps in the domain."""
    head = rule.head
    handed_on = {head.args[index] for relation, index in domains if relation == head.relation}
    for literal in rule.body:
        atom = unnegated(literal)
        if not isinstance(atom, Atom):
            continue
        for index, arg in enumerate(atom.args):
            place = (atom.relation, index)
            if place not in domains or arg in handed_on:
                continue
            if not is_variable(arg):
                tested = isinstance(arg, str)
            else:
                tested = _typed_within(arg, rule.body, types, domains[place]) or (
                    literal is atom
                    and arg not in variables(head.term)
                    and _free_domain(arg, rule.body, types, domains.get) is not None
                )
            if not tested:
                yield place


def _typed_within(
    variable: str, body: Sequence, types: Mapping[str, frozenset], domain: frozenset
) -> bool:
    """Whether a type test in `body` keeps `variable` within `domain`."""
    tests = (_type_test(literal, types) for literal in body)
    return any(test is not None and test[0] == variable and test[1] <= domain for test in tests)


def _without(rule: Rule, domains: Domains, types: Mapping[str, frozenset]) -> Rule:
    """The rule with the uniform arguments dropped. A literal whose dropped constant lies
    outside its domain is false (the rule then never holds: `(distinct r r)`) or, negated,
    true (left out); a dropped variable's type tests go too, where nothing else needs it
    (its values, which the domains allow, are not empty)."""
    head = _shortened(rule.head, domains)
    body = []
    for literal in rule.body:
        atom = unnegated(literal)
        if not isinstance(atom, Atom):
            body.append(literal)
        elif not _within(atom, domains):
            if literal is atom:
                body.append(Distinct(atom.relation, atom.relation, atom.position))
        else:
            shorter = _shortened(atom, domains)
            body.append(shorter if literal is atom else Not(shorter, literal.position))
    dropped = set(_dropped_variables(rule, domains))
    needed = [literal for literal in (head, *body) if _type_test(literal, types) is None]
    dropped -= {name for literal in needed for name in literal_variables(literal)}
    kept = [
        literal
        for literal in body
        if (test := _type_test(literal, types)) is None or test[0] not in dropped
    ]
    return Rule(head, tuple(kept), rule.position)


def _dropped_variables(rule: Rule, domains: Domains) -> Iterator[str]:
    for atom in (rule.head, *map(unnegated, rule.body)):
        if isinstance(atom, Atom):
            for index, arg in enumerate(atom.args):
                if (atom.relation, index) in domains and is_variable(arg):
                    yield arg


def _type_test(literal, types: Mapping[str, frozenset]) -> tuple[str, frozenset] | None:
    """The variable the literal tests against a type, and the type's values; None if it
    is no such test."""
    if isinstance(literal, Atom) and literal.relation in types and len(literal.args) == 1:
        variable = literal.args[0]
        if is_variable(variable):
            return variable, types[literal.relation]
    return None


def _within(atom: Atom, domains: Domains) -> bool:
    """Whether every constant at a uniform argument of the atom lies in its domain."""
    return all(
        is_variable(arg) or arg in domains[atom.relation, index]
        for index, arg in enumerate(atom.args)
        if (atom.relation, index) in domains
    )


def _shortened(atom: Atom, domains: Domains) -> Atom:
    kept = tuple(
        arg for index, arg in enumerate(atom.args) if (atom.relation, index) not in domains
    )
    return Atom((atom.relation, *kept) if kept else atom.relation, atom.position)
