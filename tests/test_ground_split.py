"""Rule splitting (gdl/split.py) and the grounder's limits: split rules mean what
the rules meant (checked by evaluating both on random facts, and by playing ground games
against the reasoner), frame axioms and captures over moves no longer multiply out, and
grounding stops with a clear message instead of running on."""

import random

import pytest

from gamecheck.analysis.verify.pipeline import verify_game
from gamecheck.budget import Budget, OutOfBudget
from gamecheck.gdl.datalog import Program, TooLarge
from gamecheck.gdl.dependencies import DependencyGraph
from gamecheck.gdl.parser import parse_rules
from gamecheck.gdl.split import PREFIX, split_rules, unfoldable, variable_eliminations
from gamecheck.gdl.syntax import literal_text, normal_rules
from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.ground.ground_game import GroundGame
from gamecheck.solvers.ground.grounder import ground
from tests.gdl_differential import assert_same_game

FRAME = """
(<= (keep ?x ?y ?p) (cell ?x ?y ?p) (move ?r ?x1 ?y1 ?x2 ?y2)
    (apart ?x ?y ?x1 ?y1) (apart ?x ?y ?x2 ?y2) (not (blocked ?r ?x1)))
(<= (both ?x) (cell ?x ?y ?p) (cell ?x ?z ?q) (distinct ?y ?z) (not (blocked ?p ?q)))
(<= (captured ?p) (move ?r ?x1 ?y1 ?x2 ?y2) (cell ?x2 ?y2 ?p))
"""


def model(rules) -> dict[str, set]:
    program = Program(rules, DependencyGraph(rules).components)
    return {name: relation.known for name, relation in program.evaluate({}).items()}


def normal(text: str):
    return [piece for rule in parse_rules(text) for piece in normal_rules(rule)]


def test_frame_axiom_splits_into_an_auxiliary_relation_over_the_cell():
    keep = split_rules(normal(FRAME))[:2]
    auxiliary, main = keep
    assert auxiliary.head.relation.startswith(PREFIX)
    assert auxiliary.head.args == ("?x", "?y")
    assert [literal.relation for literal in main.body] == ["cell", auxiliary.head.relation]


def test_variables_of_a_single_atom_are_projected_away_before_the_join():
    # captured: ?r ?x1 ?y1 occur only in the move atom, so it is replaced by its projection
    # onto ?x2 ?y2, which the cell atom shares: one instance per cell and piece, not per
    # move and piece.
    projection, main = split_rules(normal(FRAME))[-2:]
    assert [literal_text(literal) for literal in projection.body] == ["(move ?r ?x1 ?y1 ?x2 ?y2)"]
    assert projection.head.relation.startswith(PREFIX)
    assert projection.head.args == ("?x2", "?y2")
    assert [literal_text(literal) for literal in main.body] == [
        f"({projection.head.relation} ?x2 ?y2)",
        "(cell ?x2 ?y2 ?p)",
    ]


def test_split_rules_derive_the_same_facts_as_the_rules_on_random_facts():
    rng = random.Random(7)
    values = ["1", "2", "3"]
    for _ in range(25):
        facts = []
        for relation, arity in (("cell", 3), ("move", 5), ("apart", 4), ("blocked", 2)):
            for _ in range(rng.randrange(1, 30)):
                facts.append(f"({relation} {' '.join(rng.choice(values) for _ in range(arity))})")
        rules = normal(FRAME + " ".join(facts))
        whole, split = model(rules), model(split_rules(rules))
        for relation in ("keep", "both", "captured"):
            assert whole.get(relation, set()) == split.get(relation, set())


