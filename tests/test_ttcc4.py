"""models/ttcc4.py against hand-worked positions (RULES.md section 2), the ground truth in
tests/data/ttcc4.toml, the naive second implementation tests/naive_ttcc4.py, and seeded random
playouts."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from gamecheck.errors import BadTermError, IllegalActionError, UnknownRoleError
from gamecheck.models import get_game
from gamecheck.models.ttcc4 import Ttcc4Game, TtccState
from tests import naive_ttcc4
from tests.perft import divide, perft
from tests.playouts import check_conversions, check_rejects_illegal, random_playout

GAME = Ttcc4Game()
DATA = tomllib.loads((Path(__file__).parent / "data" / "ttcc4.toml").read_text())
START_FACTS = {
    "redPawn": "(cell 1 5 redPawn)",
    "redChecker": "(cell 1 4 redChecker)",
    "redKnight": "(cell 1 3 redKnight)",
    "yellowPawn": "(cell 3 1 yellowPawn)",
    "yellowChecker": "(cell 4 1 yellowChecker)",
    "yellowKnight": "(cell 5 1 yellowKnight)",
    "bluePawn": "(cell 7 3 bluePawn)",
    "blueChecker": "(cell 7 4 blueChecker)",
    "blueKnight": "(cell 7 5 blueKnight)",
}
"""RULES.md's start cells of the pawns, checkers and knights."""
SEEDS = range(40)
FOREIGN_ACTIONS = [
    GAME.parse_action("red", text)
    for text in (
        "(drop 3)",
        "(pawnMove 1 5 2 5)",
        "(pawnMove 3 1 3 2)",
        "(knightMove 5 1 4 3)",
        "(checkerMove 7 4 6 5)",
        "(jump 1 4 2 5 3 6)",
        "(knightMove 4 4 6 5)",
    )
]
"""Actions to try on every role where they are not legal: `next` must reject them."""


def position(*facts: str, control: str = "red", step: int = 1) -> list[str]:
    """Hand-written cell facts completed by the control and step facts and by the start cells
    of the pawns, checkers and knights they do not place."""
    placed = " ".join(facts)
    at_start = [fact for piece, fact in START_FACTS.items() if f" {piece})" not in placed]
    return [*facts, *at_start, f"(control {control})", f"(step {step})"]


def state(*facts: str, control: str = "red", step: int = 1) -> TtccState:
    return GAME.state_from_facts(position(*facts, control=control, step=step))


def legal_texts(state: TtccState, role: str) -> list[str]:
    return sorted(GAME.action_text(action) for action in GAME.legal(state, role))


def play(state: TtccState, action: str) -> TtccState:
    """The next state when the controller plays `action` and the others noop."""
    joint = tuple(
        GAME.parse_action(role, action if i == state.control else "noop")
        for i, role in enumerate(GAME.roles)
    )
    return GAME.next(state, joint)


# --- the start ----------------------------------------------------------------------------


def test_registered_with_roles_and_bound():
    game = get_game("ttcc4")
    assert game.roles == ("red", "yellow", "blue")
    assert game.step_bound == 30


def test_initial_state_facts():
    assert GAME.state_facts(GAME.initial_state()) == frozenset(
        [*START_FACTS.values(), "(control red)", "(step 1)"]
    )


# --- legal actions ------------------------------------------------------------------------


@pytest.mark.parametrize("position", DATA["position"], ids=lambda p: p["name"])
def test_ground_truth_positions(position):
    start = GAME.state_from_facts(position["facts"])
    for role, expected in position["legal"].items():
        assert legal_texts(start, role) == sorted(expected), role


def test_noop_is_legal_for_every_role_and_changes_only_control_and_step():
    start = state("(cell 4 2 blueDisc)", control="blue", step=7)
    assert all("noop" in legal_texts(start, role) for role in GAME.roles)
    assert play(start, "noop") == state("(cell 4 2 blueDisc)", control="red", step=8)


def test_roles_out_of_control_may_only_noop():
    start = GAME.initial_state()
    assert legal_texts(start, "yellow") == legal_texts(start, "blue") == ["noop"]
    joint = tuple(GAME.parse_action(role, "(drop 3)") for role in GAME.roles)
    with pytest.raises(IllegalActionError):
        GAME.next(start, joint)


def test_no_drop_into_a_full_column():
    start = state("(cell 3 6 yellowDisc)", control="blue")
    drops = [text for text in legal_texts(start, "blue") if text.startswith("(drop")]
    assert drops == ["(drop 4)", "(drop 5)"]


