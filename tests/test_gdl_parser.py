"""The KIF reader: rule shapes, positions, case, comments, operators, and syntax errors."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamecheck.gdl.parser import MAX_DEPTH, parse_rules, read_rules
from gamecheck.gdl.syntax import Atom, Distinct, GdlError, Not, Or, Position, Rule, normal_rules


def only_rule(text: str) -> Rule:
    (rule,) = parse_rules(text, "t.kif")
    return rule


def test_fact_and_rule_shapes():
    fact, rule = parse_rules("(init (cell 1 1 b))\n(<= (legal ?p noop) (role ?p))", "t.kif")
    assert fact == Rule(Atom(("init", ("cell", "1", "1", "b"))))
    assert rule == Rule(Atom(("legal", "?p", "noop")), (Atom(("role", "?p")),))


def test_zero_argument_relations_are_plain_constants():
    rule = only_rule("(<= terminal (true (step 3)) open)")
    assert rule.head == Atom("terminal")
    assert rule.body[1] == Atom("open")


def test_positions_of_rules_and_literals():
    text = "; header\n(role x)\n  (<= (p ?a)\n      (q ?a) (not (r ?a)))\n"
    role, rule = parse_rules(text, "g.kif")
    assert role.position == Position("g.kif", 2, 1)
    assert rule.position == Position("g.kif", 3, 3)
    assert rule.head.position == Position("g.kif", 3, 7)
    q, negation = rule.body
    assert q.position == Position("g.kif", 4, 7)
    assert negation.position == Position("g.kif", 4, 14)
    assert negation.literal.position == Position("g.kif", 4, 19)
    assert str(q.position) == "g.kif:4:7"


def test_keywords_in_any_case_are_lowered_other_names_keep_their_case():
    rule = only_rule("(<= (LEGAL ?P (Move redPawn)) (TRUE (Control ?P)) (NOT (Distinct ?P Red)))")
    assert rule.head.term == ("legal", "?P", ("Move", "redPawn"))
    assert rule.body[0] == Atom(("true", ("Control", "?P")))
    assert rule.body[1] == Not(Distinct("?P", "Red"))
    assert only_rule("(<= Terminal (true done))").head.term == "terminal"


def test_comments_run_to_the_end_of_the_line():
    rules = parse_rules("(role a) ; (role b)\n;(role c)\n(role d);x(\n", "t.kif")
    assert [rule.head.term for rule in rules] == [("role", "a"), ("role", "d")]


def test_or_not_distinct_and_nested_terms():
    rule = only_rule(
        "(<= (p ?x) (or (q (f (g ?x) 1)) (not (or (r ?x) (distinct ?x (h ?x))))) (s ?x))"
    )
    assert rule.body == (
        Or(
            (
                Atom(("q", ("f", ("g", "?x"), "1"))),
                Not(Or((Atom(("r", "?x")), Distinct("?x", ("h", "?x"))))),
            )
        ),
        Atom(("s", "?x")),
    )


def test_normal_rules_expand_or_and_push_not_inwards():
    rule = only_rule("(<= (p ?x) (s ?x) (or (q ?x) (not (or (r ?x) (not (t ?x))))))")
    bodies = [normal.body for normal in normal_rules(rule)]
    assert bodies == [
        (Atom(("s", "?x")), Atom(("q", "?x"))),
        (Atom(("s", "?x")), Not(Atom(("r", "?x"))), Atom(("t", "?x"))),
    ]
    nested = only_rule("(<= p (or a b) (or c d))")
    assert len(normal_rules(nested)) == 4


def test_rule_text_round_trip():
    text = "(<= (next (cell ?m ?n x)) (does xplayer (mark ?m ?n)) (not (true (cell ?m ?n o))))"
    assert str(only_rule(text)) == text


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        (
            "(role a)\n(<= (p ?x)\n  (q ?x)",
            2,
            1,
            "unbalanced parenthesis: this '(' is never closed",
        ),
        ("(role a))", 1, 9, "unbalanced parenthesis: this ')' has no matching '('"),
        ("(<= (not (p)) q)", 1, 6, "'not' cannot be a rule head"),
        ("(<= ?x (q ?x))", 1, 5, "a variable (?x) cannot be a rule head or its name"),
        ("(<= (p ?x) (not a b))", 1, 12, "(not ...) takes 1 argument, not 2"),
        ("(<= (p ?x) (q ?x) (distinct ?x))", 1, 19, "(distinct ...) takes 2 arguments, not 1"),
        ("(<= p (or))", 1, 7, "(or) needs at least one literal"),
        ("(<= (p ?x) (q ?x) ())", 1, 19, "empty parentheses '()' cannot be a literal"),
        ("(p (f) ())", 1, 8, "empty parentheses '()' are not a term"),
        ("(p ((f a)))", 1, 5, "a function name must start with a name, not '('"),
        ("(p (?f a))", 1, 5, "a variable (?f) cannot be a function name or its name"),
        ("(p ?)", 1, 4, "a variable needs a name after '?'"),
        ("(p (<= a))", 1, 5, "'<=' cannot be a function name"),
        ("(p or)", 1, 4, "'or' is a logical operator and cannot be used as a term"),
        ("(<=)", 1, 1, "a rule (<= head body...) needs a head"),
        ("(<= p (<= q r))", 1, 8, "'<=' cannot be a literal"),
    ],
)
def test_syntax_errors_name_line_column_and_problem(text, line, column, message):
    with pytest.raises(GdlError) as raised:
        parse_rules(text, "g.kif")
    assert raised.value.position == Position("g.kif", line, column)
    assert raised.value.reason == message
    assert str(raised.value) == f"g.kif:{line}:{column}: {message}"


def test_deep_nesting_is_refused_without_recursion_error():
    text = "(p " * (MAX_DEPTH + 1) + ")" * (MAX_DEPTH + 1)
    with pytest.raises(GdlError, match="nest deeper than"):
        parse_rules(text)


def test_read_rules_names_the_file_it_cannot_read(tmp_path):
    with pytest.raises(GdlError, match=r"cannot read .*missing\.kif: No such file"):
        read_rules(tmp_path / "missing.kif")
    binary = tmp_path / "binary.kif"
    binary.write_bytes(b"\xff\xfe(role a)")
    with pytest.raises(GdlError, match="cannot read"):
        read_rules(binary)


TOKENS = ["(", ")", "<=", "not", "or", "distinct", "role", "true", "?x", "?y", "a", "(f", "?"]
TOKENS += ["; c\n", "\n", "NOT", "Or", "1", "init", "does", "legal"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=40))
def test_random_token_streams_parse_or_raise_gdl_error(tokens):
    try:
        rules = parse_rules(" ".join(tokens))
    except GdlError as error:
        assert error.position is not None
    else:
        for rule in rules:
            assert isinstance(rule, Rule)
            normal_rules(rule)
