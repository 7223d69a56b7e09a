"""Forced win by SAT on the ground transition system: counterexample-guided refinement.

A second method, independent of the search in solvers/forced_win/search.py: it never calls the move
generator, only the ground circuit of the rule sheet (solvers/ground/transition.py). For a depth d:

1. candidate: one SAT problem finds actions of R for every node of a tree of the others'
   lines of play (initially the empty line), each node a copy of the ground step, such that
   every node the lines reach is a terminal state with goal(R) = 100, or is not terminal and
   above depth d. A line whose next joint action is not legal where the candidate leads is
   cut there. UNSAT: no strategy beats even these lines, so none exists within d.
2. counterexample: a second SAT problem unrolls one line of d steps in which R plays the
   candidate's action while the line stays in the tree and anything legal after it leaves,
   the others play anything legal, and the line does not end won for R. UNSAT: the candidate,
   completed by any legal action off the tree, wins within d. SAT: the others' actions of
   the line join the tree (the line leaves the tree, so the tree grows) and step 1 repeats.

The candidate problem grows by clauses only, so one incremental solver serves each depth.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from gamecheck.errors import BadTermError
from gamecheck.gdl.terms import term_text
from gamecheck.models.base import Action, Game, State
from gamecheck.solvers.forced_win.search import ForcedWin, Status, depth_bound, first_action
from gamecheck.solvers.forced_win.strategy_check import check_strategy
from gamecheck.solvers.ground.circuit import TRUE
from gamecheck.solvers.ground.transition import TransitionSystem
from gamecheck.solvers.sat import conjuncts

Lit = int | bool
"""A solver literal (negative for negation) or a constant."""
WIN = 100
SAT_SOLVER = "glucose4"


class SatTimeout(Exception):
    """The deadline passed during a SAT call."""


class _Clauses:
    """Copies of the ground circuit as Tseitin clauses in one solver: constants fold away and
    an AND of the same solver literals is one variable."""

    def __init__(self, system: TransitionSystem, deadline: float | None):
        self.system = system
        self.pool = IDPool()
        self.solver = Solver(name=SAT_SOLVER)
        self.deadline = deadline
        self._ands: dict[tuple[int, ...], int] = {}
        self._cones: dict[tuple[int, ...], list[int]] = {}

    def close(self) -> None:
        self.solver.delete()

    def variable(self) -> int:
        return self.pool.id()

    def clause(self, literals: Sequence[Lit]) -> None:
        """At least one of `literals` (constants allowed)."""
        if any(literal is True for literal in literals):
            return
        kept = [literal for literal in literals if literal is not False]
        if not kept:  # unsatisfiable: a variable and its negation
            variable = self.variable()
            kept = [variable]
            self.solver.add_clause([-variable])
        self.solver.add_clause(kept)

    def conj(self, literals: Sequence[Lit]) -> Lit:
        key = conjuncts(literals)
        if isinstance(key, bool) or len(key) == 1:
            return key if isinstance(key, bool) else key[0]
        gate = self._ands.get(key)
        if gate is None:
            gate = self._ands[key] = self.variable()
            for literal in key:
                self.solver.add_clause([-gate, literal])
            self.solver.add_clause([gate, *(-literal for literal in key)])
        return gate

    def disj(self, literals: Sequence[Lit]) -> Lit:
        return negate(self.conj([negate(literal) for literal in literals]))

    def exactly_one_if(self, condition: Lit, literals: Sequence[Lit]) -> None:
        """If `condition`, exactly one of `literals`; at most one in any case."""
        variables = [literal for literal in literals if literal is not False]
        if any(literal is True for literal in variables):
            raise AssertionError("an action variable is constant")
        self.clause([negate(condition), *variables])
        if len(variables) > 1:
            for clause in CardEnc.atmost(
                variables, 1, vpool=self.pool, encoding=EncType.seqcounter
            ):
                self.solver.add_clause(clause)

    def circuit(self, inputs: dict[int, Lit], outputs: Sequence[int]) -> list[Lit]:
        """The solver literals of circuit literals `outputs`, given the solver literals of
        input nodes (inputs not given are false)."""
        circuit = self.system.circuit
        values: dict[int, Lit] = {TRUE: True}
        for node in self._cone(tuple(outputs)):
            children = circuit.children[node]
            if not children:
                values[node] = inputs.get(node, False)
            else:
                values[node] = self.conj([_literal(values, child) for child in children])
        return [_literal(values, output) for output in outputs]

    def _cone(self, outputs: tuple[int, ...]) -> list[int]:
        cone = self._cones.get(outputs)
        if cone is None:
            nodes = self.system.circuit.cone(outputs)
            nodes.discard(TRUE)
            cone = self._cones[outputs] = sorted(nodes)
        return cone

    def solve(self, assumptions: Sequence[int] = ()) -> set[int] | None:
        """The true variables of a model, or None if there is none; SatTimeout if the
        deadline passes."""
        if self.deadline is None:
            answer = self.solver.solve(assumptions=list(assumptions))
        else:
            answer = None
            for budget in (10_000 * 2**k for k in itertools.count()):
                if time.monotonic() > self.deadline:
                    raise SatTimeout
                self.solver.conf_budget(budget)
                answer = self.solver.solve_limited(assumptions=list(assumptions))
                if answer is not None:
                    break
        if not answer:
            return None
        return {literal for literal in self.solver.get_model() if literal > 0}


def negate(literal: Lit) -> Lit:
    return not literal if isinstance(literal, bool) else -literal


def _literal(values: dict[int, Lit], literal: int) -> Lit:
    return values[literal] if literal > 0 else negate(values[-literal])


@dataclass
class _Step:
    """One copy of the ground step: the state's fluents and what they define."""

    fluents: list[Lit]
    terminal: Lit
    won: Lit
    legal: list[list[Lit]]
    """Per role, per ground action."""


