"""Ground only the atoms some rule can ask for (magic sets: Bancilhon, Maier, Sagiv and
Ullman 1986; Beeri and Ramakrishnan 1991), in the relaxed game.

Bottom up, a relation holds for every argument its rules allow, asked for or not. Merrills
counts the pieces pit by pit with a running count:

    (<= (count ?w ?b) (count_loop inner ne 0 0 ?w ?b))
    (<= (count_loop ?x1 ?y1 ?w1 ?b1 ?w ?b) (count_one ?x1 ?y1 ?w1 ?b1 ?w2 ?b2)
        (next_pit ?x1 ?y1 ?x2 ?y2) (count_loop ?x2 ?y2 ?w2 ?b2 ?w ?b))

where count_loop holds in the relaxed game for every pit and any two running counts, millions
of atoms; asked from the first pit with counts 0 0, only running counts no larger than the
pits passed can arise, a few thousand. So, for each recursive relation (and each relation
asked for only by the rules of such relations: see _candidates), the argument places
that every literal asking for it knows when it is asked (its *asked places*: those whose
variables the literals before it bind, in the order: the rule's own demand, the atoms of
relations without asked places, then the other atoms as written, then the negations) get a
demand relation, derived in the relaxed game from exactly those literals. A rule of the
relation is guarded by its demand: its instances are enumerated only where the demand holds.

The demand facts over-approximate what any reachable state asks for (they are derived from
the relaxed game, which over-approximates every reachable state), so every atom that an
instance kept for the circuit reads keeps all of its own instances: the circuit computes
every atom the outputs depend on as the rules define it. The guards are settled when the
instances are enumerated and never reach the circuit.

The reasoner (gdl/reasoner.py) evaluates each state with the same guards and demand rules,
where that is less work: there the demand facts are those of the state itself.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from gamecheck.gdl.constant_asks import constant_places
from gamecheck.gdl.dependencies import DependencyGraph
from gamecheck.gdl.split import split_rules
from gamecheck.gdl.syntax import Atom, Distinct, Not, Rule, literal_variables, variables

DEMAND = "#demand"
"""Demand relations are named DEMAND(relation), their auxiliary relations DEMAND-split + a
number: no GDL name starts with '#' or holds a parenthesis, so none can clash."""


@dataclass(frozen=True)
class Demand:
    asked: dict[str, tuple[int, ...]]
    """Per guarded relation, its asked places."""
    rules: list[Rule]
    """The rules of the demand relations (positive: for the relaxed game)."""

    @property
    def relations(self) -> frozenset[str]:
        """The names of the demand relations."""
        return frozenset(map(demand_relation, self.asked))

    def guarded(self, rule: Rule) -> Rule:
        """The rule with the demand for its relation as first literal, if it has one."""
        if rule.head.relation not in self.asked:
            return rule
        return Rule(rule.head, (_guard(rule.head, self.asked), *rule.body), rule.position)


def demand(rules: Sequence[Rule], exempt: set[str]) -> Demand:
    """The demand for the relations of `rules` (see the module docstring); the relations
    of `exempt` (the outputs) and those asked with no place known get none."""
    asked = _asked_places(rules, exempt)
    demand_rules = [
        Rule(_guard(call, asked), before, rule.position)
        for rule in rules
        for call, before in _calls(rule, asked)
    ]
    return Demand(asked, split_rules(demand_rules, prefix=f"{DEMAND}-split"))


def demand_relation(relation: str) -> str:
    """The name of the relation's demand relation."""
    return f"{DEMAND}({relation})"


def _asked_places(rules: Sequence[Rule], exempt: set[str]) -> dict[str, tuple[int, ...]]:
    """Per guarded relation, the argument places known wherever it is asked for: the
    greatest fixpoint from every place of every candidate relation."""
    candidates = _candidates(rules, exempt)
    asked = {
        rule.head.relation: tuple(range(len(rule.head.args)))
        for rule in rules
        if rule.head.relation in candidates
    }
    while True:
        known: dict[str, set[int]] = {}
        for rule in rules:
            for call, before in _calls(rule, asked):
                bound = _variables(before)
                places = {
                    place for place, arg in enumerate(call.args) if set(variables(arg)) <= bound
                }
                known[call.relation] = known.get(call.relation, places) & places
        narrowed = {
            relation: tuple(sorted(known[relation])) for relation in asked if known.get(relation)
        }
        if narrowed == asked:
            return asked
        asked = narrowed


def _candidates(rules: Sequence[Rule], exempt: set[str]) -> set[str]:
    """The relations worth a demand: the recursive ones (bottom up, recursion runs through
    every argument, asked for or not), those every asking atom gives constants at the same
    places (gdl/constant_asks.py: a goal that counts a player's pieces on three named
    cells, bottom up counted on every three cells), and those asked for only by the rules
    of candidates (their demand follows from the candidates' own). The demand of any other
    relation would cost a join of its askers' bodies for little."""
    graph = DependencyGraph(rules)
    defined = {rule.head.relation for rule in rules} - exempt
    candidates = {
        relation
        for relation in defined
        if any(graph.recursive_with(relation, other) for other in graph.edges[relation])
    }
    candidates |= {relation for relation, places in constant_places(rules).items() if places}
    candidates &= defined
    askers: dict[str, set[str]] = {}
    for rule in rules:
        for relation in graph.edges[rule.head.relation]:
            askers.setdefault(relation, set()).add(rule.head.relation)
    while True:
        more = {r for r in defined - candidates if askers.get(r) and askers[r] <= candidates}
        if not more:
            return candidates
        candidates |= more


def _calls(rule: Rule, asked: dict[str, tuple[int, ...]]) -> Iterator[tuple[Atom, list]]:
    """Each atom of a guarded relation in the rule's body (under `not` or not), with the
    literals that bind its arguments before it is asked: the rule's own guard, the atoms of
    unguarded relations, the earlier atoms of guarded ones, and the distincts among them."""
    before: list = [_guard(rule.head, asked)] if rule.head.relation in asked else []
    atoms = [literal for literal in rule.body if isinstance(literal, Atom)]
    before += [atom for atom in atoms if atom.relation not in asked]
    for atom in atoms:
        if atom.relation in asked:
            yield atom, before + _distincts(rule, before)
            before = before + [atom]
    negated = [
        literal.literal
        for literal in rule.body
        if isinstance(literal, Not) and isinstance(literal.literal, Atom)
    ]
    for atom in negated:
        if atom.relation in asked:
            yield atom, before + _distincts(rule, before)


def _distincts(rule: Rule, before: list) -> list[Distinct]:
    bound = _variables(before)
    return [
        literal
        for literal in rule.body
        if isinstance(literal, Distinct) and set(literal_variables(literal)) <= bound
    ]


def _variables(literals: list) -> set[str]:
    return {variable for literal in literals for variable in literal_variables(literal)}


def _guard(atom: Atom, asked: dict[str, tuple[int, ...]]) -> Atom:
    """The demand atom for asking `atom`: its arguments at the relation's asked places."""
    places = asked[atom.relation]
    return Atom((demand_relation(atom.relation), *(atom.args[place] for place in places)))
