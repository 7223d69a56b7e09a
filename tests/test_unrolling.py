"""The unrolled encodings: linear constraints against brute force, and the two backends
against each other and against explicit enumeration of a small game's states."""

import itertools
import random

import pytest

from gamecheck.analysis.loading import load_rule_sheet
from gamecheck.analysis.verify.search import INDUCTION_DEPTHS
from gamecheck.budget import Budget
from gamecheck.gdl.terms import term_text
from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.ground.circuit import value
from gamecheck.solvers.ground.grounder import ground
from gamecheck.solvers.ground.invariants import find_invariants
from gamecheck.solvers.ground.unroll import holds, make_unrolling
from tests.game_checks import every_reachable_state, reachable_layers


@pytest.mark.parametrize("backend", ["cnf", "cpsat"])
def test_linear_constraints_match_brute_force(backend):
    system = ground(GdlGame.from_file("tests/data/gdl/hanoi.kif").rules, "hanoi")
    rng = random.Random(5)
    for _ in range(25):
        unrolling = make_unrolling(system, backend)
        variables = [unrolling.new_variable() for _ in range(4)]
        weights = [rng.choice([-3, -2, -1, 1, 2, 3]) for _ in variables]
        low = rng.randint(-4, 3)
        high = low + rng.randint(0, 3)
        unrolling.add_linear(list(zip(weights, variables, strict=True)), low, high)
        for bits in itertools.product([False, True], repeat=4):
            total = sum(w for w, bit in zip(weights, bits, strict=True) if bit)
            literals = [v if bit else -v for v, bit in zip(variables, bits, strict=True)]
            expected = low <= total <= high
            found = unrolling.satisfiable(literals, Budget()) is not False
            assert found == expected, (weights, low, high, bits)


@pytest.mark.parametrize("backend", ["cnf", "cpsat"])
def test_found_lines_reach_exactly_the_enumerated_states(backend):
    # At depth 3 of tic-tac-toe, every enumerated state is found by a query asking for it,
    # and a state that is not reachable (o to move after 3 marks... here: x has 3 marks) is not.
    sheet = GdlGame.from_file("tests/data/gdl/tictactoe.kif")
    system = ground(sheet.rules, "tictactoe")
    unrolling = make_unrolling(system, backend)
    states = next(itertools.islice(reachable_layers(sheet), 3, None), set())
    index = {term_text(f): i for i, f in enumerate(system.fluents)}
    for state in sorted(states, key=sorted)[:5]:
        wanted = {index[term_text(f)] for f in state}
        exact = system.circuit.conj(
            node if i in wanted else -node for i, node in enumerate(system.fluent_nodes)
        )
        assert unrolling.find(exact, [3], Budget()) is not None
    three_x = system.circuit.conj(system.fluent_nodes[index[f"(cell {i} 1 x)"]] for i in (1, 2, 3))
    assert unrolling.find(three_x, [3], Budget()) is None


@pytest.mark.parametrize(
    "name",
    [
        "tictacchess",
        pytest.param("sudoku", marks=pytest.mark.slow),
        pytest.param("cubicup", marks=pytest.mark.slow),
    ],
)
def test_proved_invariants_hold_on_every_state_of_random_play(name):
    system = ground(load_rule_sheet(name).rules, name)
    invariants = find_invariants(system, seed=1)
    rng = random.Random(9)
    for _ in range(3):
        state, steps = system.initial, 0
        while True:
            values = system.evaluate(state)
            for invariant in invariants.state:
                assert value(values, invariant.literal), invariant.description
            for counter in invariants.counters:
                total = sum(w for w, lit in counter.terms if value(values, lit))
                assert total == counter.start + steps, counter.description
            if value(values, system.terminal):
                break
            legal = system.legal_actions(state)
            if not all(legal):
                break
            state = system.successor(state, [rng.choice(actions) for actions in legal])
            steps += 1


