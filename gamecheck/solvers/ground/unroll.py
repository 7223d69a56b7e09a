"""A transition system unrolled over time steps: what the CNF and CP-SAT encodings share.

Layer t holds the state after t steps. A layer is built whole when something asks for one
of its nodes (solvers/ground/layers.py); constants fold away (the initial state is known, so
much of the first layers is), and an action that is not legal at a layer is the constant
False. A fluent at layer t+1 is the literal of its `next` definition at layer t: no variable
of its own. The conditions of queries, made later, are instantiated on top, one gate at a
time, gates with the same inputs sharing one variable.

`alive(t)` says the line of play is still going at layer t: every earlier state was
non-terminal and every role took exactly one legal action in it. `find` asks whether some
layer in a range is alive and satisfies a condition (a circuit literal over fluents).

With `free_start`, layer 0 is any state at all (its fluents are free variables): that is
how invariants are proved by induction (solvers/ground/invariants.py). Proved invariants, once
given to `use_invariants`, constrain every layer a query touches. With `frozen` fluents,
every step keeps them: a layer takes their literals from the layer before (so that what
depends on them alone is the same gate again), and the step's `next` of each must agree.

Backends supply the variables and constraints: `new_variable`, `_define_and`, `_clause`,
`_exactly_one_if`, `_linear_if` and `_solve`; a backend that can make many variables and
gates at once also overrides `_new_variables` and `_define_ands` (the CNF one does).
Literals are ints (negative for negation) or constants (solvers/sat.py). Every solver call
takes the command's Budget and raises OutOfBudget when it ends first.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from gamecheck.budget import Budget
from gamecheck.gdl.terms import term_text
from gamecheck.solvers.ground.circuit import TRUE
from gamecheck.solvers.ground.layers import CONSTANT, Level, decode, fold_gates, read
from gamecheck.solvers.ground.transition import TransitionSystem
from gamecheck.solvers.sat import Lit, count_in_unary, holds, merge_unary, negate, shared_and

ENCODE_CHECK_EVERY = 4096
"""Nodes instantiated between two looks at the budget."""
RANKING_ENCODING = 500_000
"""The most terms x bound that the layers' ranking constraints may add up to (a count of
800 fluents that is 150 or more is some 185,000 clauses a layer); later layers go without:
they only help the solver, as the invariants they follow from do."""


@dataclass(frozen=True)
class Line:
    """A line of play found by a solver: the joint actions (action indexes in role order)
    of each step, ending in the layer that satisfied the query."""

    steps: tuple[tuple[int, ...], ...]

    @property
    def depth(self) -> int:
        return len(self.steps)


class Unrolling(ABC):
    """Lazily instantiated layers of a transition system in one solver model."""

    name: str

    def __init__(
        self,
        system: TransitionSystem,
        *,
        free_start: bool = False,
        record: bool = False,
        frozen: Sequence[int] = (),
    ):
        self.system = system
        self.free_start = free_start
        self.frozen = np.array(sorted(frozen), dtype=np.int64)
        """The fluents (indexes) that no step of a line changes."""
        self.record = record
        """Keep a name for every variable that stands for a fact, an action or a query, and
        a note for every solver call (for the exports)."""
        self.labels: dict[int, str] = {}
        self.question = ""
        """What the queries being asked are for; the caller sets it (recorded in notes)."""
        self.budget = Budget()
        """The budget of the encoding: building layers of a big circuit takes a while, so
        the caller sets the budget of the question it asks (OutOfBudget stops the build)."""
        self._built = 0
        self.plan = system.layer_plan
        self._codes: list[np.ndarray] = []
        """Per built layer, the code of every planned node (solvers/ground/layers.py)."""
        self._goal_layers: set[int] = set()
        """The layers whose codes include those of the goals' nodes."""
        self.layers: list[dict[int, Lit]] = []
        """Per layer, the literals of the nodes made after the plan (query conditions)."""
        self._gates: dict[tuple[int, ...], int] = {}
        self._counts: dict[tuple[Lit, ...], list[Lit]] = {}
        """Per list of literals, their count in unary (`count`)."""
        self._alive: list[Lit] = [True]
        self.invariants = None
        self._constrained_layers = 0
        self._ranking_encoding = 0

    # -- what a backend supplies -------------------------------------------------------------
    @abstractmethod
    def new_variable(self) -> int:
        """A fresh variable (a positive int)."""

    @abstractmethod
    def _define_and(self, gate: int, literals: tuple[int, ...]) -> None:
        """Constrain `gate` to equal the AND of `literals`."""

    @abstractmethod
    def _clause(self, literals: list[int]) -> None:
        """Constrain at least one of `literals` (never empty) to hold."""

    @abstractmethod
    def _exactly_one_if(self, condition: int, literals: list[int]) -> None:
        """At most one of `literals`, and if `condition` holds exactly one."""

    @abstractmethod
    def _linear_if(
        self, condition: int | None, terms: list[tuple[int, int]], low: int, high: int
    ) -> None:
        """If `condition` holds (always, when None): low <= sum of weights of the true
        literals <= high. Weights are positive, literals never constants."""

    @abstractmethod
    def _solve(self, assumptions: list[int], budget: Budget, note: str) -> Container[int] | bool:
        """A model (its true variables: `v in model`), False if there is none; OutOfBudget if
        the budget ends first. The assumptions hold only for this call; `note` says what the
        call asks (recorded with it when recording)."""

    def _new_variables(self, count: int) -> np.ndarray:
        """`count` fresh variables."""
        return np.array([self.new_variable() for _ in range(count)], dtype=np.int64)

    def _define_ands(self, gates: np.ndarray, inputs: np.ndarray, counts: np.ndarray) -> None:
        """Constrain each gate to equal the AND of its inputs (`inputs` flattened, `counts`
        of them per gate)."""
        start = 0
        for gate, count in zip(gates.tolist(), counts.tolist(), strict=True):
            self._define_and(gate, tuple(inputs[start : start + count].tolist()))
            start += count

    def _retire(self, query: int) -> None:  # noqa: B027 (most backends need do nothing)
        """A query's switch will not be used again (the CNF backend fixes it to false, so
        that what the solver learned stays small)."""

    @abstractmethod
    def size(self) -> dict[str, int]:
        """Variables and clauses (or constraints) so far."""

    # -- instantiation -------------------------------------------------------------------
    def literal(self, circuit_literal: int, t: int) -> Lit:
        """The solver literal of a circuit literal at layer t."""
        value = self._node(abs(circuit_literal), t)
        return value if circuit_literal > 0 else negate(value)

    def _layer(self, t: int) -> dict[int, Lit]:
        while len(self.layers) <= t:
            self.layers.append({TRUE: True})
        return self.layers[t]

    def _node(self, node: int, t: int) -> Lit:
        if self.plan.covers(node):
            return decode(self._layer_codes(t)[node])
        if self.plan.covers_goal(node):
            return decode(self._goal_codes(t)[node])
        layer = self._layer(t)
        children = self.system.circuit.children
        stack = [node]
        while stack:
            current = stack[-1]
            if current in layer:
                stack.pop()
                continue
            inputs = [abs(child) for child in children[current]]
            missing = [
                n
                for n in inputs
                if n not in layer and not self.plan.covers(n) and not self.plan.covers_goal(n)
            ]
            if missing:
                stack.extend(missing)
                continue
            layer[current] = self.conjunction(self.literal(c, t) for c in children[current])
            stack.pop()
            self._built += 1
            if self._built % ENCODE_CHECK_EVERY == 0:
                self.budget.check()
        return layer[node]

    def _layer_codes(self, t: int) -> np.ndarray:
        """The codes of the planned nodes at layer t (the layers up to t built first)."""
        while len(self._codes) <= t:
            self._codes.append(self._build_layer(len(self._codes)))
        return self._codes[t]

    def _build_layer(self, t: int) -> np.ndarray:
        """Every planned node at layer t, level by level (OutOfBudget if the budget ends
        first: the variables made so far are then left unused)."""
        plan = self.plan
        codes = np.zeros(plan.size, dtype=np.int64)
        codes[TRUE] = CONSTANT
        if t > 0:
            codes[plan.fluent_nodes] = read(self._codes[t - 1], plan.next)
            self._freeze(codes, self._codes[t - 1])
        elif self.free_start:
            codes[plan.fluent_nodes] = self._new_variables(len(plan.fluent_nodes))
            self._label(codes, plan.fluent_nodes, t)
        else:
            codes[plan.fluent_nodes] = plan.initial
        self._build_levels(codes, plan.levels, self._codes[t - 1] if t > 0 else None, t)
        return codes.astype(np.int32)

    def _freeze(self, codes: np.ndarray, previous: np.ndarray) -> None:
        """Give the frozen fluents their codes of the layer before, each equal to what the
        step makes of it."""
        nodes = self.plan.fluent_nodes[self.frozen]
        for kept, stepped in zip(previous[nodes].tolist(), codes[nodes].tolist(), strict=True):
            kept, stepped = decode(kept), decode(stepped)
            self.add_clause([negate(kept), stepped])
            self.add_clause([kept, negate(stepped)])
        codes[nodes] = previous[nodes]

    def _goal_codes(self, t: int) -> np.ndarray:
        """Layer t's codes, with those of the goals' nodes built first."""
        codes = self._layer_codes(t)
        if t not in self._goal_layers:
            previous = self._codes[t - 1] if t - 1 in self._goal_layers else None
            self._build_levels(codes, self.plan.goal_levels, previous, t)
            self._goal_layers.add(t)
        return codes

    def _build_levels(self, codes, levels: list[Level], previous, t: int) -> None:
        """Fill in the codes of the levels' nodes at layer t, given those of the layer
        before (None if it does not have them)."""
        for level in levels:
            self.budget.check()
            if len(level.gates):
                left, inputs, counts = fold_gates(codes, level, previous)
                gates = self._new_variables(len(counts))
                codes[level.gates[left]] = gates
                self._define_ands(gates, inputs, counts)
            if len(level.actions):
                self._add_actions(codes, level, t)

    def _add_actions(self, codes: np.ndarray, level: Level, t: int) -> None:
        """An action is false where it cannot be legal, else a variable implying legality."""
        legal = read(codes, level.legal)
        possible = legal != -CONSTANT
        codes[level.actions[~possible]] = -CONSTANT
        does = self._new_variables(int(possible.sum()))
        codes[level.actions[possible]] = does
        for variable, legality in zip(does.tolist(), legal[possible].tolist(), strict=True):
            if legality != CONSTANT:
                self._clause([-variable, legality])
        self._label(codes, level.actions[possible], t)

    def _label(self, codes: np.ndarray, nodes: np.ndarray, t: int) -> None:
        """Name the variables of fluent and action nodes, when recording."""
        if not self.record:
            return
        system = self.system
        for node in nodes.tolist():
            if node in system.node_fluent:
                label = f"true {term_text(system.fluents[system.node_fluent[node]])}"
            else:
                role, action = system.node_action[node]
                label = f"does {system.roles[role]} {system.action_text(role, action)}"
            self.labels[int(codes[node])] = f"{label} @{t}"

    def _named(self, label: str) -> int:
        """A new variable, remembered under `label` when recording."""
        variable = self.new_variable()
        if self.record:
            self.labels[variable] = label
        return variable

    def conjunction(self, literals: Iterable[Lit]) -> Lit:
        """A literal equal to the AND of `literals`, with constants folded."""
        return shared_and(self._gates, literals, self._new_gate)

    def turned(self, circuit_literal: int, end: int, *, rising: bool, start: int = 0) -> Lit:
        """The circuit literal is false at layer `start` and true at layer `end` (rising),
        or true and then false (falling)."""
        before, after = self.literal(circuit_literal, start), self.literal(circuit_literal, end)
        if rising:
            return self.conjunction([negate(before), after])
        return self.conjunction([before, negate(after)])

    def _new_gate(self, inputs: tuple[int, ...]) -> int:
        gate = self.new_variable()
        self._define_and(gate, inputs)
        return gate

    def add_clause(self, clause: Sequence[Lit]) -> None:
        """Constrain one literal of the clause to hold (a true constant satisfies it)."""
        if any(literal is True for literal in clause):
            return
        kept = [literal for literal in clause if literal is not False]
        self._clause(kept)

    def count(self, literals: Sequence[Lit]) -> list[Lit]:
        """How many of `literals` hold, in unary: x[j] holds exactly where more than j do.
        Built once per list of literals."""
        key = tuple(literals)
        if key not in self._counts:
            self._counts[key] = count_in_unary(literals, self.new_variable, self.add_clause)
        return self._counts[key]

    def merge(self, a: Sequence[Lit], b: Sequence[Lit]) -> list[int]:
        """The sum of two numbers in unary (x[j]: more than j), in unary: fresh literals,
        their clauses both ways."""
        return merge_unary(a, b, self.new_variable, self.add_clause)

    def xor(self, a: Lit, b: Lit) -> Lit:
        """A literal that holds where exactly one of `a` and `b` does."""
        if isinstance(a, bool):
            return negate(b) if a else b
        if isinstance(b, bool):
            return negate(a) if b else a
        either = self.new_variable()
        for clause in ([-either, a, b], [-either, -a, -b], [either, -a, b], [either, a, -b]):
            self._clause(clause)
        return either

    def odd(self, literals: Iterable[Lit]) -> Lit:
        """A literal that holds where an odd number of `literals` do (a chain of XORs)."""
        return functools.reduce(self.xor, literals, False)

    def add_parity(self, parity, t: int, condition: Lit = True) -> None:
        """If `condition` holds: the parity (solvers/ground/parities.py) at layer t."""
        nodes = self.system.fluent_nodes
        odd = self.odd(self.literal(nodes[i], t) for i in parity.fluents)
        self.add_clause([negate(condition), odd if parity.odd else negate(odd)])

    def add_linear(
        self, terms: Iterable[tuple[int, Lit]], low: int, high: int, condition: Lit = True
    ) -> None:
        """If `condition` holds: low <= sum of the weights of the true literals <= high."""
        if condition is False:
            return
        kept = []
        for weight, literal in terms:
            if weight < 0:  # w*l == w + (-w)*(not l)
                weight, literal = -weight, negate(literal)
                low, high = low + weight, high + weight
            if literal is True:
                low, high = low - weight, high - weight
            elif literal is not False and weight:
                kept.append((weight, literal))
        total = sum(weight for weight, _ in kept)
        if low > total or high < 0 or low > high:
            self.add_clause([negate(condition)])
        elif low > 0 or high < total:
            self._linear_if(None if condition is True else condition, kept, low, high)

    def add_balance(self, balance, t: int, condition: Lit = True) -> None:
        """If `condition` holds: the balance's sum at layer t is its start (a balance of
        solvers/ground/invariants.py, written as its `sums`, or as the counts its register
        pins)."""
        if balance.pinned is not None:
            counted = self.count([self.literal(literal, t) for literal in balance.counted])
            for literal, count in balance.pinned:
                where = negate(self.conjunction([condition, self.literal(literal, t)]))
                self.add_clause([where, reaches(counted, count)])
                self.add_clause([where, negate(reaches(counted, count + 1))])
            return
        for literal, terms, total in balance.sums:
            where = (
                condition
                if literal is None
                else self.conjunction([condition, self.literal(literal, t)])
            )
            terms = [(weight, self.literal(lit, t)) for weight, lit in terms]
            self.add_linear(terms, total, total, condition=where)

    def use_invariants(self, invariants) -> None:
        """Constrain every layer with proved invariants (solvers/ground/invariants.Invariants)."""
        self.invariants = invariants

    def _constrain_layers(self, last: int) -> None:
        """Add the invariants to every layer up to `last` that does not have them yet,
        for lines of play that reach the layer."""
        while self.invariants is not None and self._constrained_layers <= last:
            t = self._constrained_layers
            self._constrained_layers += 1
            alive = self._alive[t]  # layers past the end of play need not satisfy them
            for invariant in self.invariants.state:
                self.add_clause([negate(alive), self.literal(invariant.literal, t)])
            for balance in self.invariants.balances:
                if self.free_start or not balance.constant:
                    self.add_balance(balance, t, alive)
            if self.free_start:  # a counter needs the depth, which a free start does not know
                for parity in self.invariants.parities:  # lines of play keep them anyway
                    self.add_parity(parity, t, alive)
                self._functional_dependencies(t)
                continue
            self._depth_constraints(t, t, alive, exact=True)

    def _functional_dependencies(self, t: int) -> None:
        """Constrain layer t with the functional dependencies (true in any state).
        States only, not lines of play: nonogram's 929 made its 78-step line take 47 s, not
        3 s."""
        for functional in self.invariants.functional:
            terms = [(1, self.literal(literal, t)) for literal in functional.literals]
            self.add_linear(terms, int(functional.total), 1)

    def _depth_constraints(self, t: int, depth: int, condition: Lit, *, exact: bool) -> None:
        """If `condition` holds, layer t is a state `depth` steps into the game (at least
        that deep, unless `exact`) by the counters and the ranking (and, `exact`, by the
        limits)."""
        for counter in self.invariants.counters:
            if counter.clock:  # one number holds: the depth's
                least = counter.start + depth
                numbers = [lit for w, lit in counter.terms if w == least or w > least and not exact]
                self.add_clause([negate(condition), *(self.literal(lit, t) for lit in numbers)])
                continue
            terms = [(w, self.literal(lit, t)) for w, lit in counter.terms]
            most = sum(abs(w) for w, _ in terms) + abs(counter.start)
            high = counter.start + depth if exact else most
            self.add_linear(terms, counter.start + depth, high, condition=condition)
        ranking = self.invariants.ranking
        if ranking is not None and ranking.least(depth) > ranking.most:
            self.add_clause([negate(condition)])  # no state is that deep
        elif ranking is not None and self._ranking_fits(ranking, depth, exact):
            terms = [(w, self.literal(lit, t)) for w, lit in ranking.terms]
            unbounded = sum(abs(w) for w, _ in terms)  # the largest is the invariants' concern
            self.add_linear(terms, ranking.least(depth), unbounded, condition=condition)
        for limit in self.invariants.limits if exact else ():
            terms = [(1, self.literal(lit, t)) for lit in limit.literals]
            self.add_linear(terms, *limit.bounds(depth), condition=condition)

    def _ranking_fits(self, ranking, depth: int, layer: bool) -> bool:
        """Whether a layer's ranking constraint at `depth` stays within RANKING_ENCODING
        with those before it (a single state's, not `layer`, always does)."""
        if not layer:
            return True
        self._ranking_encoding += len(ranking.terms) * max(ranking.least(depth), 0)
        return self._ranking_encoding <= RANKING_ENCODING

    def state_possible(self, condition: int, budget: Budget, *, from_depth: int = 0) -> bool:
        """With a free start: whether some state that satisfies the invariants satisfies
        `condition` (and, from_depth > 0, is at least that deep by the counters and the
        ranking). False proves that no reachable state does."""
        self._constrain_layers(0)
        assumptions = [self.literal(condition, 0)]
        if from_depth > 0:
            switch = self.new_variable()
            self._depth_constraints(0, from_depth, switch, exact=False)
            assumptions.append(switch)
        return self.satisfiable(assumptions, budget) is not False

    def inductive(self, condition: int, k: int, budget: Budget) -> bool:
        """With a free start: whether no line of k steps through states (satisfying the
        invariants) that do not satisfy `condition` reaches one that does. True, together
        with no such state reachable in fewer than k steps, proves that no reachable state
        satisfies it (k-induction)."""
        path = [negate(self.literal(condition, t)) for t in range(k)]
        assumptions = [self.alive(k), self.literal(condition, k), *path]
        return self.satisfiable(assumptions, budget) is False

    def satisfiable(self, literals: Sequence[Lit], budget: Budget):
        """A model (its set of true variables, maybe empty) in which all `literals` hold, or
        False if there is none: compare with `is`. OutOfBudget if the budget ends first."""
        if any(literal is False for literal in literals):
            return False
        assumptions = [lit for lit in literals if lit is not True]
        return self._solve(assumptions, budget, self.question)

    # -- lines of play -------------------------------------------------------------------
    def does(self, role: int, action: int, t: int) -> Lit:
        return self._node(self.system.action_nodes[role][action], t)

    def initial_state(self) -> list[Lit]:
        """Assumptions that make layer 0 the initial state (on a free start)."""
        initial = self.system.initial
        return [
            self.literal(node if index in initial else -node, 0)
            for index, node in enumerate(self.system.fluent_nodes)
        ]

    def alive(self, t: int) -> Lit:
        """Whether the line of play reaches layer t (constrains the steps before t)."""
        while len(self._alive) <= t:
            self._add_step(len(self._alive) - 1)
        self._constrain_layers(t)
        return self._alive[t]

    def _add_step(self, t: int) -> None:
        """Constrain step t (from layer t to t+1) and define alive(t+1)."""
        alive = self._named(f"alive @{t + 1}")
        self.add_clause([-alive, self._alive[t]])
        self.add_clause([-alive, negate(self.literal(self.system.terminal, t))])
        for role, actions in enumerate(self.system.actions):
            possible = [self.does(role, a, t) for a in range(len(actions))]
            possible = [does for does in possible if does is not False]
            if not possible:
                self.add_clause([-alive])
            elif any(does is True for does in possible):
                self.add_clause([-does for does in possible if does is not True] or [True])
            else:
                self._exactly_one_if(alive, possible)
        self._alive.append(alive)

    def find(self, condition: int, depths: Iterable[int], budget: Budget) -> Line | None:
        """A line of play to a layer in `depths` that is alive and satisfies `condition`,
        or None if there is none (proved); OutOfBudget if the budget ends first."""
        query = OpenQuery(self, condition, depths, budget)
        try:
            found = query.next(budget)
        finally:
            query.close()
        return None if found is None else found[0]

    def line_from(
        self, state: Sequence[bool], condition: int, steps: int, budget: Budget
    ) -> Line | None:
        """With a free start: a line of play of `steps` steps from `state` (a value per
        fluent) to a layer that is alive and satisfies `condition`, or None if there is
        none from that state (proved); OutOfBudget if the budget ends first."""
        start = [
            self.literal(node, 0) if value else negate(self.literal(node, 0))
            for node, value in zip(self.system.fluent_nodes, state, strict=True)
        ]
        ending = [self.alive(steps), self.literal(condition, steps)]
        model = self.satisfiable([*ending, *start], budget)
        if model is False:
            return None
        return Line(tuple(self._joint(t, model) for t in range(steps)))

    def lasso(self, depths: Iterable[int], budget: Budget) -> tuple[Line, int] | None:
        """A line of play of k steps (k in `depths`, tried in order) through non-terminal
        states whose last state is the one after some step j < k, with that j; None if
        there is none at any of those depths (proved). Its steps j+1..k can repeat forever:
        the game need not end."""
        fluents = self.system.fluent_nodes
        for k in depths:
            alive = self.alive(k)
            same = [self.new_variable() for _ in range(k)]
            for j, equal in enumerate(same):  # equal -> layers j and k agree on every fluent
                budget.check()
                for node in fluents:
                    before, after = self.literal(node, j), self.literal(node, k)
                    self.add_clause([-equal, negate(before), after])
                    self.add_clause([-equal, before, negate(after)])
            switch = self.new_variable()
            self.add_clause([-switch, *same])
            try:
                model = self.satisfiable([alive, switch], budget)
            finally:
                self.add_clause([-switch])
            if model is not False:
                steps = tuple(self._joint(t, model) for t in range(k))
                return Line(steps), next(j for j, equal in enumerate(same) if equal in model)
        return None

    def _joint(self, t: int, model: Container[int]) -> tuple[int, ...]:
        return tuple(
            next(a for a in range(len(actions)) if holds(self.does(role, a, t), model))
            for role, actions in enumerate(self.system.actions)
        )


