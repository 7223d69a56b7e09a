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
solvers/ground/action_sets.py).

Variables that are not in the head can also be eliminated one at a time (bucket elimination,
as Fast Downward's translator turns a rule into a sequence of joins): the literals that
mention the variable become an auxiliary rule over their other variables that the rest of the
rule still needs, chosen greedily by the fewest variables that rule has, as long as it has
fewer than the rule it comes from. In

    (<= (goal ?r1 40) (true (steps ?r1 ?s1)) (true (steps ?r2 ?s2)) (true (steps ?r3 ?s3))
        (distinct ?r1 ?r2) (distinct ?r1 ?r3) (distinct ?r2 ?r3)
        (smaller ?s1 ?s2) (smaller ?s1 ?s3))

?s2 goes first, into (<= (#split0 ?r2 ?s1) (true (steps ?r2 ?s2)) (smaller ?s1 ?s2)), then
?s3 likewise, which leaves a rule over ?r1 ?s1 ?r2 ?r3 instead of all six variables. A
variable's distincts and negated literals go with it, so it is eliminated only where its
positive atoms bind all their variables, or positive atoms of the rest of the rule can be
copied in to bind them (the auxiliary rule must be safe). Elimination can also cost: where a
variable is a function of its neighbours (the next cell of a line), the auxiliary relation is
as big as the rule and only adds atoms, so the grounder chooses per rule, by the estimated
number of instances, whether to use it (`variable_eliminations` offers the rules).

A rule whose variables are all tied together by one atom of a static relation cannot be
narrowed so. Quarto's

    (<= row (index ?y) (true (cell 1 ?y ?p1)) ... (true (cell 4 ?y ?p4)) (set ?p1 ?p2 ?p3 ?p4))

has one instance per four pieces, 65536 a row, because `set` (four pieces that share an
attribute) joins them. Where a static relation is defined by one rule alone, its atoms are
unfolded into the rule first, `set` into (bit ?b) (index ?n) (bitNIs ?n ?p1 ?b) ...: then
each ?p_i goes into an auxiliary relation over ?y ?n ?b, and the row has 32 instances.

Each auxiliary relation is the existential projection of its literals, so the rules mean what
they meant before, negations and distincts included.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence

from gamecheck.gdl.dependencies import DependencyGraph
from gamecheck.gdl.syntax import Atom, Distinct, Not, Rule, is_variable, literal_variables
from gamecheck.gdl.terms import Term

PREFIX = "#split"
"""Auxiliary relations are named PREFIX + a number (no GDL name starts with '#')."""
ELIMINATED = "#elim"
"""Auxiliary relations of variable elimination are named ELIMINATED + a number."""
UNFOLDED = "?#unfolded"
"""The variables of an unfolded definition's body are renamed UNFOLDED + a number."""


def split_rules(rules: Iterable[Rule], prefix: str = PREFIX) -> list[Rule]:
    """Equivalent normal rules in which every positive atom's variables that occur nowhere
    else in its rule are projected away, and every group of body literals linked only by
    variables that are not in the head is its own auxiliary rule (named `prefix` + a
    number). Recursive rules stay whole (their instances are unfolded by the circuit, which
    auxiliary atoms would only grow)."""
    rules = list(rules)
    graph = DependencyGraph(rules)
    names = (f"{prefix}{number}" for number in itertools.count())
    result: list[Rule] = []
    for rule in rules:
        if _recursive(rule, graph):
            result.append(rule)
            continue
        projections, rule = _project(rule, names)
        result.extend([*projections, *_split(rule, names)])
    return result


def variable_eliminations(
    rules: Sequence[Rule], definitions: Mapping[str, Rule] | None = None
) -> list[list[Rule]]:
    """For each rule, the rules that eliminate its non-head variables (see the module
    docstring): auxiliary rules, named ELIMINATED + a number, then the rule over what is
    left; the rule alone if nothing narrows it or it is recursive. Where nothing narrows a
    rule as written, its atoms of the relations of `definitions` (static, each defined by
    that one rule, whose head's arguments are distinct variables) are unfolded first."""
    graph = DependencyGraph(rules)
    names = (f"{ELIMINATED}{number}" for number in itertools.count())
    fresh = (f"{UNFOLDED}{number}" for number in itertools.count())
    result = []
    for rule in rules:
        pieces = [rule] if _recursive(rule, graph) else _eliminate(rule, names)
        if len(pieces) == 1 and pieces[0] is rule and definitions:
            unfolded = _unfolded(rule, definitions, fresh)
            if unfolded is not rule and len(narrowed := _eliminate(unfolded, names)) > 1:
                pieces = narrowed
        result.append(pieces)
    return result


def unfoldable(rules: Sequence[Rule], static: set[str]) -> dict[str, Rule]:
    """The static relations defined by one rule alone, with a body, whose head's arguments
    are distinct variables, and that do not depend on themselves: each with its rule."""
    graph = DependencyGraph(rules)
    by_relation: dict[str, list[Rule]] = {}
    for rule in rules:
        by_relation.setdefault(rule.head.relation, []).append(rule)
    definitions = {}
    for relation, (rule, *others) in by_relation.items():
        args = rule.head.args
        if (
            relation in static
            and not others
            and rule.body
            and all(is_variable(arg) for arg in args)
            and len(set(args)) == len(args)
            and not graph.recursive_with(relation, relation)
        ):
            definitions[relation] = rule
    return definitions


def _unfolded(rule: Rule, definitions: Mapping[str, Rule], fresh: Iterator[str]) -> Rule:
    """The rule with its positive atoms of defined relations replaced by the bodies of their
    definitions (their own variables renamed apart); the rule itself if it has none."""
    body: list = []
    for literal in rule.body:
        definition = definitions.get(literal.relation) if isinstance(literal, Atom) else None
        if definition is None:
            body.append(literal)
            continue
        mapping: dict[str, Term] = dict(zip(definition.head.args, literal.args, strict=True))
        for variable in _variables_of(list(definition.body)):
            mapping.setdefault(variable, next(fresh))
        body.extend(_substituted(part, mapping) for part in definition.body)
    if body == list(rule.body):
        return rule
    return Rule(rule.head, tuple(body), rule.position)


def _substituted(literal, mapping: Mapping[str, Term]):
    """A normal body literal with its variables replaced."""
    if isinstance(literal, Atom):
        return Atom(_term(literal.term, mapping), literal.position)
    if isinstance(literal, Not):
        return Not(_substituted(literal.literal, mapping), literal.position)
    assert isinstance(literal, Distinct)
    return Distinct(_term(literal.left, mapping), _term(literal.right, mapping), literal.position)


def _term(term: Term, mapping: Mapping[str, Term]) -> Term:
    if isinstance(term, str):
        return mapping.get(term, term)
    return (term[0], *(_term(part, mapping) for part in term[1:]))


def _recursive(rule: Rule, graph: DependencyGraph) -> bool:
    return any(
        isinstance(literal, Atom) and graph.recursive_with(rule.head.relation, literal.relation)
        for literal in rule.body
    )


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


def _eliminate(rule: Rule, names: Iterator[str]) -> list[Rule]:
    """The rule with its non-head variables eliminated greedily into auxiliary rules, each
    narrower than the rule it comes from; the auxiliary rules first, then what is left."""
    head_variables = set(literal_variables(rule.head))
    body = list(rule.body)
    auxiliary = []
    while (choice := _cheapest_bucket(body, head_variables)) is not None:
        bucket, binding = choice
        inside = {id(literal) for literal in bucket}
        rest = [literal for literal in body if id(literal) not in inside]
        needed = head_variables.union(*(literal_variables(literal) for literal in rest))
        kept = [v for v in _variables_of(bucket + binding) if v in needed]
        name = next(names)
        atom = Atom((name, *kept) if kept else name, rule.position)
        auxiliary.append(Rule(atom, (*bucket, *binding), rule.position))
        body = [*rest, atom]
    if not auxiliary:
        return [rule]
    return [*auxiliary, Rule(rule.head, tuple(body), rule.position)]


def _cheapest_bucket(body: list, head_variables: set[str]) -> tuple[list, list] | None:
    """The literals of the non-head variable whose auxiliary rule mentions the fewest
    variables, if fewer than the whole body does, with the positive atoms of the rest of the
    body it needs to bind the variables of its negations and distincts (they stay in the
    rule too); None if no variable's rule is narrower."""
    width = len(_variables_of(body))
    best, best_size = None, width
    for variable in _variables_of(body):
        if variable in head_variables:
            continue
        bucket = [literal for literal in body if variable in literal_variables(literal)]
        binding = _binding(bucket, [literal for literal in body if literal not in bucket])
        if binding is not None and len(_variables_of(bucket + binding)) < best_size:
            best, best_size = (bucket, binding), len(_variables_of(bucket + binding))
    return best


def _binding(bucket: list, rest: list) -> list | None:
    """Positive atoms of `rest`, each adding the fewest new variables, that bind the variables
    of the bucket its own positive atoms leave unbound; None if there are none such."""
    bound = set(_variables_of([literal for literal in bucket if isinstance(literal, Atom)]))
    unbound = set(_variables_of(bucket)) - bound
    binding = []
    while unbound:
        useful = [
            literal
            for literal in rest
            if isinstance(literal, Atom) and unbound & set(literal_variables(literal))
        ]
        if not useful:
            return None
        atom = min(useful, key=lambda literal: len(set(literal_variables(literal)) - bound))
        binding.append(atom)
        bound.update(literal_variables(atom))
        unbound -= bound
    return binding


def _variables_of(literals: list) -> list[str]:
    """The variables of the literals, each once, in order of first occurrence."""
    return list(dict.fromkeys(v for literal in literals for v in literal_variables(literal)))