class _Unrolling:
    """What both SAT problems build: state copies and their successors."""

    def __init__(self, clauses: _Clauses, role: int):
        self.clauses = clauses
        self.system = clauses.system
        self.role = role
        goal = self.system.goals[role].get(WIN, -TRUE)
        self.state_outputs = (self.system.terminal, goal, *itertools.chain(*self.system.legal))

    def step(self, fluents: list[Lit]) -> _Step:
        system = self.system
        inputs = dict(zip(system.fluent_nodes, fluents, strict=True))
        terminal, goal, *legal = self.clauses.circuit(inputs, self.state_outputs)
        per_role = []
        for actions in system.actions:
            per_role.append(legal[: len(actions)])
            legal = legal[len(actions) :]
        return _Step(fluents, terminal, self.clauses.conj([terminal, goal]), per_role)

    def successor(self, step: _Step, actions: list[list[Lit]]) -> list[Lit]:
        """The fluents after a joint action given as a literal per role and ground action."""
        system = self.system
        inputs = dict(zip(system.fluent_nodes, step.fluents, strict=True))
        for nodes, literals in zip(system.action_nodes, actions, strict=True):
            inputs.update(zip(nodes, literals, strict=True))
        return self.clauses.circuit(inputs, system.next)

    def choice(self, step: _Step, role: int, condition: Lit) -> list[Lit]:
        """Variables for `role`'s action, exactly one and legal when `condition` holds."""
        literals: list[Lit] = []
        for legal in step.legal[role]:
            if legal is False:
                literals.append(False)
                continue
            variable = self.clauses.variable()
            self.clauses.clause([-variable, legal])
            literals.append(variable)
        self.clauses.exactly_one_if(condition, literals)
        return literals


Line = tuple[tuple[int, ...], ...]
"""The others' joint actions, step by step: per other role (in role order) an action index."""


@dataclass
class _Node:
    """A node of the candidate tree: the others' line so far leads here."""

    step: _Step
    depth: int
    reach: Lit
    mine: list[Lit]
    children: dict[tuple[int, ...], _Node] = field(default_factory=dict)


@dataclass(frozen=True)
class SatStrategy:
    """R's action (a ground action index) at each node of the tree of the others' lines,
    keyed by the line that leads there; off the tree any legal action wins."""

    actions: dict[Line, int]


