"""The GDL reasoner: roles, initial state, legal, next, terminal and goals from the rules.

Relations fall into three phases by what they depend on: *static* (neither `true` nor
`does`: computed once per game), *state* (on `true`: legal, terminal, goal and their helpers,
computed once per state and cached) and *move* (on `does`: next and its helpers, computed per
state and joint action). Each phase reads the complete models of the earlier ones.

>>> from gamecheck.gdl.parser import parse_rules
>>> reasoner = Reasoner(parse_rules('''
...     (role p) (init (count 0)) (succ 0 1) (succ 1 2)
...     (<= (legal p tick) (true (count ?n)) (succ ?n ?m))
...     (<= (next (count ?m)) (does p tick) (true (count ?n)) (succ ?n ?m))
...     (<= terminal (true (count 2))) (<= (goal p 100) terminal)'''))
>>> state = reasoner.initial_state()
>>> sorted(state), reasoner.legal(state, "p")
([('count', '0')], ('tick',))
>>> sorted(reasoner.next_state(state, ("tick",)))
[('count', '1')]
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Sequence

from gamecheck.budget import Budget
from gamecheck.gdl.constant_asks import constant_places, guard_constant_asks
from gamecheck.gdl.datalog import Model, Program, Relation, Statistics, TooLarge
from gamecheck.gdl.demand import demand
from gamecheck.gdl.dependencies import DependencyGraph, relevant_rules
from gamecheck.gdl.syntax import KEYWORDS, Atom, GdlError, Rule, normal_rules, unnegated
from gamecheck.gdl.terms import Term, term_text
from gamecheck.gdl.uniform import drop_uniform_arguments, types_of

STATIC, STATE, MOVE = "static", "state", "move"
MAX_STATIC_FACTS = 5_000_000
"""Most facts of the static relations (about 2 GB): past it, TooLarge names the rule."""
STATE_CACHE_SIZE = 64
"""How many state models to keep: a game step asks for terminal, legal, goals and next of one
state, and search revisits recent states."""


class Reasoner:
    """Evaluates a rule sheet that passed the static checks (gdl/checks.py). The static
    model is evaluated at once, within `budget` (OutOfBudget if it ends first)."""

    def __init__(self, rules: Sequence[Rule], *, budget: Budget | None = None):
        normal = [piece for rule in rules for piece in normal_rules(rule)]
        normal = relevant_rules(normal, KEYWORDS)
        normal = guard_constant_asks(normal, exempt=set(KEYWORDS))  # read in full by players
        self.roles = role_names(rules)
        self.program, self._phase_components = self._compiled(normal)
        self.static_model = self.program.evaluate(
            {}, self._phase_components[STATIC], budget=budget, max_facts=MAX_STATIC_FACTS
        )
        normal = self._without_uniform_arguments(normal)
        self._states: OrderedDict[frozenset, tuple[Model, dict[str, tuple]]] = OrderedDict()
        """Recent states: their model and the legal actions found so far, per role."""
        self.budget: Budget | None = budget
        """Where set, an evaluation of a state or a step stops when it ends (OutOfBudget): a
        big sheet's take seconds (merrills'), and time limits are kept."""
        demanded = _demanded(normal, self._phase_components)
        if demanded is not None:
            self._choose(demanded)
        self.budget = None

    def _compiled(self, normal: list[Rule]) -> tuple[Program, dict[str, list[frozenset[str]]]]:
        """The program of the rules, and its components by phase."""
        graph = DependencyGraph(normal)
        program = Program(normal, graph.components, {"does": len(self.roles)})
        phases: dict[str, list[frozenset[str]]] = {STATIC: [], STATE: [], MOVE: []}
        for component in graph.components:
            phases[_phase(graph, component)].append(component)
        return program, phases

    def _without_uniform_arguments(self, normal: list[Rule]) -> list[Rule]:
        """The rules with the uniform arguments of their state and move relations dropped
        (gdl/uniform.py), and compiled again where there are any: ruleDepthExponential's
        prereq20 would have 2^20 facts a state."""
        static = set().union(*self._phase_components[STATIC])
        changing = [rule for rule in normal if rule.head.relation not in static]
        shortened = drop_uniform_arguments(changing, types_of(self.static_model))
        if shortened == changing:
            return normal
        normal = [rule for rule in normal if rule.head.relation in static] + shortened
        self.program, self._phase_components = self._compiled(normal)
        return normal

    def _choose(self, demanded: list[Rule]) -> None:
        """Evaluate states with the demand-guarded rules where that takes less work on the
        initial state (facts derived plus lookups) than the rules as written: merrills'
        running count, bottom up, derives 120,984 facts a state (2 s), asked from its first
        pit, a few hundred; elsewhere the demand's joins can cost more than they save."""
        program, phases = self._compiled(demanded)
        static = dict(self.static_model)
        extra = [c for c in phases[STATIC] if not c <= static.keys()]
        program.evaluate(static, extra, budget=self.budget, max_facts=MAX_STATIC_FACTS)
        initial = self.initial_state()
        guarded = _work(program, static, phases[STATE], initial, self.budget)
        try:
            plain = _work(
                self.program,
                self.static_model,
                self._phase_components[STATE],
                initial,
                self.budget,
                most=guarded,
            )
        except TooLarge:
            plain = None
        if plain is None or guarded < plain:
            self.program, self._phase_components, self.static_model = program, phases, static

    @property
    def statistics(self) -> Statistics:
        return self.program.statistics

    def initial_state(self) -> frozenset[Term]:
        return frozenset(args[0] for args in _facts(self.static_model, "init"))

    def state_model(self, state: frozenset[Term]) -> Model:
        """Every relation that does not depend on `does`, in `state` (cached)."""
        return self._state(state)[0]

    def _state(self, state: frozenset[Term]) -> tuple[Model, dict[str, tuple]]:
        cached = self._states.get(state)
        if cached is not None:
            self._states.move_to_end(state)
            return cached
        model = dict(self.static_model)
        model["true"] = Relation((fact,) for fact in state)
        self.program.evaluate(model, self._phase_components[STATE], budget=self.budget)
        self._states[state] = cached = (model, {})
        if len(self._states) > STATE_CACHE_SIZE:
            self._states.popitem(last=False)
        return cached

    def legal(self, state: frozenset[Term], role: str) -> tuple[Term, ...]:
        """The legal actions of `role`, sorted by their text (cached)."""
        model, legal = self._state(state)
        if role not in legal:
            relation = model.get("legal")
            found = () if relation is None else relation.lookup(((0,),), (role,))
            legal[role] = tuple(sorted((args[1] for args in found), key=term_text))
        return legal[role]

    def is_terminal(self, state: frozenset[Term]) -> bool:
        return bool(_facts(self.state_model(state), "terminal"))

    def goal_values(self, state: frozenset[Term]) -> dict[str, set[int]]:
        """Every goal value of every role in `state`; GdlError for a value not in 0..100."""
        values: dict[str, set[int]] = {role: set() for role in self.roles}
        for role, value in _facts(self.state_model(state), "goal"):
            if not (isinstance(value, str) and value.isdigit() and int(value) <= 100):
                raise GdlError(
                    f"goal value {term_text(value)} of {term_text(role)} is not an integer "
                    "from 0 to 100"
                )
            values.setdefault(role, set()).add(int(value))
        return values

    def next_state(self, state: frozenset[Term], joint: Sequence[Term]) -> frozenset[Term]:
        """The state after the joint action (one action per role, in role order)."""
        model = dict(self.state_model(state))
        model["does"] = Relation(zip(self.roles, joint, strict=True))
        self.program.evaluate(model, self._phase_components[MOVE], budget=self.budget)
        return frozenset(args[0] for args in _facts(model, "next"))


