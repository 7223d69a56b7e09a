"""Static checks: every sheet in tests/data/gdl gives exactly the findings its `; expect:` lines
list (worked out by hand), and small inline sheets pin down each check."""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamecheck.errors import GamecheckError
from gamecheck.gdl.checks import Severity, lint_file, lint_text
from gamecheck.models.sheet import GdlGame

DATA = Path(__file__).parent / "data" / "gdl"
GOOD_SHEETS = ["tictactoe.kif", "connect4_small.kif", "hanoi.kif"]
EXPECT = re.compile(r"; expect: (error|warning) (\d+):(\d+) (.*)")

# A complete one-role game; the inline tests add one rule to it.
BASE = """
(role robot)
(init (at 1))
(succ 1 2) (succ 2 3)
(<= (legal robot step) (true (at ?n)))
(<= (next (at ?m)) (does robot step) (true (at ?n)) (succ ?n ?m))
(<= terminal (true (at 3)))
(<= (goal robot 100) (true (at 3)))
(<= (goal robot 0) (not (true (at 3))))
"""
BASE_LINES = BASE.count("\n")


def findings_of(extra: str) -> list[tuple[str, int, int, str]]:
    """(severity, line, column, message) of every finding of BASE plus `extra`, whose first
    line is line 1 in the positions returned."""
    lint = lint_text(BASE + extra, "t.kif")
    return [
        (f.severity.value, f.position.line - BASE_LINES, f.position.column, f.message)
        for f in lint.findings
    ]


def test_base_sheet_is_clean():
    assert findings_of("") == []


@pytest.mark.parametrize("name", GOOD_SHEETS)
def test_well_formed_sheets_have_no_findings(name):
    lint = lint_file(str(DATA / name))
    assert lint.findings == ()
    assert lint.rules


@pytest.mark.parametrize(
    "path", sorted(DATA.glob("bad_*.kif")) + [DATA / "warnings.kif", DATA / "form_stratified.kif"]
)
def test_sheet_gives_exactly_the_expected_findings(path):
    expected = [
        EXPECT.match(line).groups()
        for line in path.read_text().splitlines()
        if line.startswith("; expect:")
    ]
    assert expected, f"{path.name} has no '; expect:' line"
    found = lint_file(str(path)).findings
    assert len(found) == len(expected), "\n".join(map(str, found))
    for finding, (severity, line, column, text) in zip(found, expected, strict=True):
        assert finding.severity is Severity(severity), finding
        assert (finding.position.line, finding.position.column) == (int(line), int(column)), finding
        assert finding.position.file == str(path)
        assert finding.message.startswith(text), finding


def test_bad_sheets_have_errors_and_the_warning_sheet_none():
    for path in DATA.glob("bad_*.kif"):
        assert lint_file(str(path)).errors, path.name
    assert not lint_file(str(DATA / "warnings.kif")).errors


def test_unsafe_in_one_branch_of_an_or():
    assert findings_of("(<= (legal robot (go ?x)) (or (succ ?x 3) (true (at 2))))") == [
        ("error", 1, 5, "unsafe variable ?x: it appears in no positive literal of the rule body"),
    ]


def test_variable_in_distinct_only_is_unsafe_and_positive_or_binds():
    assert findings_of("(<= (legal robot (go ?x)) (or (succ ?x 3) (succ 1 ?x)))") == []
    assert findings_of("(<= (legal robot go) (true (at ?n)) (distinct ?n ?k))") == [
        ("error", 1, 37, "unsafe variable ?k: it appears in no positive literal of the rule body"),
    ]


def test_unsafe_fact():
    assert findings_of("(succ ?x 4)") == [
        ("error", 1, 1, "unsafe variable ?x: a fact must be ground"),
    ]


def test_negation_through_a_longer_cycle_and_through_double_negation_of_or():
    # p -> q -> not p: one cycle through negation.
    assert [
        f[:3]
        for f in findings_of(
            "(<= (p ?n) (q ?n))\n(<= (q ?n) (true (at ?n)) (not (p ?n)))\n(<= terminal (p 1))"
        )
    ] == [("error", 2, 27)]
    # (not (or a (not b))) makes `not a` and a positive `b`: only `a` is negative.
    assert (
        findings_of(
            "(<= r (not (or (true (at 2)) (not r2))))\n(<= r2 (true (at 1)))\n(<= terminal r)"
        )
        == []
    )


def test_recursion_restriction_accepts_head_arguments_and_outside_bindings():
    accepted = (
        "(<= (reach ?x ?y) (succ ?x ?y))\n"
        "(<= (reach ?x ?z) (succ ?x ?y) (reach ?y ?z))\n"
        "(<= terminal (reach 1 3))"
    )
    assert findings_of(accepted) == []


def test_recursion_restriction_rejects_a_recursive_argument_bound_only_inside():
    rejected = (
        "(<= (reach ?x ?y) (succ ?x ?y))\n"
        "(<= (reach ?x ?z) (reach ?x ?y) (reach ?y ?z))\n"
        "(<= terminal (reach 1 3))"
    )
    assert [f[:3] for f in findings_of(rejected)] == [("error", 2, 19), ("error", 2, 33)]


def test_init_must_not_depend_on_legal_even_indirectly():
    found = findings_of("(<= helper (legal robot step))\n(<= (init (at 2)) helper)")
    assert found == [
        ("error", 2, 19, "init must not depend on legal, but it does through helper"),
    ]


