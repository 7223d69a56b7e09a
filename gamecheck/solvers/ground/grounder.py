"""Ground a GDL rule sheet into a propositional transition system (solvers/ground/transition.py).

`ground(rules)` runs a short pipeline:
1. evaluate the static relations (those depending on neither `true` nor `does`) exactly;
2. over-approximate what can ever hold: evaluate the rules without their dynamic negations,
   with every `init` and `next` fact taken as true and every `legal` action as done;
3. enumerate the instances of every dynamic rule against that over-approximation;
4. keep only the ground atoms that `legal`, `next`, `terminal` and `goal` depend on;
5. define each kept atom in a circuit as the OR of its instances' bodies, dependencies
   first; a set of atoms that depend on each other in a cycle is unfolded as many times as
   it has atoms, which reaches the least fixpoint the Datalog semantics asks for.
"""

from __future__ import annotations

from collections.abc import Sequence

from gamecheck.budget import Budget
from gamecheck.gdl.datalog import Model, Program
from gamecheck.gdl.dependencies import DependencyGraph
from gamecheck.gdl.syntax import Atom, Distinct, Not, Rule, literal_variables, normal_rules
from gamecheck.gdl.terms import Term, term_text
from gamecheck.solvers.ground.circuit import FALSE, Circuit
from gamecheck.solvers.ground.transition import TransitionSystem

GroundLiteral = tuple[bool, Term]
"""(positive?, ground atom) of a dynamic relation: `('true', f)`, `('does', r, a)`, ..."""
OUTPUTS = ("legal", "next", "terminal", "goal")


def ground(rules: Sequence[Rule], name: str, *, budget: Budget | None = None) -> TransitionSystem:
    """The transition system of a rule sheet that passed the static checks; OutOfBudget if
    the budget ends first."""
    budget = budget or Budget()
    normal = [piece for rule in rules for piece in normal_rules(rule)]
    graph = DependencyGraph(normal)
    static = _static_relations(graph)
    static_program = Program(normal, [c for c in graph.components if c <= static])
    static_model = static_program.evaluate({})
    dynamic_rules = [rule for rule in normal if rule.head.relation not in static]
    relaxed_rules = [_relaxed(rule, static) for rule in dynamic_rules]
    roles = tuple(dict.fromkeys(r.head.args[0] for r in rules if r.head.relation == "role"))
    initial = {args[0] for args in _known(static_model, "init")}
    model = _reachable_model(relaxed_rules, static_model)
    budget.check()
    instances = _instances(dynamic_rules, relaxed_rules, model, static)
    budget.check()
    system = _build(name, roles, initial, model, instances)
    system.statistics.update(
        rule_instances=sum(len(bodies) for bodies in instances.values()),
        ground_atoms=len(instances),
    )
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


def _reachable_model(relaxed_rules: list[Rule], static_model: Model) -> Model:
    """Every dynamic atom that may hold in some reachable state: one evaluation of the
    relaxed rules with every `init` and `next` fact taken as true and every `legal` action
    as done (positive recursion through true/next/legal/does, evaluated semi-naively)."""
    feedback = [
        Rule(Atom(("true", "?x")), (Atom(("init", "?x")),)),
        Rule(Atom(("true", "?x")), (Atom(("next", "?x")),)),
        Rule(Atom(("does", "?r", "?a")), (Atom(("legal", "?r", "?a")),)),
    ]
    rules = relaxed_rules + feedback
    program = Program(rules, DependencyGraph(rules).components)
    return program.evaluate(dict(static_model))