def _demanded(normal: list[Rule], components: dict[str, list[frozenset[str]]]) -> list[Rule] | None:
    """The rules with the demand of gdl/demand.py for the state and move relations that
    only rules of their own phase ask for (`components`: the rules' components by phase);
    None where no relation gets one, or where the demand would put a relation in a later
    phase or under negation within its component."""
    phase = {r: name for name, listed in components.items() for c in listed for r in c}
    asked_later = {
        atom.relation
        for rule in normal
        for atom in map(unnegated, rule.body)
        if isinstance(atom, Atom) and phase[atom.relation] != phase[rule.head.relation]
    }
    exempt = {r for r in phase if phase[r] == STATIC} | asked_later | set(KEYWORDS)
    constant = {relation for relation, places in constant_places(normal).items() if places}
    asked = demand(normal, exempt | constant)
    if not asked.asked:
        return None
    rules = [asked.guarded(rule) for rule in normal] + asked.rules
    guarded = DependencyGraph(rules)
    for component in guarded.components:
        later = _phase(guarded, component)
        if any(phase.get(relation, later) != later for relation in component):
            return None
        negated = any(guarded.negative[relation] & component for relation in component)
        if negated and component not in components[later]:
            return None
    return rules


def _work(program: Program, base: Model, components, state, budget, most=None) -> int:
    """Facts derived plus lookups made in evaluating the components in `state`; TooLarge
    past `most` facts."""
    model = dict(base)
    model["true"] = Relation((fact,) for fact in state)
    statistics = program.statistics
    before = statistics.facts + statistics.lookups
    program.evaluate(model, components, budget=budget, max_facts=most, max_estimate=math.inf)
    return statistics.facts + statistics.lookups - before


def role_names(rules: Sequence[Rule]) -> tuple[str, ...]:
    """The roles of a sheet, in the order of its `role` facts."""
    return tuple(dict.fromkeys(rule.head.args[0] for rule in rules if rule.head.relation == "role"))


def _phase(graph: DependencyGraph, component: frozenset[str]) -> str:
    relation = next(iter(component))
    depends = graph.reaches(relation) | component
    if "does" in depends:
        return MOVE
    return STATE if "true" in depends else STATIC


def _facts(model: Model, relation: str) -> set[tuple]:
    found = model.get(relation)
    return set() if found is None else found.known
