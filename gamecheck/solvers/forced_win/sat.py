"""Forced win by SAT on the ground transition system: counterexample-guided refinement.

A second method, independent of the search in solvers/forced_win/search.py: it never calls
the move generator, only the ground circuit of the rule sheet (solvers/ground/transition.py).
The team T (one role or several that choose together) wins in a terminal state where every
role of T has goal 100. For a depth d:

1. candidate: one SAT problem finds actions of T for every node of a tree of the opponents'
   lines of play (initially the empty line), each node a copy of the ground step, such that
   every node the lines reach is a terminal state won by T, or is not terminal and above
   depth d. A line whose next joint action is not legal where the candidate leads is cut
   there. UNSAT: no strategy beats even these lines, so none exists within d.
2. counterexample: a second SAT problem unrolls one line of d steps in which T plays the
   candidate's actions while the line stays in the tree and anything legal after it leaves,
   the opponents play anything legal, and the line does not end won by T. UNSAT: the
   candidate, completed by any legal action off the tree, wins within d. SAT: the opponents'
   actions of the line join the tree (the line leaves the tree, so the tree grows) and step 1
   repeats.

The candidate problem grows by clauses only, so one incremental solver serves each depth.
Clauses go through the one SAT layer (gamecheck/solvers/sat.py) and every solver call through
the command's Budget.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from gamecheck.budget import Budget, OutOfBudget
from gamecheck.errors import BadTermError
from gamecheck.gdl.terms import term_text
from gamecheck.models.base import Game, State
from gamecheck.solvers.forced_win.search import ForcedWin, Status, depth_bound, first_action
from gamecheck.solvers.forced_win.sides import Sides, make_sides
from gamecheck.solvers.forced_win.strategy import Strategy
from gamecheck.solvers.forced_win.strategy_check import check_strategy
from gamecheck.solvers.ground.circuit import TRUE
from gamecheck.solvers.ground.transition import TransitionSystem
from gamecheck.solvers.sat import Clauses, Lit, holds, negate

WIN = 100


class _Copies:
    """Copies of the ground circuit as clauses in one solver (gamecheck.solvers.sat)."""

    def __init__(self, system: TransitionSystem):
        self.system = system
        self.clauses = Clauses()
        self._cones: dict[tuple[int, ...], list[int]] = {}

    def close(self) -> None:
        self.clauses.close()

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
                values[node] = self.clauses.conj([_literal(values, child) for child in children])
        return [_literal(values, output) for output in outputs]

    def _cone(self, outputs: tuple[int, ...]) -> list[int]:
        cone = self._cones.get(outputs)
        if cone is None:
            nodes = self.system.circuit.cone(outputs)
            nodes.discard(TRUE)
            cone = self._cones[outputs] = sorted(nodes)
        return cone


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

    def __init__(self, copies: _Copies, team: Sequence[int]):
        self.copies = copies
        self.clauses = copies.clauses
        self.system = copies.system
        goals = [self.system.goals[role].get(WIN, -TRUE) for role in team]
        self.state_outputs = (self.system.terminal, *goals, *itertools.chain(*self.system.legal))
        self.team_size = len(goals)

    def step(self, fluents: list[Lit]) -> _Step:
        system = self.system
        inputs = dict(zip(system.fluent_nodes, fluents, strict=True))
        values = self.copies.circuit(inputs, self.state_outputs)
        terminal, goals = values[0], values[1 : 1 + self.team_size]
        legal = values[1 + self.team_size :]
        per_role = []
        for actions in system.actions:
            per_role.append(legal[: len(actions)])
            legal = legal[len(actions) :]
        return _Step(fluents, terminal, self.clauses.conj([terminal, *goals]), per_role)

    def successor(self, step: _Step, actions: list[list[Lit]]) -> list[Lit]:
        """The fluents after a joint action given as a literal per role and ground action."""
        system = self.system
        inputs = dict(zip(system.fluent_nodes, step.fluents, strict=True))
        for nodes, literals in zip(system.action_nodes, actions, strict=True):
            inputs.update(zip(nodes, literals, strict=True))
        return self.copies.circuit(inputs, system.next)

    def choice(self, step: _Step, role: int, condition: Lit) -> list[Lit]:
        """Variables for `role`'s action, exactly one and legal when `condition` holds."""
        literals: list[Lit] = []
        for legal in step.legal[role]:
            if legal is False:
                literals.append(False)
                continue
            variable = self.clauses.new_variable()
            self.clauses.clause([-variable, legal])
            literals.append(variable)
        self.clauses.exactly_one_if(condition, literals)
        return literals


