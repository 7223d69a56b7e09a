"""Demand-driven grounding (gdl/demand.py): a relation asked for with some
arguments known is grounded only where some rule can ask for it, and the ground game is still
the game of the rules (played against the reasoner); the reasoner evaluates a state so too,
where that is less work."""

import pytest

from gamecheck.gdl import reasoner as reasoner_module
from gamecheck.gdl.datalog import Program, TooLarge
from gamecheck.gdl.demand import Demand, demand, demand_relation
from gamecheck.gdl.dependencies import DependencyGraph
from gamecheck.gdl.parser import parse_rules
from gamecheck.gdl.syntax import normal_rules
from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.ground import grounder
from gamecheck.solvers.ground.ground_game import GroundGame
from gamecheck.solvers.ground.grounder import ground
from tests.gdl_differential import assert_same_game

LARGEST = 400
NUMBERS = " ".join(f"(succ {n} {n + 1})" for n in range(LARGEST))

COUNT_BY_CELL = """
(next_cell c1 c2) (next_cell c2 c3) (next_cell c3 c4)
(<= (number ?n) (succ ?n ?m))
(<= (count ?n) (count_from c1 0 ?n))
(<= (count_from c4 ?k ?n) (true (on c4)) (succ ?k ?n))
(<= (count_from c4 ?k ?k) (not (true (on c4))) (number ?k))
(<= (count_from ?c ?k ?n) (true (on ?c)) (succ ?k ?k2) (next_cell ?c ?d)
    (count_from ?d ?k2 ?n))
(<= (count_from ?c ?k ?n) (not (true (on ?c))) (number ?k) (next_cell ?c ?d)
    (count_from ?d ?k ?n))
"""
"""Merrills' way of counting: cell by cell with a running count, started at the first
cell with 0. Asked so, count_from holds only for running counts up to the cells passed."""

SWITCHES = f"""
(role p)
{NUMBERS}
{COUNT_BY_CELL}
(cell c1) (cell c2) (cell c3) (cell c4)
(tick 0 1) (tick 1 2) (tick 2 3)
(init (time 0))
(<= (legal p (switch ?c)) (cell ?c) (not (true (on ?c))))
(<= (legal p wait) (true (time ?t)))
(<= (next (on ?c)) (does p (switch ?c)))
(<= (next (on ?c)) (true (on ?c)))
(<= (next (time ?u)) (true (time ?t)) (tick ?t ?u))
(<= terminal (true (time 3)))
(score 0 0) (score 1 25) (score 2 50) (score 3 75) (score 4 100)
(<= (goal p ?g) (count ?n) (score ?n ?g))
"""
"""Three steps, each switching a cell on or waiting; the score is a quarter per cell on."""


def normal(text: str):
    return [piece for rule in parse_rules(text) for piece in normal_rules(rule)]


def facts(rules) -> dict[str, set]:
    program = Program(rules, DependencyGraph(rules).components)
    return {name: relation.known for name, relation in program.evaluate({}).items()}


def test_a_running_count_is_asked_for_by_cell_and_count_so_far():
    rules = normal(
        COUNT_BY_CELL + NUMBERS + "(true (on c1)) (true (on c2)) (true (on c3)) "
        "(true (on c4)) (<= (goal p ?n) (count ?n))"
    )
    dynamic = [r for r in rules if r.head.relation in ("count", "count_from", "goal")]
    asked = demand(dynamic, exempt={"goal"})
    assert asked.asked == {"count_from": (0, 1)}  # `count` is asked with ?n unknown
    others = [r for r in rules if r not in dynamic]
    model = facts(others + [asked.guarded(r) for r in dynamic] + asked.rules)
    # asked from c1 with 0, each cell adds one or nothing: by cell, the counts so far
    assert model[demand_relation("count_from")] == {
        ("c1", "0"),
        ("c2", "0"), ("c2", "1"),
        ("c3", "0"), ("c3", "1"), ("c3", "2"),
        ("c4", "0"), ("c4", "1"), ("c4", "2"), ("c4", "3"),
    }  # fmt: skip
    # every cell is on: from each asked count, the total adds the cells left
    assert model["count_from"] == {
        ("c1", "0", "4"),
        ("c2", "0", "3"), ("c2", "1", "4"),
        ("c3", "0", "2"), ("c3", "1", "3"), ("c3", "2", "4"),
        ("c4", "0", "1"), ("c4", "1", "2"), ("c4", "2", "3"), ("c4", "3", "4"),
    }  # fmt: skip
    assert model["goal"] == {("p", "4")}
    unguarded = facts(rules)  # every running count up to LARGEST, the same total
    assert len(unguarded["count_from"]) == 4 * LARGEST - 6
    assert unguarded["goal"] == {("p", "4")}