def test_knight_captures_enemies_but_not_its_own_pieces():
    # Yellow knight (4 4): its 8 targets are all on board; (6 5) holds a red disc (capture),
    # (2 3) a yellow disc (its own), the other 6 are empty.
    start = state(
        "(cell 4 4 yellowKnight)", "(cell 6 5 redDisc)", "(cell 2 3 yellowDisc)", control="yellow"
    )
    knight = [text for text in legal_texts(start, "yellow") if text.startswith("(knightMove")]
    targets = ["2 5", "3 2", "3 6", "5 2", "5 6", "6 3", "6 5"]
    assert knight == sorted(f"(knightMove 4 4 {target})" for target in targets)


def test_checker_jumps_only_over_an_enemy_to_an_empty_cell():
    # Blue checker (4 4): over the red pawn on (3 3) to empty (2 2): yes; over the yellow disc
    # on (5 5) to (6 6), where a red disc stands: no; over its own disc on (5 3): no; (3 5) is
    # empty, so a plain step there.
    start = state(
        "(cell 4 4 blueChecker)",
        "(cell 3 3 redPawn)",
        "(cell 5 5 yellowDisc)",
        "(cell 6 6 redDisc)",
        "(cell 5 3 blueDisc)",
        control="blue",
    )
    checker = [
        text for text in legal_texts(start, "blue") if text.startswith(("(jump", "(checker"))
    ]
    assert checker == ["(checkerMove 4 4 3 5)", "(jump 4 4 3 3 2 2)"]


def test_nothing_moves_onto_a_border_cell():
    # Red pawn, knight and checker in the corner of the board: every move that would end on
    # the border is missing, and the blue checker on (3 3) cannot jump red's checker on (2 2)
    # because (1 1) is a border cell.
    start = state(
        "(cell 2 2 redChecker)",
        "(cell 2 6 redPawn)",
        "(cell 6 2 redKnight)",
        "(cell 3 3 blueChecker)",
        "(cell 3 5 blueDisc)",
    )
    moves = [text for text in legal_texts(start, "red") if not text.startswith(("(drop", "noop"))]
    assert moves == sorted(
        [
            "(pawnMove 2 6 3 6)",
            "(pawnMove 2 6 2 5)",
            "(pawnMove 2 6 3 5)",  # captures the blue disc diagonally
            "(knightMove 6 2 4 3)",
            "(knightMove 6 2 5 4)",
            "(jump 2 2 3 3 4 4)",
        ]
    )
    blue_turn = state(
        "(cell 2 2 redChecker)", "(cell 3 3 blueChecker)", "(cell 3 5 blueDisc)", control="blue"
    )
    assert not [text for text in legal_texts(blue_turn, "blue") if text.startswith("(jump")]


# --- transitions --------------------------------------------------------------------------


def test_disc_falls_to_row_two():
    after = play(GAME.initial_state(), "(drop 4)")
    assert after == state("(cell 4 2 redDisc)", control="yellow", step=2)


def test_disc_falls_onto_the_first_piece_below():
    start = state("(cell 4 2 yellowDisc)", "(cell 5 4 redKnight)", step=4)
    assert play(start, "(drop 4)") == state(
        "(cell 4 2 yellowDisc)",
        "(cell 4 3 redDisc)",
        "(cell 5 4 redKnight)",
        control="yellow",
        step=5,
    )
    # It stops on the knight at (5 4) although (5 3) and (5 2) below are empty.
    assert play(start, "(drop 5)") == state(
        "(cell 4 2 yellowDisc)",
        "(cell 5 5 redDisc)",
        "(cell 5 4 redKnight)",
        control="yellow",
        step=5,
    )


