"""Bottom-up evaluation of stratified Datalog with negation and function terms.

The program is a list of normal rules (syntax.normal_rules) that passed the static checks
(safe, stratified, recursion restriction). Evaluation goes one strongly connected component
of the dependency graph at a time, dependencies first, so every negated or lower relation is
complete before it is read. Inside a component an agenda processes each new fact exactly once
(as in Fast Downward's build_model.py): the fact is matched against every body atom of the
component's rules that could use it and joined with the facts processed so far, so every
combination of facts is tried once, when its last fact comes off the agenda (semi-naive).

Each rule is compiled into join plans: one for its first firing and one per body atom of its
own component (the *trigger*). A plan is a sequence of steps in which every atom is looked up
through a hash index on the arguments already bound, and negations and distincts run as soon
as their variables are bound.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from models.terms import Term
from solvers.gdl.syntax import Atom, Distinct, Not, Rule, variables

Args = tuple
"""The ground arguments of a fact; the relation name is kept apart."""

_ATOM, _NOT, _DISTINCT, _EQUAL = range(4)


class Relation:
    """The facts of one relation: `known` (all derived), `processed` (off the agenda), and hash
    indexes of the processed facts on tuples of argument positions, built on first use."""

    __slots__ = ("known", "processed", "indexes")

    def __init__(self, facts: Iterable[Args] = ()):
        self.known: set[Args] = set(facts)
        self.processed: list[Args] = list(self.known)
        self.indexes: dict[tuple[int, ...], dict[tuple, list[Args]]] = {}

    def process(self, args: Args) -> None:
        """Make a known fact visible to lookups."""
        self.processed.append(args)
        for positions, index in self.indexes.items():
            index.setdefault(tuple(args[i] for i in positions), []).append(args)

    def lookup(self, positions: tuple[int, ...], key: tuple) -> list[Args]:
        """The processed facts whose arguments at `positions` equal `key`."""
        if not positions:
            return self.processed
        index = self.indexes.get(positions)
        if index is None:
            index = {}
            for args in self.processed:
                index.setdefault(tuple(args[i] for i in positions), []).append(args)
            self.indexes[positions] = index
        return index.get(key, ())


Model = dict[str, Relation]
"""Relation name -> its facts."""


@dataclass
class Statistics:
    """What evaluation did, summed over every call."""

    evaluations: int = 0
    facts: int = 0
    lookups: int = 0


@dataclass(frozen=True)
class _Trigger:
    """Body atom `atom_args` of `rule` matched against a new fact, then `plan` run."""

    rule: _CompiledRule
    atom_args: tuple
    plan: tuple


@dataclass
class _CompiledRule:
    head_relation: str
    head_args: tuple
    first_plan: tuple | None
    """The plan of the rule's first firing; None if a body atom lies in its own component
    (then only triggers fire it)."""
    triggers: list[_Trigger] = field(default_factory=list)


class Program:
    """Normal rules ready for evaluation, grouped by component in evaluation order."""

    def __init__(self, rules: Iterable[Rule], components: list[frozenset[str]]):
        self.statistics = Statistics()
        by_head: dict[str, list[Rule]] = {}
        for rule in rules:
            by_head.setdefault(rule.head.relation, []).append(rule)
        self.components: list[tuple[frozenset[str], list[_CompiledRule], dict]] = []
        for component in components:
            rules_here = [rule for relation in component for rule in by_head.get(relation, ())]
            if not rules_here:
                continue
            compiled = [_compile(rule, component) for rule in rules_here]
            triggers: dict[str, list[_Trigger]] = {}
            for rule, compiled_rule in zip(rules_here, compiled, strict=True):
                for literal in rule.body:
                    if isinstance(literal, Atom) and literal.relation in component:
                        trigger = _Trigger(
                            compiled_rule,
                            literal.args,
                            _plan(rule.body, set(variables(literal.term)), skip=literal),
                        )
                        triggers.setdefault(literal.relation, []).append(trigger)
            self.components.append((component, compiled, triggers))

    def evaluate(self, model: Model, only: Iterable[frozenset[str]] | None = None) -> Model:
        """Add to `model` (in place) every relation of the program's components (or of the
        components in `only`) with all its facts; returns the model."""
        self.statistics.evaluations += 1
        wanted = None if only is None else set(only)
        for component, compiled, triggers in self.components:
            if wanted is None or component in wanted:
                self._evaluate_component(component, compiled, triggers, model)
        return model

    def _evaluate_component(self, component, compiled, triggers, model: Model) -> None:
        for relation in component:
            model[relation] = Relation()
        agenda: list[tuple[str, Args]] = []

        def emit(rule: _CompiledRule, bindings: dict) -> None:
            args = tuple(_instantiate(pattern, bindings) for pattern in rule.head_args)
            relation = model[rule.head_relation]
            if args not in relation.known:
                relation.known.add(args)
                agenda.append((rule.head_relation, args))

        for rule in compiled:
            if rule.first_plan is not None:
                self._join(rule.first_plan, 0, {}, model, rule, emit)
        while agenda:
            relation_name, args = agenda.pop()
            model[relation_name].process(args)
            self.statistics.facts += 1
            for trigger in triggers.get(relation_name, ()):
                bindings: dict = {}
                if all(
                    _match(pattern, value, bindings)
                    for pattern, value in zip(trigger.atom_args, args, strict=True)
                ):
                    self._join(trigger.plan, 0, bindings, model, trigger.rule, emit)

    def _join(self, plan: tuple, index: int, bindings: dict, model: Model, rule, emit) -> None:
        """Run the plan's steps from `index` on; emit the head for every complete binding."""
        if index == len(plan):
            emit(rule, bindings)
            return
        kind, *step = plan[index]
        if kind == _ATOM:
            relation_name, positions, key_patterns, rest = step
            relation = model.get(relation_name)
            if relation is None:
                return
            self.statistics.lookups += 1
            key = tuple(_instantiate(pattern, bindings) for pattern in key_patterns)
            for args in relation.lookup(positions, key):
                extended = dict(bindings)
                if all(_match(pattern, args[position], extended) for position, pattern in rest):
                    self._join(plan, index + 1, extended, model, rule, emit)
        elif kind == _NOT:
            relation_name, patterns = step
            relation = model.get(relation_name)
            args = tuple(_instantiate(pattern, bindings) for pattern in patterns)
            if relation is None or args not in relation.known:
                self._join(plan, index + 1, bindings, model, rule, emit)
        else:
            left, right = step
            same = _instantiate(left, bindings) == _instantiate(right, bindings)
            if same == (kind == _EQUAL):
                self._join(plan, index + 1, bindings, model, rule, emit)


