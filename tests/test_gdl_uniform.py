"""Uniform arguments (gdl/uniform.py): an argument that a relation holds of every value of a
type alike is dropped before grounding and reasoning, and the rules still mean what they
meant (checked against the rules as written, evaluated by the Datalog engine)."""

import itertools

from gamecheck.analysis.verify.pipeline import verify_game
from gamecheck.gdl.datalog import Program, Relation
from gamecheck.gdl.dependencies import DependencyGraph
from gamecheck.gdl.parser import parse_rules
from gamecheck.gdl.syntax import normal_rules
from gamecheck.gdl.uniform import drop_uniform_arguments, uniform_domains

BITS, DIGITS = frozenset({"0", "1"}), frozenset({"0", "1", "2"})
TYPES = {"bit": BITS, "digit": DIGITS}
"""The static relations of one argument of CASES, by hand."""

CASES = """
(bit 0) (bit 1) (digit 0) (digit 1) (digit 2)
(<= (chain ?a) (bit ?a) (true (step 3)))
(<= (chain ?a) (bit ?a) (not (true (step 3))) (pair ?a 0) (pair ?a 1))
(<= (pair ?a ?b) (bit ?a) (bit ?b) (true (step 2)))
(<= (on ?x) (bit ?x) (true (cell ?x)))
(<= (early ?x) (bit ?x) (true (step 1)))
(<= (seen ?c) (true (cell ?c)) (early ?c))
(<= (mixed ?x) (bit ?x) (true (step 1)))
(<= (mixed ?x) (digit ?x) (true (step 2)))
(<= (fixed 0) (true (step 1)))
(<= (fixed ?x) (bit ?x) (true (step 2)))
(<= never (chain 2))
(<= always (not (chain 2)))
(<= (none ?x) (bit ?x) (not (chain ?x)))
(<= (any ?x) (digit ?x) (chain 1) (pair ?y ?y))
"""
"""chain and pair hand their bits on (as ruleDepthExponential's prereqN); on's and seen's
are fluents' too; early is used where a fluent, not a type, binds its argument; mixed's
rules have two domains; fixed has a constant; chain 2 lies outside chain's domain; none
tests its bit before `not chain`; any's digit is its own, and ?y meets only pair's bits."""

STATES = [
    {("step", "1"), ("cell", "0"), ("cell", "2")},
    {("step", "2"), ("cell", "1")},
    {("step", "3")},
    {("step", "4"), ("cell", "0"), ("cell", "1"), ("cell", "2")},
]


def rules_of(text: str) -> list:
    return [piece for rule in parse_rules(text) for piece in normal_rules(rule)]


def model(rules, state) -> dict[str, set[tuple]]:
    program = Program(rules, DependencyGraph(rules).components)
    found = program.evaluate({"true": Relation((fact,) for fact in state)})
    return {relation: facts.known for relation, facts in found.items() if relation != "true"}


def test_arguments_held_alike_are_found_and_the_others_kept():
    # By hand: chain's argument and both of pair's are bits in every rule and handed on
    # only to each other; any's is a digit and nothing else. Every other argument is bound
    # by a fluent, tested against two types, constant in a head, under a negation (none's),
    # or used where dropping it would lose a test (seen's ?c, bound by a fluent, must be a
    # bit for early to hold).
    found = uniform_domains(rules_of(CASES), TYPES)
    expected = {("chain", 0): BITS, ("pair", 0): BITS, ("pair", 1): BITS, ("any", 0): DIGITS}
    assert found == expected


def test_dropping_them_keeps_what_every_relation_holds_of():
    # The second method: the rules as written.
    rules = rules_of(CASES)
    for state in STATES:
        assert meaning(rules, state) == model(rules, state)


def test_the_shortened_rules_hold_as_worked_out_by_hand():
    # chain holds of both bits at step 3 (its first rule) and at step 2 (pair of both),
    # never at steps 1 and 4; `never` never, `always` always; none holds of the bits where
    # chain does not; any of every digit where chain and pair hold (step 2).
    for state, step in zip(STATES, (1, 2, 3, 4), strict=True):
        found = meaning(rules_of(CASES), state)
        chain = step in (2, 3)
        assert found.get("chain", set()) == ({("0",), ("1",)} if chain else set()), step
        assert not found.get("never") and found.get("always") == {()}
        assert found.get("none", set()) == (set() if chain else {("0",), ("1",)})
        assert found.get("any", set()) == ({(d,) for d in DIGITS} if step == 2 else set())


