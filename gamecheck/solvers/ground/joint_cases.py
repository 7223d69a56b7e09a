"""Balances of a register against a count, proved one joint action at a time on the few
fluents that joint action changes (invariants.py tries this first, and asks the cases its
share left after the exclusions, counts and limits); the cases, and the circuit folded under
each, that joint_houdini.py proves state invariants over too.

Checkers keeps (piece_count black n) equal to black's pieces on the board, but a SAT solver
asked the whole step refutes the mover's thousand actions one by one, each over the whole
two-layer circuit (cylinder-checkers: 25-50 s for its balances). With the joint action fixed,
the circuit folds: a double jump's next state differs from the state in four cells and the
two registers, and its legality reads a few cells. Each legal joint action is then a small
SAT query over that cone: the state invariants about its fluents, the balance before the
step over the changed fluents (the rest, unchanged, adds between none and all of itself),
and a count after it that differs from the one the register pins. Every query UNSAT, for
every joint action some state the invariants allow may take, proves that no step breaks
the balance: it is kept from any state where it holds, and it holds initially.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

from pysat.solvers import Solver

from gamecheck.budget import Budget, OutOfBudget
from gamecheck.solvers.ground.circuit import TRUE, value
from gamecheck.solvers.ground.transition import TransitionSystem
from gamecheck.solvers.ground.unroll import reaches
from gamecheck.solvers.sat import (
    Lit,
    Model,
    and_clauses,
    count_in_unary,
    merge_unary,
    negate,
    solve_within,
    unary_complement,
)

MAX_JOINTS = 20_000
"""Joint actions beyond which no case split is tried (a simultaneous game's product)."""
MAX_MASK_BITS = 1 << 29
"""Nodes times joint actions beyond which no case split is tried (the masks' memory)."""
QUERY_SECONDS = 1.0
"""A balance whose query for some case takes longer is left to the whole step (checkers'
take 65 ms at most; pacman's, a count of 40 pellets against a score, took all of the cases'
share in one query, where the whole step proves it in a few seconds)."""
MAX_CONE = 400
"""Conjuncts of a legality over more nodes are left out of the queries (mustjump's "no jump
anywhere": a weaker assumption, and a step that moves no piece needs none of it)."""
GUARD_FLUENTS = 8
"""Fluents of a relation with at most this many ground facts tell whose turn it is."""
WIDE = 16
"""Gates of more children have those open in a few cases only looked up by case."""
FEW_CASES = 64
"""Cases a child must be open (not TRUE) in at most to be looked up by case."""
SOLVER = "minisat22"


class BalanceCases:
    """The pinned balances (a register against a count) proved one joint action at a time,
    over as many calls as the budget needs: each call asks only the joint actions that no
    call before it finished (a case proved under fewer state invariants stays proved)."""

    def __init__(self, system: TransitionSystem, balances):
        self.system = system
        self.kept = [balance for balance in balances if balance.pinned is not None]
        """The balances that hold initially and that no case asked so far breaks."""
        if self.kept:
            initial = system.evaluate(system.initial)
            self.kept = [balance for balance in self.kept if _holds(balance, initial)]
        self.asked: set[tuple[int, ...]] = set()
        self.finished = not self.kept

    def proved(self, state, budget: Budget) -> list:
        """The balances every joint action keeps; OutOfBudget if the budget ends first
        (the cases asked by then are not asked again)."""
        if self.kept:
            with split_cases(self.system, state, budget) as cases:
                if cases is None:  # too many joint actions to split
                    self.kept = []
                else:
                    for index, joint in enumerate(cases.joints):
                        if not self.kept:
                            break
                        if joint not in self.asked:
                            self._ask(Folded(cases, index), budget)
        self.finished = True
        return list(self.kept)

    def _ask(self, case: Folded, budget: Budget) -> None:
        """Drop the balances the case's joint action breaks (none if it is never legal)."""
        budget.check()
        if case.require(case.legal()):
            self.kept = [balance for balance in self.kept if _kept_in(case, balance, budget)]
        case.retire()
        self.asked.add(case.joint)


@contextmanager
def split_cases(system: TransitionSystem, state, budget: Budget) -> Iterator[Cases | None]:
    """The cases of the system's joint actions, asked in a solver that holds the state
    invariants; None where there are too many to split."""
    invariants, defined = _invariant_clauses(system, state)
    with Solver(name=SOLVER, bootstrap_with=invariants) as solver:
        joints = joint_actions(system, solver, budget)
        if joints is None or len(joints) * len(system.circuit.children) > MAX_MASK_BITS:
            yield None
        else:
            yield Cases(system, joints, solver, defined, budget)


def joint_actions(
    system: TransitionSystem, solver: Solver, budget: Budget
) -> list[tuple[int, ...]] | None:
    """Every joint action some state the state invariants (in `solver`) allow may take
    (each role's action legal there), grouped by the turn fluents each role's legality
    reads: the combinations of groups whose turns no such state has together are left out.
    None if there are more than MAX_JOINTS; OutOfBudget if the budget ends first."""
    turns = _turn_fluents(system)
    groups = []
    for literals in system.legal:
        by_guard: dict[tuple[int, ...], list[int]] = {}
        for action, literal in enumerate(literals):
            if literal != -TRUE:
                by_guard.setdefault(_guards(system, literal, turns), []).append(action)
        groups.append(list(by_guard.items()))
    if math.prod(map(len, groups)) > MAX_JOINTS:
        return None
    joints: list[tuple[int, ...]] = []
    for combination in itertools.product(*groups):
        guards = [literal for guard, _ in combination for literal in guard]
        if solve_within(solver, guards, budget):
            joints += itertools.product(*(actions for _, actions in combination))
            if len(joints) > MAX_JOINTS:
                return None
    return joints


def _turn_fluents(system: TransitionSystem) -> set[int]:
    """The nodes of fluents whose relation has at most GUARD_FLUENTS ground facts."""
    relations: dict[str, list[int]] = {}
    for term, node in zip(system.fluents, system.fluent_nodes, strict=True):
        relations.setdefault(term[0] if isinstance(term, tuple) else term, []).append(node)
    return {node for nodes in relations.values() if len(nodes) <= GUARD_FLUENTS for node in nodes}


def _guards(system: TransitionSystem, legal: int, turns: set[int]) -> tuple[int, ...]:
    """The literals of turn fluents a legality is the AND of."""
    circuit = system.circuit
    conjuncts = [legal] if legal < 0 or circuit.is_input(legal) else circuit.children[legal]
    return tuple(sorted(literal for literal in conjuncts if abs(literal) in turns))


def _invariant_clauses(system: TransitionSystem, state: Iterable) -> tuple[list, set[int]]:
    """The state invariants as clauses over circuit nodes (a gate's variable is its node),
    and the gates they define."""
    circuit = system.circuit
    cone = circuit.cone(invariant.literal for invariant in state)
    gates = {node for node in cone if node != TRUE and not circuit.is_input(node)}
    clauses = [[invariant.literal] for invariant in state]
    clauses += [[TRUE]] if TRUE in cone else []
    for gate in gates:
        clauses += and_clauses(gate, circuit.children[gate])
    return clauses, gates


class Cases:
    """Which circuit nodes each joint action makes constant: per node, the joint actions
    (bits of an int) where it is TRUE and those where it is FALSE, whatever the state; and
    the solver every case is asked in, with the state invariants (the state is the same
    variables, a fluent's its node, in every case)."""

    def __init__(
        self, system: TransitionSystem, joints: Sequence, solver, defined: set[int], budget
    ):
        self.system = system
        self.joints = joints
        self.solver = solver
        self.budget = budget
        circuit = system.circuit
        self.every = every = (1 << len(joints)) - 1
        true, false = [0] * len(circuit.children), [0] * len(circuit.children)
        self.acting = [False] * len(circuit.children)
        """Whether a node depends on the actions (else it means the same in every case)."""
        true[TRUE] = every
        for role, nodes in enumerate(system.action_nodes):
            taken: dict[int, int] = {}
            for index, joint in enumerate(joints):
                taken[joint[role]] = taken.get(joint[role], 0) | 1 << index
            for action, node in enumerate(nodes):
                true[node], false[node] = taken.get(action, 0), every & ~taken.get(action, 0)
                self.acting[node] = True
        for node in range(TRUE + 1, len(circuit.children)):
            if node % 10_000 == 0:
                budget.check()
            children = circuit.children[node]
            if children:
                all_true, some_false = every, 0
                for child in children:
                    yes, no = (true, false) if child > 0 else (false, true)
                    all_true &= yes[abs(child)]
                    some_false |= no[abs(child)]
                true[node], false[node] = all_true, some_false
                self.acting[node] = any(self.acting[abs(child)] for child in children)
        self.true, self.false = true, false
        self.defined: set[int] = defined
        """The gates the solver has the definition of."""
        self.variables = len(circuit.children)
        self._small: dict[int, bool] = {}
        self._open: dict[int, tuple[list[int], dict[int, list[int]]]] = {}
        self._unchanged: dict[int, int] = {}

    def fresh(self) -> int:
        self.variables += 1
        return self.variables

    def static(self, node: int) -> int:
        """A node that means the same in every case, as itself (its variable), its cone's
        gates defined in the solver once."""
        stack = [node]
        while stack:
            gate = stack.pop()
            if gate in self.defined or not self.system.circuit.children[gate]:
                continue
            self.defined.add(gate)
            kept = [c for c in self.system.circuit.children[gate] if not self._always(c)]
            self.solver.append_formula(and_clauses(gate, kept))
            stack += [abs(child) for child in kept]
        return node

    def state(self, literal: int) -> Lit:
        """A state literal (it means the same in every case) as the solver's."""
        if self._always(literal) or self._always(-literal):
            return self._always(literal)
        self.static(abs(literal))
        return literal

    def open_children(self, gate: int, index: int) -> list[int]:
        """The gate's children that are not TRUE in case `index` (a gate with a FALSE child
        is FALSE there), looked up by case for the wide gates (an OR over every action)."""
        if gate not in self._open:
            self._open[gate] = self._by_case(gate)
        checked, by_case = self._open[gate]
        bit = 1 << index
        return [child for child in checked if not self._true_in(child) & bit] + by_case.get(
            index, []
        )

    def _by_case(self, gate: int) -> tuple[list[int], dict[int, list[int]]]:
        """A gate's children to check in each case, and those open in a few cases only (at
        most FEW_CASES; children of a gate of at most WIDE children are all checked), by
        case; children TRUE in every case are left out."""
        children = [c for c in self.system.circuit.children[gate] if not self._always(c)]
        if len(children) <= WIDE:
            return children, {}
        checked, by_case = [], {}
        for child in children:
            open_in = self.every & ~self._true_in(child)
            if open_in.bit_count() > FEW_CASES:
                checked.append(child)
                continue
            while open_in:
                lowest = open_in & -open_in
                by_case.setdefault(lowest.bit_length() - 1, []).append(child)
                open_in ^= lowest
        return checked, by_case

    def _true_in(self, literal: int) -> int:
        """The cases where the literal is TRUE."""
        return (self.true if literal > 0 else self.false)[abs(literal)]

    def _always(self, literal: int) -> bool:
        """Whether the literal is TRUE in every case."""
        return self._true_in(literal) == self.every

    def small(self, literal: int) -> bool:
        """Whether the literal's cone has at most MAX_CONE nodes."""
        node = abs(literal)
        if node not in self._small:
            seen, stack = set(), [node]
            while stack and len(seen) <= MAX_CONE:  # stops once past MAX_CONE
                here = stack.pop()
                if here not in seen:
                    seen.add(here)
                    stack.extend(abs(child) for child in self.system.circuit.children[here])
            self._small[node] = len(seen) <= MAX_CONE
        return self._small[node]

    def unchanged(self, node: int) -> int:
        """The joint actions under which no fluent of the state node's cone changes."""
        children = self.system.circuit.children
        stack = [node]
        while stack:
            here = stack[-1]
            if here in self._unchanged:
                stack.pop()
            elif here in self.system.node_fluent:
                self._unchanged[stack.pop()] = self._same_next(here)
            elif pending := [abs(c) for c in children[here] if abs(c) not in self._unchanged]:
                stack += pending
            else:
                mask = self.every
                for child in children[stack.pop()]:
                    mask &= self._unchanged[abs(child)]
                self._unchanged[here] = mask
        return self._unchanged[node]

    def _same_next(self, fluent: int) -> int:
        """The joint actions under which the fluent's next value folds to the fluent (node)
        itself: a gate folds to it (or its negation) where each child is TRUE or folds to
        it, and one does; only the gates that read it, up to its next value, are looked at
        (checkers' next values' cones are 30 times as many)."""
        self.budget.check()
        same, negated = {fluent: self.every}, {}
        root = self.system.next[self.system.node_fluent[fluent]]
        for node in _reading(self.system.readers, fluent, abs(root)):
            children = self.system.circuit.children[node]
            all_same, some_same = self.every, 0
            all_negated, some_negated = self.every, 0
            for child in children:
                yes, no = (same, negated) if child > 0 else (negated, same)
                constant = (self.true if child > 0 else self.false)[abs(child)]
                all_same &= constant | yes.get(abs(child), 0)
                some_same |= yes.get(abs(child), 0)
                all_negated &= constant | no.get(abs(child), 0)
                some_negated |= no.get(abs(child), 0)
            same[node], negated[node] = all_same & some_same, all_negated & some_negated
        return (same if root > 0 else negated).get(abs(root), 0)


def _reading(readers: list[list[int]], node: int, last: int) -> list[int]:
    """The gates up to node `last` that read `node`, directly or through others, in the
    circuit's order (children first)."""
    found, stack = set(), [node]
    while stack:
        for reader in readers[stack.pop()]:
            if reader <= last and reader not in found:
                found.add(reader)
                stack.append(reader)
    return sorted(found)


class Folded:
    """The circuit under one joint action: each literal folded to True, False or a solver
    literal over the state (a gate that means the same in every case is its node, defined
    once; one that depends on the actions a fresh variable), and the query asked under it."""

    def __init__(self, cases: Cases, index: int):
        self.cases = cases
        self.system = cases.system
        self.joint = cases.joints[index]
        self.index = index
        self.bit = 1 << index
        self._folded: dict[int, Lit] = {}
        self._after: dict[int, Lit] = {}
        self._switch = cases.fresh()
        """Switches on the clauses of every query of the case (its gates' definitions, what
        it requires) until `retire`."""
        self._query: int | None = None
        """Switches on the clauses of the next query only."""

    def literal(self, literal: int) -> Lit:
        node = abs(literal)
        if self.cases.true[node] & self.bit:
            folded: Lit = True
        elif self.cases.false[node] & self.bit:
            folded = False
        elif not self.cases.acting[node]:
            folded = self.cases.static(node)
        else:
            folded = self._folded.get(node) or self._fold(node)
        if isinstance(folded, bool):
            return folded if literal > 0 else not folded
        return folded if literal > 0 else -folded

    def _fold(self, node: int) -> int:
        children = self.cases.open_children(node, self.index)
        kept = [] if self.system.circuit.children[node] else [node]
        for child in children:
            folded = self.literal(child)
            if folded is not True:
                kept.append(folded)
        if len(kept) > 1:
            kept = [self._and(kept)]
        self._folded[node] = kept[0]
        return kept[0]

    def _and(self, literals: list[int]) -> Lit:
        """A fresh variable equal to the AND of the literals (True if none)."""
        if len(literals) <= 1:
            return literals[0] if literals else True
        gate = self.cases.fresh()
        self._define(and_clauses(gate, literals))
        return gate

    def _define(self, clauses: Iterable[list[int]]) -> None:
        """Add clauses to every query of the case."""
        for clause in clauses:
            self.cases.solver.add_clause([-self._switch, *clause])

    def changes(self, literal: int) -> bool:
        """Whether the step may change the state literal (a fluent of its cone changes)."""
        return not self.cases.unchanged(abs(literal)) & self.bit

    def after_state(self, literal: int) -> Lit:
        """A state literal's value after the step: its cone over the fluents' next values."""
        node = abs(literal)
        if node not in self._after:
            children = self.system.circuit.children[node]
            if not self.changes(node):
                self._after[node] = self.cases.state(node)
            elif not children:  # a fluent: its next value
                self._after[node] = self.literal(self.system.next[self.system.node_fluent[node]])
            else:
                kept = [self.after_state(child) for child in children]
                if False in kept:
                    self._after[node] = False
                else:
                    self._after[node] = self._and([k for k in kept if k is not True])
        folded = self._after[node]
        return folded if literal > 0 else negate(folded)

    def legal(self) -> list[Lit]:
        """Each role's action legal, its conjuncts over more than MAX_CONE nodes left out."""
        literals = []
        for role, action in enumerate(self.joint):
            legal = self.system.legal[role][action]
            if self.cases.small(legal) or legal < 0 or self.system.circuit.is_input(legal):
                literals.append(self.literal(legal))
            else:
                conjuncts = self.system.circuit.children[legal]
                literals += [self.literal(c) for c in conjuncts if self.cases.small(c)]
        return literals

    def count(self, literals: Sequence[Lit]) -> list[Lit]:
        """How many of the literals hold, in unary (x[j]: more than j)."""
        return count_in_unary(literals, self.cases.fresh, self._add_unfolded)

    def merge(self, a: Sequence[Lit], b: Sequence[Lit]) -> list[Lit]:
        """The sum of two numbers in unary (x[j]: more than j), in unary."""
        return merge_unary(a, b, self.cases.fresh, self.add)

    def add(self, clause: Iterable[Lit]) -> None:
        """Add a clause to the next query, constants folded (one that holds is left out)."""
        kept = []
        for literal in clause:
            if literal is True:
                return
            if literal is not False:
                kept.append(literal)
        self._add_unfolded(kept)

    def _add_unfolded(self, clause: list[int]) -> None:
        """Add a clause without constants to the next query."""
        if self._query is None:
            self._query = self.cases.fresh()
        self.cases.solver.add_clause([-self._query, *clause])

    def require(self, literals: Sequence[Lit]) -> bool:
        """Let every query of the case require the literals; False if one never holds."""
        if False in literals:
            return False
        self._define([literal] for literal in literals if literal is not True)
        return True

    def satisfiable(self, budget: Budget | None = None) -> bool:
        return self.model(budget=budget) is not None

    def model(self, assumptions: Sequence[Lit] = (), budget: Budget | None = None) -> Model | None:
        """A model of the query's clauses, the case's and the assumptions in the shared
        solver (with the state invariants), or None; OutOfBudget if `budget` (the cases'
        by default) ends first. The query's clauses are dropped after it (each under a
        switch of its own), the case's kept until `retire`."""
        solver = self.cases.solver
        query = self._query or self.cases.fresh()
        self._query = None
        try:
            assumed = [self._switch, query, *assumptions]
            satisfiable = solve_within(solver, assumed, budget or self.cases.budget)
            return Model(solver.get_model()) if satisfiable else None
        finally:
            solver.add_clause([-query])

    def retire(self) -> None:
        """Take the case's clauses out of the shared solver for good (the case is done)."""
        self.cases.solver.add_clause([-self._switch])


def _holds(balance, values: Sequence[bool]) -> bool:
    """Whether the balance and what it is holding hold in a state (its node values)."""
    if not all(value(values, held.literal) for held in balance.holding):
        return False
    return all(
        sum(weight for weight, literal in terms if value(values, literal)) == total
        for literal, terms, total in balance.sums
        if literal is None or value(values, literal)
    )


def _kept_in(case: Folded, balance, budget: Budget) -> bool:
    """Whether the case's joint action keeps the balance, asked within QUERY_SECONDS (False
    if that runs out first)."""
    try:
        return not _breaks(case, balance, budget.part(QUERY_SECONDS))
    except OutOfBudget:
        budget.check()  # only the query's time ran out
        return False


def _breaks(case: Folded, balance, budget: Budget) -> bool:
    """Whether some state the invariants allow, where the balance holds, steps by the
    case's joint action (required legal) to a state where it does not: the count after the
    step is the count before plus the changed fluents' change."""
    changed = [
        (literal, case.after_state(literal)) for literal in balance.counted if case.changes(literal)
    ]
    before = [literal for literal, _ in changed]
    unchanged = len(balance.counted) - len(changed)
    held = case.count(before)  # and those that stop holding, without counting them again:
    rises = case.merge(case.count([after for _, after in changed]), unary_complement(held))
    registers = [(lit, case.after_state(lit), count) for lit, count in balance.pinned]
    case.add([literal for literal, _, count in registers if count >= 0])
    for (a, _, first), (b, _, second) in itertools.combinations(registers, 2):
        if first != second:  # the balance pins one count
            case.add([-a, -b])
    for literal, _, count in registers:
        if count >= 0:  # the changed fluents hold at most the count, at least it less the rest
            case.add([-literal, negate(reaches(held, count + 1))])
            case.add([-literal, reaches(held, count - unchanged)])
    broken = [negate(case.after_state(held.literal)) for held in balance.holding]
    numbers = {literal for literal, _, _ in registers}
    for (number, _, count), (_, then, pinned) in itertools.product(registers, repeat=2):
        if count < 0 or then is False or (then in numbers and then != number):
            continue  # a number before that is another after: the same pin, or never
        wrong = case.cases.fresh()
        case.add([-wrong, number])
        case.add([-wrong, then])
        if pinned >= 0:  # rises = the count's change + the changed fluents' number
            expected = pinned - count + len(before)
            below = negate(reaches(rises, expected))
            case.add([-wrong, reaches(rises, expected + 1), below])
        broken.append(wrong)
    case.add(broken)
    return case.satisfiable(budget)