def test_a_circuit_too_big_for_the_value_memory_gets_fewer_samples(monkeypatch):
    """With room for the node values of 100 states only, the invariants are checked against
    at most 100 sampled states (not MAX_SAMPLES), and the step counter of sudoku (-blanks ==
    -50 + t in grade1) is still found and proved."""
    from gamecheck.solvers.ground import state_candidates as module

    system = ground(load_rule_sheet("sudoku").rules, "sudoku")
    monkeypatch.setattr(module, "VALUE_BYTES", 100 * len(system.circuit))
    found = find_invariants(system)
    assert module.MIN_SAMPLES <= found.statistics["samples"] <= 100
    assert [c.start for c in found.counters] == [-50]


@pytest.mark.parametrize(
    ("name", "start"),
    # sudoku: a blank disappears every step (50 blanks in grade1, so the counter is
    # -blanks == -50 + t); cubicup: a cube is added every step on top of 36 ground cubes.
    [("sudoku", -50), pytest.param("cubicup", 36, marks=pytest.mark.slow)],
)
def test_counters_are_found(name, start):
    invariants = find_invariants(ground(load_rule_sheet(name).rules, name))
    assert [c.start for c in invariants.counters] == [start]


def test_holds_reads_negative_literals():
    assert holds(3, {3}) and not holds(-3, {3}) and holds(-4, {3}) and holds(True, set())


def test_playout_lines_replay_to_the_state_they_claim():
    from gamecheck.analysis.replay import replay_line
    from gamecheck.solvers.ground.sampling import random_playouts

    sheet = GdlGame.from_file("tests/data/gdl/tictactoe.kif")
    system = ground(sheet.rules, "tictactoe")
    playouts = random_playouts(system, 64, max_steps=20, seed=4)
    # Every playout ends within 9 steps, terminal: a line of x or o, or a full board.
    assert playouts.lengths.max() <= 9
    line = playouts.find(system, system.terminal, range(0, 10))
    assert line is not None and 5 <= line.depth <= 9
    texts = [[system.action_text(r, a) for r, a in enumerate(joint)] for joint in line.steps]
    last = replay_line(sheet, texts).states[-1]
    assert sheet.is_terminal(last)
    assert playouts.find(system, system.terminal, range(0, 5)) is None


@pytest.mark.parametrize("backend", ["cnf", "cpsat"])
def test_induction_proves_only_what_enumeration_confirms(backend):
    # Tic-tac-toe's reachable states, enumerated: a condition that k-induction (with the
    # proved invariants) declares unreachable must hold in none of them; a cell holding two
    # marks at once is unreachable and 1-inductive, so some proof must succeed.
    sheet = GdlGame.from_file("tests/data/gdl/tictactoe.kif")
    system = ground(sheet.rules, "tictactoe")
    states = make_unrolling(system, backend, free_start=True)
    states.use_invariants(find_invariants(system))
    reachable = every_reachable_state(sheet)
    index = {term_text(f): i for i, f in enumerate(system.fluents)}
    node = {text: system.fluent_nodes[i] for text, i in index.items()}
    circuit = system.circuit
    conditions = {
        "x and o in one cell": circuit.conj([node["(cell 2 2 x)"], node["(cell 2 2 o)"]]),
        "x in the corner": node["(cell 1 1 x)"],
        "x's row and o's row": circuit.conj(
            [node[f"(cell {i} 1 x)"] for i in (1, 2, 3)]
            + [node[f"(cell {i} 3 o)"] for i in (1, 2, 3)]
        ),
    }
    values = [system.evaluate({index[term_text(f)] for f in state}) for state in reachable]
    proved = set()
    for name, condition in conditions.items():
        occurs = any(value(v, condition) for v in values)
        for k in (1, 2, 4):
            if states.inductive(condition, k, Budget()):
                assert not occurs, (name, k)
                proved.add(name)
    assert "x and o in one cell" in proved
    assert "x in the corner" not in proved


