"""Functional dependencies: groups of derived atoms of which at most one holds in any state
(a relation that is a function of some of its arguments).

Real sheets count with recursive relations: reversi's (pieceCount ?x ?y ?colour ?n) carries
a running count across the board, and the goals compare the two totals. The circuit spells
each count out as an OR over the ways to reach it, and nothing in it says that a count has
one value: asked whether both roles can win at once, a SAT solver searched for minutes. A
dependency says it once, as a constraint on every layer of a free-start unrolling (the
states that questions about the end of the game are asked of):

* candidates are the ground atoms of one relation that agree on all but one or two argument
  positions (the values of one count, the goal values of one role), among those the goals
  and `terminal` depend on (the questions about the end of the game need them; the moves'
  relations, many more, seldom have any);
* random inputs (fluents and actions true at densities from 2% to 98%) rule out most, and
  a group whose atoms they make true too seldom to tell is not tried;
* the rest are proved in the circuit's order, each by SAT over one layer of a free start
  under the dependencies proved before it (two values of the count at one cell need two at
  the cell before); a model that breaks the candidate asked about rules out every other
  candidate it breaks too.

A dependency holds in every state, reachable or not, whatever actions legal in it are
done (as in every layer of an unrolling), so it needs no induction. A group that always
holds one of its atoms (a total function) is proved so the same way.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from gamecheck.budget import Budget, OutOfBudget
from gamecheck.solvers.ground.sampling import (
    BatchCircuit,
    Playouts,
    pack,
    packed_literal_rows,
    unpack,
)
from gamecheck.solvers.ground.transition import TransitionSystem
from gamecheck.solvers.ground.unroll_cnf import CnfUnrolling
from gamecheck.solvers.sat import Model

POSITIONS_VARIED = 2
"""Candidates vary one argument position, or two (othello's count of black and red pieces
at a cell)."""
MOVES = ("legal", "next")
"""Relations not tried: a role's legal moves, or a cell's next values, exclude each other
in the states that are reached (invariants.py), seldom in every state."""
MAX_ATOMS = 200_000
"""Derived atoms looked at (in the circuit's order): a bigger circuit's first ones only."""
SAMPLE_WORDS = 16
"""Random input assignments, in words of 64."""
MIN_EXPECTED = 5.0
"""A group is a candidate only if, were its atoms independent, the samples would show two
of them true together this many times on average: never seeing it then means something."""
CALL_SECONDS = 0.5
"""A candidate whose proof takes longer is tried again once the others have been (reversi's
two winners excluding each other take 5 s)."""


@dataclass(frozen=True)
class Functional:
    """At most one of `literals` holds (exactly one, if `total`) in any state, whatever
    legal actions are done."""

    literals: tuple[int, ...]
    total: bool


def find_functional(
    system: TransitionSystem,
    playouts: Playouts,
    budget: Budget,
    sat_solver: str | None = None,
) -> list[Functional]:
    """The dependencies among the system's derived atoms that the budget lets us prove
    (the playouts' compiled circuit is reused)."""
    try:
        groups = _candidate_groups(system, budget)
        rows = _random_rows(system, playouts.compiled(system, budget=budget), groups)
        counts = [sum(rows[literal] for literal in group) for group in groups]
        candidates = [
            (group, bool((count >= 1).all()))
            for group, count in zip(groups, counts, strict=True)
            if (count <= 1).all() and _expected_pairs(rows, group) >= MIN_EXPECTED
        ]
        with CnfUnrolling(system, free_start=True, sat_solver=sat_solver) as unrolling:
            unrolling.budget = budget
            return _Prover(unrolling, candidates).prove(budget)
    except OutOfBudget:
        return []  # the candidates were not all encoded in time


def _candidate_groups(system: TransitionSystem, budget: Budget) -> list[tuple[int, ...]]:
    """Distinct sets (two or more, none constant) of the literals of the derived atoms that
    agree on all but POSITIONS_VARIED argument positions or fewer, in the circuit's order,
    among the atoms the goals and `terminal` depend on, but of MOVES."""
    goals = [literal for values in system.goals for literal in values.values()]
    wanted = system.circuit.cone([system.terminal, *goals])
    atoms = sorted(system.derived.items(), key=lambda item: abs(item[1]))[:MAX_ATOMS]
    groups: dict[tuple, set[int]] = {}
    for number, (atom, literal) in enumerate(atoms):
        if number % 4096 == 0:
            budget.check()
        if isinstance(atom, str) or atom[0] in MOVES:
            continue
        if abs(literal) == 1 or abs(literal) not in wanted:
            continue
        arguments = atom[1:]
        for varied in range(1, min(POSITIONS_VARIED, len(arguments)) + 1):
            for places in itertools.combinations(range(len(arguments)), varied):
                kept = tuple(a for i, a in enumerate(arguments) if i not in places)
                groups.setdefault((atom[0], places, kept), set()).add(literal)
    distinct = {frozenset(literals) for literals in groups.values() if len(literals) > 1}
    ordered = (tuple(sorted(group, key=abs)) for group in distinct)
    return sorted(ordered, key=lambda group: (abs(group[-1]), group))


def _random_rows(system: TransitionSystem, circuit: BatchCircuit, groups) -> dict[int, np.ndarray]:
    """Per literal of the groups, its value (booleans) under SAMPLE_WORDS * 64 random input
    assignments, seeded, at densities spread from 2% to 98%."""
    rng = np.random.default_rng(0)
    inputs = np.array(
        [*system.fluent_nodes, *(n for nodes in system.action_nodes for n in nodes)], dtype=int
    )
    width = SAMPLE_WORDS * 64
    density = np.linspace(0.02, 0.98, width)
    bits = rng.random((len(inputs), width)) < density
    values = np.zeros((circuit.size, SAMPLE_WORDS), dtype=np.uint64)
    values[inputs] = pack(bits)
    circuit.evaluate(values)
    literals = sorted({literal for group in groups for literal in group})
    rows = unpack(packed_literal_rows(values, literals), width).astype(np.int16)
    return dict(zip(literals, rows, strict=True))


def _expected_pairs(rows: dict[int, np.ndarray], group: tuple[int, ...]) -> float:
    """In how many samples two literals of the group would hold together, were they
    independent with the frequencies sampled."""
    frequencies = np.array([rows[literal].mean() for literal in group])
    width = len(rows[group[0]])
    return width * (frequencies.sum() ** 2 - (frequencies**2).sum()) / 2


class _Prover:
    """Candidates proved one at a time on one free layer, each proved one a constraint of
    the layer from then on; a model rules out every candidate it breaks."""

    def __init__(self, unrolling: CnfUnrolling, candidates: list[tuple[tuple[int, ...], bool]]):
        self.unrolling = unrolling
        self.candidates = candidates
        self.solver_literals = [
            [unrolling.literal(literal, 0) for literal in group] for group, _ in candidates
        ]
        flat = [(i, lit) for i, lits in enumerate(self.solver_literals) for lit in lits]
        self.owner = np.array([i for i, _ in flat], dtype=np.int64)
        self.variable = np.array([_variable(lit) for _, lit in flat], dtype=np.int64)
        self.negated = np.array([_negated(lit) for _, lit in flat], dtype=bool)
        self.open = np.ones(len(candidates), dtype=bool)
        self.total = np.array([total for _, total in candidates], dtype=bool)

    def prove(self, budget: Budget) -> list[Functional]:
        """The candidates proved before the budget ends: in their order, CALL_SECONDS
        each, then those that took longer again, with all the time left each."""
        proved: list[Functional] = []
        slow: list[int] = []
        try:
            for index in range(len(self.candidates)):
                try:
                    self._prove(index, budget.part(CALL_SECONDS), proved)
                except OutOfBudget:
                    budget.check()  # only the call's share ran out
                    slow.append(index)
            for index in slow:  # still open unless a model since broke it
                self._prove(index, budget, proved)
        except OutOfBudget:
            pass  # what was proved stands
        return proved

    def _prove(self, index: int, budget: Budget, proved: list[Functional]) -> None:
        """Add candidate `index` to `proved` if it is open and holds (OutOfBudget if the
        budget ends first)."""
        if self.open[index] and self._holds(index, 2, budget):
            total = bool(self.total[index]) and self._holds(index, 0, budget)
            self.unrolling.add_linear(self._terms(index), int(total), 1)
            proved.append(Functional(self.candidates[index][0], total))

    def _holds(self, index: int, broken: int, budget: Budget) -> bool:
        """Whether no state (with legal actions) makes `broken` literals of the group
        true (2: at least two, 0: none); a model found rules out the candidates it breaks.
        OutOfBudget if the budget ends first."""
        terms = self._terms(index)
        switch = self.unrolling.new_variable()
        self.unrolling.add_linear(terms, broken, len(terms) if broken else 0, condition=switch)
        try:
            model = self.unrolling.satisfiable([switch], budget)
        finally:
            self.unrolling.add_clause([-switch])
        if model is False:
            return True
        self._rule_out(model)
        self.open[index] = False
        return False

    def _rule_out(self, model: Model) -> None:
        """Close the candidates (and drop the totalness) that the model breaks."""
        true = np.append(model.truth(), False)  # a variable past the model's end is false
        true[0] = True
        variable = np.minimum(self.variable, len(true) - 1)
        held = true[variable] ^ self.negated
        count = np.bincount(self.owner, weights=held, minlength=len(self.open))
        self.open &= count <= 1
        self.total &= count >= 1

    def _terms(self, index: int) -> list[tuple[int, object]]:
        return [(1, literal) for literal in self.solver_literals[index]]


def _variable(literal) -> int:
    """The solver variable of a literal; 0 stands for the constants (true in a model)."""
    return 0 if isinstance(literal, bool) else abs(literal)


def _negated(literal) -> bool:
    return literal is False or (not isinstance(literal, bool) and literal < 0)