def _compile(rule: Rule, component: frozenset[str]) -> _CompiledRule:
    recursive = any(
        isinstance(literal, Atom) and literal.relation in component for literal in rule.body
    )
    return _CompiledRule(
        rule.head.relation,
        rule.head.args,
        None if recursive else _plan(rule.body, set()),
    )


def _plan(body: tuple, bound: set[str], skip: Atom | None = None) -> tuple:
    """Join steps for `body` (less the literal `skip`) when the variables `bound` are known:
    filters as soon as they are ground, then the atom with most bound arguments next."""
    bound = set(bound)
    atoms = [literal for literal in body if isinstance(literal, Atom) and literal is not skip]
    filters = [literal for literal in body if not isinstance(literal, Atom)]
    steps = []
    while atoms or filters:
        ready = [f for f in filters if set(_filter_variables(f)) <= bound]
        if ready:
            for literal in ready:
                steps.append(_filter_step(literal))
                filters.remove(literal)
            continue
        if not atoms:
            raise ValueError("unsafe rule: a negation or distinct has an unbound variable")
        atom = max(atoms, key=lambda a: _bound_arguments(a, bound))
        atoms.remove(atom)
        steps.append(_atom_step(atom, bound))
        bound.update(variables(atom.term))
    return tuple(steps)


def _bound_arguments(atom: Atom, bound: set[str]) -> tuple[int, int]:
    args = atom.args
    known = sum(1 for arg in args if set(variables(arg)) <= bound)
    return known, -len(args)


def _atom_step(atom: Atom, bound: set[str]) -> tuple:
    positions, keys, rest = [], [], []
    for position, arg in enumerate(atom.args):
        if set(variables(arg)) <= bound:
            positions.append(position)
            keys.append(arg)
        else:
            rest.append((position, arg))
    return (_ATOM, atom.relation, tuple(positions), tuple(keys), tuple(rest))


def _filter_variables(literal) -> list[str]:
    inner = literal.literal if isinstance(literal, Not) else literal
    if isinstance(inner, Distinct):
        return [*variables(inner.left), *variables(inner.right)]
    return list(variables(inner.term))


def _filter_step(literal) -> tuple:
    if isinstance(literal, Distinct):
        return (_DISTINCT, literal.left, literal.right)
    inner = literal.literal
    if isinstance(inner, Distinct):
        return (_EQUAL, inner.left, inner.right)
    return (_NOT, inner.relation, inner.args)


def _instantiate(pattern: Term, bindings: dict) -> Term:
    """The pattern with its variables replaced by their values."""
    if type(pattern) is str:
        return bindings[pattern] if pattern[0] == "?" else pattern
    return tuple([_instantiate(part, bindings) for part in pattern])


def _match(pattern: Term, value: Term, bindings: dict) -> bool:
    """Whether the ground `value` fits `pattern`, extending `bindings` (in place) if so."""
    if type(pattern) is str:
        if pattern[0] != "?":
            return pattern == value
        known = bindings.get(pattern)
        if known is None:
            bindings[pattern] = value
            return True
        return known == value
    if type(value) is not tuple or len(value) != len(pattern) or value[0] != pattern[0]:
        return False
    return all(_match(p, v, bindings) for p, v in zip(pattern[1:], value[1:], strict=True))

