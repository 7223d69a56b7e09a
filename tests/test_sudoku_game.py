"""Sudoku as a game (RULES.md section 4): coordinates, legal marks, terminal, goals, bad input."""

import random

import pytest

from gamecheck.errors import BadPuzzleError, BadTermError, GamecheckError, IllegalActionError
from gamecheck.models import get_game
from gamecheck.models.sudoku import INSTANCES, SudokuGame
from tests.sudoku_reference import PEERS

GRADE1 = INSTANCES["grade1"]


def test_cells_are_addressed_column_by_i_j_and_row_by_k_l():
    facts = get_game("sudoku").state_facts(get_game("sudoku").initial_state())
    # grade1 row 1 is "9.......8": row 1 column 1 holds 9, row 1 column 9 holds 8.
    # Column 9 = 3(i-1)+j gives i=3, j=3; row 1 = 3(k-1)+l gives k=1, l=1.
    assert "(cell 1 1 1 1 9)" in facts
    assert "(cell 3 3 1 1 8)" in facts
    # Row 2 column 2 holds 2: i=1, j=2, k=1, l=2.
    assert "(cell 1 2 1 2 2)" in facts
    # Row 9 column 1 holds 5: k=3, l=3; row 5 column 5 holds 4: i=2 j=2 k=2 l=2.
    assert "(cell 1 1 3 3 5)" in facts
    assert "(cell 2 2 2 2 4)" in facts
    assert "(cell 2 1 1 1 b)" in facts
    assert len(facts) == 81


def test_legal_marks_exclude_digits_of_the_row_column_and_box():
    game = get_game("sudoku")
    legal = {game.action_text(a) for a in game.legal(game.initial_state(), "robot")}
    # Row 1 column 2: row 1 holds {9, 8}, column 2 holds {2, 5, 6, 8}, box 1 holds {9, 7, 2}.
    assert {a for a in legal if a.startswith("(mark 1 2 1 1 ")} == {
        "(mark 1 2 1 1 1)",
        "(mark 1 2 1 1 3)",
        "(mark 1 2 1 1 4)",
    }
    assert not any(a.startswith("(mark 1 1 1 1 ") for a in legal)  # a given cell


def test_marking_a_digit_writes_it_and_illegal_marks_are_rejected():
    game = get_game("sudoku")
    state = game.initial_state()
    after = game.next(state, [game.parse_action("robot", "(mark 1 2 1 1 3)")])
    assert "(cell 1 2 1 1 3)" in game.state_facts(after)
    assert game.state_facts(state) - game.state_facts(after) == {"(cell 1 2 1 1 b)"}
    with pytest.raises(IllegalActionError):
        game.next(state, [game.parse_action("robot", "(mark 1 2 1 1 9)")])  # 9 in row 1
    with pytest.raises(IllegalActionError):
        game.next(after, [game.parse_action("robot", "(mark 1 2 1 1 4)")])  # cell not blank


def test_random_playouts_end_terminal_exactly_when_no_blank_has_a_candidate():
    game = get_game("sudoku")
    rng = random.Random(7)
    for _ in range(20):
        state = game.initial_state()
        steps = 0
        while not game.is_terminal(state):
            state = game.next(state, [rng.choice(game.legal(state, "robot"))])
            steps += 1
        cells = state.cells
        blanks = [i for i in range(81) if cells[i] == 0]
        # Independently of the game code: a terminal state has no blank with a free digit.
        assert all({cells[p] for p in PEERS[i]} >= set(range(1, 10)) for i in blanks)
        assert game.goals(state) == ((100,) if not blanks else (0,))
        assert steps == 50 - len(blanks)


def test_states_and_actions_round_trip_through_gdl_text():
    game = get_game("sudoku:grade3")
    state = game.initial_state()
    assert game.state_from_facts(game.state_facts(state)) == state
    for action in game.legal(state, "robot"):
        assert game.parse_action("robot", game.action_text(action)) == action


@pytest.mark.parametrize(
    "facts",
    [
        ["(cell 1 1 1 1 9)"],
        ["(cell 1 1 1 1 9)"] * 2 + ["(cell 1 1 1 1 8)"],
        ["(cell 4 1 1 1 9)"],
        ["(mark 1 1 1 1 9)"],
    ],
)
def test_incomplete_or_foreign_facts_are_rejected(facts):
    with pytest.raises(BadTermError):
        get_game("sudoku").state_from_facts(facts)


@pytest.mark.parametrize(
    ("puzzle", "words"),
    [
        (GRADE1[:80], "81 characters"),
        (GRADE1[:40] + "x" + GRADE1[41:], "character 41"),
        ("11" + "." * 79, "1 appears twice in row 1"),
        ("5" + "." * 8 + "5" + "." * 71, "5 appears twice in column 1"),
        ("3" + "." * 9 + "3" + "." * 70, "3 appears twice in box 1"),
    ],
)
def test_bad_puzzles_are_named_in_one_sentence(puzzle, words):
    with pytest.raises(BadPuzzleError, match=words):
        SudokuGame(puzzle)


def test_unknown_instance_and_role_are_rejected():
    with pytest.raises(GamecheckError, match="grade1"):
        get_game("sudoku:grade9")
    with pytest.raises(GamecheckError, match="robot"):
        get_game("sudoku").legal(get_game("sudoku").initial_state(), "xrow")