BOARD = """
(role red) (role blue)
(index 1) (index 2) (index 3)
(<= (cellpos ?x ?y) (index ?x) (index ?y))
(<= (apart ?x ?y ?u ?v) (cellpos ?x ?y) (cellpos ?u ?v) (distinct ?x ?u))
(<= (apart ?x ?y ?u ?v) (cellpos ?x ?y) (cellpos ?u ?v) (distinct ?y ?v))
(init (cell 1 1 red)) (init (cell 3 3 blue)) (init (control red))
(<= (legal ?r (move ?x ?y ?u ?v)) (true (control ?r)) (true (cell ?x ?y ?r))
    (cellpos ?u ?v) (apart ?x ?y ?u ?v) (not (occupied ?u ?v)))
(<= (occupied ?u ?v) (true (cell ?u ?v ?p)))
(<= (legal ?r noop) (role ?r) (not (true (control ?r))))
(<= (next (cell ?u ?v ?r)) (does ?r (move ?x ?y ?u ?v)))
(<= (next (cell ?x ?y ?p)) (true (cell ?x ?y ?p)) (does ?r (move ?x1 ?y1 ?x2 ?y2))
    (apart ?x ?y ?x1 ?y1) (apart ?x ?y ?x2 ?y2))
(<= (next (control red)) (true (control blue)))
(<= (next (control blue)) (true (control red)))
(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
(init (step 0)) (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
(<= terminal (true (step 4)))
(<= (goal ?r 50) (role ?r))
"""


def test_board_game_with_a_frame_axiom_over_moves_grounds_like_the_reasoner():
    sheet = GdlGame.from_text(BOARD, "board")
    system = ground(sheet.rules, "board")
    assert assert_same_game(GroundGame(system), sheet, playouts=20, seed=2) > 0


CAPTURE_COUNT = """
(role p)
(cell 1) (cell 2) (cell 3) (cell 4)
(piece a) (piece b) (piece c)
(<= (init (at ?c ?t)) (cell ?c) (piece ?t))
(<= (legal p (move ?x ?y)) (cell ?x) (cell ?y) (distinct ?x ?y))
(<= (next (home ?t)) (does p (move ?x ?y)) (true (at ?y ?t)))
(<= terminal (true (home a)))
(<= (goal p 100) (true (home a)))
"""


def test_a_capture_rule_has_one_instance_per_move_and_per_cell_and_piece():
    # By hand: 12 moves (x != y over 4 cells), all legal in every state: 12 legal instances
    # (12 atoms); all 12 (at y t) facts hold initially. The capture rule, projected: 12
    # instances of the projection of the move onto ?y (one per move; 4 atoms), and next
    # joins it with (at ?y ?t): 4 x 3 instances (3 atoms); terminal and goal 1 each: 38
    # instances of 21 atoms. Unprojected, next would have one instance per move and piece,
    # 36: 50 instances of 17 atoms.
    system = ground(GdlGame.from_text(CAPTURE_COUNT, "capture").rules, "capture")
    assert system.statistics == {"rule_instances": 38, "ground_atoms": 21}


CAPTURES = """
(role red) (role blue)
(index 1) (index 2) (index 3)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6)
(<= (cellpos ?x ?y) (index ?x) (index ?y))
(<= (apart ?x ?y ?u ?v) (cellpos ?x ?y) (cellpos ?u ?v) (distinct ?x ?u))
(<= (apart ?x ?y ?u ?v) (cellpos ?x ?y) (cellpos ?u ?v) (distinct ?y ?v))
(init (cell 1 1 red)) (init (cell 1 3 red)) (init (cell 3 1 blue)) (init (cell 3 3 blue))
(init (control red)) (init (step 0))
(<= (legal ?r (move ?x ?y ?u ?v)) (true (control ?r)) (true (cell ?x ?y ?r))
    (cellpos ?u ?v) (apart ?x ?y ?u ?v) (not (true (cell ?u ?v ?r))))
(<= (legal ?r noop) (role ?r) (not (true (control ?r))))
(<= (next (cell ?u ?v ?r)) (does ?r (move ?x ?y ?u ?v)))
(<= (next (cell ?x ?y ?p)) (true (cell ?x ?y ?p)) (does ?r (move ?x1 ?y1 ?x2 ?y2))
    (apart ?x ?y ?x1 ?y1) (apart ?x ?y ?x2 ?y2))
(<= (next (taken ?p)) (does ?r (move ?x1 ?y1 ?x2 ?y2)) (true (cell ?x2 ?y2 ?p)))
(<= (next (taken ?p)) (true (taken ?p)))
(<= (next (control red)) (true (control blue)))
(<= (next (control blue)) (true (control red)))
(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
(<= terminal (true (step 6)))
(<= terminal (true (taken ?p)))
(<= (goal red 100) (true (taken blue)))
(<= (goal red 0) (not (true (taken blue))))
(<= (goal blue 100) (true (taken red)))
(<= (goal blue 0) (not (true (taken red))))
"""


