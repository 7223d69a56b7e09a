"""The Datalog evaluator on small programs whose models are worked out by hand or by a second,
direct computation in the test."""

import itertools
import random

import pytest

from gamecheck.budget import Budget, OutOfBudget
from gamecheck.gdl.datalog import Program, TooLarge
from gamecheck.gdl.dependencies import DependencyGraph
from gamecheck.gdl.parser import parse_rules
from gamecheck.gdl.syntax import GdlError, normal_rules


def model_of(text: str) -> dict[str, set[tuple]]:
    rules = [piece for rule in parse_rules(text) for piece in normal_rules(rule)]
    program = Program(rules, DependencyGraph(rules).components)
    return {name: relation.known for name, relation in program.evaluate({}).items()}


def closure(edges: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """Transitive closure by repeated squaring of the relation, computed directly."""
    reach = set(edges)
    while True:
        extra = {(a, d) for a, b in reach for c, d in reach if b == c} - reach
        if not extra:
            return reach
        reach |= extra


def test_left_and_right_recursive_and_doubly_recursive_closure_agree_with_direct_closure():
    rng = random.Random(5)
    nodes = "abcdefg"
    for _ in range(20):
        edges = {(x, y) for x, y in itertools.product(nodes, nodes) if rng.random() < 0.15}
        facts = " ".join(f"(edge {x} {y})" for x, y in sorted(edges))
        model = model_of(
            facts
            + "(<= (right ?x ?y) (edge ?x ?y)) (<= (right ?x ?z) (edge ?x ?y) (right ?y ?z))"
            + "(<= (left ?x ?y) (edge ?x ?y)) (<= (left ?x ?z) (left ?x ?y) (edge ?y ?z))"
            + "(<= (both ?x ?y) (edge ?x ?y)) (<= (both ?x ?z) (both ?x ?y) (both ?y ?z))"
        )
        expected = closure(edges)
        for name in ("right", "left", "both"):
            assert model.get(name, set()) == expected, name


def test_negation_reads_a_complete_lower_stratum():
    model = model_of(
        "(node a) (node b) (node c) (edge a b) (edge b b)"
        "(<= (reach ?y) (edge a ?y)) (<= (reach ?z) (reach ?y) (edge ?y ?z))"
        "(<= (unreached ?x) (node ?x) (not (reach ?x)))"
        "(<= lonely (not (reach c)))"
    )
    assert model["reach"] == {("b",)}
    assert model["unreached"] == {("a",), ("c",)}
    assert model["lonely"] == {()}


def test_distinct_and_its_negation():
    model = model_of(
        "(v 1) (v 2) (v (f 1))"
        "(<= (pair ?x ?y) (v ?x) (v ?y) (distinct ?x ?y))"
        "(<= (same ?x ?y) (v ?x) (v ?y) (not (distinct ?x ?y)))"
    )
    values = ["1", "2", ("f", "1")]
    assert model["pair"] == {(x, y) for x in values for y in values if x != y}
    assert model["same"] == {(x, x) for x in values}


def test_nested_terms_repeated_variables_and_shapes():
    model = model_of(
        "(t (f a (g b))) (t (f a (g a))) (t (f a)) (t f) (t (h a (g a)))"
        "(<= (inner ?y) (t (f ?x (g ?y))))"
        "(<= (twice ?x) (t (f ?x (g ?x))))"
        "(<= (wrap (k ?y ?x)) (inner ?y) (twice ?x))"
    )
    assert model["inner"] == {("b",), ("a",)}
    assert model["twice"] == {("a",)}
    assert model["wrap"] == {(("k", "b", "a"),), (("k", "a", "a"),)}


def test_or_expands_into_alternatives():
    model = model_of(
        "(n 1) (n 2) (n 3) (odd 1) (odd 3)"
        "(<= (pick ?x) (n ?x) (or (odd ?x) (not (or (odd ?x) (distinct ?x 2)))))"
    )
    # odd, or (not odd and x = 2): every n.
    assert model["pick"] == {("1",), ("2",), ("3",)}


def test_ground_rules_and_facts_only():
    model = model_of("(a) b (<= c b (a)) (<= d (not c))")
    assert model == {"a": {()}, "b": {()}, "c": {()}, "d": set()}


@pytest.mark.parametrize("length", [1, 5, 30])
def test_long_recursive_chain(length):
    facts = " ".join(f"(succ {i} {i + 1})" for i in range(length))
    model = model_of(facts + "(num 0) (<= (num ?y) (num ?x) (succ ?x ?y))")
    assert model["num"] == {(str(i),) for i in range(length + 1)}


def test_negation_stratified_by_sentence_form_reads_complete_facts():
    # (p a) holds unless (p b) does, and (p b) holds when q does. By relation, p depends on
    # itself through not; by sentence form, (p a) reads only (p b). The rule for (p a) comes
    # first, so a single pass in written order would wrongly derive (p a) in the first model.
    with_q = model_of("(<= (p a) (not (p b))) (<= (p b) q) (<= (p c) (p a)) q")
    without_q = model_of("(<= (p a) (not (p b))) (<= (p b) q) (<= (p c) (p a))")
    assert with_q["p"] == {("b",)}
    assert without_q["p"] == {("a",), ("c",)}


def test_negation_not_stratified_even_by_sentence_form_is_refused():
    with pytest.raises(GdlError, match="unstratifiable negation"):
        model_of("(<= (p a) (not (p b))) (<= (p b) (not (p a)))")


def test_ever_deeper_terms_stop_with_the_rule_named():
    with pytest.raises(TooLarge, match=r"<text>:1:\d+: this rule builds ever deeper terms"):
        model_of("(<= (num (s ?x)) (num ?x)) (num 0)")


def test_evaluation_stops_past_its_fact_limit_and_at_its_deadline():
    rules = [
        piece
        for rule in parse_rules(
            "(<= (pair ?x ?y) (n ?x) (n ?y))" + " ".join(f"(n {i})" for i in range(300))
        )
        for piece in normal_rules(rule)
    ]
    program = Program(rules, DependencyGraph(rules).components)
    with pytest.raises(TooLarge, match="too many facts"):
        program.evaluate({}, max_facts=10_000)
    assert len(program.evaluate({}, max_facts=100_000)["pair"].known) == 300 * 300
    with pytest.raises(OutOfBudget):
        program.evaluate({}, budget=Budget(0))