Line = tuple[tuple[int, ...], ...]
"""The opponents' joint actions, step by step: per opponent (role order) an action index."""


@dataclass
class _Node:
    """A node of the candidate tree: the opponents' line so far leads here."""

    step: _Step
    depth: int
    reach: Lit
    mine: list[list[Lit]]
    """Per team role, its action variables."""
    children: dict[tuple[int, ...], _Node] = field(default_factory=dict)


@dataclass(frozen=True)
class SatStrategy:
    """The team's actions (ground action indexes, team order) at each node of the tree of
    the opponents' lines, keyed by the line that leads there; off the tree any legal action
    wins."""

    actions: dict[Line, tuple[int, ...]]


class _Candidates:
    """Step 1: the team's actions for a growing tree of the opponents' lines."""

    def __init__(self, system: TransitionSystem, team, start: list[Lit], depth: int, budget):
        self.copies = _Copies(system)
        self.clauses = self.copies.clauses
        self.unrolling = _Unrolling(self.copies, team)
        self.team = list(team)
        self.others = [r for r in range(len(system.roles)) if r not in team]
        self.depth = depth
        self.budget = budget
        self.root = self._node(start, 0, True)

    def close(self) -> None:
        self.copies.close()

    def _node(self, fluents: list[Lit], depth: int, reach: Lit) -> _Node:
        step = self.unrolling.step(fluents)
        playing = self.clauses.conj([reach, negate(step.terminal)])
        # reached: won, or not terminal above the depth bound
        if depth == self.depth:
            self.clauses.clause([negate(reach), step.won])
        else:
            self.clauses.clause([negate(reach), step.won, negate(step.terminal)])
        mine = []
        if depth < self.depth:
            mine = [self.unrolling.choice(step, role, playing) for role in self.team]
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
        system = self.copies.system
        actions: list[list[Lit]] = [[] for _ in system.roles]
        for role, literals in zip(self.team, node.mine, strict=True):
            actions[role] = literals
        legal = []
        for other, action in zip(self.others, joint, strict=True):
            actions[other] = [a == action for a in range(len(system.actions[other]))]
            legal.append(node.step.legal[other][action])
        reach = self.clauses.conj([node.reach, negate(node.step.terminal), *legal])
        return self._node(self.unrolling.successor(node.step, actions), node.depth + 1, reach)

    def solve(self) -> SatStrategy | None:
        model = self.clauses.solve(budget=self.budget)
        if model is False:
            return None
        actions: dict[Line, tuple[int, ...]] = {}
        stack: list[tuple[Line, _Node]] = [((), self.root)]
        while stack:
            line, node = stack.pop()
            chosen = [
                next((a for a, literal in enumerate(literals) if holds(literal, model)), None)
                for literals in node.mine
            ]
            if chosen and None not in chosen:
                actions[line] = tuple(chosen)
            stack.extend((line + (joint,), child) for joint, child in node.children.items())
        return SatStrategy(actions)


def _counterexample(
    system: TransitionSystem,
    team: Sequence[int],
    start: list[Lit],
    depth: int,
    strategy: SatStrategy,
    budget: Budget,
) -> Line | None:
    """Step 2: a line of the opponents on which the team, playing the candidate while on the
    tree and anything legal after, does not win within `depth`; None if there is none."""
    copies = _Copies(system)
    clauses = copies.clauses
    try:
        unrolling = _Unrolling(copies, team)
        others = [r for r in range(len(system.roles)) if r not in team]
        step = unrolling.step(start)
        alive: Lit = True
        on_tree: dict[Line, Lit] = {(): True}
        choices = []
        for t in range(depth + 1):
            clauses.clause([negate(alive), negate(step.won)])
            if t == depth:
                break
            playing = clauses.conj([alive, negate(step.terminal)])
            actions = [unrolling.choice(step, r, playing) for r in range(len(system.roles))]
            for line, on in on_tree.items():
                if line in strategy.actions:
                    for role, action in zip(team, strategy.actions[line], strict=True):
                        clauses.clause([negate(on), negate(playing), actions[role][action]])
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
        model = clauses.solve(budget=budget)
        if model is False:
            return None
        line = []
        for per_role in choices:
            joint = tuple(
                next((a for a, lit in enumerate(literals) if holds(lit, model)), -1)
                for literals in per_role
            )
            if -1 in joint:
                break  # the line ended: a terminal state
            line.append(joint)
        return tuple(line)
    finally:
        copies.close()