def test_board_game_with_captures_grounds_like_the_reasoner():
    # A piece moves onto any cell but its own pieces'; one landing on an opponent's piece
    # takes it, which ends the game. The random playouts must meet both endings.
    sheet = GdlGame.from_text(CAPTURES, "captures")
    game = GroundGame(ground(sheet.rules, "captures"))
    assert assert_same_game(game, sheet, playouts=30, seed=4) > 0
    endings = set()
    for seed in range(30):
        state = game.initial_state()
        rng = random.Random(seed)
        while not game.is_terminal(state):
            state = game.next(state, [rng.choice(game.legal(state, r)) for r in game.roles])
        endings.add(game.goals(state))
    assert endings == {(0, 0), (100, 0), (0, 100)}


def test_grounding_stops_at_the_deadline():
    sheet = GdlGame.from_text(BOARD, "board")
    with pytest.raises(OutOfBudget):
        ground(sheet.rules, "board", budget=Budget(0))


def test_grounding_past_its_fact_limit_names_the_rule():
    numbers = " ".join(f"(n {i})" for i in range(12))
    text = f"""(role r) (init on) {numbers}
    (<= (legal r (m ?a ?b ?c ?d)) (true on) (n ?a) (n ?b) (n ?c) (n ?d))
    (<= (next on) (does r (m ?a ?b ?c ?d)))
    (<= terminal (not (true on))) (<= (goal r 100) (true on))"""
    sheet = GdlGame.from_text(text, "wide")
    with pytest.raises(TooLarge, match=r"wide:2:5: grounding stopped: .*too many facts"):
        ground(sheet.rules, "wide", max_facts=10_000)  # 12**4 = 20736 legal moves


def test_grounding_past_its_action_limit_names_the_rule_with_most_actions():
    numbers = " ".join(f"(n {i})" for i in range(6))
    text = f"""(role r) (init on) {numbers}
    (<= (legal r stay) (true on))
    (<= (legal r (m ?a ?b)) (true on) (n ?a) (n ?b))
    (<= (next on) (does r stay))
    (<= terminal (not (true on))) (<= (goal r 100) (true on))"""
    sheet = GdlGame.from_text(text, "moves")
    message = r"moves:3:5: grounding stopped: the game has up to 37 legal actions, .*matches 36 "
    with pytest.raises(TooLarge, match=message):  # 6 * 6 moves and stay
        ground(sheet.rules, "moves", max_actions=36)
    assert len(ground(sheet.rules, "moves", max_actions=37).actions[0]) == 37


GROWING = """(role p) (init (count 0))
(<= (legal p tick) (true (count ?n)))
(<= (next (count (s ?n))) (true (count ?n)))
(<= terminal (true (count (s (s (s 0))))))
(<= (goal p 100) terminal)"""


def test_ever_deeper_terms_are_a_lint_warning_and_unknown_answers_naming_the_rule():
    sheet = GdlGame.from_text(GROWING, "growing")  # a warning only: no error
    with pytest.raises(TooLarge, match=r"growing:3:1: this rule builds ever deeper terms"):
        ground(sheet.rules, "growing")
    result = verify_game(GROWING, time_limit=30)
    assert result.longest_game.status == "unknown"
    assert "ever deeper terms" in result.longest_game.detail


