"""Balances and two-feature counters (solvers/ground/balances.py, invariants.py): the
candidates a hand-made set of step changes gives, and, on tic-tac-toe, that what is proved
holds in every state the GDL reasoner reaches, at the depth the reasoner reaches it."""

from pathlib import Path

import numpy as np

from gamecheck.budget import Budget
from gamecheck.gdl.terms import term_text
from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.ground.balances import balance_combinations
from gamecheck.solvers.ground.circuit import value
from gamecheck.solvers.ground.grounder import ground
from gamecheck.solvers.ground.invariants import find_invariants
from tests.game_checks import reachable_layers

SHEETS = Path(__file__).parent / "data" / "gdl"


def test_balance_candidates_of_hand_made_step_changes():
    # Two kinds of step: the first adds an A and turns C off (and Co on), the second adds
    # a B and turns C on (Co off). By hand: A - B + C and A - B - Co never change (one of
    # them is enough: the first); so does C + Co, but both are single fluents (a state
    # invariant's business); R counts the fluents of A and B, so R - A - B is zero by
    # definition; D changes like A, E never.
    changes = {
        "A": ((1, 0), (0, 1)),
        "B": ((0, 1), (2, 3)),
        "C": ((-1, 1), (4,)),
        "D": ((1, 0), (5, 6)),
        "E": ((0, 0), (7,)),
        "R": ((1, 1), (0, 1, 2, 3)),
        "Co": ((1, -1), (8,)),
    }
    names = list(changes)
    kinds = [np.array(deltas) for deltas, _ in changes.values()]
    steps = [np.repeat(kind, 3) for kind in kinds]  # each kind of step three times
    fluents = [fluents for _, fluents in changes.values()]
    found = balance_combinations(steps, fluents, Budget())
    named = {tuple((weight, names[j]) for weight, j in combination) for combination in found}
    assert named == {((1, "A"), (-1, "B"), (1, "C"))}


def test_balances_and_counters_of_tictactoe_hold_where_the_reasoner_goes():
    game = GdlGame.from_file(SHEETS / "tictactoe.kif")
    system = ground(game.rules, "tictactoe")
    found = find_invariants(system, seed=3)
    # x marks - o marks is 1 when o is to move and 0 when x is: x marks + (x to move) - o
    # marks is always 1, and 2 x (x marks) + (x to move) counts the steps from 1.
    descriptions = [balance.description for balance in found.balances]
    assert any("x as argument 3" in text and "o as argument 3" in text for text in descriptions)
    pairs = [counter for counter in found.counters if len(counter.features) == 2]
    assert pairs, [counter.description for counter in found.counters]
    index = {term_text(fluent): i for i, fluent in enumerate(system.fluents)}
    for depth, layer in enumerate(reachable_layers(game)):
        for state in layer:
            values = system.evaluate({index[term_text(fact)] for fact in state})
            for counter in found.counters + found.balances:
                total = sum(weight for weight, lit in counter.terms if value(values, lit))
                assert total == counter.start + counter.rate * depth, counter.description
