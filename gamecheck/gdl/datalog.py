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
overwrites it. Every term a step builds from the slots (a head, a lookup key, a negated atom, the
sides of a distinct) is compiled once into a Python function of the slot list, so that the join
builds it in one call.

A component whose relations depend on themselves through `not` (which the GDL specification
forbids but GGP engines accept where the negation is stratified at the level of sentence
forms, as in `(<= (goal r 100) (not (goal r 0)))`) is evaluated as several groups of rules
(dependencies.rule_strata), each adding to the facts of the groups before it.

Evaluation honours a Budget (checked every few thousand joins) and stops with TooLarge
where a call derives more than `max_facts` facts or a term nested deeper than
MAX_TERM_DEPTH (a rule that builds ever deeper terms has no finite model), or, before it
starts a rule, where the rule's estimated bindings exceed ESTIMATE_FACTOR times `max_facts`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from gamecheck.budget import Budget
from gamecheck.errors import GamecheckError
from gamecheck.gdl.dependencies import rule_strata
from gamecheck.gdl.syntax import (
    Atom,
    Distinct,
    GdlError,
    Not,
    Rule,
    is_ground,
    unnegated,
    variables,
)
from gamecheck.gdl.terms import Term, term_text

Args = tuple
"""The ground arguments of a fact; the relation name is kept apart."""

_ATOM, _NOT, _DISTINCT, _EQUAL = range(4)


Path = tuple[int, ...]
"""Where a subterm sits in a fact's arguments: (2,) is the third argument, (0, 1) the first
argument's first argument (index 0 of a compound term is its functor)."""
_MISSING = object()
MAX_TERM_DEPTH = 24
"""Deepest nesting of function terms in a derived fact; past it a rule is taken to build
ever deeper terms (GDL's finite games never need more than a few levels)."""
DEFAULT_SIZE = 1000
"""Facts expected of a relation whose size is not known when joins are planned."""
CHECK_EVERY = 4096
"""Joins (and facts tried in them) between two looks at the budget."""
ESTIMATE_FACTOR = 20
"""A rule whose estimated bindings (an upper bound) exceed this many times the fact limit
is not tried: enumerating them would take hours even where filters keep few."""


class TooLarge(GamecheckError):
    """Evaluation would not end or not fit: too many facts, or ever deeper terms."""


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


Builder = Callable[[list], tuple]
"""A compiled tuple of terms: the ground terms they stand for, given the slots."""
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
    source: Rule
    head_relation: str
    head: Builder
    slots: int
    first_plan: tuple | None
    """The plan of the rule's first firing; None if a body atom lies in its own component
    and no earlier group of the component made facts (then only triggers fire it)."""
    nests: bool
    """Whether the head puts a variable inside a function term (so its facts may grow)."""


@dataclass(frozen=True)
class _Group:
    """Rules evaluated together: a whole component, or one sentence-form stratum of it
    (`fresh`: the first group of its component, which starts the relations empty)."""

    component: frozenset[str]
    fresh: bool
    rules: list[_CompiledRule]
    triggers: dict[str, list[_Trigger]]