def test_the_searchs_induction_reaches_past_a_six_step_opening():
    # opening.kif: at (step 6) at most ten cells are filled (by hand: one or two a step
    # over five steps, or none), as the enumerated states confirm; 4-induction cannot tell
    # (from (step 2) with three filled, four steps fill eleven), but some k the search tries
    # can (a line five steps back from (step 6) starts at (step 1), with none filled).
    sheet = GdlGame.from_file("tests/data/gdl/opening.kif")
    system = ground(sheet.rules, "opening")
    states = make_unrolling(system, "cnf", free_start=True)
    states.use_invariants(find_invariants(system))
    node = {term_text(f): n for f, n in zip(system.fluents, system.fluent_nodes, strict=True)}
    eleven_at_six = system.circuit.conj([node["(step 6)"], node["(filled 11)"]])
    reachable = [set(map(term_text, state)) for state in every_reachable_state(sheet)]
    assert any({"(step 6)", "(filled 10)"} <= fluents for fluents in reachable)
    assert not any({"(step 6)", "(filled 11)"} <= fluents for fluents in reachable)
    assert not states.inductive(eleven_at_six, 4, Budget())
    assert any(states.inductive(eleven_at_six, k, Budget()) for k in INDUCTION_DEPTHS)


@pytest.mark.parametrize("backend", ["cnf", "cpsat"])
@pytest.mark.parametrize("sheet", ["tictactoe", "connect4_small"])
def test_every_node_of_a_layer_has_its_value_along_a_line_of_play(backend, sheet):
    """With the actions of a random line of play assumed, every node of the circuit (the
    step's and the goals') has at each layer the value the plain evaluator gives it."""
    from gamecheck.solvers.ground.sampling import random_playouts

    system = ground(GdlGame.from_file(f"tests/data/gdl/{sheet}.kif").rules, sheet)
    playouts = random_playouts(system, 4, max_steps=12, seed=7)
    goals = [literal for values in system.goals for literal in values.values()]
    circuit_nodes = range(2, len(system.circuit.children))
    for player in range(4):
        length = int(playouts.lengths[player])
        line = [tuple(int(a) for a in playouts.actions[t, player]) for t in range(length)]
        unrolling = make_unrolling(system, backend)
        assumptions = [unrolling.alive(length)]
        for t, joint in enumerate(line):
            assumptions += [unrolling.does(role, a, t) for role, a in enumerate(joint)]
        # after the last step no action is taken: only what the state decides is checked
        checked = [circuit_nodes] * length + [[system.terminal, *goals]]
        literals = [
            [unrolling.literal(node, t) for node in nodes] for t, nodes in enumerate(checked)
        ]
        model = unrolling.satisfiable(assumptions, Budget())
        assert model is not False
        state = system.initial
        for t, joint in enumerate([*line, None]):
            values = system.evaluate(state, joint)
            for node, literal in zip(checked[t], literals[t], strict=True):
                assert holds(literal, model) == value(values, node), (t, node)
            if joint is not None:
                state = system.successor(state, joint)


@pytest.mark.parametrize("backend", ["cnf", "cpsat"])
@pytest.mark.parametrize("first", ["goals", "condition"])
def test_a_condition_over_the_goals_reuses_their_encoding(backend, first):
    """A query's condition built on a goal (an outcome to exclude, a win to reach) adds
    its own gate only: the goals' gates at that layer are encoded once, whichever is asked
    first. (In pegs the goal counts the pegs left: 35 gates of its own.)"""
    system = ground(GdlGame.from_file("tests/data/gdl/pegs_4x4.kif").rules, "pegs")
    goals = [literal for values in system.goals for literal in values.values()]
    condition = system.circuit.conj([system.terminal, goals[0]])

    def variables_after(nodes) -> int:
        unrolling = make_unrolling(system, backend)
        for node in nodes:
            unrolling.literal(node, 3)
        return unrolling.size()["variables"]

    goals_alone = variables_after([system.terminal, *goals])
    asked = [condition, *goals] if first == "condition" else [*goals, condition]
    assert variables_after([system.terminal, *asked]) == goals_alone + 1
