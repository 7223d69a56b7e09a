"""The one SAT layer: literals with constants folded, the shared AND gate, and an incremental
python-sat solver that stops when the budget says so. Every CNF in gamecheck goes through it.

Literals are ints (negative for negation) or the constants True and False.

>>> with Clauses() as cnf:
...     a, b = cnf.new_variable(), cnf.new_variable()
...     both = cnf.conj([a, b, True])
...     cnf.conj([b, a]) == both, cnf.conj([a, -a]), sorted(cnf.solve([both]))
(True, False, [1, 2, 3])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.pb import PBEnc
from pysat.solvers import Solver

from gamecheck.budget import Budget
from gamecheck.errors import GamecheckError

Lit = int | bool
"""A solver literal (negative for negation), or a constant."""
DEFAULT_SAT_SOLVER = "minisat22"
"""The one default (verify, sudoku): it stops within milliseconds of an interrupt, where
glucose3 and glucose4 ran on for up to 2.4 s, so it keeps a time limit; and it was as fast
or faster (bench/sudoku.py: 1.5-2x the puzzles/s; cubicup's shortest game 22 s, not 166 s)."""
SAT_SOLVERS = (
    "glucose4",
    "glucose3",
    "glucose42",
    "maplechrono",
    "maplecm",
    "maplesat",
    "mergesat3",
    "minisat22",
)
"""The python-sat solvers that can be stopped in the middle of a call (CaDiCaL, Lingeling
and Kissat cannot, so they could not keep a time limit)."""


def check_sat_solver(name: str | None) -> str:
    """The solver name to use (the default for None); GamecheckError for an unknown one."""
    if name is None:
        return DEFAULT_SAT_SOLVER
    if name not in SAT_SOLVERS:
        raise GamecheckError(
            f"unknown SAT solver {name!r}; the solvers that keep a time limit are "
            f"{', '.join(SAT_SOLVERS)}"
        )
    return name


def negate(literal: Lit) -> Lit:
    return (not literal) if isinstance(literal, bool) else -literal


def count_in_unary(
    literals: Sequence[Lit],
    new_variable: Callable[[], int],
    add_clause: Callable[[list[Lit]], None],
) -> list[Lit]:
    """How many of `literals` hold, in unary: x[j] holds exactly where more than j do (the
    true constants first, then a totalizer over the others: Bailleux and Boufkhad, 2003,
    whose clauses have no constants)."""
    ones: list[Lit] = [True] * sum(1 for literal in literals if literal is True)
    free = [literal for literal in literals if not isinstance(literal, bool)]
    return ones + _unary(free, new_variable, add_clause)


def _unary(literals: list[int], new_variable, add_clause) -> list[int]:
    if len(literals) <= 1:
        return literals
    half = len(literals) // 2
    a = _unary(literals[:half], new_variable, add_clause)
    b = _unary(literals[half:], new_variable, add_clause)
    return merge_unary(a, b, new_variable, add_clause)


def merge_unary(
    a: Sequence[Lit],
    b: Sequence[Lit],
    new_variable: Callable[[], int],
    add_clause: Callable[[list[Lit]], None],
) -> list[int]:
    """The sum of two numbers in unary (x[j]: more than j), in unary: fresh literals,
    their clauses both ways (constants in them only where `a` or `b` has some, for
    `add_clause` to fold)."""
    c = [new_variable() for _ in range(len(a) + len(b))]
    not_a, not_b = [negate(x) for x in a], [negate(x) for x in b]
    for i in range(len(a) + 1):
        for j in range(len(b) + 1):
            if i + j:  # at least i of a and j of b: at least i + j
                clause = [c[i + j - 1]]
                if i:
                    clause.append(not_a[i - 1])
                if j:
                    clause.append(not_b[j - 1])
                add_clause(clause)
            if i + j < len(c):  # at most i of a and j of b: at most i + j
                clause = [-c[i + j]]
                if i < len(a):
                    clause.append(a[i])
                if j < len(b):
                    clause.append(b[j])
                add_clause(clause)
    return c


def unary_complement(unary: Sequence[Lit]) -> list[Lit]:
    """How many of n literals do not hold, in unary, from how many do (n outputs)."""
    return [negate(literal) for literal in reversed(unary)]


def and_clauses(gate: int, inputs: Sequence[int]) -> list[list[int]]:
    """The clauses that make `gate` equal the AND of `inputs`."""
    return [*([-gate, literal] for literal in inputs), [gate, *(-literal for literal in inputs)]]


class Model:
    """A model as the solver gives it (a list of literals, the variable v at v - 1), read as
    the set of its true variables (`v in model`, iteration) without building that set: a
    pass over every variable per call made crossers3's Houdini runs 10-14% slower."""

    __slots__ = ("literals",)

    def __init__(self, literals: list[int]):
        self.literals = literals

    def __contains__(self, variable: int) -> bool:
        """Whether the variable is true (a variable past the list's end is false)."""
        return 0 < variable <= len(self.literals) and self.literals[variable - 1] > 0

    def __iter__(self) -> Iterator[int]:
        return (literal for literal in self.literals if literal > 0)

    def truth(self) -> np.ndarray:
        """Per variable v (index v; index 0 unused), whether it is true."""
        truth = np.zeros(len(self.literals) + 1, dtype=bool)
        truth[1:] = np.asarray(self.literals) > 0
        return truth


def holds(literal: Lit, model: Model | set[int]) -> bool:
    """Whether a literal is true in a model (or a set of true variables)."""
    if isinstance(literal, bool):
        return literal
    return literal in model if literal > 0 else -literal not in model


def conjuncts(literals: Iterable[Lit]) -> bool | tuple[int, ...]:
    """The variables of an AND with constants folded, sorted: or False (a False literal, or
    a literal and its negation), or True (nothing left)."""
    kept: set[int] = set()
    for literal in literals:
        if literal is False or (literal is not True and -literal in kept):
            return False
        if literal is not True:
            kept.add(literal)
    return tuple(sorted(kept)) or True


def shared_and(
    gates: dict[tuple[int, ...], int], literals: Iterable[Lit], new_gate: Callable[[tuple], int]
) -> Lit:
    """A literal equal to the AND of `literals`: constants folded, and one gate per set of
    inputs (`gates` remembers them; `new_gate(inputs)` makes a missing one)."""
    key = conjuncts(literals)
    if isinstance(key, bool):
        return key
    if len(key) == 1:
        return key[0]
    gate = gates.get(key)
    if gate is None:
        gate = gates[key] = new_gate(key)
    return gate


def solve_within(solver: Solver, assumptions: Sequence[int], budget: Budget) -> bool:
    """Whether the clauses of `solver` and `assumptions` are satisfiable; OutOfBudget if the
    budget ends first (the solver is stopped in the middle of the call)."""
    while True:
        budget.check()
        solver.clear_interrupt()
        with budget.stopping(solver.interrupt):
            answer = solver.solve_limited(assumptions=list(assumptions), expect_interrupt=True)
        if answer is not None:
            return answer


@dataclass(frozen=True)
class Query:
    """A recorded solver call: its assumptions, what it asked, and its answer."""

    assumptions: tuple[int, ...]
    note: str
    answer: str
    """`SAT`, `UNSAT` or `unknown` (the budget ended first)."""


class Clauses:
    """Clauses in one incremental SAT solver, built through folded, shared AND gates
    (Tseitin); optionally recorded, with every query, for an export (`icnf`). Use it as a
    context manager."""

    def __init__(self, sat_solver: str | None = None, *, record: bool = False):
        self.pool = IDPool()
        self.solver = Solver(name=check_sat_solver(sat_solver))
        self.recorded: list[list[int] | Query] | None = [] if record else None
        self.clause_count = 0
        self._gates: dict[tuple[int, ...], int] = {}

    def __enter__(self) -> Clauses:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.solver.delete()

    def new_variable(self) -> int:
        return self.pool.id()

    def add(self, literals: Sequence[int]) -> None:
        """One clause of variables (no constants, never empty)."""
        self.solver.add_clause(literals)
        self.clause_count += 1
        if self.recorded is not None:
            self.recorded.append(list(literals))

    def clause(self, literals: Iterable[Lit]) -> None:
        """At least one of `literals` holds (constants allowed; none left: unsatisfiable)."""
        literals = list(literals)
        if any(literal is True for literal in literals):
            return
        kept = [literal for literal in literals if literal is not False]
        if not kept:
            contradiction = self.new_variable()
            self.add([contradiction])
            kept = [-contradiction]
        self.add(kept)

    def new_variables(self, count: int) -> np.ndarray:
        """`count` fresh variables, numbered consecutively."""
        first = self.pool.top + 1
        self.pool.top += count
        return np.arange(first, first + count, dtype=np.int64)

    def add_all(self, clauses: list[list[int]]) -> None:
        """Clauses of variables (no constants, none empty)."""
        self.solver.append_formula(clauses)
        self.clause_count += len(clauses)
        if self.recorded is not None:
            self.recorded.extend(clauses)

    def define_ands(self, gates: np.ndarray, inputs: np.ndarray, counts: np.ndarray) -> None:
        """Constrain each gate to equal the AND of its inputs (`inputs` flattened, `counts`
        of them per gate), building the clauses with whole-array operations."""
        self.add_all(np.stack([-np.repeat(gates, counts), inputs], axis=1).tolist())
        starts = np.cumsum(counts + 1) - (counts + 1)
        long = np.empty(len(inputs) + len(gates), dtype=np.int64)
        long[starts] = gates
        others = np.ones(len(long), dtype=bool)
        others[starts] = False
        long[others] = -inputs
        flat = long.tolist()
        ends = (starts + counts + 1).tolist()
        self.add_all([flat[s:e] for s, e in zip(starts.tolist(), ends, strict=True)])

    def define_and(self, gate: int, inputs: Sequence[int]) -> None:
        """Constrain `gate` to equal the AND of `inputs`."""
        for clause in and_clauses(gate, inputs):
            self.add(clause)

    def conj(self, literals: Iterable[Lit]) -> Lit:
        """A literal equal to the AND of `literals`."""
        return shared_and(self._gates, literals, self._new_gate)

    def _new_gate(self, inputs: tuple[int, ...]) -> int:
        gate = self.new_variable()
        self.define_and(gate, inputs)
        return gate

    def disj(self, literals: Iterable[Lit]) -> Lit:
        """A literal equal to the OR of `literals`."""
        return negate(self.conj(negate(literal) for literal in literals))

    def at_most_one(self, literals: Sequence[int]) -> None:
        if len(literals) > 1:
            encoding = CardEnc.atmost(literals, 1, vpool=self.pool, encoding=EncType.seqcounter)
            for clause in encoding.clauses:
                self.add(clause)

    def exactly_one_if(self, condition: Lit, literals: Sequence[Lit]) -> None:
        """At most one of `literals` (variables or False), and if `condition` exactly one."""
        variables = [literal for literal in literals if literal is not False]
        self.clause([negate(condition), *variables])
        self.at_most_one(variables)

    def linear_if(
        self, condition: int | None, terms: list[tuple[int, int]], low: int, high: int
    ) -> None:
        """If `condition` holds (always, when None): low <= sum of the weights of the true
        literals <= high. Weights are positive."""
        weights = [weight for weight, _ in terms]
        literals = [literal for _, literal in terms]
        guard = [] if condition is None else [-condition]
        encodings = []
        if low > 0:
            encodings.append(PBEnc.atleast(literals, weights, bound=low, vpool=self.pool))
        if high < sum(weights):
            encodings.append(PBEnc.atmost(literals, weights, bound=high, vpool=self.pool))
        for encoding in encodings:
            for clause in encoding.clauses:
                self.add(guard + clause)

    def solve(self, assumptions: Sequence[Lit] = (), budget: Budget | None = None, note: str = ""):
        """The true variables of a model (a `Model`) in which the assumptions hold,
        or False if there is none; OutOfBudget if the budget ends first. `note` says what
        the call asks, for the record."""
        if any(literal is False for literal in assumptions):
            return False
        wanted = [literal for literal in assumptions if literal is not True]
        answer = "unknown"
        try:
            satisfiable = solve_within(self.solver, wanted, budget or Budget())
            answer = "SAT" if satisfiable else "UNSAT"
        finally:
            if self.recorded is not None:
                self.recorded.append(Query(tuple(wanted), note, answer))
        if not satisfiable:
            return False
        model = self.solver.get_model()
        self.solver.set_phases(model)  # the next, often similar, query starts from this model
        return Model(model)

    def icnf(self, comment: str, labels: dict[int, str]) -> str:
        """The recorded clauses and queries as incremental CNF (`p inccnf`: clauses, and an
        `a ... 0` line of assumptions for each solver call, in the order they happened),
        each query after a comment with its note and answer, the variables' names in
        comments at the top."""
        lines = [f"c {line}" for line in comment.splitlines()]
        lines += [f"c var {variable} {label}" for variable, label in sorted(labels.items())]
        lines.append("p inccnf")
        number = 0
        for entry in self.recorded or []:
            if isinstance(entry, Query):
                number += 1
                lines.append(f"c query {number}: {entry.note}: {entry.answer}")
                lines.append(" ".join(map(str, ("a", *entry.assumptions, 0))))
            else:
                lines.append(" ".join(map(str, (*entry, 0))))
        return "\n".join(lines) + "\n"

    def size(self) -> dict[str, int]:
        return {"variables": self.pool.top, "clauses": self.clause_count}