class Program:
    """Normal rules ready for evaluation, grouped by component in evaluation order."""

    def __init__(
        self,
        rules: Iterable[Rule],
        components: list[frozenset[str]],
        sizes: dict[str, int] | None = None,
    ):
        """`sizes`: the expected number of facts per relation, to order joins (default: the
        facts of relations given by facts only; others count as DEFAULT_SIZE)."""
        self.statistics = Statistics()
        by_head: dict[str, list[Rule]] = {}
        rules = list(rules)
        for rule in rules:
            by_head.setdefault(rule.head.relation, []).append(rule)
        written = {
            relation: len(defining)
            for relation, defining in by_head.items()
            if not any(rule.body for rule in defining)
        }
        sizes = {**written, **(sizes or {})}
        self.groups: list[_Group] = []
        for component in components:
            rules_here = [rule for relation in component for rule in by_head.get(relation, ())]
            if not rules_here:
                continue
            strata = [rules_here]
            if _negates_itself(component, rules_here):
                strata = rule_strata(rules_here)
                if strata is None:
                    raise GdlError(
                        f"unstratifiable negation among {', '.join(sorted(component))}",
                        rules_here[0].position,
                    )
            for number, stratum in enumerate(strata):
                self.groups.append(_compile_group(component, stratum, sizes, fresh=number == 0))
        self._budget = Budget()
        self._work = 0

    def evaluate(
        self,
        model: Model,
        only: Iterable[frozenset[str]] | None = None,
        *,
        budget: Budget | None = None,
        max_facts: int | None = None,
        max_estimate: float | None = None,
    ) -> Model:
        """Add to `model` (in place) every relation of the program's components (or of the
        components in `only`) with all its facts; returns the model. OutOfBudget when the
        budget ends, TooLarge past `max_facts` new facts or MAX_TERM_DEPTH, or before a rule
        whose estimated bindings exceed `max_estimate` (default: ESTIMATE_FACTOR times
        `max_facts`)."""
        self.statistics.evaluations += 1
        self._budget = budget or Budget()
        self._budget.check()
        wanted = None if only is None else set(only)
        limit = [max_facts]
        if max_estimate is None and max_facts is not None:
            max_estimate = ESTIMATE_FACTOR * max_facts
        for group in self.groups:
            if wanted is None or group.component in wanted:
                if max_estimate is not None:
                    _refuse_huge_rules(group, model, max_estimate)
                self._evaluate_group(group, model, limit)
        return model

    def _evaluate_group(self, group: _Group, model: Model, limit: list) -> None:
        if group.fresh:
            for relation in group.component:
                model[relation] = Relation()
        agenda: list[tuple[str, Args]] = []

        def emit(rule: _CompiledRule, slots: list) -> None:
            args = rule.head(slots)
            relation = model[rule.head_relation]
            if args not in relation.known:
                if rule.nests and _depth(args) > MAX_TERM_DEPTH:
                    raise TooLarge(_growth_message(rule.source, rule.head_relation, args))
                relation.known.add(args)
                agenda.append((rule.head_relation, args))
                if limit[0] is not None:
                    limit[0] -= 1
                    if limit[0] < 0:
                        raise TooLarge(_size_message(rule.source, model))

        for rule in group.rules:
            if rule.first_plan is not None:
                self._join(rule.first_plan, 0, [None] * rule.slots, model, rule, emit)
        triggers = group.triggers
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
        """Run the plan's steps from `index` on; emit the head for every complete binding.
        Checks (filters, lookups that bind nothing) go on in the loop; a lookup that binds
        recurses per matching fact, or emits directly when it is the last step."""
        self._work += 1
        if self._work >= CHECK_EVERY:
            self._work = 0
            self._budget.check()
        end = len(plan)
        while index < end:
            step = plan[index]
            index += 1
            kind = step[0]
            if kind == _ATOM:
                _, relation_name, paths, key, binders = step
                relation = model.get(relation_name)
                if relation is None:
                    return
                self.statistics.lookups += 1
                candidates = relation.lookup(paths, key(slots))
                if not binders:
                    if not candidates:
                        return
                    continue
                self._work += len(candidates)
                for args in candidates:
                    if _bind(args, binders, slots):
                        if index == end:
                            emit(rule, slots)
                        else:
                            self._join(plan, index, slots, model, rule, emit)
                return
            if kind == _NOT:
                relation = model.get(step[1])
                if relation is not None and step[2](slots) in relation.known:
                    return
            else:
                left, right = step[1](slots)
                if (left == right) != (kind == _EQUAL):
                    return
        emit(rule, slots)


def _estimate(plan: tuple, model: Model) -> float:
    """An upper bound of the bindings a plan enumerates in `model`: the product over its
    lookups of the facts per key (filters not counted)."""
    estimate = 1.0
    for step in plan:
        if step[0] == _ATOM:
            relation = model.get(step[1])
            if relation is None or not relation.processed:
                return 0.0
            relation.lookup(step[2], ())
            keys = len(relation.indexes[step[2]]) if step[2] else 1
            estimate *= len(relation.processed) / max(1, keys)
    return estimate


def _refuse_huge_rules(group: _Group, model: Model, most: float) -> None:
    """TooLarge naming the first rule of the group estimated at more than `most` bindings."""
    for rule in group.rules:
        if rule.first_plan is None:
            continue
        estimate = _estimate(rule.first_plan, model)
        if estimate > most:
            where = f"{rule.source.position}: " if rule.source.position else ""
            raise TooLarge(
                f"{where}this rule has about {estimate:.2g} instances, more than fit in memory"
            )


def _negates_itself(component: frozenset[str], rules: list[Rule]) -> bool:
    return any(
        isinstance(literal, Not)
        and isinstance(literal.literal, Atom)
        and literal.literal.relation in component
        for rule in rules
        for literal in rule.body
    )


