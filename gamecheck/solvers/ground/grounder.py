"""Ground a GDL rule sheet into a propositional transition system (solvers/ground/transition.py).

`ground(rules)` runs a short pipeline:
1. normalise the rules (`or` expanded), drop those of relations that no output, `init`
   or `role` depends on, and split long bodies (gdl/split.py), so that variables local to
   a part of a body are projected away before the join;
2. evaluate the static relations (those depending on neither `true` nor `does`) exactly,
   and drop the arguments that a dynamic relation holds of every value of a type alike
   (gdl/uniform.py: ruleDepthExponential's 2^20 bit strings that all mean one thing);
3. over-approximate what can ever hold: evaluate the rules without their dynamic negations,
   with every `init` and `next` fact taken as true and every `legal` action as done (the
   relaxed game, reachable from the initial state), each dynamic rule with its non-head
   variables eliminated into auxiliary rules (split.variable_eliminations), if need be after
   unfolding the static relations that one rule defines (split.unfoldable), and each rule
   guarded by the demand for its relation: only the atoms some rule can ask for
   (gdl/demand.py); a game with more than MAX_ACTIONS actions in that model stops
   here (TooLarge naming the `legal` rule that gives most of them);
4. enumerate the instances of every dynamic rule against that over-approximation, each
   instance reduced to its dynamic literals (instances with the same ones are one), from
   the rule as written or from the rules that eliminate its variables, whichever is smaller
   (_cheaper_form);
5. merge the bodies of an atom that differ only in the action they ask for into one over
   the union of those actions, written per role as the negation of the other actions where
   they are fewer and the circuit gets smaller (solvers/ground/action_sets.py: frame axioms
   over moves then grow with the moves, not with cells times moves);
6. keep only the ground atoms that `legal`, `next`, `terminal` and `goal` depend on;
7. define each kept atom in a circuit as the OR of its instances' bodies, dependencies
   first; a set of atoms that depend on each other in a cycle is unfolded as many times as
   it has atoms, which reaches the least fixpoint the Datalog semantics asks for.

Every step honours the budget, and a sheet too big to ground stops with TooLarge naming the
rule (and its estimated number of instances) instead of exhausting memory.
"""

from __future__ import annotations

from collections.abc import Sequence

from gamecheck.budget import Budget
from gamecheck.gdl.datalog import ESTIMATE_FACTOR, Model, Program, TooLarge
from gamecheck.gdl.demand import demand
from gamecheck.gdl.dependencies import (
    DependencyGraph,
    relevant_rules,
    strongly_connected_components,
)
from gamecheck.gdl.split import split_rules, unfoldable, variable_eliminations
from gamecheck.gdl.syntax import Atom, Distinct, Not, Rule, is_variable, normal_rules, unnegated
from gamecheck.gdl.terms import Term, term_text
from gamecheck.gdl.uniform import drop_uniform_arguments, types_of
from gamecheck.solvers.ground.action_sets import GroundLiteral, shorten_action_disjunctions
from gamecheck.solvers.ground.circuit import FALSE, Circuit
from gamecheck.solvers.ground.transition import TransitionSystem

OUTPUTS = ("legal", "next", "terminal", "goal")
MAX_FACTS = 3_000_000
"""Most facts the static and relaxed models may hold, and most rule instances grounding
may enumerate (each about 1 GB)."""
CHECK_EVERY = 1000
START_BOUND = 4096
"""Facts a rule and the rules that eliminate its variables are first tried up to (see
_cheaper_form)."""
MAX_ACTIONS = 100_000
"""Most actions (of all roles) a ground game may have: each is an input of the circuit and a
branch of every search, and each costs some 20 KB through the grounding. The largest sheets
that ground have under 10,000; amazons with the queen's move and the arrow as one action has
174,000 to 259,000, and grounding it needs over 3 GB."""
MAX_GATES = 2_000_000
"""A circuit that would grow past this many gates is not built (TooLarge): unfolding a big
recursive relation (connectivity on a board, say) costs gates times the relation's atoms."""


