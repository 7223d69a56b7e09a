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
through a hash index on the places (argument or nested subterm) already known, and negations
and distincts run as soon as their variables are bound. Variables live in numbered slots of one
list per firing: the plan order fixes which step writes each slot, so backtracking simply
overwrites it. Compiled patterns use an `int` for a slot, a `str` for a constant and a tuple
for a compound term.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gamecheck.gdl.syntax import Atom, Distinct, Not, Rule, variables
from gamecheck.gdl.terms import Term

Args = tuple
"""The ground arguments of a fact; the relation name is kept apart."""

_ATOM, _NOT, _DISTINCT, _EQUAL = range(4)


Path = tuple[int, ...]
"""Where a subterm sits in a fact's arguments: (2,) is the third argument, (0, 1) the first
argument's first argument (index 0 of a compound term is its functor)."""
_MISSING = object()


class Relation:
    """The facts of one relation: `known` (all derived), `processed` (off the agenda), and hash
    indexes of the processed facts on tuples of paths, built on first use."""

    __slots__ = ("known", "processed", "indexes")

    def __init__(self, facts: Iterable[Args] = ()):
        self.known: set[Args] = set(facts)
        self.processed: list[Args] = list(self.known)
        self.indexes: dict[tuple[Path, ...], dict[tuple, list[Args]]] = {}

    def process(self, args: Args) -> None:
        """Make a known fact visible to lookups."""
        self.processed.append(args)
        for paths, index in self.indexes.items():
            index.setdefault(_key(args, paths), []).append(args)

    def lookup(self, paths: tuple[Path, ...], key: tuple) -> list[Args]:
        """The processed facts whose subterms at `paths` equal `key`."""
        if not paths:
            return self.processed
        index = self.indexes.get(paths)
        if index is None:
            index = {}
            for args in self.processed:
                index.setdefault(_key(args, paths), []).append(args)
            self.indexes[paths] = index
        return index.get(key, ())


def _key(args: Args, paths: tuple[Path, ...]) -> tuple:
    """The subterms of a fact at `paths` (_MISSING where the fact has no such place)."""
    key = []
    for path in paths:
        term = args
        for step in path:
            if type(term) is not tuple or step >= len(term):
                term = _MISSING
                break
            term = term[step]
        key.append(term)
    return tuple(key)


Model = dict[str, Relation]
"""Relation name -> its facts."""


@dataclass
class Statistics:
    """What evaluation did, summed over every call."""

    evaluations: int = 0
    facts: int = 0
    lookups: int = 0


Pattern = int | str | tuple
"""A compiled term: slot number, constant, or (functor, pattern, ...)."""
Binder = tuple[Path, int, bool]
"""(place, slot, check): store the subterm at the place in the slot, or if `check` compare."""


@dataclass(frozen=True)
class _Trigger:
    """A body atom of `rule` in the rule's own component: a new fact that has the constants
    `test_values` at `test_paths` binds slots by `binders`, then `plan` runs."""

    rule: _CompiledRule
    test_paths: tuple[Path, ...]
    test_values: tuple[Term, ...]
    binders: tuple[Binder, ...]
    plan: tuple


@dataclass
class _CompiledRule:
    head_relation: str
    head: tuple[Pattern, ...]
    slots: int
    first_plan: tuple | None
    """The plan of the rule's first firing; None if a body atom lies in its own component
    (then only triggers fire it)."""


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
            if rules_here:
                self.components.append(_compile_component(component, rules_here))

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

        def emit(rule: _CompiledRule, slots: list) -> None:
            args = tuple([_build(pattern, slots) for pattern in rule.head])
            relation = model[rule.head_relation]
            if args not in relation.known:
                relation.known.add(args)
                agenda.append((rule.head_relation, args))

        for rule in compiled:
            if rule.first_plan is not None:
                self._join(rule.first_plan, 0, [None] * rule.slots, model, rule, emit)
        while agenda:
            relation_name, args = agenda.pop()
            model[relation_name].process(args)
            self.statistics.facts += 1
            for trigger in triggers.get(relation_name, ()):
                if _key(args, trigger.test_paths) != trigger.test_values:
                    continue
                slots = [None] * trigger.rule.slots
                if _bind(args, trigger.binders, slots):
                    self._join(trigger.plan, 0, slots, model, trigger.rule, emit)

    def _join(self, plan: tuple, index: int, slots: list, model: Model, rule, emit) -> None:
        """Run the plan's steps from `index` on; emit the head for every complete binding."""
        if index == len(plan):
            emit(rule, slots)
            return
        step = plan[index]
        kind = step[0]
        following = index + 1
        if kind == _ATOM:
            _, relation_name, paths, key_patterns, binders = step
            relation = model.get(relation_name)
            if relation is None:
                return
            self.statistics.lookups += 1
            key = tuple([_build(pattern, slots) for pattern in key_patterns])
            candidates = relation.lookup(paths, key)
            if not binders:
                if candidates:
                    self._join(plan, following, slots, model, rule, emit)
                return
            for args in candidates:
                if _bind(args, binders, slots):
                    self._join(plan, following, slots, model, rule, emit)
        elif kind == _NOT:
            relation = model.get(step[1])
            if relation is None or tuple([_build(p, slots) for p in step[2]]) not in relation.known:
                self._join(plan, following, slots, model, rule, emit)
        elif (_build(step[1], slots) == _build(step[2], slots)) == (kind == _EQUAL):
            self._join(plan, following, slots, model, rule, emit)


