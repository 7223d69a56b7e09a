"""cubicup's bounds for the forced-win search (models/cubicup.py `can_win`, `sure_win`,
`steps_to_end`) against hand-worked endgames (RULES.md section 1) and against every line of
play of random endgames, enumerated with the naive second implementation."""

from __future__ import annotations

from functools import cache

import pytest

from gamecheck.models.base import NEVER
from gamecheck.models.cubicup import CubicupGame, can_win, keep_bound, sure_win
from tests import naive_cubicup
from tests.playouts import random_playout
from tests.test_cubicup import counts, levels, red_green_by_column, state

GAME = CubicupGame()
YELLOW, RED, GREEN = range(3)
LEVEL_FIVE_MIXED = {(5, 5): "yellow", (6, 5): "red", (7, 5): "yellow", (6, 6): "green"}
LEVEL_FIVE_MIXED |= {(7, 6): "green", (7, 7): "red"}
"""Level 5 coloured so that each position of level 6 has supporters of two or three colours:
(6 6 6) on yellow, red, green; (7 6 6) on red, yellow, green; (7 7 6) on green, green, red."""


def top_endgame(cubes: tuple[int, int, int], control: str, *level_six: str):
    """Levels 1..5 full (level 5 as LEVEL_FIVE_MIXED), plus the level-6 cube facts given."""
    below = levels(1, 4, lambda x, y, z: "yellow")
    five = [f"(cube {x} {y} 5 {colour})" for (x, y), colour in LEVEL_FIVE_MIXED.items()]
    return state(*below, *five, *level_six, *counts(*cubes), f"(control {control})")


def test_four_cubes_in_turn_order_the_fourth_fills_the_top():
    # no position can become a cubicup: control goes yellow, red, green, yellow, and yellow
    # fills (7 7 7) with level 6 one cube of each colour: yellow scores 100 in every line
    start = top_endgame((2, 1, 1), "yellow")
    assert [keep_bound(start, role) for role in (YELLOW, RED, GREEN)] == [0, 0, 0]
    assert [can_win(start, role) for role in (YELLOW, RED, GREEN)] == [True, False, False]
    assert GAME.steps_to_end(start) == 4
    assert GAME.steps_to_win(start, (YELLOW,)) == 4
    assert GAME.steps_to_win(start, (RED,)) == NEVER
    assert GAME.steps_to_win(start, (YELLOW, RED)) == NEVER  # only one role ever scores 100
    assert not sure_win(start, YELLOW)  # level 6 is empty: the test does not look further
    assert all_outcomes(start) == {(100, 0, 0)}


def test_a_level_six_cube_of_its_own_makes_the_win_sure():
    # red, green, yellow: yellow fills (7 7 7) on its own (6 6 6)
    start = top_endgame((1, 1, 1), "red", "(cube 6 6 6 yellow)")
    assert sure_win(start, YELLOW) and not sure_win(start, RED)
    assert GAME.steps_to_loss(start, (YELLOW,)) == NEVER
    assert GAME.steps_to_loss(start, (RED,)) == 3
    assert all_outcomes(start) == {(100, 0, 0)}


def test_the_supporters_of_the_top_all_of_one_role():
    # green fills (7 7 7), but the supporters are red's: every role scores 50
    start = top_endgame(
        (0, 0, 1), "green", "(cube 6 6 6 red)", "(cube 7 6 6 red)", "(cube 7 7 6 red)"
    )
    assert not can_win(start, GREEN)
    assert all_outcomes(start) == {(50, 50, 50)}


def test_the_last_cube_is_no_keep():
    # red's open cubicup (6 6 6) (level 5 recoloured), yellow in control, one cube each:
    # yellow must fill it and, with its last cube, passes control (RULES.md (a)); red fills
    # (7 7 6), green (7 7 7) on yellow, green, red: green scores 100 in every line
    below = levels(1, 4, lambda x, y, z: "yellow")
    five = {**LEVEL_FIVE_MIXED, (5, 5): "red", (6, 5): "red", (6, 6): "red"}
    start = state(
        *below,
        *(f"(cube {x} {y} 5 {colour})" for (x, y), colour in five.items()),
        "(cube 7 6 6 green)",
        *counts(1, 1, 1),
        "(control yellow)",
    )
    assert [keep_bound(start, role) for role in (YELLOW, RED, GREEN)] == [0, 0, 0]  # last cubes
    assert [can_win(start, role) for role in (YELLOW, RED, GREEN)] == [False, False, True]
    assert all_outcomes(start) == {(0, 0, 100)}


def test_a_keep_on_level_two_lets_a_role_outlast_another():
    # every position filled but (7 7 2) .. (7 7 7), one above the other; red on odd x, green
    # on even x (no cubicup), but (6 6 1) is red too: (7 7 2) on (6 6 1), (7 6 1), (7 7 1) is
    # red's open
    # cubicup. Yellow (3 cubes) must fill it and keeps control, fills (7 7 3), then red,
    # green, yellow, red fill the rest: red places the last cube, on (6 6 6) green, (7 6 6)
    # red and (7 7 6) yellow. Without the keep yellow would come last.
    def colour(x, y, z):
        return "red" if (x, y, z) == (6, 6, 1) else red_green_by_column(x, y, z)

    empty = {f"(cube 7 7 {z} " for z in range(2, 8)}
    cubes = [fact for fact in levels(1, 7, colour) if fact[:12] not in empty]
    start = state(*cubes, *counts(3, 2, 1), "(control yellow)")
    assert [keep_bound(start, role) for role in (YELLOW, RED, GREEN)] == [1, 0, 0]
    assert [can_win(start, role) for role in (YELLOW, RED, GREEN)] == [True, True, False]
    assert all_outcomes(start) == {(0, 100, 0)}


@cache
def outcomes_of(facts: frozenset[str]) -> frozenset[tuple[int, ...]]:
    """The goals of every line of play from a state, by the naive implementation."""
    if naive_cubicup.terminal(facts):
        return frozenset([naive_cubicup.goals(facts)])
    moves = [naive_cubicup.legal(facts, role) for role in naive_cubicup.ORDER]
    found: set[tuple[int, ...]] = set()
    for mover, actions in enumerate(moves):
        if actions != ["noop"]:
            for action in actions:
                joint = ["noop"] * 3
                joint[mover] = action
                found |= outcomes_of(naive_cubicup.next_facts(facts, joint))
    return frozenset(found)


def all_outcomes(start) -> set[tuple[int, ...]]:
    return set(outcomes_of(GAME.state_facts(start)))


def endgames(before: int, seeds) -> list:
    return [random_playout(GAME, seed)[0][-1 - before] for seed in seeds]


@pytest.mark.parametrize("before", [3, 5, 7])
def test_bounds_agree_with_every_line_of_random_endgames(before):
    decided = 0
    for start in endgames(before, range(40)):
        outcomes = all_outcomes(start)
        assert GAME.steps_to_end(start) == before
        for role in (YELLOW, RED, GREEN):
            wins = {goals[role] == 100 for goals in outcomes}
            if not can_win(start, role):
                assert wins == {False}, GAME.state_facts(start)
                decided += start.cubes[role] > 0  # not the plain "no cube left"
            if sure_win(start, role):
                assert wins == {True}, GAME.state_facts(start)
                decided += 1
    assert decided >= 10  # the bounds settle some of these endgames