def ground(
    rules: Sequence[Rule],
    name: str,
    *,
    budget: Budget | None = None,
    max_facts: int = MAX_FACTS,
    max_actions: int = MAX_ACTIONS,
) -> TransitionSystem:
    """The transition system of a rule sheet that passed the static checks; OutOfBudget if
    the budget ends first, TooLarge past `max_facts` facts (or as many rule instances) or
    `max_actions` actions, that is, where the ground game would not fit in memory."""
    budget = budget or Budget()
    normal = [piece for rule in rules for piece in normal_rules(rule)]
    normal = split_rules(relevant_rules(normal, (*OUTPUTS, "init", "role")))
    graph = DependencyGraph(normal)
    static = _static_relations(graph)
    static_program = Program(normal, [c for c in graph.components if c <= static])
    static_model = static_program.evaluate({}, budget=budget, max_facts=max_facts)
    dynamic_rules = [rule for rule in normal if rule.head.relation not in static]
    dynamic_rules = drop_uniform_arguments(dynamic_rules, types_of(static_model))
    pieces = variable_eliminations(dynamic_rules, unfoldable(normal, static))
    asked = demand([piece for parts in pieces for piece in parts], set(OUTPUTS))
    eliminations = [
        (asked.guarded(rule), [asked.guarded(piece) for piece in parts])
        for rule, parts in zip(dynamic_rules, pieces, strict=True)
    ]
    roles = tuple(dict.fromkeys(r.head.args[0] for r in rules if r.head.relation == "role"))
    initial = {args[0] for args in _known(static_model, "init")}
    relaxed_rules = [_relaxed(rule, static) for _, pieces in eliminations for rule in pieces]
    model = _reachable_model(relaxed_rules + asked.rules, static_model, budget, max_facts)
    _refuse_many_actions(dynamic_rules, model, max_actions)
    actions = {
        role: tuple(sorted((a for r, a in _known(model, "legal") if r == role), key=term_text))
        for role in roles
    }
    settled = static | asked.relations
    chosen = _instance_facts(eliminations, model, settled, budget, max_facts)
    instances = _instances(chosen, model, settled, budget)
    shortened = shorten_action_disjunctions(instances, actions, budget)
    system = _build(name, initial, model, actions, shortened, budget)
    system.statistics.update(
        rule_instances=sum(len(bodies) for bodies in instances.values()),
        ground_atoms=len(instances),
    )
    system.dead_rules = _dead_rules(chosen, rules)
    return system


def _static_relations(graph: DependencyGraph) -> set[str]:
    """Relations that depend on neither `true` nor `does` (their facts never change). The
    outputs are never static: a `legal` that holds in every state is still an output."""
    return {
        relation
        for relation in graph.edges
        if relation not in ("true", "does", *OUTPUTS)
        and not graph.reaches(relation) & {"true", "does"}
    }


def _relaxed(rule: Rule, static: set[str]) -> Rule:
    """The rule without its negated dynamic atoms: true whenever the rule can be."""
    body = tuple(
        literal
        for literal in rule.body
        if not (
            isinstance(literal, Not)
            and isinstance(literal.literal, Atom)
            and literal.literal.relation not in static
        )
    )
    return Rule(rule.head, body, rule.position)


def _reachable_model(
    relaxed_rules: list[Rule], static_model: Model, budget: Budget, max_facts: int
) -> Model:
    """Every dynamic atom that may hold in some reachable state: one evaluation of the
    relaxed rules with every `init` and `next` fact taken as true and every `legal` action
    as done (positive recursion through true/next/legal/does, evaluated semi-naively)."""
    feedback = [
        Rule(Atom(("true", "?x")), (Atom(("init", "?x")),)),
        Rule(Atom(("true", "?x")), (Atom(("next", "?x")),)),
        Rule(Atom(("does", "?r", "?a")), (Atom(("legal", "?r", "?a")),)),
    ]
    rules = relaxed_rules + feedback
    sizes = {relation: len(facts.known) for relation, facts in static_model.items()}
    program = Program(rules, DependencyGraph(rules).components, sizes)
    return program.evaluate(dict(static_model), budget=budget, max_facts=max_facts)


def _refuse_many_actions(rules: list[Rule], model: Model, most: int) -> None:
    """TooLarge if the relaxed game has more than `most` legal actions, naming the `legal`
    rule that matches most of them."""
    legal = _known(model, "legal")
    if len(legal) <= most:
        return
    counts = [
        (sum(_matches(rule.head.args, args, {}) for args in legal), rule)
        for rule in rules
        if rule.head.relation == "legal"
    ]
    count, rule = max(counts, key=lambda pair: pair[0])
    where = f"{rule.position}: " if rule.position else ""
    raise TooLarge(
        f"{where}grounding stopped: the game has up to {len(legal):,} legal actions, more "
        f"than {most:,} fit in a ground game (this rule's head matches {count:,} of them)"
    )


