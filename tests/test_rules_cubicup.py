"""cubicup (RULES.md section 1) on hand-built positions, for the rule sheet and the generator.

Every expected legal set, next state and goal below is worked out by hand from RULES.md; the
comments give the reasoning. Counts are chosen to add up to the number of empty positions, as
in every reachable state.
"""

import pytest

from tests.rule_sheets import (
    IMPLEMENTATIONS,
    game_under_test,
    joint_for,
    legal_texts,
    next_facts,
    outcome,
)

GROUND = [f"(cube {x} {y} 0 ground)" for y in range(8) for x in range(y, 8)]
LEVEL_ONE = [(x, y, 1) for y in range(1, 8) for x in range(y, 8)]
UPPER = [(x, y, z) for z in range(1, 8) for y in range(z, 8) for x in range(y, 8)]
TOP_SUPPORT = [(6, 6, 6), (7, 6, 6), (7, 7, 6)]


@pytest.fixture(params=IMPLEMENTATIONS)
def game(request):
    return game_under_test("cubicup", request.param)


def position(cubes: dict, counts: tuple[int, int, int], control: str) -> list[str]:
    """The facts of a state: ground, the given cubes {(x, y, z): colour}, counts, control."""
    facts = GROUND + [f"(cube {x} {y} {z} {colour})" for (x, y, z), colour in cubes.items()]
    facts += [
        f"(cubes {role} {n})" for role, n in zip(("yellow", "red", "green"), counts, strict=True)
    ]
    return facts + [f"(control {control})"]


def puts(positions) -> set[str]:
    return {f"(put {x} {y} {z})" for x, y, z in positions}


def test_initial_state_and_first_moves(game):
    start = game.state_facts(game.initial_state())
    assert start == frozenset(position({}, (28, 28, 28), "yellow"))
    # Every level-1 position stands on ground, so it is supported and nobody's cubicup.
    assert legal_texts(game, start, "yellow") == puts(LEVEL_ONE)
    assert legal_texts(game, start, "red") == {"noop"}
    assert legal_texts(game, start, "green") == {"noop"}
    assert outcome(game, start) == (False, (0, 0, 0))  # nobody owns (7 7 7) yet: all 0


RED_CUBICUP = {(1, 1, 1): "red", (2, 1, 1): "red", (2, 2, 1): "red"}
"""The three supporters of (2 2 2), all red: an open cubicup of red."""


def test_controller_must_fill_an_opponents_open_cubicup_and_keeps_control(game):
    cubes = {**RED_CUBICUP, (3, 1, 1): "yellow", (4, 1, 1): "green"}
    before = position(cubes, (27, 25, 27), "yellow")  # 79 positions empty
    assert legal_texts(game, before, "yellow") == {"(put 2 2 2)"}
    after = next_facts(game, before, joint_for(game, "yellow", "(put 2 2 2)"))
    # (a): yellow had 27 cubes (not exactly 1) and red had an open cubicup, so yellow stays.
    assert after == frozenset(position({**cubes, (2, 2, 2): "yellow"}, (26, 25, 27), "yellow"))
    # Now no open cubicup of another role: any empty supported position. On level 2 only
    # (2 2 2) was supported; it is filled. So the 23 empty level-1 positions.
    expected = puts(p for p in LEVEL_ONE if p not in cubes)
    assert len(expected) == 23
    assert legal_texts(game, after, "yellow") == expected


def striped(positions) -> dict:
    """The positions coloured yellow, red, green by (x + y) mod 3. The three supporters of any
    position have x + y equal to s - 2, s - 1 and s for some s, so three different colours:
    no position is anybody's cubicup."""
    return {(x, y, z): ("yellow", "red", "green")[(x + y) % 3] for x, y, z in positions}


def test_filling_a_cubicup_with_the_last_cube_passes_control(game):
    # Level 1 full and striped, except that the supporters of (2 2 2) are red; this touches
    # only (2 2 2) (and (3 2 2), (3 3 2), whose other supporters differ). 56 positions empty.
    cubes = {**striped(LEVEL_ONE), **RED_CUBICUP}
    before = position(cubes, (1, 28, 27), "yellow")
    assert legal_texts(game, before, "yellow") == {"(put 2 2 2)"}
    after = next_facts(game, before, joint_for(game, "yellow", "(put 2 2 2)"))
    # Yellow had exactly 1 cube, so (a) does not hold; red has cubes, so neither does (b).
    assert after == frozenset(position({**cubes, (2, 2, 2): "yellow"}, (0, 28, 27), "red"))