def _tree_children(strategy: SatStrategy, line: Line) -> list[tuple[int, ...]]:
    n = len(line)
    return sorted({key[n] for key in strategy.actions if len(key) > n and key[:n] == line})


class Refinement:
    """Counterexample-guided refinement for one team from one start state; counts its SAT
    calls."""

    def __init__(
        self,
        system: TransitionSystem,
        team: Sequence[int],
        start: frozenset[int],
        *,
        budget: Budget | None = None,
    ):
        self.system = system
        self.team = tuple(team)
        self.start: list[Lit] = [i in start for i in range(len(system.fluents))]
        self.budget = budget or Budget()
        self.calls = 0

    def won_within(self, depth: int) -> SatStrategy | None:
        """A strategy that wins within `depth` steps, or None if there is none;
        OutOfBudget if the budget ends first."""
        candidates = _Candidates(self.system, self.team, self.start, depth, self.budget)
        try:
            while True:
                self.calls += 1
                strategy = candidates.solve()
                if strategy is None:
                    return None
                self.calls += 1
                line = _counterexample(
                    self.system, self.team, self.start, depth, strategy, self.budget
                )
                if line is None:
                    return strategy
                candidates.add(line)
        finally:
            candidates.close()


def forced_win_sat(
    game: Game,
    team: str | Sequence[str],
    system: TransitionSystem,
    *,
    start: State | None = None,
    max_depth: int | None = None,
    budget: Budget | None = None,
) -> ForcedWin:
    """The question of search.forced_win, answered on `system` (the ground rules of `game`)
    by SAT, depth by depth; a strategy found is replayed on `game` like the search's.
    `nodes` counts SAT calls."""
    clock = time.monotonic()
    roles = [team] if isinstance(team, str) else list(team)
    sides = make_sides(game, roles)
    state = game.initial_state() if start is None else start
    max_depth = depth_bound(game, max_depth)
    team_indexes = [system.roles.index(role) for role in sides.team_roles]
    refinement = Refinement(
        system, team_indexes, fluents_of(system, game.state_facts(state)), budget=budget
    )
    answer = {
        "game": game.name,
        "role": roles[0],
        "team": sides.team_roles,
        "max_depth": max_depth,
        "method": "sat",
    }
    searched = -1
    try:
        for depth in range(max_depth + 1):
            sat = refinement.won_within(depth)
            if sat is not None:
                actions = state_strategy(sides, system, state, sat, depth)
                strategy = Strategy(sides.team_roles, state, depth, actions)
                size = check_strategy(game, sides.team_roles, state, actions, depth, budget)
                return ForcedWin(
                    **answer,
                    status=Status.FOUND,
                    depth=depth,
                    searched_depth=depth - 1,
                    first_action=first_action(sides, strategy),
                    strategy_size=size,
                    nodes=refinement.calls,
                    seconds=time.monotonic() - clock,
                    strategy=strategy,
                )
            searched = depth
        status = Status.NONE
    except OutOfBudget:
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
    sides: Sides, system: TransitionSystem, start: State, sat: SatStrategy, depth: int
) -> dict[State, tuple]:
    """The SAT strategy (keyed by the opponents' lines) as the team's action per game state,
    on the move generator: off the tree the team plays its first legal actions. A state met
    again with fewer steps left takes the action of that meeting, whose continuation wins
    sooner."""
    game = sides.game
    ground = [
        {term_text(action): i for i, action in enumerate(actions)} for actions in system.actions
    ]
    positions = [system.roles.index(role) for role in game.roles]
    assigned: dict[State, tuple[int, tuple]] = {}

    def walk(state: State, line: Line | None, remaining: int) -> None:
        if remaining == 0 or game.is_terminal(state):
            return
        known = assigned.get(state)
        if known is not None and known[0] <= remaining:
            return
        actions, replies = sides.choices(state)
        if line is not None and line in sat.actions:
            action = tuple(
                game.parse_action(role, system.action_text(positions[i], chosen))
                for role, i, chosen in zip(
                    sides.team_roles, sides.team, sat.actions[line], strict=True
                )
            )
        else:
            action, line = actions[0], None
        assigned[state] = (remaining, action)
        for reply in replies:
            by_system_order = sorted(
                zip(sides.opponents, reply, strict=True), key=lambda pair: positions[pair[0]]
            )
            key = tuple(ground[positions[i]][game.action_text(a)] for i, a in by_system_order)
            after = game.next(state, sides.joint(action, reply))
            walk(after, None if line is None else line + (key,), remaining - 1)

    walk(start, (), depth)
    return {state: action for state, (_, action) in assigned.items()}