def test_a_sheet_that_counts_by_cell_grounds_small_and_plays_as_the_reasoner():
    sheet = GdlGame.from_text(SWITCHES, "switches")
    # the relaxed game lets every cell be on and off: unguarded, count_from would hold for
    # about 4 x 3 x LARGEST running counts and totals, past this limit
    system = ground(sheet.rules, "switches", max_facts=3 * LARGEST)
    assert assert_same_game(GroundGame(system), sheet, playouts=30, seed=2) > 0
    goals = {value for value, _ in system.goals[0].items()}
    assert goals == {0, 25, 50, 75, 100}


def test_without_demand_the_same_sheet_would_not_fit_in_that_limit(monkeypatch):
    # the limit above is tight: the grounder with no demand at all stops on count_from
    monkeypatch.setattr(grounder, "demand", lambda rules, exempt: Demand({}, []))
    sheet = GdlGame.from_text(SWITCHES, "switches")
    with pytest.raises(TooLarge, match="count_from"):
        ground(sheet.rules, "switches", max_facts=3 * LARGEST)


def goal_and_facts(reasoner, state) -> tuple[dict, int]:
    """The goal values of `state` and the facts the reasoner derived for them."""
    before = reasoner.statistics.facts
    return reasoner.goal_values(state), reasoner.statistics.facts - before


def test_the_reasoner_counts_by_cell_only_from_the_first_cell(monkeypatch):
    on_c1_c3 = frozenset({("on", "c1"), ("on", "c3"), ("time", "3")})
    # by hand: two of the four cells on, a quarter each
    demanded = GdlGame.from_text(SWITCHES, "switches").reasoner
    goals, facts = goal_and_facts(demanded, on_c1_c3)
    assert goals == {"p": {50}}
    # the running counts asked from c1 with 0 (10 at most, as above), the counts, the
    # goal, the legal actions: a few dozen facts
    assert facts < 60
    monkeypatch.setattr(reasoner_module, "_demanded", lambda rules, components: None)
    plain = GdlGame.from_text(SWITCHES, "switches").reasoner
    goals, facts = goal_and_facts(plain, on_c1_c3)
    assert goals == {"p": {50}}
    # bottom up, count_from holds on each of the 4 cells for every running count
    assert facts > 4 * LARGEST


CELLS = 30
THREE_NAMED_CELLS = f"""
(role p)
{" ".join(f"(cell c{n})" for n in range(1, CELLS + 1))}
(tick 0 1) (tick 1 2) (tick 2 3)
(init (time 0))
(<= (legal p (switch ?c)) (cell ?c) (not (true (on ?c))))
(<= (next (on ?c)) (does p (switch ?c)))
(<= (next (on ?c)) (true (on ?c)))
(<= (next (time ?u)) (true (time ?t)) (tick ?t ?u))
(<= terminal (true (time 3)))
(<= (three ?x ?y ?z) (true (on ?x)) (true (on ?y)) (true (on ?z)))
(<= (goal p 100) (three c1 c2 c3))
(<= (goal p 0) (not (three c1 c2 c3)))
"""
"""Three switches of 30 cells; the goal asks whether three named cells are all on, with a
relation that, bottom up, holds for any three cells on."""


def test_a_relation_asked_only_with_constants_is_asked_for_those():
    dynamic = [r for r in normal(THREE_NAMED_CELLS) if r.head.relation in ("three", "goal")]
    assert demand(dynamic, exempt={"goal"}).asked == {"three": (0, 1, 2)}


def test_a_goal_on_named_cells_grounds_one_instance_and_plays_as_the_reasoner():
    sheet = GdlGame.from_text(THREE_NAMED_CELLS, "three")
    # unguarded, `three` holds in the relaxed game for each of 30 x 30 x 30 triples of cells
    system = ground(sheet.rules, "three", max_facts=CELLS**3 // 2)
    assert system.statistics["ground_atoms"] < 200
    assert assert_same_game(GroundGame(system), sheet, playouts=30, seed=2) > 0
    assert {value for value, _ in system.goals[0].items()} == {0, 100}