def test_open_cubicups_of_both_opponents_are_all_legal(game):
    yellow_cubicup = {(3, 3, 1): "yellow", (4, 3, 1): "yellow", (4, 4, 1): "yellow"}
    before = position({**RED_CUBICUP, **yellow_cubicup}, (25, 25, 28), "green")
    assert legal_texts(game, before, "green") == {"(put 2 2 2)", "(put 4 4 2)"}
    assert legal_texts(game, before, "yellow") == {"noop"}


def test_own_cubicup_does_not_restrict_the_controller(game):
    own = {(1, 1, 1): "yellow", (2, 1, 1): "yellow", (2, 2, 1): "yellow"}
    before = position(own, (25, 28, 28), "yellow")
    # Any empty supported position: 25 empty level-1 positions and (2 2 2).
    expected = puts(p for p in LEVEL_ONE if p not in own) | {"(put 2 2 2)"}
    assert legal_texts(game, before, "yellow") == expected


def test_control_skips_a_role_without_cubes(game):
    cubes = striped(LEVEL_ONE)  # 56 positions empty, no cubicups
    before = position(cubes, (28, 0, 28), "yellow")
    after = next_facts(game, before, joint_for(game, "yellow", "(put 2 2 2)"))
    # No open cubicups, so no (a); green has cubes, so no (b). Red comes next but has no cube
    # left, so green.
    assert after == frozenset(position({**cubes, (2, 2, 2): "yellow"}, (27, 0, 28), "green"))


def test_control_stays_when_no_other_role_has_cubes(game):
    # Levels 1 and 2 and the first 7 positions of level 3 filled, striped: 28 empty.
    cubes = striped(UPPER[: 28 + 21 + 7])
    before = position(cubes, (28, 0, 0), "yellow")
    # (6 4 3) stands on (5 3 2), (6 3 2), (6 4 2), all filled.
    after = next_facts(game, before, joint_for(game, "yellow", "(put 6 4 3)"))
    # (b): nobody else has cubes, so yellow keeps control.
    assert after == frozenset(position({**cubes, (6, 4, 3): "yellow"}, (27, 0, 0), "yellow"))


def full_pyramid(top_owner: str, top_support: tuple[str, str, str]) -> dict:
    """Every upper position filled: (7 7 7) by `top_owner`, its three supporters as given, the
    rest in turn yellow, red, green."""
    cubes = {p: ("yellow", "red", "green")[i % 3] for i, p in enumerate(UPPER)}
    cubes.update(zip(TOP_SUPPORT, top_support, strict=True))
    cubes[(7, 7, 7)] = top_owner
    return cubes


@pytest.mark.parametrize(
    ("owner", "support", "goals"),
    [
        # Another role (red) has a cubicup at (7 7 7): every role scores 50.
        ("yellow", ("red", "red", "red"), (50, 50, 50)),
        # The owner's own cubicup is not another role's: W 100, the others 0.
        ("yellow", ("yellow", "yellow", "yellow"), (100, 0, 0)),
        # Mixed supporters: no cubicup at all.
        ("green", ("red", "red", "yellow"), (0, 0, 100)),
        ("red", ("green", "green", "green"), (50, 50, 50)),
    ],
)
def test_terminal_goals(game, owner, support, goals):
    facts = position(full_pyramid(owner, support), (0, 0, 0), "yellow")
    assert outcome(game, facts) == (True, goals)


def test_last_put_at_the_top_ends_the_game(game):
    cubes = full_pyramid("yellow", ("red", "red", "red"))
    del cubes[(7, 7, 7)]
    before = position(cubes, (1, 0, 0), "yellow")
    # Only (7 7 7) is empty; it is red's open cubicup, so yellow must fill it (and would anyway).
    assert legal_texts(game, before, "yellow") == {"(put 7 7 7)"}
    after = next_facts(game, before, joint_for(game, "yellow", "(put 7 7 7)"))
    # Control: yellow had exactly 1 cube, so not (a); nobody else has cubes, so (b): stays.
    assert after == frozenset(position({**cubes, (7, 7, 7): "yellow"}, (0, 0, 0), "yellow"))
    assert outcome(game, after) == (True, (50, 50, 50))
