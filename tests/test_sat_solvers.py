"""The SAT layer's solvers (solvers/sat.py): every listed solver gives the same answers, and
CaDiCaL, which cannot be stopped in the middle of a call, keeps a time limit by chunks of
conflicts that do not depend on the clock."""

import random

import pytest
from pysat.examples.genhard import PHP

from gamecheck.budget import Budget, OutOfBudget
from gamecheck.solvers import sat
from gamecheck.solvers.sat import SAT_SOLVERS, Clauses


def random_3sat(variables: int, clauses: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [
        [rng.choice((1, -1)) * v for v in rng.sample(range(1, variables + 1), 3)]
        for _ in range(clauses)
    ]


def solved(solver: str, clauses: list[list[int]], assumptions=(), budget=None):
    with Clauses(solver) as cnf:
        cnf.new_variables(max(abs(lit) for clause in clauses for lit in clause))
        cnf.add_all(clauses)
        return cnf.solve(list(assumptions), budget)


def satisfies(model: set[int], clauses: list[list[int]]) -> bool:
    return all(any((lit > 0) == (abs(lit) in model) for lit in clause) for clause in clauses)


@pytest.mark.parametrize("solver", SAT_SOLVERS)
def test_every_solver_answers_alike(solver):
    # 5 pigeons do not fit in 4 holes; 60 variables in 200 random 3-clauses (ratio 3.3,
    # seeded) are satisfiable, which the model shows; assuming a unit's negation is not
    pigeons = PHP(4).clauses
    assert solved(solver, pigeons) is False
    clauses = random_3sat(60, 200, seed=1)
    model = solved(solver, clauses)
    assert model is not False and satisfies(model, clauses)
    first = clauses[0][0]
    assert solved(solver, [*clauses, [first]], assumptions=[-first]) is False


def test_cadical_stops_at_its_time_limit():
    # 11 pigeons in 10 holes take any CDCL solver far longer than a second
    with pytest.raises(OutOfBudget):
        solved("cadical195", PHP(10).clauses, budget=Budget(0.5))


def test_cadical_in_small_chunks_finds_the_same_model_every_time(monkeypatch):
    # near the threshold (ratio 4.1) the search takes many chunks of ten conflicts
    monkeypatch.setattr(sat, "FIRST_CHUNK", 10)
    monkeypatch.setattr(sat, "CHUNK_PROPAGATIONS", 500)
    calls = []
    solve_limited = sat.Solver.solve_limited
    monkeypatch.setattr(
        sat.Solver, "solve_limited", lambda self, **kw: calls.append(1) or solve_limited(self, **kw)
    )
    clauses = random_3sat(150, 615, seed=7)
    first = solved("cadical195", clauses)
    chunks = len(calls)
    assert chunks > 2
    assert solved("cadical195", clauses) == first
    assert first is False or satisfies(first, clauses)