def test_sheet_without_init_is_answered_not_a_traceback():
    # Nothing is true initially, so p's only legal move (which needs a count) is never legal:
    # the game is stuck at step 0 (worked out from the rules).
    text = """(role p)
    (<= (legal p tick) (true (count ?n)))
    (<= (next (count ?n)) (true (count ?n)))
    (<= terminal (true (count 3))) (<= (goal p 100) terminal)"""
    result = verify_game(text, time_limit=30)
    assert result.playability.status == "refuted" and result.playability.value == 0
    assert result.longest_game.status == "none"


LAST = """
(<= (last ?r1) (true (steps ?r1 ?s1)) (true (steps ?r2 ?s2)) (distinct ?r1 ?r2)
    (true (steps ?r3 ?s3)) (distinct ?r1 ?r3) (distinct ?r2 ?r3)
    (smaller ?s1 ?s2) (smaller ?s1 ?s3))
(<= (notfirst ?r1) (true (steps ?r1 ?s1)) (true (steps ?r2 ?s2)) (distinct ?r1 ?r2)
    (true (steps ?r3 ?s3)) (distinct ?r1 ?r3) (distinct ?r2 ?r3)
    (not (smaller ?s2 ?s1)) (smaller ?s1 ?s3))
"""


def test_variable_elimination_takes_the_step_variables_out_of_a_three_robot_rule():
    # By hand (crossers3:113 shape): of the non-head variables, ?s2 and ?s3 have the
    # narrowest buckets (3 variables: the robot's steps atom and its smaller atom); ?s2 comes
    # first. Eliminating both leaves ?r1 ?s1 ?r2 ?r3, where every bucket has all 4 variables.
    last, _ = normal(LAST)
    assert [str(rule) for rule in variable_eliminations([last])[0]] == [
        "(<= (#elim0 ?r2 ?s1) (true (steps ?r2 ?s2)) (smaller ?s1 ?s2))",
        "(<= (#elim1 ?r3 ?s1) (true (steps ?r3 ?s3)) (smaller ?s1 ?s3))",
        "(<= (last ?r1) (true (steps ?r1 ?s1)) (distinct ?r1 ?r2) (distinct ?r1 ?r3) "
        "(distinct ?r2 ?r3) (#elim0 ?r2 ?s1) (#elim1 ?r3 ?s1))",
    ]


def test_a_negated_literal_moves_with_its_variable_and_a_positive_atom_binds_it():
    # By hand: ?s3's bucket has 3 variables and goes first. ?s2's bucket holds
    # (not (smaller ?s2 ?s1)), whose ?s1 no positive atom of the bucket binds: the first atom
    # of the rest that binds it with the fewest new variables, (true (steps ?r1 ?s1)), is
    # copied in (and stays in the rule): 4 variables, fewer than the 5 left.
    _, notfirst = normal(LAST)
    assert [str(rule) for rule in variable_eliminations([notfirst])[0]] == [
        "(<= (#elim0 ?r3 ?s1) (true (steps ?r3 ?s3)) (smaller ?s1 ?s3))",
        "(<= (#elim1 ?r2 ?s1 ?r1) (true (steps ?r2 ?s2)) (not (smaller ?s2 ?s1)) "
        "(true (steps ?r1 ?s1)))",
        "(<= (notfirst ?r1) (true (steps ?r1 ?s1)) (distinct ?r1 ?r2) (distinct ?r1 ?r3) "
        "(distinct ?r2 ?r3) (#elim0 ?r3 ?s1) (#elim1 ?r2 ?s1 ?r1))",
    ]