def test_a_use_that_binds_the_argument_otherwise_keeps_it():
    # digit ?x before `not (chain ?x)`: chain 2 is false, so none holds of 2 where chain
    # holds of 0 and 1; dropping chain's argument would lose that, so it stays.
    text = CASES.replace("(<= (none ?x) (bit ?x)", "(<= (none ?x) (digit ?x)")
    rules = rules_of(text)
    assert ("chain", 0) not in uniform_domains(rules, TYPES)
    shortened = drop_uniform_arguments(rules, TYPES)
    for state in STATES:
        assert model(shortened, state)["none"] == model(rules, state)["none"]


def meaning(rules, state) -> dict[str, set[tuple]]:
    """What each relation holds of in `state` by the rules without their uniform arguments:
    each fact of a shortened relation with every combination of its domains' values put
    back at the dropped places."""
    domains = uniform_domains(rules, TYPES)
    found = model(drop_uniform_arguments(rules, TYPES), state)
    return {
        relation: _expanded(
            facts, [i for (name, i) in domains if name == relation], domains, relation
        )
        for relation, facts in found.items()
    }


def _expanded(facts, places, domains, relation) -> set[tuple]:
    expanded = set()
    for kept in facts:
        for values in itertools.product(*(sorted(domains[relation, p]) for p in places)):
            full, rest = [], iter(kept)
            filled = dict(zip(places, values, strict=True))
            for index in range(len(kept) + len(places)):
                full.append(filled[index] if index in filled else next(rest))
            expanded.add(tuple(full))
    return expanded


def depth_sheet(depth: int) -> str:
    """A one-role game in the style of the corpus's rule-depth stress test: the step counts
    from 1, `giveUp` ends the game, `continue` is legal where level 1 holds of bit 0, and
    level k holds of its k bits at step k, or elsewhere where level k + 1 holds of them
    with 0 and with 1 appended (2^k bindings a level, all alike). Step `depth` ends the
    game with 100."""
    bits = [f"?b{i}" for i in range(depth)]
    lines = [
        "(role robot) (init (step 1)) (bit 0) (bit 1)",
        "(legal robot giveUp) (<= (legal robot continue) (level1 0))",
        "(<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))",
        "(<= (next over) (does robot giveUp))",
        f"(<= terminal (true over)) (<= terminal (true (step {depth})))",
        f"(<= (goal robot 100) (true (step {depth})))",
        f"(<= (goal robot 0) (not (true (step {depth}))))",
        *(f"(succ {n} {n + 1})" for n in range(1, depth)),
    ]
    for level in range(1, depth + 1):
        args = " ".join(bits[:level])
        types = " ".join(f"(bit {b})" for b in bits[:level])
        lines.append(f"(<= (level{level} {args}) {types} (true (step {level})))")
        if level < depth:
            below = [f"(level{level + 1} {args} {bit})" for bit in (0, 1)]
            lines.append(
                f"(<= (level{level} {args}) {types} (not (true (step {level}))) {' '.join(below)})"
            )
    return "\n".join(lines)


def test_a_rule_depth_stress_sheet_is_answered_in_full():
    # By hand: `continue` is legal at every step before `depth` (level 1 holds wherever the
    # step is 1..depth), so the longest game continues from step 1 to step 20: 19 steps,
    # and the only win is there; giving up at once ends the shortest game after 1 step.
    # As written, level 20 alone has 2^20 instances: grounding them took 107 s.
    result = verify_game(depth_sheet(20), time_limit=60)
    assert (result.longest_game.status, result.longest_game.value) == ("proved", 19)
    assert (result.shortest_game.status, result.shortest_game.value) == ("proved", 1)
    assert result.playability.status == result.goal_definedness.status == "proved"
    assert set(result.outcomes.vectors) == {(0,), (100,)} and result.outcomes.complete
    assert (result.earliest_win["robot"].status, result.earliest_win["robot"].value) == (
        "found",
        19,
    )
