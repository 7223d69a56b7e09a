"""A relation asked for only at named constants is derived only there (gdl/constant_asks.py),
by the reasoner as by the grounder, and the game is the same."""

from gamecheck.gdl.constant_asks import ASKED, guard_constant_asks
from gamecheck.gdl.parser import parse_rules
from gamecheck.gdl.reasoner import Reasoner
from gamecheck.gdl.syntax import KEYWORDS, normal_rules

NAMED_CELLS = """
(role p)
(cell c1) (cell c2) (cell c3) (cell c4)
(<= (legal p (switch ?c)) (cell ?c) (not (true (on ?c))))
(<= (next (on ?c)) (does p (switch ?c)))
(<= (next (on ?c)) (true (on ?c)))
(<= terminal (three c1 c2 c3))
(<= (three ?x ?y ?z) (true (on ?x)) (true (on ?y)) (true (on ?z)))
(<= (goal p 100) (three c1 c2 c3))
(<= (goal p 0) (not (three c1 c2 c3)))
(<= (goal p 50) (pair c4 ?y))
(<= (pair ?x ?y) (true (on ?x)) (true (on ?y)) (distinct ?x ?y))
(<= (other ?c) (pair ?c c4))
"""
"""`three` is asked only at c1 c2 c3; `pair` at c4 as its first argument and c4 as its
second: no place is constant in both."""


def guarded_relations(text: str) -> set[str]:
    normal = [piece for rule in parse_rules(text) for piece in normal_rules(rule)]
    rules = guard_constant_asks(normal, set(KEYWORDS))
    return {rule.head.relation for rule in rules if rule.head.relation.startswith(ASKED)}


def test_only_a_relation_asked_at_the_same_constant_places_is_guarded():
    assert guarded_relations(NAMED_CELLS) == {f"{ASKED}(three)"}


def test_the_reasoner_derives_the_asked_instance_only_and_the_same_goals():
    reasoner = Reasoner(parse_rules(NAMED_CELLS))
    all_on = frozenset(("on", c) for c in ("c1", "c2", "c3", "c4"))
    # unguarded, `three` would hold for each of 4 x 4 x 4 triples of cells on
    assert reasoner.state_model(all_on)["three"].known == {("c1", "c2", "c3")}
    assert reasoner.is_terminal(all_on)
    assert reasoner.goal_values(all_on) == {"p": {100, 50}}
    three_on = frozenset(("on", c) for c in ("c1", "c2", "c4"))
    assert not reasoner.is_terminal(three_on)
    assert reasoner.goal_values(three_on) == {"p": {0, 50}}
    assert reasoner.legal(three_on, "p") == (("switch", "c3"),)