def _compile_group(
    component: frozenset[str], rules: list[Rule], sizes: dict[str, int], *, fresh: bool
) -> _Group:
    """The group's compiled rules and, per relation, the triggers its new facts fire: every
    body atom of a relation the group's rules derive."""
    compiled = []
    triggers: dict[str, list[_Trigger]] = {}
    derived = {rule.head.relation for rule in rules}
    for rule in rules:
        slot_of = {var: slot for slot, var in enumerate(dict.fromkeys(_rule_variables(rule)))}
        recursive = [
            literal
            for literal in rule.body
            if isinstance(literal, Atom) and literal.relation in derived
        ]
        compiled_rule = _CompiledRule(
            rule,
            rule.head.relation,
            _builder(rule.head.args, slot_of),
            len(slot_of),
            None if recursive and fresh else _plan(rule.body, set(), slot_of, sizes),
            any(isinstance(arg, tuple) and not is_ground(arg) for arg in rule.head.args),
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
                _plan(rule.body, bound, slot_of, sizes, skip=atom),
            )
            triggers.setdefault(atom.relation, []).append(trigger)
    return _Group(component, fresh, compiled, triggers)


def _depth(term) -> int:
    """How deeply function terms nest in a fact's arguments (0 for constants only)."""
    if type(term) is not tuple:
        return 0
    return 1 + max(map(_depth, term), default=0)


def _growth_message(rule: Rule, relation: str, args: Args) -> str:
    where = f"{rule.position}: " if rule.position else ""
    fact = term_text((relation, *args))
    shown = fact if len(fact) <= 120 else fact[:117] + "..."
    return (
        f"{where}this rule builds ever deeper terms, such as {shown}: GDL requires a finite "
        "game (every fact of bounded size), so the sheet cannot be grounded"
    )


def _size_message(rule: Rule, model: Model) -> str:
    where = f"{rule.position}: " if rule.position else ""
    biggest = max(model, key=lambda name: len(model[name].known))
    return (
        f"{where}grounding stopped: the rules derive too many facts to fit in memory "
        f"({len(model[biggest].known):,} of relation {biggest}, this rule adding more)"
    )


def _rule_variables(rule: Rule):
    yield from variables(rule.head.term)
    for literal in rule.body:
        yield from _literal_variables(literal)


def _plan(
    body: tuple,
    bound: set[str],
    slot_of: dict[str, int],
    sizes: dict[str, int],
    skip: Atom | None = None,
):
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
        atom = max(atoms, key=lambda a: _selectivity(a, bound, sizes))
        atoms.remove(atom)
        keys = _key_paths(atom.args, bound)
        binders, bound = _binders(atom.args, bound, slot_of)
        steps.append(
            (
                _ATOM,
                atom.relation,
                tuple(path for path, _ in keys),
                _builder(tuple(pattern for _, pattern in keys), slot_of),
                binders,
            )
        )
    return tuple(steps)


def _selectivity(atom: Atom, bound: set[str], sizes: dict[str, int]) -> tuple:
    """How good a next lookup `atom` is: a pure check first, then one that shares a bound
    variable (not a cross product: quad's four cells of a square, bound one by one, multiplied
    out before the square was looked up), then one with a known argument or subterm (a known
    functor alone does not count); among those the fewest new variables (then the most known
    places, then the smallest relation), else the smallest relation."""
    atom_variables = set(variables(atom.term))
    new_variables = len(atom_variables - bound)
    joined = bool(atom_variables & bound)
    keys = sum(path[-1] != 0 or len(path) == 1 for path, _ in _key_paths(atom.args, bound))
    size = sizes.get(atom.relation, DEFAULT_SIZE) or 1
    if keys:
        return new_variables == 0, joined, True, -new_variables, keys, -size
    return new_variables == 0, joined, False, -size, 0, 0


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


def _builder(terms: tuple, slot_of: dict[str, int]) -> Builder:
    """The function from the slots to the ground terms `terms` stand for, written as one
    Python expression (a variable is its slot, a constant its quoted text) and compiled."""
    source = "".join(f"{_expression(term, slot_of)}, " for term in terms)
    return eval(f"lambda s: ({source})", {})


def _expression(term: Term, slot_of: dict[str, int]) -> str:
    if isinstance(term, tuple):
        return "(" + "".join(f"{_expression(part, slot_of)}, " for part in term) + ")"
    return f"s[{slot_of[term]}]" if term.startswith("?") else repr(term)


def _literal_variables(literal) -> list[str]:
    inner = unnegated(literal)
    if isinstance(inner, Distinct):
        return [*variables(inner.left), *variables(inner.right)]
    return list(variables(inner.term))


def _filter_step(literal, slot_of: dict[str, int]) -> tuple:
    if isinstance(literal, Distinct):
        return (_DISTINCT, _builder((literal.left, literal.right), slot_of))
    inner = literal.literal
    if isinstance(inner, Distinct):
        return (_EQUAL, _builder((inner.left, inner.right), slot_of))
    return (_NOT, inner.relation, _builder(inner.args, slot_of))


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