def test_eliminated_rules_derive_what_the_rules_mean_on_random_facts():
    rng = random.Random(11)
    robots, steps = "abcd", range(5)
    for _ in range(25):
        at = {(r, rng.choice(steps)) for r in robots if rng.random() < 0.9}
        smaller = {(x, y) for x in steps for y in steps if rng.random() < 0.4}
        facts = " ".join(f"(true (steps {r} {s}))" for r, s in sorted(at))
        facts += " ".join(f"(smaller {x} {y})" for x, y in sorted(smaller))
        rules = normal(facts + LAST)
        eliminated = [piece for pieces in variable_eliminations(rules) for piece in pieces]
        found = model(eliminated)
        triples = [
            ((r1, s1), (r2, s2), (r3, s3))
            for r1, s1 in at
            for r2, s2 in at
            for r3, s3 in at
            if len({r1, r2, r3}) == 3
        ]
        expected_last = {
            (a[0],) for a, b, c in triples if (a[1], b[1]) in smaller and (a[1], c[1]) in smaller
        }
        expected_notfirst = {
            (a[0],)
            for a, b, c in triples
            if (b[1], a[1]) not in smaller and (a[1], c[1]) in smaller
        }
        assert found.get("last", set()) == expected_last
        assert found.get("notfirst", set()) == expected_notfirst


RACE = """
(role p)
(robot a) (robot b) (robot c)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6) (succ 6 7)
(<= (smaller ?x ?y) (succ ?x ?y))
(<= (smaller ?x ?z) (succ ?x ?y) (smaller ?y ?z))
(<= (init (steps ?r 0)) (robot ?r))
(<= (legal p (advance ?r)) (true (steps ?r ?s)) (succ ?s ?t))
(<= (next (steps ?r ?t)) (does p (advance ?r)) (true (steps ?r ?s)) (succ ?s ?t))
(<= (next (steps ?r ?s)) (true (steps ?r ?s)) (not (does p (advance ?r))))
(<= terminal (true (steps ?r 7)))
(<= someone_last (last ?r))
(<= (goal p 100) someone_last)
(<= (goal p 0) (not someone_last))
"""
LAST_BY_HAND = """
(<= (behind2 ?r2 ?s1) (true (steps ?r2 ?s2)) (smaller ?s1 ?s2))
(<= (behind3 ?r3 ?s1) (true (steps ?r3 ?s3)) (smaller ?s1 ?s3))
(<= (last ?r1) (true (steps ?r1 ?s1)) (distinct ?r1 ?r2) (distinct ?r1 ?r3)
    (distinct ?r2 ?r3) (behind2 ?r2 ?s1) (behind3 ?r3 ?s1))
"""


def test_a_game_with_a_three_robot_goal_grounds_with_its_variables_eliminated():
    # One player advances one of three robots per turn (up to step 7); the goal asks whether
    # some robot is strictly behind both others. Relaxed, every robot reaches every step:
    # the rule has 6 robot orders x 140 step triples (sum of k*k, k = 1..7) = 840 instances.
    # Eliminated: two auxiliary relations of 3 x 7 facts (robot, a step below some other)
    # with 3 x 28 instances each (robot, s1 < s2), and the rule 6 x 7: 252 facts in all,
    # fewer than half, so the grounder takes that form, the sheet written with it by hand.
    first, _ = LAST.split("(<= (notfirst")
    sheet = GdlGame.from_text(RACE + first, "race")
    system = ground(sheet.rules, "race")
    by_hand = ground(GdlGame.from_text(RACE + LAST_BY_HAND, "race").rules, "race")
    assert system.statistics == by_hand.statistics
    assert assert_same_game(GroundGame(system), sheet, playouts=20, seed=3) > 0


