"""Functional dependencies among derived atoms (solvers/ground/functional.py): found where a
relation is a function of some arguments, checked on every assignment of the fluents."""

from __future__ import annotations

import itertools

import pytest

from gamecheck.budget import Budget
from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.ground.circuit import value
from gamecheck.solvers.ground.functional import find_functional
from gamecheck.solvers.ground.grounder import ground
from gamecheck.solvers.ground.invariants import Invariants
from gamecheck.solvers.ground.sampling import random_playouts
from gamecheck.solvers.ground.unroll import make_unrolling

# Two roles mark the cells of a row of four in turn. (count ?y ?r ?n): role r holds n of
# the cells 1..y, counted cell by cell as reversi counts its pieces; the role with more
# cells at the end wins, equal counts draw.
ROW_COUNT = """
(role white) (role black)
(opponent white black) (opponent black white)
(init (control white))
(index 1) (index 2) (index 3) (index 4)
(after 1 2) (after 2 3) (after 3 4)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
(greater 1 0) (greater 2 0) (greater 3 0) (greater 4 0) (greater 2 1) (greater 3 1)
(greater 4 1) (greater 3 2) (greater 4 2) (greater 4 3)
(<= (marked ?x) (true (cell ?x ?r)))
(<= (legal ?r (mark ?x)) (true (control ?r)) (index ?x) (not (marked ?x)))
(<= (legal ?r noop) (role ?r) (not (true (control ?r))))
(<= (next (cell ?x ?r)) (does ?r (mark ?x)))
(<= (next (cell ?x ?r)) (true (cell ?x ?r)))
(<= (next (control ?o)) (true (control ?r)) (opponent ?r ?o))
(<= (count 1 ?r 1) (true (cell 1 ?r)))
(<= (count 1 ?r 0) (role ?r) (not (true (cell 1 ?r))))
(<= (count ?y ?r ?m) (after ?x ?y) (count ?x ?r ?n) (true (cell ?y ?r)) (succ ?n ?m))
(<= (count ?y ?r ?n) (after ?x ?y) (count ?x ?r ?n) (not (true (cell ?y ?r))))
(<= (more ?r) (opponent ?r ?o) (count 4 ?r ?n) (count 4 ?o ?m) (greater ?n ?m))
(<= open (index ?x) (not (marked ?x)))
(<= terminal (not open))
(<= (goal ?r 100) (more ?r))
(<= (goal ?r 0) (opponent ?r ?o) (more ?o))
(<= (goal ?r 50) (role ?r) (not (more white)) (not (more black)))
"""


@pytest.fixture(scope="module")
def row_count():
    system = ground(GdlGame.from_text(ROW_COUNT, "row_count.kif").rules, "row_count")
    found = find_functional(system, random_playouts(system, 16, max_steps=10), Budget(60))
    return system, found


def claimed(system, found, atoms) -> bool | None:
    """Whether the found dependencies have the group of these atoms as total (True), as at
    most one (False), or not at all (None)."""
    literals = frozenset(system.derived[atom] for atom in atoms)
    return {frozenset(f.literals): f.total for f in found}.get(literals)


def test_each_running_count_has_exactly_one_value(row_count):
    """By hand: after cell y a role holds between 0 and y of the cells 1..y, one number."""
    system, found = row_count
    for y, role in itertools.product(range(1, 5), ("white", "black")):
        values = [("count", str(y), role, str(n)) for n in range(y + 1)]
        assert claimed(system, found, values) is True, (y, role)


def test_each_role_has_one_goal_value_whatever_the_cells(row_count):
    """By hand: `more` holds for at most one role, since each count has one value; so a
    role's goal is 100, 0 or 50, exactly one of them."""
    system, found = row_count
    for role in ("white", "black"):
        goals = [("goal", role, str(v)) for v in (0, 50, 100)]
        assert claimed(system, found, goals) is True, role


def test_every_dependency_holds_on_every_assignment_of_the_fluents(row_count):
    """Brute force over all 2^10 assignments of the fluents, by the circuit's own values:
    at most one literal of a group (exactly one of a total group) holds."""
    system, found = row_count
    assert found
    nodes = system.fluent_nodes
    for bits in itertools.product((False, True), repeat=len(nodes)):
        values = system.circuit.evaluate(dict(zip(nodes, bits, strict=True)))
        for functional in found:
            held = sum(value(values, literal) for literal in functional.literals)
            assert held <= 1 and (held == 1 or not functional.total)


def test_a_relation_that_is_not_a_function_is_not_claimed(row_count):
    """`marked` holds for any number of cells at once: no group of its atoms is claimed."""
    system, found = row_count
    marked = {system.derived["marked", str(x)] for x in range(1, 5)}
    assert all(len(marked & set(f.literals)) < 2 for f in found)


def test_states_under_the_dependencies_keep_every_goal_vector_a_state_can_have(row_count):
    """The dependencies constrain each layer but rule out no state: a full row with three
    white cells gives white 100, with two each a draw; two roles winning at once is
    impossible."""
    system, found = row_count
    states = make_unrolling(system, "cnf", free_start=True)
    states.use_invariants(Invariants(functional=found))
    goals = [system.goals[0], system.goals[1]]
    circuit = system.circuit

    def possible(*literals) -> bool:
        return states.state_possible(circuit.conj([system.terminal, *literals]), Budget(30))

    assert possible(goals[0][100], goals[1][0])
    assert possible(goals[0][50], goals[1][50])
    assert not possible(goals[0][100], goals[1][100])