class _Candidates:
    """Step 1: R's actions for a growing tree of the others' lines."""

    def __init__(self, system: TransitionSystem, role: int, start: list[Lit], depth: int, deadline):
        self.clauses = _Clauses(system, deadline)
        self.unrolling = _Unrolling(self.clauses, role)
        self.role = role
        self.others = [r for r in range(len(system.roles)) if r != role]
        self.depth = depth
        self.root = self._node(start, 0, True)

    def close(self) -> None:
        self.clauses.close()

    def _node(self, fluents: list[Lit], depth: int, reach: Lit) -> _Node:
        step = self.unrolling.step(fluents)
        playing = self.clauses.conj([reach, negate(step.terminal)])
        # reached: won, or not terminal above the depth bound
        if depth == self.depth:
            self.clauses.clause([negate(reach), step.won])
        else:
            self.clauses.clause([negate(reach), step.won, negate(step.terminal)])
        mine = self.unrolling.choice(step, self.role, playing) if depth < self.depth else []
        return _Node(step, depth, reach, mine)

    def add(self, line: Line) -> None:
        node = self.root
        for joint in line:
            if node.depth == self.depth:
                return
            child = node.children.get(joint)
            if child is None:
                child = node.children[joint] = self._child(node, joint)
            node = child

    def _child(self, node: _Node, joint: tuple[int, ...]) -> _Node:
        system = self.clauses.system
        actions: list[list[Lit]] = [[] for _ in system.roles]
        actions[self.role] = node.mine
        legal = []
        for other, action in zip(self.others, joint, strict=True):
            actions[other] = [a == action for a in range(len(system.actions[other]))]
            legal.append(node.step.legal[other][action])
        reach = self.clauses.conj([node.reach, negate(node.step.terminal), *legal])
        return self._node(self.unrolling.successor(node.step, actions), node.depth + 1, reach)

    def solve(self) -> SatStrategy | None:
        model = self.clauses.solve()
        if model is None:
            return None
        actions: dict[Line, int] = {}
        stack: list[tuple[Line, _Node]] = [((), self.root)]
        while stack:
            line, node = stack.pop()
            chosen = [a for a, literal in enumerate(node.mine) if _true(model, literal)]
            if chosen:
                actions[line] = chosen[0]
            stack.extend((line + (joint,), child) for joint, child in node.children.items())
        return SatStrategy(actions)


def _true(model: set[int], literal: Lit) -> bool:
    if isinstance(literal, bool):
        return literal
    return literal in model if literal > 0 else -literal not in model


def _counterexample(
    system: TransitionSystem,
    role: int,
    start: list[Lit],
    depth: int,
    strategy: SatStrategy,
    deadline: float | None,
) -> Line | None:
    """Step 2: a line of the others on which R, playing the candidate while on the tree and
    anything legal after, does not win within `depth`; None if there is none."""
    clauses = _Clauses(system, deadline)
    try:
        unrolling = _Unrolling(clauses, role)
        others = [r for r in range(len(system.roles)) if r != role]
        step = unrolling.step(start)
        alive: Lit = True
        on_tree: dict[Line, Lit] = {(): True}
        choices = []
        for t in range(depth + 1):
            clauses.clause([negate(alive), negate(step.won)])
            if t == depth:
                break
            playing = clauses.conj([alive, negate(step.terminal)])
            actions: list[list[Lit]] = [[] for _ in system.roles]
            for r in range(len(system.roles)):
                actions[r] = unrolling.choice(step, r, playing)
            for line, on in on_tree.items():
                if line in strategy.actions:
                    clauses.clause(
                        [negate(on), negate(playing), actions[role][strategy.actions[line]]]
                    )
            choices.append([actions[r] for r in others])
            on_tree = {
                line + (joint,): clauses.conj(
                    [on, *(actions[r][a] for r, a in zip(others, joint, strict=True))]
                )
                for line, on in on_tree.items()
                for joint in _tree_children(strategy, line)
            }
            alive = playing
            step = unrolling.step(unrolling.successor(step, actions))
        model = clauses.solve()
        if model is None:
            return None
        line = []
        for per_role in choices:
            joint = tuple(
                next((a for a, lit in enumerate(literals) if _true(model, lit)), -1)
                for literals in per_role
            )
            if -1 in joint:
                break  # the line ended: a terminal state
            line.append(joint)
        return tuple(line)
    finally:
        clauses.close()


def _tree_children(strategy: SatStrategy, line: Line) -> list[tuple[int, ...]]:
    n = len(line)
    return sorted({key[n] for key in strategy.actions if len(key) > n and key[:n] == line})