def _compile_component(component: frozenset[str], rules: list[Rule]) -> tuple:
    """The component with its compiled rules and, per relation, the triggers its facts fire."""
    compiled = []
    triggers: dict[str, list[_Trigger]] = {}
    for rule in rules:
        slot_of = {var: slot for slot, var in enumerate(dict.fromkeys(_rule_variables(rule)))}
        recursive = [
            literal
            for literal in rule.body
            if isinstance(literal, Atom) and literal.relation in component
        ]
        compiled_rule = _CompiledRule(
            rule.head.relation,
            tuple(_compile_pattern(arg, slot_of) for arg in rule.head.args),
            len(slot_of),
            None if recursive else _plan(rule.body, set(), slot_of),
        )
        compiled.append(compiled_rule)
        for atom in recursive:
            tests = _key_paths(atom.args, set())
            binders, bound = _binders(atom.args, set(), slot_of)
            trigger = _Trigger(
                compiled_rule,
                tuple(path for path, _ in tests),
                tuple(value for _, value in tests),
                binders,
                _plan(rule.body, bound, slot_of, skip=atom),
            )
            triggers.setdefault(atom.relation, []).append(trigger)
    return component, compiled, triggers


def _rule_variables(rule: Rule):
    yield from variables(rule.head.term)
    for literal in rule.body:
        yield from _literal_variables(literal)


def _plan(body: tuple, bound: set[str], slot_of: dict[str, int], skip: Atom | None = None):
    """Join steps for `body` (less the literal `skip`) when the variables `bound` are known:
    filters as soon as they are ground, then the most selective atom next."""
    bound = set(bound)
    atoms = [literal for literal in body if isinstance(literal, Atom) and literal is not skip]
    filters = [literal for literal in body if not isinstance(literal, Atom)]
    steps = []
    while atoms or filters:
        ready = [f for f in filters if set(_literal_variables(f)) <= bound]
        if ready:
            steps += [_filter_step(literal, slot_of) for literal in ready]
            filters = [f for f in filters if f not in ready]
            continue
        if not atoms:
            raise ValueError("unsafe rule: a negation or distinct has an unbound variable")
        atom = max(atoms, key=lambda a: _selectivity(a, bound))
        atoms.remove(atom)
        keys = _key_paths(atom.args, bound)
        binders, bound = _binders(atom.args, bound, slot_of)
        steps.append(
            (
                _ATOM,
                atom.relation,
                tuple(path for path, _ in keys),
                tuple(_compile_pattern(pattern, slot_of) for _, pattern in keys),
                binders,
            )
        )
    return tuple(steps)


def _selectivity(atom: Atom, bound: set[str]) -> tuple[int, int]:
    """How good a next lookup `atom` is: fewest new variables first, then most known places."""
    new_variables = set(variables(atom.term)) - bound
    return -len(new_variables), len(_key_paths(atom.args, bound))


def _key_paths(patterns: tuple, bound: set[str], prefix: Path = ()) -> list[tuple[Path, Term]]:
    """The places of `patterns` (arguments, or the parts of a compound) whose value is known
    before the lookup: bound subterms, and inside unbound compounds their functor and bound
    parts."""
    found = []
    for index, pattern in enumerate(patterns):
        path = (*prefix, index)
        if set(variables(pattern)) <= bound:
            found.append((path, pattern))
        elif isinstance(pattern, tuple):
            found += _key_paths(pattern, bound, path)
    return found


def _binders(
    patterns: tuple, bound: set[str], slot_of: dict[str, int], prefix: Path = ()
) -> tuple[tuple[Binder, ...], set[str]]:
    """The binders of the unbound variables in `patterns`, and the variables bound after."""
    bound = set(bound)
    binders: list[Binder] = []

    def walk(parts: tuple, prefix: Path, first: int) -> None:
        for index, part in enumerate(parts[first:], start=first):
            path = (*prefix, index)
            if isinstance(part, tuple):
                walk(part, path, 1)
            elif part.startswith("?") and part not in bound_before:
                binders.append((path, slot_of[part], part in bound))
                bound.add(part)

    bound_before = set(bound)
    walk(patterns, prefix, 0)
    return tuple(binders), bound


def _compile_pattern(term: Term, slot_of: dict[str, int]) -> Pattern:
    if isinstance(term, tuple):
        return (term[0], *(_compile_pattern(part, slot_of) for part in term[1:]))
    return slot_of[term] if term.startswith("?") else term


def _literal_variables(literal) -> list[str]:
    inner = literal.literal if isinstance(literal, Not) else literal
    if isinstance(inner, Distinct):
        return [*variables(inner.left), *variables(inner.right)]
    return list(variables(inner.term))


def _filter_step(literal, slot_of: dict[str, int]) -> tuple:
    if isinstance(literal, Distinct):
        return (
            _DISTINCT,
            _compile_pattern(literal.left, slot_of),
            _compile_pattern(literal.right, slot_of),
        )
    inner = literal.literal
    if isinstance(inner, Distinct):
        return (
            _EQUAL,
            _compile_pattern(inner.left, slot_of),
            _compile_pattern(inner.right, slot_of),
        )
    return (_NOT, inner.relation, tuple(_compile_pattern(arg, slot_of) for arg in inner.args))


def _build(pattern: Pattern, slots: list) -> Term:
    """The ground term a compiled pattern stands for under the slots."""
    kind = type(pattern)
    if kind is int:
        return slots[pattern]
    if kind is str:
        return pattern
    return (pattern[0], *[_build(part, slots) for part in pattern[1:]])


def _bind(args: Args, binders: tuple[Binder, ...], slots: list) -> bool:
    """Fill slots from a fact's subterms; False if a checked slot differs or a place is missing."""
    for path, slot, check in binders:
        value = args
        for step in path:
            if type(value) is not tuple or step >= len(value):
                return False
            value = value[step]
        if check:
            if slots[slot] != value:
                return False
        else:
            slots[slot] = value
    return True
