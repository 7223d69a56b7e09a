"""The grounder against the GDL reasoner: the ground transition system, played through its
circuit, must be the same game as the rule sheet it came from."""

import itertools

import pytest

from gamecheck.analysis.loading import load_rule_sheet
from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.ground.circuit import FALSE, TRUE, Circuit, value
from gamecheck.solvers.ground.ground_game import GroundGame
from gamecheck.solvers.ground.grounder import ground
from tests.gdl_differential import assert_same_game

BUILT_IN = ["cubicup", "ttcc4", "tictactoe3d", "sudoku", "tictacchess"]


@pytest.mark.parametrize("name", BUILT_IN)
def test_ground_system_plays_like_the_reasoner(name):
    sheet = load_rule_sheet(name)
    system = ground(sheet.rules, name)
    assert assert_same_game(GroundGame(system), sheet, playouts=1, seed=3) > 0


@pytest.mark.parametrize("name", ["tictactoe", "connect4_small", "hanoi", "form_stratified"])
def test_small_sheets_ground_like_the_reasoner(name):
    sheet = GdlGame.from_file(f"tests/data/gdl/{name}.kif")
    assert assert_same_game(GroundGame(ground(sheet.rules, name)), sheet, playouts=20, seed=1)


def test_positive_cycles_reach_the_least_fixpoint():
    # p and q support each other but nothing starts them: the Datalog answer is false,
    # which Clark's completion alone would not force. r is true through the cycle only
    # when (true go) holds.
    sheet = GdlGame.from_text(
        """(role a) (init go)
        (<= p q) (<= q p) (<= q r) (<= r (true go))
        (<= (legal a x) (role a))
        (<= (next go) (does a x) (not (true go)))
        (<= terminal p (not (true go)))
        (<= (goal a 100) terminal) (<= (goal a 0) (not terminal))""",
        "cycle",
    )
    game = GroundGame(ground(sheet.rules, "cycle"))
    start = game.initial_state()
    after = game.next(start, [game.legal(start, "a")[0]])
    assert not game.is_terminal(start) and not game.is_terminal(after)


def test_relations_nothing_uses_are_not_grounded():
    # `pair` would hold 300 * 300 facts in every state, but no output depends on it: the
    # game is one step (x) from go to done, done terminal and worth 100.
    numbers = " ".join(f"(n {i})" for i in range(300))
    sheet = GdlGame.from_text(
        f"""(role a) (init go) {numbers}
        (<= (pair ?x ?y) (true go) (n ?x) (n ?y))
        (<= (legal a x) (true go))
        (<= (next done) (does a x))
        (<= terminal (true done))
        (<= (goal a 100) (true done)) (<= (goal a 0) (true go))""",
        "unused",
    )
    game = GroundGame(ground(sheet.rules, "unused", max_facts=10_000))
    start = game.initial_state()
    end = game.next(start, [game.legal(start, "a")[0]])
    assert not game.is_terminal(start) and game.is_terminal(end)
    assert game.goals(end) == (100,)


def test_circuit_folds_constants_and_shares_gates():
    circuit = Circuit()
    a, b = circuit.input("a"), circuit.input("b")
    assert circuit.conj([a, TRUE]) == a
    assert circuit.conj([a, FALSE]) == FALSE
    assert circuit.conj([a, -a]) == FALSE
    assert circuit.conj([]) == TRUE and circuit.disj([]) == FALSE
    assert circuit.conj([a, b]) == circuit.conj([b, a])
    both, only_a = circuit.conj([a, b]), circuit.conj([a, -b])
    one_of = circuit.at_most_one([a, b])
    values = circuit.evaluate({a: True, b: False})
    assert values[both] is False and values[only_a] is True
    assert value(values, one_of)
    assert not value(circuit.evaluate({a: True, b: True}), one_of)


@pytest.mark.parametrize("size", range(6))
def test_at_most_one_against_counting(size):
    # every assignment of `size` inputs: the gate holds exactly when at most one input does
    circuit = Circuit()
    inputs = [circuit.input(f"x{i}") for i in range(size)]
    one_of = circuit.at_most_one(inputs)
    for bits in itertools.product((False, True), repeat=size):
        values = circuit.evaluate(dict(zip(inputs, bits, strict=True)))
        assert value(values, one_of) == (sum(bits) <= 1), bits