class Refinement:
    """Counterexample-guided refinement for one role from one start state; counts its SAT
    calls."""

    def __init__(
        self,
        system: TransitionSystem,
        role: int,
        start: frozenset[int],
        *,
        deadline: float | None = None,
    ):
        self.system = system
        self.role = role
        self.start: list[Lit] = [i in start for i in range(len(system.fluents))]
        self.deadline = deadline
        self.calls = 0

    def won_within(self, depth: int) -> SatStrategy | None:
        """A strategy that wins within `depth` steps, or None if there is none; SatTimeout
        if the deadline (time.monotonic) passes."""
        candidates = _Candidates(self.system, self.role, self.start, depth, self.deadline)
        try:
            while True:
                self.calls += 1
                strategy = candidates.solve()
                if strategy is None:
                    return None
                self.calls += 1
                line = _counterexample(
                    self.system, self.role, self.start, depth, strategy, self.deadline
                )
                if line is None:
                    return strategy
                candidates.add(line)
        finally:
            candidates.close()


def forced_win_sat(
    game: Game,
    role: str,
    system: TransitionSystem,
    *,
    start: State | None = None,
    max_depth: int | None = None,
    time_limit: float | None = 60.0,
) -> ForcedWin:
    """The question of search.forced_win, answered on `system` (the ground rules
    of `game`) by SAT, depth by depth; a strategy found is replayed on `game` like the
    search's. `nodes` counts SAT calls."""
    clock = time.monotonic()
    game.role_index(role)  # UnknownRoleError first
    state = game.initial_state() if start is None else start
    max_depth = depth_bound(game, max_depth)
    deadline = None if time_limit is None else clock + time_limit
    refinement = Refinement(
        system,
        system.roles.index(role),
        fluents_of(system, game.state_facts(state)),
        deadline=deadline,
    )
    answer = {"game": game.name, "role": role, "max_depth": max_depth, "method": "sat"}
    searched = -1
    try:
        for depth in range(max_depth + 1):
            sat = refinement.won_within(depth)
            if sat is not None:
                strategy = state_strategy(game, system, role, state, sat, depth)
                size = check_strategy(game, role, state, strategy, depth)
                return ForcedWin(
                    **answer,
                    status=Status.FOUND,
                    depth=depth,
                    searched_depth=depth - 1,
                    first_action=first_action(game, role, state, strategy),
                    strategy_size=size,
                    nodes=refinement.calls,
                    seconds=time.monotonic() - clock,
                    strategy=strategy,
                )
            searched = depth
        status = Status.NONE
    except SatTimeout:
        status = Status.UNKNOWN
    return ForcedWin(
        **answer,
        status=status,
        depth=None,
        searched_depth=searched,
        first_action=None,
        strategy_size=None,
        nodes=refinement.calls,
        seconds=time.monotonic() - clock,
    )


def fluents_of(system: TransitionSystem, facts: frozenset[str]) -> frozenset[int]:
    """The fluent indexes of a state given as GDL facts; BadTermError naming a fact the
    ground rules never make true."""
    index = {term_text(fluent): i for i, fluent in enumerate(system.fluents)}
    unknown = sorted(fact for fact in facts if fact not in index)
    if unknown:
        raise BadTermError(f"the ground rules of {system.name} never make {unknown[0]} true")
    return frozenset(index[fact] for fact in facts)


def state_strategy(
    game: Game, system: TransitionSystem, role: str, start: State, sat: SatStrategy, depth: int
) -> dict[State, Action]:
    """The SAT strategy (keyed by the others' lines) as R's action per game state, on the
    move generator: off the tree R plays its first legal action. A state met again with fewer
    steps left takes the action of that meeting, whose continuation wins sooner."""
    position = game.roles.index(role)
    others = [r for r in game.roles if r != role]
    ground = [
        {term_text(action): i for i, action in enumerate(actions)} for actions in system.actions
    ]
    assigned: dict[State, tuple[int, Action]] = {}

    def walk(state: State, line: Line | None, remaining: int) -> None:
        if remaining == 0 or game.is_terminal(state):
            return
        known = assigned.get(state)
        if known is not None and known[0] <= remaining:
            return
        if line is not None and line in sat.actions:
            action = game.parse_action(role, system.action_text(position, sat.actions[line]))
        else:
            action, line = game.legal(state, role)[0], None
        assigned[state] = (remaining, action)
        for reply in itertools.product(*(game.legal(state, other) for other in others)):
            replies = iter(reply)
            joint = [action if r == role else next(replies) for r in game.roles]
            key = tuple(
                ground[game.roles.index(other)][game.action_text(a)]
                for other, a in zip(others, reply, strict=True)
            )
            walk(game.next(state, joint), None if line is None else line + (key,), remaining - 1)

    walk(start, (), depth)
    return {
        state: action for state, (_, action) in assigned.items() if len(game.legal(state, role)) > 1
    }