def _matches(pattern: Term, term: Term, bound: dict[str, Term]) -> bool:
    """Whether the ground `term` is an instance of `pattern`, its variables bound so far as
    in `bound` (which the match extends)."""
    if is_variable(pattern):
        return bound.setdefault(pattern, term) == term
    if isinstance(pattern, str):
        return pattern == term
    return (
        isinstance(term, tuple)
        and len(term) == len(pattern)
        and all(_matches(p, t, bound) for p, t in zip(pattern, term, strict=True))
    )


InstanceFacts = list[tuple[Rule, set[tuple]]]
"""Dynamic rules, each with the facts of its instance rule (see _instance_rules)."""


def _instance_facts(
    eliminations: list[tuple[Rule, list[Rule]]],
    model: Model,
    static: set[str],
    budget: Budget,
    max_instances: int,
) -> InstanceFacts:
    """Each dynamic rule (or the rules that eliminate its variables, see _cheaper_form) with
    the facts of its instance rule, in the order of the rules. TooLarge past
    `max_instances` instances in all, or before a rule estimated at ESTIMATE_FACTOR times as
    many bindings."""
    chosen: list[InstanceFacts] = [[] for _ in eliminations]
    plain = []
    left = max_instances
    for number, (rule, pieces) in enumerate(eliminations):
        if len(pieces) == 1:
            plain.append(number)
            continue
        chosen[number] = _cheaper_form(rule, pieces, model, static, budget, left, max_instances)
        left -= sum(len(facts) for _, facts in chosen[number])
    rules = [eliminations[number][0] for number in plain]
    found = _evaluate_instances(rules, model, static, budget, left, max_instances)
    for number, rule, facts in zip(plain, rules, found, strict=True):
        chosen[number] = [(rule, facts)]
    return [pair for pairs in chosen for pair in pairs]


