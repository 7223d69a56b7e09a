"""sudoku (RULES.md section 4) on hand-built positions, for the rule sheet and the generator,
and the instance sheets written by gamecheck.models.rules.sudoku_rule_text."""

import pytest

from gamecheck.models.rules import rule_sheet_path, rule_text, sudoku_rule_text
from gamecheck.models.sheet import GdlGame
from gamecheck.models.sudoku import INSTANCES
from tests.rule_sheets import IMPLEMENTATIONS, game_under_test, legal_texts, next_facts, outcome
from tests.sudoku_reference import PEERS

SOLVED = "".join(str((3 * (r % 3) + r // 3 + c) % 9 + 1) for r in range(9) for c in range(9))
"""A solved grid, row by row: row r is 1..9 shifted by 3(r mod 3) + r div 3."""


@pytest.fixture(params=IMPLEMENTATIONS)
def game(request):
    return game_under_test("sudoku", request.param)


def grid_facts(grid: str) -> set[str]:
    """The facts of an 81-character grid (`.` blank): row r column c (1-based) is cell
    (i j k l) with column c = 3(i-1)+j and row r = 3(k-1)+l."""
    facts = set()
    for index, char in enumerate(grid):
        r, c = divmod(index, 9)
        i, j, k, l = c // 3 + 1, c % 3 + 1, r // 3 + 1, r % 3 + 1  # noqa: E741
        facts.add(f"(cell {i} {j} {k} {l} {'b' if char == '.' else char})")
    return facts


def with_cell(grid: str, row: int, column: int, char: str) -> str:
    index = 9 * (row - 1) + column - 1
    return grid[:index] + char + grid[index + 1 :]


def test_solved_grid_is_valid():
    assert all(SOLVED[p] != SOLVED[i] for i in range(81) for p in PEERS[i])


def test_initial_state_candidates_and_a_mark(game):
    start = game.state_facts(game.initial_state())
    assert start == frozenset(grid_facts(INSTANCES["grade1"]))
    legal = legal_texts(game, start, "robot")
    # Row 1 column 2 is (1 2 1 1): row 1 holds 9, 8; column 2 holds 2, 5, 6, 8; box 1 holds
    # 9, 7, 2. So 1, 3, 4 remain.
    assert {a for a in legal if a.startswith("(mark 1 2 1 1 ")} == {
        "(mark 1 2 1 1 1)",
        "(mark 1 2 1 1 3)",
        "(mark 1 2 1 1 4)",
    }
    assert not any(a.startswith("(mark 1 1 1 1 ") for a in legal)  # a given
    after = next_facts(game, start, ["(mark 1 2 1 1 3)"])
    assert after == frozenset(grid_facts(with_cell(INSTANCES["grade1"], 1, 2, "3")))
    assert outcome(game, start) == (False, (0,))


def test_solved_grid_is_terminal_and_won(game):
    assert outcome(game, grid_facts(SOLVED)) == (True, (100,))


def test_one_blank_with_its_digit_elsewhere_in_the_column_is_a_lost_dead_end(game):
    # Blank row 1 column 1 (its digit is 1: only 1 is missing from row 1); write 1 over row 5
    # column 1 as well, so column 1 holds 1 and the blank has no candidate left.
    grid = with_cell(with_cell(SOLVED, 1, 1, "."), 5, 1, "1")
    assert outcome(game, grid_facts(grid)) == (True, (0,))
    # Without the second change the blank still takes its 1: not over.
    assert legal_texts(game, grid_facts(with_cell(SOLVED, 1, 1, ".")), "robot") == {
        "(mark 1 1 1 1 1)"
    }


@pytest.mark.parametrize("instance", sorted(INSTANCES))
def test_instance_sheets_start_from_the_instance(instance):
    game = GdlGame.from_text(sudoku_rule_text(instance), f"sudoku:{instance}")
    assert game.state_facts(game.initial_state()) == frozenset(grid_facts(INSTANCES[instance]))
    assert rule_text(f"sudoku:{instance}") == sudoku_rule_text(instance)


def test_grade1_sheet_is_the_file_itself():
    assert sudoku_rule_text("grade1") == rule_sheet_path("sudoku").read_text(encoding="utf-8")