class OpenQuery:
    """The query "a line of play to a layer in `depths` that is alive and satisfies
    `condition`", kept open under one switch: `exclude` rules out more of the layers' states
    with clauses under the switch, so that each `next` finds something new while what the
    solver learned stays (enumeration). `close` retires the switch."""

    def __init__(
        self,
        unrolling: Unrolling,
        condition: int,
        depths: Iterable[int],
        budget: Budget,
        watched: Sequence[int] = (),
    ):
        self.unrolling = unrolling
        self.depths = sorted(depths)
        self.watched = tuple(watched)
        """Circuit literals whose values at the layer reached come with each line found."""
        self.hits: dict[int, Lit] = {}
        for t in self.depths:
            budget.check()  # encoding many layers of a big circuit takes a while
            hit = unrolling.conjunction([unrolling.alive(t), unrolling.literal(condition, t)])
            if hit is not False:
                self.hits[t] = hit
                for literal in self.watched:  # in every model, so their values can be read
                    unrolling.literal(literal, t)
        self.note = f"{unrolling.question}: depths {_ranges(self.depths)}"
        self.switch = unrolling._named(f"query: {self.note}") if self.hits else None
        if self.switch is not None:
            unrolling.add_clause([-self.switch, *self.hits.values()])

    def exclude(self, literals: Sequence[int]) -> None:
        """No layer of the query may satisfy all the circuit literals `literals` from now on."""
        for t, hit in self.hits.items():
            layer = [negate(self.unrolling.literal(literal, t)) for literal in literals]
            self.unrolling.add_clause([-self.switch, negate(hit), *layer])

    def next(self, budget: Budget) -> tuple[Line, tuple[bool, ...]] | None:
        """A line of play to a layer the query asks for, with the values of the watched
        literals there; None if there is none (proved); OutOfBudget if the budget ends."""
        if self.switch is None:
            return None
        model = self.unrolling._solve([self.switch], budget, self.note)
        if model is False:
            return None
        depth = next(t for t, hit in self.hits.items() if holds(hit, model))
        unrolling = self.unrolling
        line = Line(tuple(unrolling._joint(t, model) for t in range(depth)))
        values = tuple(holds(unrolling.literal(lit, depth), model) for lit in self.watched)
        return line, values

    def close(self) -> None:
        if self.switch is not None:
            self.unrolling._retire(self.switch)
            self.switch = None