def _cheaper_form(
    rule: Rule,
    pieces: list[Rule],
    model: Model,
    static: set[str],
    budget: Budget,
    most: int,
    max_instances: int,
) -> InstanceFacts:
    """The rule or the rules that eliminate its variables, whichever is smaller in the
    relaxed model (the pieces' auxiliary facts and instances against the rule's instances;
    the pieces where they are fewer than half), with their instance facts. Both are tried up
    to a bound that grows fourfold, and once one finishes the other only up to the size that
    would make it the better, so a rule too big to ground is never enumerated and the work
    stays within a few times that of the smaller form. TooLarge where neither fits in `most`
    instances."""
    auxiliary = sum(len(_known(model, piece.head.relation)) for piece in pieces[:-1])

    def attempt(rules: list[Rule], limit: int) -> list[set[tuple]] | None:
        try:
            return _evaluate_instances(rules, model, static, budget, limit, max_instances)
        except TooLarge:
            return None

    bound = START_BOUND
    while True:
        limit = min(bound, most)
        parts = attempt(pieces, limit)
        if parts is not None:
            whole = attempt([rule], 2 * (auxiliary + sum(map(len, parts))))
            break
        if limit == most:  # the rule's own TooLarge names it
            whole = _evaluate_instances([rule], model, static, budget, most, max_instances)
            break
        whole = attempt([rule], limit)
        if whole is not None:
            parts = attempt(pieces, len(whole[0]) // 2 - auxiliary)
            break
        bound *= 4
    if parts is not None and (
        whole is None or 2 * (auxiliary + sum(map(len, parts))) < len(whole[0])
    ):
        return list(zip(pieces, parts, strict=True))
    return [(rule, whole[0])]


def _dead_rules(chosen: InstanceFacts, written: Sequence[Rule]) -> tuple[str, ...]:
    """The rules of the sheet (`written`), as "position: rule", that fire in no reachable
    state where legal, next, terminal or goal ask for them: none of the rule's pieces (its
    `or` branches, under the auxiliary rules that split it) has an instance that the
    outputs ask for in the relaxed game, which every reachable state is part of."""
    fired: dict[str, bool] = {}
    for rule, facts in chosen:
        if rule.position and not rule.head.relation.startswith("#"):  # '#': auxiliary
            where = str(rule.position)
            fired[where] = fired.get(where, False) or bool(facts)
    return tuple(
        f"{rule.position}: {rule}"
        for rule in written
        if rule.position and fired.get(str(rule.position)) is False
    )


def _evaluate_instances(
    rules: list[Rule],
    model: Model,
    static: set[str],
    budget: Budget,
    max_instances: int,
    max_estimate_instances: int,
) -> list[set[tuple]]:
    """The facts of each rule's instance rule in the relaxed model; TooLarge past
    `max_instances` of them in all, or before a rule estimated at more than ESTIMATE_FACTOR
    times `max_estimate_instances` bindings."""
    instance_rules = [
        Rule(_instance_head(number, rule, static), _relaxed(rule, static).body, rule.position)
        for number, rule in enumerate(rules)
    ]
    program = Program(
        instance_rules,
        [frozenset({r.head.relation}) for r in instance_rules],
        {relation: len(facts.known) for relation, facts in model.items()},
    )
    found = program.evaluate(
        dict(model),
        budget=budget,
        max_facts=max(0, max_instances),
        max_estimate=ESTIMATE_FACTOR * max_estimate_instances,
    )
    return [_known(found, rule.head.relation) for rule in instance_rules]


def _instance_head(number: int, rule: Rule, static: set[str]) -> Atom:
    """The head of the rule's instance rule (its relaxed body under this head): the rule's
    head arguments, then the arguments of its dynamic literals. Its facts are the rule's
    instances, with the bindings that differ only in static variables already merged."""
    dynamic = _dynamic_literals(rule, static)
    return Atom(
        (
            f"#instance{number}",
            *rule.head.args,
            *(arg for _, atom in dynamic for arg in atom.args),
        )
    )


def _dynamic_literals(rule: Rule, static: set[str]) -> list[tuple[bool, Atom]]:
    """The rule's literals whose truth changes with the state, each as (positive?, atom)."""
    return [
        (not isinstance(literal, Not), unnegated(literal))
        for literal in rule.body
        if not _is_static_literal(literal, static)
    ]


def _instances(
    chosen: InstanceFacts, model: Model, static: set[str], budget: Budget
) -> dict[Term, list[list[GroundLiteral]]]:
    """For every ground dynamic atom, the bodies (dynamic literals only) of its instances."""
    bodies: dict[Term, list[list[GroundLiteral]]] = {}
    texts = _Texts()
    for rule, facts in chosen:
        arity = len(rule.head.args)
        literals = _literal_places(_dynamic_literals(rule, static), arity, model)
        for count, args in enumerate(
            sorted(facts, key=lambda args: tuple(map(texts.__getitem__, args)))
        ):
            if count % CHECK_EVERY == 0:
                budget.check()
            body = []
            for positive, relation, start, stop, holding in literals:
                part = args[start:stop]
                if positive or part in holding:  # a negated atom that never holds is true
                    body.append((positive, (relation, *part) if stop > start else relation))
            bodies.setdefault(
                (rule.head.relation, *args[:arity]) if arity else rule.head.relation, []
            ).append(body)
    return bodies


def _literal_places(
    dynamic: list[tuple[bool, Atom]], start: int, model: Model
) -> list[tuple[bool, str, int, int, set[tuple]]]:
    """Where each dynamic literal's arguments sit in an instance fact (from `start` on): per
    literal its sign, relation, first and end place, and the facts of the relation in the
    relaxed model (a negated atom outside them is true in every reachable state)."""
    places = []
    for positive, atom in dynamic:
        stop = start + len(atom.args)
        places.append((positive, atom.relation, start, stop, _known(model, atom.relation)))
        start = stop
    return places


def _is_static_literal(literal, static: set[str]) -> bool:
    """Whether the literal's truth is settled when the instance is enumerated."""
    atom = unnegated(literal)
    return isinstance(atom, Distinct) or atom.relation in static


def _build(
    name: str,
    initial: set[Term],
    model: Model,
    actions_of: dict[str, tuple[Term, ...]],
    instances: dict[Term, list[list[GroundLiteral]]],
    budget: Budget,
) -> TransitionSystem:
    circuit = Circuit()
    fluents = tuple(sorted((args[0] for args in _known(model, "true")), key=term_text))
    fluent_nodes = tuple(circuit.input(("true", fluent)) for fluent in fluents)
    roles, actions = tuple(actions_of), tuple(actions_of.values())
    action_nodes = tuple(
        tuple(circuit.input(("does", role, action)) for action in role_actions)
        for role, role_actions in zip(roles, actions, strict=True)
    )
    literal_of: dict[Term, int] = {
        ("true", f): n for f, n in zip(fluents, fluent_nodes, strict=True)
    }
    for role, role_actions, nodes in zip(roles, actions, action_nodes, strict=True):
        literal_of.update({("does", role, a): n for a, n in zip(role_actions, nodes, strict=True)})
    outputs = [atom for atom in instances if _relation(atom) in OUTPUTS]
    for number, component in enumerate(_components(outputs, instances)):
        if number % CHECK_EVERY == 0:
            budget.check()
        _define(circuit, component, instances, literal_of, budget)

    def output(atom: Term) -> int:
        return literal_of.get(atom, FALSE)

    goals: tuple[dict[Term, int], ...] = tuple({} for _ in roles)
    for atom in outputs:
        if _relation(atom) == "goal" and atom[1] in roles:
            value = atom[2]
            key = int(value) if isinstance(value, str) and value.isdigit() else value
            goals[roles.index(atom[1])][key] = output(atom)
    return TransitionSystem(
        name=name,
        roles=roles,
        circuit=circuit,
        fluents=fluents,
        fluent_nodes=fluent_nodes,
        initial=frozenset(i for i, fluent in enumerate(fluents) if fluent in initial),
        actions=actions,
        action_nodes=action_nodes,
        legal=tuple(
            tuple(output(("legal", role, a)) for a in role_actions)
            for role, role_actions in zip(roles, actions, strict=True)
        ),
        next=tuple(output(("next", fluent)) for fluent in fluents),
        terminal=output("terminal"),
        goals=goals,
        derived={
            atom: literal
            for atom, literal in literal_of.items()
            if _relation(atom) not in ("true", "does")
        },
    )


def _define(
    circuit: Circuit,
    component: list[Term],
    instances: dict[Term, list[list[GroundLiteral]]],
    literal_of: dict[Term, int],
    budget: Budget,
) -> None:
    """Give every atom of a component its literal: the OR of its instances' bodies. A cyclic
    component is unfolded once per atom; OutOfBudget or TooLarge stop it."""
    members = set(component)
    cyclic = len(component) > 1 or any(
        atom in members for body in instances[component[0]] for _, atom in body
    )
    if cyclic:
        literal_of.update({atom: FALSE for atom in component})
    for _ in range(len(component) if cyclic else 1):
        budget.check()
        if len(circuit) > MAX_GATES:
            raise TooLarge(
                f"the ground circuit would exceed {MAX_GATES:,} gates (unfolding the recursive "
                f"relation {_relation(component[0])}, {len(component)} atoms)"
            )
        values = {
            atom: circuit.disj(
                circuit.conj(
                    literal_of.get(atom, FALSE) if positive else -literal_of.get(atom, FALSE)
                    for positive, atom in body
                )
                for body in instances[atom]
            )
            for atom in component
        }
        if all(literal_of.get(atom) == values[atom] for atom in component):
            break
        literal_of.update(values)


def _components(
    outputs: list[Term], instances: dict[Term, list[list[GroundLiteral]]]
) -> list[list[Term]]:
    """The strongly connected components of the atoms the outputs depend on, dependencies
    first."""

    def successors(atom: Term) -> list[Term]:
        return [a for body in instances.get(atom, ()) for _, a in body if a in instances]

    return strongly_connected_components(outputs, successors)


def _relation(atom: Term) -> str:
    return atom if isinstance(atom, str) else atom[0]


def _known(model: Model, relation: str) -> set[tuple]:
    found = model.get(relation)
    return set() if found is None else found.known


class _Texts(dict):
    """The canonical text of each ground term looked up, computed once: a sort key that
    builds the circuit in the same order in every process (set order depends on the hash
    seed)."""

    def __missing__(self, term: Term) -> str:
        text = self[term] = term_text(term)
        return text
