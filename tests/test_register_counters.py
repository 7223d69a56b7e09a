"""Step counters kept in a register (solvers/ground/invariants.py): a group holding one number
in every state, which every step raises (or lowers) by one, tells a state's depth, and its
last number bounds every game. Expected values are worked out by hand from the rules below."""

import pytest

from gamecheck.analysis.verify.pipeline import verify_game
from gamecheck.budget import Budget
from gamecheck.gdl.terms import term_text
from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.ground.circuit import value
from gamecheck.solvers.ground.grounder import ground
from gamecheck.solvers.ground.induction import Induction
from gamecheck.solvers.ground.invariant_kinds import Counter, StateInvariant
from gamecheck.solvers.ground.invariants import find_invariants
from gamecheck.solvers.ground.unroll_cnf import CnfUnrolling
from tests.game_checks import reachable_layers


def clock(first: int, last: int, end: int, *, extra: str = "") -> str:
    """A one-player clock from `first`, one tick a step towards `last` (down if last is
    smaller), ending the game at `end`; `succ` facts cover first..last."""
    low, high = sorted((first, last))
    ticks = " ".join(f"(succ {n} {n + 1})" for n in range(low, high))
    step = "(succ ?n ?m)" if last > first else "(succ ?m ?n)"
    return f"""
(role p)
(init (time {first}))
{ticks}
(legal p wait)
(<= (next (time ?m)) (true (time ?n)) (does p wait) {step})
{extra}
(<= terminal (true (time {end})))
(goal p 100)
"""


# By hand: 1 -> 60 one tick a step is 59 steps; 60 -> 1 likewise; a clock whose numbers
# run on to 200 while the game ends at 60 is 59 steps too (the numbers past 60 are never
# reached, so only 1..60 are counted).
@pytest.mark.parametrize(
    ("text", "way"),
    [(clock(1, 60, 60), "grows"), (clock(60, 1, 1), "falls"), (clock(1, 200, 60), "grows")],
    ids=["up", "down", "numbers beyond the end"],
)
def test_a_clock_register_is_a_step_counter_that_bounds_every_game(text, way):
    (counter,) = find_invariants(ground(GdlGame.from_text(text, "clock.kif").rules, "c")).counters
    assert counter.description == f"the number in (time _) {way} by one every step"
    assert sorted(abs(weight) for weight, _ in counter.terms) == list(range(1, 61))
    # the horizon is far below the end: only the counter tells that every game ends
    result = verify_game(text, horizon=10, exhaustive=False)
    assert (result.termination.status, result.termination.value) == ("proved", 59)
    result = verify_game(text, horizon=80, exhaustive=False)
    assert (result.longest_game.status, result.longest_game.value) == ("proved", 59)


def test_the_counter_is_the_depth_the_reasoner_reaches_each_state_at():
    game = GdlGame.from_text(clock(1, 200, 60), "clock.kif")
    system = ground(game.rules, "clock")
    (counter,) = find_invariants(system).counters
    index = {term_text(fluent): i for i, fluent in enumerate(system.fluents)}
    depths = 0
    for depth, layer in enumerate(reachable_layers(game)):
        for state in layer:
            values = system.evaluate({index[term_text(fact)] for fact in state})
            true_terms = [weight for weight, lit in counter.terms if value(values, lit)]
            assert true_terms == [counter.start + depth]
        depths += 1
    assert depths == 60  # states at depths 0..59


def test_a_register_that_may_skip_a_number_is_not_a_counter():
    # `jump` is legal at time 30 only and takes the clock to 32: from 30 on, a line of play
    # is one step shorter than the numbers say, so "one tick a step" is false, whatever the
    # random playouts saw. The hand-made counter over 1..60 must not be proved.
    jump = "(<= (legal p jump) (true (time 30))) (<= (next (time 32)) (does p jump))"
    for text, proved in ((clock(1, 60, 60), True), (clock(1, 60, 60, extra=jump), False)):
        game = GdlGame.from_text(text, "clock.kif")
        system = ground(game.rules, "clock")
        times = [
            (int(fluent[1]), node)
            for fluent, node in zip(system.fluents, system.fluent_nodes, strict=True)
            if fluent[0] == "time"
        ]
        literals = [node for _, node in times]
        one = StateInvariant(system.circuit.disj(literals), "some time")
        at_most_one = StateInvariant(system.circuit.at_most_one(literals), "one")
        counter = Counter(
            features=tuple((number, (node,)) for number, node in times),
            start=1,
            steps=(),
            description="time",
            holding=(one,),
            register=len(times),
        )
        with CnfUnrolling(system, free_start=True) as unrolling:
            prover = Induction(system, unrolling)
            assert prover.counts_steps(counter, [at_most_one], Budget()) is proved


def test_a_clock_that_may_jump_keeps_its_shorter_game():
    # By hand: waiting all the way is 59 steps; jumping at 30 skips 31, so 58.
    jump = "(<= (legal p jump) (true (time 30))) (<= (next (time 32)) (does p jump))"
    result = verify_game(clock(1, 60, 60, extra=jump), horizon=80, exhaustive=False)
    assert (result.longest_game.status, result.longest_game.value) == ("proved", 59)
    assert (result.shortest_game.status, result.shortest_game.value) == ("proved", 58)
    assert result.invariant_statistics["counters"] == 0