def _ranges(depths: Sequence[int]) -> str:
    """Sorted depths as ranges, e.g. `0..4, 9`."""
    parts, start = [], None
    for index, depth in enumerate(depths):
        if start is None:
            start = depth
        if index + 1 == len(depths) or depths[index + 1] != depth + 1:
            parts.append(str(start) if start == depth else f"{start}..{depth}")
            start = None
    return ", ".join(parts)


BACKENDS = ("cnf", "cpsat")


def unbroken(unrolling: Unrolling, broken: dict, solve) -> list:
    """Houdini's loop: the most keys of `broken` (each with a solver literal: the key is
    broken) that no model of `solve(some, active)` breaks, where `some` says that one of
    the `active` keys is; those a model breaks are dropped, and it is asked again until
    no model is left."""
    active = list(broken)
    while active:
        some = unrolling.new_variable()
        unrolling.add_clause([-some, *(broken[key] for key in active)])
        try:
            model = solve(some, active)
        finally:
            unrolling.add_clause([-some])
        if model is False:
            break
        active = [key for key in active if not holds(broken[key], model)]
    return active


def reaches(unary: Sequence[Lit], j: int) -> Lit:
    """A literal that holds exactly where the number written in `unary` (x[i]: more
    than i) is at least j."""
    return True if j <= 0 else unary[j - 1] if j <= len(unary) else False


def make_unrolling(
    system: TransitionSystem,
    backend: str,
    *,
    sat_solver: str | None = None,
    record: bool = False,
    free_start: bool = False,
) -> Unrolling:
    """The unrolled system on a backend (`cnf` or `cpsat`; `record` keeps the CNF's clauses
    for a DIMACS export)."""
    if backend == "cpsat":
        from gamecheck.solvers.ground.unroll_cpsat import CpSatUnrolling

        return CpSatUnrolling(system, free_start=free_start, record=record)
    from gamecheck.solvers.ground.unroll_cnf import CnfUnrolling

    return CnfUnrolling(system, record=record, free_start=free_start, sat_solver=sat_solver)