@pytest.mark.parametrize(
    ("before", "control", "action", "after"),
    [
        pytest.param(
            ["(cell 4 4 redPawn)", "(cell 5 2 yellowKnight)"],
            "yellow",
            "(knightMove 5 2 4 4)",
            ["(cell 4 4 yellowKnight)"],
            id="knight takes pawn",
        ),
        pytest.param(
            ["(cell 4 4 bluePawn)", "(cell 3 3 redChecker)"],
            "blue",
            "(pawnMove 4 4 3 3)",
            ["(cell 3 3 bluePawn)"],
            id="pawn takes checker",
        ),
        pytest.param(
            ["(cell 3 3 redChecker)", "(cell 4 4 yellowKnight)"],
            "red",
            "(jump 3 3 4 4 5 5)",
            ["(cell 5 5 redChecker)"],
            id="checker jumps knight",
        ),
        pytest.param(
            ["(cell 3 3 redPawn)", "(cell 4 4 blueDisc)"],
            "red",
            "(pawnMove 3 3 4 4)",
            ["(cell 4 4 redPawn)"],
            id="pawn takes disc",
        ),
        pytest.param(
            ["(cell 3 3 redChecker)", "(cell 4 4 blueDisc)", "(cell 5 4 blueDisc)"],
            "red",
            "(jump 3 3 4 4 5 5)",
            ["(cell 5 5 redChecker)", "(cell 5 4 blueDisc)"],
            id="checker jumps disc",
        ),
    ],
)
def test_captured_pieces_go_home_and_captured_discs_vanish(before, control, action, after):
    # The `state` helper puts every piece not placed by hand on its start cell, so the
    # expected state has the captured pawn, checker or knight back home and no captured disc.
    start = state(*before, control=control, step=3)
    following = GAME.roles[(GAME.roles.index(control) + 1) % 3]
    assert play(start, action) == state(*after, control=following, step=4)


# --- terminal and goals -------------------------------------------------------------------


def test_a_line_of_mixed_pieces_ends_the_game():
    finished = state("(cell 3 3 redPawn)", "(cell 4 4 redDisc)", "(cell 5 5 redKnight)")
    assert GAME.is_terminal(finished)
    assert GAME.goals(finished) == (100, 0, 0)
    assert all(GAME.legal(finished, role) == [] for role in GAME.roles)


def test_dropping_the_third_piece_of_a_line_wins():
    start = state("(cell 4 3 redKnight)", "(cell 4 4 redPawn)", "(cell 4 2 yellowDisc)", step=12)
    assert not GAME.is_terminal(start)
    after = play(start, "(drop 4)")
    assert after == state(
        "(cell 4 3 redKnight)",
        "(cell 4 4 redPawn)",
        "(cell 4 5 redDisc)",
        "(cell 4 2 yellowDisc)",
        control="yellow",
        step=13,
    )
    assert GAME.is_terminal(after)
    assert GAME.goals(after) == (100, 0, 0)


def test_three_in_a_row_outside_the_centre_square_is_no_line():
    for facts in (
        ("(cell 2 2 blueDisc)", "(cell 3 3 blueDisc)", "(cell 4 4 blueDisc)"),
        ("(cell 2 3 blueDisc)", "(cell 3 3 blueDisc)", "(cell 4 3 blueDisc)"),
        ("(cell 3 3 blueDisc)", "(cell 4 3 blueDisc)", "(cell 5 4 blueDisc)"),
    ):
        position = state(*facts)
        assert not GAME.is_terminal(position)
        assert GAME.goals(position) == (0, 0, 0)


def test_two_roles_with_lines_both_win():
    finished = state(
        *(f"(cell {x} 3 redDisc)" for x in (3, 4, 5)),
        *(f"(cell {x} 5 yellowDisc)" for x in (3, 4, 5)),
    )
    assert GAME.is_terminal(finished)
    assert GAME.goals(finished) == (100, 100, 0)


def test_step_31_ends_the_game_with_no_winner():
    assert not GAME.is_terminal(state(step=30))
    last = play(state(control="blue", step=30), "noop")
    assert last == state(control="red", step=31)
    assert GAME.is_terminal(last)
    assert GAME.goals(last) == (0, 0, 0)


# --- conversions and bad input ------------------------------------------------------------


@pytest.mark.parametrize(
    "facts",
    [
        pytest.param(position("(cell 3 3 redDisc)", "(cell 3 3 blueDisc)"), id="two on a cell"),
        pytest.param(position("(cell 4 4 redPawn)") + ["(cell 1 5 redPawn)"], id="two pawns"),
        pytest.param(position("(cell 1 6 redKnight)"), id="knight on another border cell"),
        pytest.param(position("(cell 2 1 redDisc)"), id="disc on the border"),
        pytest.param(position("(cell 0 3 redDisc)"), id="off the board"),
        pytest.param(position("(cell 3 3 greenDisc)"), id="unknown piece"),
        pytest.param(position() + ["(step 2)"], id="two steps"),
        pytest.param(position() + ["(control blue)"], id="two controls"),
        pytest.param(position() + ["(control green)"], id="unknown role"),
        pytest.param(position() + ["(score red 3)"], id="unknown fact"),
    ],
)
def test_state_from_facts_rejects_bad_fact_sets(facts):
    with pytest.raises(BadTermError):
        GAME.state_from_facts(facts)


