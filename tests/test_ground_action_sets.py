"""Unions of actions written the short way round (solvers/ground/action_sets.py): the rewritten
rule instances mean what they meant whenever every role does exactly one action (checked by
evaluating both on every state and joint action of random instances), and a frame axiom
over moves grows with the moves, not with cells times moves (counted by hand)."""

import itertools
import random

from gamecheck.budget import Budget
from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.ground.action_sets import PREFIX, shorten_action_disjunctions
from gamecheck.solvers.ground.ground_game import GroundGame
from gamecheck.solvers.ground.grounder import ground
from tests.gdl_differential import assert_same_game

ACTIONS = {"red": ("a0", "a1", "a2", "a3", "a4"), "blue": ("b0", "b1", "b2")}
FLUENTS = [("true", f"f{i}") for i in range(3)]


def does(role: str, action: str):
    return (True, ("does", role, action))


def holds(atom, instances, inputs) -> bool:
    """The value of a ground atom: an input's given value, else the OR of its bodies."""
    if atom not in instances:
        return inputs.get(atom, False)
    return any(
        all(holds(a, instances, inputs) == positive for positive, a in body)
        for body in instances[atom]
    )


def test_bodies_that_differ_in_their_action_become_one_over_the_other_actions():
    # red does a0..a4 and keeps f0 after any of a0..a3: (f0 and a0) or ... or (f0 and a3)
    # == f0 and not a4, as red does exactly one action. The (f1 and a0) body stays as it is
    # (a0 alone is shorter than the four other actions), and so does the body with two
    # actions. Bodies without a shortened union come first.
    frame = [[(True, ("true", "f0")), does("red", a)] for a in ACTIONS["red"][:4]]
    instances = {
        ("next", "f0"): frame + [[(True, ("true", "f1")), does("red", "a0")]],
        ("next", "f1"): [[does("red", "a1"), does("blue", "b0")]],
    }
    shortened = shorten_action_disjunctions(instances, ACTIONS, Budget())
    union = (PREFIX, 0)
    assert shortened == {
        ("next", "f0"): [
            [(True, ("true", "f0")), (True, union)],
            [(True, ("true", "f1")), does("red", "a0")],
        ],
        ("next", "f1"): [[does("red", "a1"), does("blue", "b0")]],
        union: [[(False, ("does", "red", "a4"))]],
    }


def test_an_or_of_nearly_all_actions_of_two_roles_is_written_per_role():
    # An auxiliary atom u = any red action but a4, or blue's b0: red's share is written as
    # not a4, blue's as b0 (its two other actions are not fewer).
    instances = {
        "u": [[does("red", a)] for a in ACTIONS["red"][:4]] + [[does("blue", "b0")]],
        ("next", "f0"): [[(True, ("true", "f0")), (True, "u")], [(True, ("true", "f1"))]],
    }
    shortened = shorten_action_disjunctions(instances, ACTIONS, Budget())
    union = (PREFIX, 0)
    assert shortened[union] == [[(False, ("does", "red", "a4"))], [does("blue", "b0")]]
    assert shortened[("next", "f0")] == [
        [(True, ("true", "f1"))],
        [(True, ("true", "f0")), (True, union)],
    ]


def random_instances(rng: random.Random) -> dict:
    """Auxiliary atoms that are ORs of actions (some of other such atoms) and output atoms
    whose bodies are fluent literals with none, one or two actions."""
    every = [("does", role, a) for role, actions in ACTIONS.items() for a in actions]
    instances: dict = {}
    for number in range(4):
        choices = every + [f"u{i}" for i in range(number)]
        instances[f"u{number}"] = [[(True, a)] for a in rng.sample(choices, rng.randint(1, 7))]
    action_atoms = every + list(instances)
    for number in range(4):
        bodies = []
        for _ in range(rng.randint(1, 8)):
            body = [(rng.random() < 0.7, f) for f in rng.sample(FLUENTS, rng.randint(0, 2))]
            body += [(True, a) for a in rng.sample(action_atoms, rng.choice([0, 1, 1, 1, 2]))]
            bodies.append(body)
        instances[("next", f"f{number}")] = bodies
    return instances


def test_random_instances_mean_the_same_when_each_role_does_one_action():
    rng = random.Random(3)
    rewritten = 0
    for _ in range(300):
        instances = random_instances(rng)
        shortened = shorten_action_disjunctions(instances, ACTIONS, Budget())
        rewritten += any(isinstance(atom, tuple) and atom[0] == PREFIX for atom in shortened)
        outputs = [atom for atom in instances if isinstance(atom, tuple)]
        for bits in itertools.product([False, True], repeat=len(FLUENTS)):
            for red, blue in itertools.product(ACTIONS["red"], ACTIONS["blue"]):
                inputs = dict(zip(FLUENTS, bits, strict=True))
                inputs[("does", "red", red)] = inputs[("does", "blue", blue)] = True
                for atom in outputs:
                    expected = holds(atom, instances, inputs)
                    assert holds(atom, shortened, inputs) == expected, (instances, inputs, atom)
    assert rewritten > 100


MARKS = """
(role p)
(cell 1) (cell 2) (cell 3) (cell 4) (cell 5)
(init (mark 1)) (init (mark 3))
(<= (legal p (move ?x ?y)) (cell ?x) (cell ?y) (distinct ?x ?y))
(<= (next (mark ?c)) (true (mark ?c)) (does p (move ?x ?y)) (distinct ?c ?x) (distinct ?c ?y))
(<= terminal (not (true (mark 1))))
(<= (goal p 100) terminal)
"""


def test_a_frame_axiom_over_moves_is_the_negation_of_the_moves_that_touch_the_cell():
    # By hand: 20 moves (x != y over 5 cells), legal in every state; only (mark 1) and
    # (mark 3) are ever true. A mark stays unless a move touches its cell: of the 20 moves,
    # 12 do not touch a given cell and 8 do. The split frame axiom is (mark c) and the
    # auxiliary #split(c), which is the OR over the 12 moves of (mark c) and the move (the
    # mark binds ?c there); per mark that is 12 AND gates of 2 inputs and an OR of 12, and
    # one AND of 2 for next: 14 gates with 38 inputs, 28 gates with 76 in all. Written
    # short, #split(c) is (mark c) and not any of the 8 moves: an AND of 8 and one of 2,
    # with next's AND of 2: 6 gates with 24 inputs. terminal and goal are literals.
    system = ground(GdlGame.from_text(MARKS, "marks").rules, "marks")
    assert system.size() == {"fluents": 2, "actions": 20, "gates": 6}
    assert sum(map(len, system.circuit.children)) == 24
    marks = {system.state_text([i])[0]: i for i in range(2)}
    for action, move in enumerate(system.actions[0]):
        _, x, y = move
        expected = {marks[f"(mark {c})"] for c in ("1", "3") if c not in (x, y)}
        assert system.successor(system.initial, [action]) == expected, move


def test_the_second_ttcc4_sheet_grounds_like_the_reasoner():
    sheet = GdlGame.from_file("tests/data/gdl/ttcc4_pttc_style.kif")
    system = ground(sheet.rules, "ttcc4_pttc_style")
    assert assert_same_game(GroundGame(system), sheet, playouts=3, seed=5) > 0