def _instances(
    dynamic_rules: list[Rule], relaxed_rules: list[Rule], model: Model, static: set[str]
) -> dict[Term, list[list[GroundLiteral]]]:
    """For every ground dynamic atom, the bodies (dynamic literals only) of its instances."""
    instance_rules = []
    for number, rule in enumerate(relaxed_rules):
        names = list(dict.fromkeys(v for lit in rule.body for v in literal_variables(lit)))
        head = (f"#instance{number}", *names) if names else f"#instance{number}"
        instance_rules.append((Rule(Atom(head), rule.body), names))
    program = Program(
        [rule for rule, _ in instance_rules],
        [frozenset({rule.head.relation}) for rule, _ in instance_rules],
    )
    found = program.evaluate(dict(model))
    bodies: dict[Term, list[list[GroundLiteral]]] = {}
    for rule, (instance_rule, names) in zip(dynamic_rules, instance_rules, strict=True):
        for args in sorted(_known(found, instance_rule.head.relation), key=_args_text):
            binding = dict(zip(names, args, strict=True))
            head = _substitute(rule.head.term, binding)
            body = _dynamic_body(rule, binding, model, static)
            bodies.setdefault(head, []).append(body)
    return bodies


def _dynamic_body(
    rule: Rule, binding: dict[str, Term], model: Model, static: set[str]
) -> list[GroundLiteral]:
    """The ground literals of a rule instance whose truth depends on the state or actions."""
    body = []
    for literal in rule.body:
        positive = not isinstance(literal, Not)
        atom = literal if positive else literal.literal
        if isinstance(atom, Distinct) or atom.relation in static:
            continue  # already decided when the instance was enumerated
        term = _substitute(atom.term, binding)
        if not positive and not _holds_somewhere(model, term):
            continue  # the atom can never hold, so its negation always does
        body.append((positive, term))
    return body


def _build(
    name: str,
    roles: tuple[str, ...],
    initial: set[Term],
    model: Model,
    instances: dict[Term, list[list[GroundLiteral]]],
) -> TransitionSystem:
    circuit = Circuit()
    fluents = tuple(sorted((args[0] for args in _known(model, "true")), key=term_text))
    fluent_nodes = tuple(circuit.input(("true", fluent)) for fluent in fluents)
    actions = tuple(
        tuple(sorted((a for r, a in _known(model, "legal") if r == role), key=term_text))
        for role in roles
    )
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
    for component in _components(outputs, instances):
        _define(circuit, component, instances, literal_of)

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
    )


def _define(
    circuit: Circuit,
    component: list[Term],
    instances: dict[Term, list[list[GroundLiteral]]],
    literal_of: dict[Term, int],
) -> None:
    """Give every atom of a component its literal: the OR of its instances' bodies."""
    members = set(component)
    cyclic = len(component) > 1 or any(
        atom in members for body in instances[component[0]] for _, atom in body
    )
    if cyclic:
        literal_of.update({atom: FALSE for atom in component})
    for _ in range(len(component) if cyclic else 1):
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
    first (Tarjan's algorithm, iterative)."""
    index: dict[Term, int] = {}
    low: dict[Term, int] = {}
    on_stack: set[Term] = set()
    stack: list[Term] = []
    components: list[list[Term]] = []

    def successors(atom: Term) -> list[Term]:
        return [a for body in instances.get(atom, ()) for _, a in body if a in instances]

    for root in outputs:
        if root in index:
            continue
        work = [(root, iter(successors(root)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            atom, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(successors(child))))
                elif child in on_stack:
                    low[atom] = min(low[atom], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[atom])
            if low[atom] == index[atom]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == atom:
                        break
                components.append(component)
    return components


def _substitute(term: Term, binding: dict[str, Term]) -> Term:
    if isinstance(term, str):
        return binding.get(term, term)
    return tuple(_substitute(part, binding) for part in term)


def _relation(atom: Term) -> str:
    return atom if isinstance(atom, str) else atom[0]


def _known(model: Model, relation: str) -> set[tuple]:
    found = model.get(relation)
    return set() if found is None else found.known


def _args_text(args: tuple) -> tuple[str, ...]:
    """A sort key for a tuple of ground terms, so that the circuit is built in the same
    order in every process (set order depends on the hash seed)."""
    return tuple(map(term_text, args))


def _holds_somewhere(model: Model, atom: Term) -> bool:
    args = () if isinstance(atom, str) else atom[1:]
    return args in _known(model, _relation(atom))