def test_terminal_and_goal_must_not_depend_on_does():
    found = findings_of("(<= terminal (does robot step))\n(<= (goal robot 50) (does robot step))")
    assert [f[:3] for f in found] == [("error", 1, 14), ("error", 2, 21)]


def test_base_and_input_must_not_depend_on_the_state():
    found = findings_of("(<= (base (at ?n)) (true (at ?n)))\n(<= (input robot step) (role robot))")
    assert [f[:3] for f in found] == [("error", 1, 20)]


def test_next_in_a_body_does_as_a_head_and_a_compound_role():
    found = findings_of("(<= (legal robot jump) (next (at 2)))\n(does robot step)\n(role (team a))")
    # next depends on does (BASE's next rule), so the legal rule also depends on does.
    assert [f[:3] for f in found] == [
        ("error", 1, 24),
        ("error", 1, 24),
        ("error", 2, 1),
        ("error", 3, 1),
    ]
    assert found[0][3] == "next cannot appear in a rule body, only in rule heads and facts"
    assert found[1][3] == "legal must not depend on does, but it does through next"
    assert found[3][3].startswith("role (team a) is not a constant")


@pytest.mark.parametrize(
    ("value", "bad"),
    [("0", False), ("100", False), ("101", True), ("-5", True), ("high", True), ("?v", False)],
)
def test_goal_values_from_0_to_100(value, bad):
    found = findings_of(f"(<= (goal robot {value}) (succ ?v 3) (true (at ?v)))")
    assert bool(found) is bad
    if bad:
        assert found == [("error", 1, 5, f"goal value {value} is not an integer from 0 to 100")]


def test_keyword_arity():
    assert findings_of("(<= (legal robot) (true (at 1)))") == [
        ("error", 1, 5, "legal takes 2 arguments, not 1"),
    ]


def test_missing_keywords_are_warnings():
    lint = lint_text("(role r)", "m.kif")
    assert [str(f) for f in lint.findings] == [
        f"m.kif:1:1: warning: the rule sheet has no {keyword} rule"
        for keyword in ("init", "legal", "next", "terminal", "goal")
    ]


def test_does_that_no_legal_allows():
    assert findings_of("(<= (next (at 1)) (does robot jmp))") == [
        ("warning", 1, 19, "(does robot jmp) never holds: no legal rule makes a jmp term"),
    ]


def test_variables_differing_only_in_case():
    assert findings_of("(<= (legal robot (go ?X)) (succ ?x ?X))") == [
        (
            "warning",
            1,
            27,
            "variables ?X and ?x differ only in case: two names, as ggp-base reads them "
            "(engines that ignore case read one)",
        ),
    ]


def test_syntax_error_is_the_only_finding():
    lint = lint_text("(role a) (init (at 1)", "s.kif")
    assert lint.rules is None
    assert [str(f) for f in lint.findings] == [
        "s.kif:1:10: error: unbalanced parenthesis: this '(' is never closed"
    ]


TICTACTOE = (DATA / "tictactoe.kif").read_text()
MUTATION_TEXT = st.sampled_from(["(", ")", " ", "?x", "not ", "(or ", "distinct", "true", ";", "1"])


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, len(TICTACTOE)), st.integers(0, 8), MUTATION_TEXT),
        min_size=1,
        max_size=4,
    )
)
def test_mutated_sheets_give_findings_never_exceptions(mutations):
    text = TICTACTOE
    for position, deleted, inserted in mutations:
        text = text[:position] + inserted + text[position + deleted :]
    lint = lint_text(text, "mutant.kif")
    for finding in lint.findings:
        assert finding.position.file == "mutant.kif"
        assert finding.position.line >= 1 and finding.position.column >= 1


TOKENS = [
    "(",
    ")",
    "(<=",
    "(not",
    "(or",
    "(distinct",
    "(role",
    "(true",
    "(does",
    "(legal",
    "(init",
    "(next",
    "(goal",
    "terminal",
    "?x",
    "?y",
    "a",
    "(f",
    "b",
    "100",
    "150",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=40))
def test_checks_on_random_token_streams_never_raise(tokens):
    lint = lint_text(" ".join(tokens))
    assert all(f.severity in (Severity.ERROR, Severity.WARNING) for f in lint.findings)


def test_rule_with_too_many_disjunctions_is_an_error_not_a_hang():
    body = " ".join(f"(or (succ {i} 2) (succ 2 3))" for i in range(13))  # 2**13 > 4096
    lint = lint_text(f"(role r)\n(<= (legal r go) {body})", "or.kif")
    assert [str(f) for f in lint.findings] == [
        "or.kif:2:1: error: this rule's (or ...) literals expand into more than 4096 "
        "alternatives; split it into several rules"
    ]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, len(TICTACTOE)), st.integers(0, 8), MUTATION_TEXT),
        min_size=1,
        max_size=3,
    ),
    st.randoms(use_true_random=False),
)
def test_mutated_sheets_that_pass_the_checks_can_be_played(mutations, rng):
    text = TICTACTOE
    for position, deleted, inserted in mutations:
        text = text[:position] + inserted + text[position + deleted :]
    try:
        game = GdlGame.from_text(text, "mutant.kif")
        state = game.initial_state()
        for _ in range(4):
            if game.is_terminal(state):
                game.goal_values(state)
                break
            legal = [game.legal(state, role) for role in game.roles]
            if not all(legal):
                break
            state = game.next(state, [rng.choice(actions) for actions in legal])
    except GamecheckError:
        pass