def quarto_like(line_rules: str) -> str:
    """One row of 4 cells filled with pieces p0..p7, each with 3 bits (the binary digits of
    its number); the game ends with a win when the 4 pieces share a bit, or with a full row."""
    bits = " ".join(f"(bitOf {n} p{p} {p >> (n - 1) & 1})" for p in range(8) for n in (1, 2, 3))
    return f"""
(role p)
(piece p0) (piece p1) (piece p2) (piece p3) (piece p4) (piece p5) (piece p6) (piece p7)
(position 1) (position 2) (position 3) (bit 0) (bit 1) {bits}
(init (cell 1 empty)) (init (cell 2 empty)) (init (cell 3 empty)) (init (cell 4 empty))
(<= (legal p (place ?c ?q)) (true (cell ?c empty)) (piece ?q))
(<= (next (cell ?c ?q)) (does p (place ?c ?q)))
(<= (next (cell ?c ?x)) (true (cell ?c ?x)) (does p (place ?d ?q)) (distinct ?c ?d))
(<= open (true (cell ?c empty)))
(<= terminal line)
(<= terminal (not open))
(<= (goal p 100) line)
(<= (goal p 0) (not line))
{line_rules}"""


ALIKE = """
(<= (alike ?p1 ?p2 ?p3 ?p4) (bit ?b) (position ?n)
    (bitOf ?n ?p1 ?b) (bitOf ?n ?p2 ?b) (bitOf ?n ?p3 ?b) (bitOf ?n ?p4 ?b))
(<= line (true (cell 1 ?p1)) (true (cell 2 ?p2)) (true (cell 3 ?p3)) (true (cell 4 ?p4))
    (alike ?p1 ?p2 ?p3 ?p4))
"""
ALIKE_BY_HAND = """
(<= (share1 ?n ?b) (true (cell 1 ?p)) (bitOf ?n ?p ?b))
(<= (share2 ?n ?b) (true (cell 2 ?p)) (bitOf ?n ?p ?b))
(<= (share3 ?n ?b) (true (cell 3 ?p)) (bitOf ?n ?p ?b))
(<= line (bit ?b) (position ?n) (share1 ?n ?b) (share2 ?n ?b) (share3 ?n ?b)
    (true (cell 4 ?p4)) (bitOf ?n ?p4 ?b))
"""


def test_a_static_relation_that_joins_a_rule_is_unfolded_before_elimination():
    # As quarto's rows: `alike` ties the four pieces together, so nothing narrows `line` as
    # written (8^4 piece quadruples). Unfolded, the pieces of cells 1-3 go one by one into
    # an auxiliary relation over the bit's position and value (24 instances each: a piece
    # and a position); then the last piece's bucket is as wide as what is left of the rule
    # (?p4 ?n ?b), so it stays: 24 instances of `line`, as the rules written by hand.
    sheet = GdlGame.from_text(quarto_like(ALIKE), "alike")
    system = ground(sheet.rules, "alike")
    by_hand = ground(GdlGame.from_text(quarto_like(ALIKE_BY_HAND), "alike").rules, "alike")
    assert system.statistics == by_hand.statistics
    assert system.size()["gates"] == by_hand.size()["gates"]
    assert assert_same_game(GroundGame(system), sheet, playouts=20, seed=5) > 0


def test_unfolded_rules_derive_what_the_rules_mean_on_random_facts():
    rng = random.Random(7)
    rules = normal(ALIKE.replace("(true (cell", "(at (cell"))
    static = {"alike", "bit", "position", "bitOf"}
    for _ in range(20):
        facts = [f"(at (cell {c} p{rng.randrange(8)}))" for c in range(1, 5) if rng.random() < 0.9]
        picked = rng.sample(range(8), 3)
        bits = [f"(bitOf {n} p{p} {p >> (n - 1) & 1})" for p in picked for n in (1, 2, 3)]
        base = normal(" ".join([*facts, *bits, "(bit 0) (bit 1) (position 1) (position 2)"]))
        plain = model(base + rules)
        unfolded = variable_eliminations(rules, unfoldable(base + rules, static))
        assert len(unfolded[1]) > 1  # line was narrowed
        eliminated = model(base + [piece for pieces in unfolded for piece in pieces])
        assert eliminated.get("line", set()) == plain.get("line", set())