def test_state_from_facts_reads_a_repeated_fact_once():
    facts = position("(cell 4 2 redDisc)")
    assert GAME.state_from_facts(facts + ["(cell 4  2 redDisc)", "(step 1)"]) == state(
        "(cell 4 2 redDisc)"
    )


@pytest.mark.parametrize(
    "facts",
    [
        pytest.param([*START_FACTS.values()][1:] + ["(control red)", "(step 1)"], id="no pawn"),
        pytest.param([*START_FACTS.values(), "(step 1)"], id="no control"),
        pytest.param([*START_FACTS.values(), "(control red)"], id="no step"),
        pytest.param([*START_FACTS.values(), "(control red)", "(step 0)"], id="step 0"),
        pytest.param([*START_FACTS.values(), "(control red)", "(step 32)"], id="step 32"),
    ],
)
def test_state_from_facts_rejects_incomplete_fact_sets(facts):
    with pytest.raises(BadTermError):
        GAME.state_from_facts(facts)


@pytest.mark.parametrize(
    "text",
    [
        "(drop 2)",
        "(drop 6)",
        "(pawnMove 1 5 1 6)",  # onto the border
        "(pawnMove 3 3 5 5)",  # not a neighbour
        "(knightMove 3 3 4 4)",
        "(checkerMove 3 3 3 4)",  # not diagonal
        "(jump 3 3 4 4 6 5)",  # not straight beyond
        "(move 3 3 4 4)",
        "(drop 3",
    ],
)
def test_parse_action_rejects_non_actions(text):
    with pytest.raises(BadTermError):
        GAME.parse_action("red", text)


def test_unknown_role_is_rejected():
    with pytest.raises(UnknownRoleError):
        GAME.parse_action("green", "noop")
    with pytest.raises(UnknownRoleError):
        GAME.legal(GAME.initial_state(), "green")


def test_picture_shows_the_whole_board():
    lines = GAME.picture(state("(cell 4 2 redDisc)", control="yellow", step=2)).splitlines()
    assert lines[0] == "control yellow, step 2"
    board = lines[2:]
    assert board[0] == "y7   -  -  -  -  -  -  -"
    assert board[2] == "y5  rP  .  .  .  .  . bK"
    assert board[5] == "y2   -  .  . rD  .  .  -"
    assert board[6] == "y1   -  - yP yC yK  -  -"


# --- ground truth counts ------------------------------------------------------------------


@pytest.mark.parametrize("case", DATA["perft"], ids=lambda case: f"depth {case['depth']}")
def test_perft_from_the_start(case):
    nodes = perft(GAME.roles, GAME.legal, GAME.apply, GAME.initial_state(), case["depth"])
    assert nodes == case["nodes"], divide(
        GAME.roles, GAME.legal, GAME.apply, GAME.initial_state(), case["depth"]
    )


@pytest.mark.parametrize("case", DATA["perft"], ids=lambda case: f"depth {case['depth']}")
def test_naive_implementation_agrees_on_perft(case):
    start = GAME.state_facts(GAME.initial_state())
    nodes = perft(GAME.roles, naive_ttcc4.legal, naive_ttcc4.next_facts, start, case["depth"])
    assert nodes == case["nodes"]


# --- seeded random playouts ---------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_properties(seed):
    states, joints = random_playout(GAME, seed)
    assert len(joints) <= 30
    final = states[-1]
    assert final.step == len(joints) + 1
    assert set(GAME.goals(final)) <= {0, 100}
    assert len(joints) == 30 or 100 in GAME.goals(final)
    for current in states:
        check_conversions(GAME, current)
    for current in states[:-1:5]:
        check_rejects_illegal(GAME, current, FOREIGN_ACTIONS)


@pytest.mark.parametrize("seed", SEEDS[:10])
def test_random_playouts_agree_with_naive_implementation(seed):
    states, joints = random_playout(GAME, seed)
    facts = GAME.state_facts(states[0])
    for current, joint in zip(states, joints, strict=False):
        assert not naive_ttcc4.terminal(facts)
        for role in GAME.roles:
            assert legal_texts(current, role) == naive_ttcc4.legal(facts, role)
        facts = naive_ttcc4.next_facts(facts, [GAME.action_text(a) for a in joint])
        assert GAME.state_facts(GAME.apply(current, joint)) == facts
    assert naive_ttcc4.terminal(facts)
    assert GAME.goals(states[-1]) == naive_ttcc4.goals(facts)
