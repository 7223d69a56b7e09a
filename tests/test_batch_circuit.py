"""The circuit compiled for batches of playout states (solvers/ground/sampling.py) against
the plain one-state evaluator of the circuit (Circuit.evaluate)."""

import numpy as np

from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.ground.circuit import value
from gamecheck.solvers.ground.grounder import ground
from gamecheck.solvers.ground.sampling import random_playouts


def plain_values(system, state_row):
    """Every node's value in one state, by the plain evaluator (actions all false)."""
    inputs = {node: bool(state_row[i]) for i, node in enumerate(system.fluent_nodes)}
    return system.circuit.evaluate(inputs)


def test_a_cone_of_the_compiled_circuit_evaluates_like_the_plain_circuit():
    system = ground(GdlGame.from_file("tests/data/gdl/tictactoe.kif").rules, "tictactoe")
    playouts = random_playouts(system, 64, max_steps=20, seed=2)
    states = np.unique(playouts.visited(), axis=0)
    assert len(states) > 100  # many distinct positions, not just the empty board
    circuit = system.circuit
    # gates made after the playouts (as the questions of verify make them) are compiled
    # when a cone needs them
    line_or_full = circuit.disj([system.terminal, *(-lit for lit in system.legal[0])])
    roots = [system.terminal, -system.terminal, line_or_full, *system.legal[1]]
    cone = playouts.circuit.restricted(roots)
    batch = cone.node_rows(system, states, roots)
    for row, state in zip(batch.T, states, strict=True):
        values = plain_values(system, state)
        assert list(row) == [value(values, root) for root in roots]


def test_a_playout_line_is_the_shallowest_one_that_meets_the_condition():
    system = ground(GdlGame.from_file("tests/data/gdl/tictactoe.kif").rules, "tictactoe")
    playouts = random_playouts(system, 64, max_steps=20, seed=3)
    # By hand: a terminal state of tic-tac-toe needs at least 5 marks (3 of x's, 2 of o's).
    line = playouts.find(system, system.terminal, range(0, 10))
    assert line is not None
    shortest = min(int(n) for n in playouts.lengths)
    assert line.depth == shortest >= 5


def test_a_line_run_on_the_compiled_cone_ends_where_the_plain_circuit_steps_to():
    system = ground(GdlGame.from_file("tests/data/gdl/tictactoe.kif").rules, "tictactoe")
    playouts = random_playouts(system, 64, max_steps=20, seed=4)
    stepper = playouts.compiled(system, list(system.next))
    for player in range(0, 64, 7):
        for depth in range(int(playouts.lengths[player]) + 1):
            line = playouts.line(player, depth)
            plain = system.initial
            for joint in line.steps:
                plain = system.successor(plain, joint)
            recorded = frozenset(np.flatnonzero(playouts.states[depth, player]).tolist())
            assert stepper.run(system, line.steps) == plain == recorded
