"""models/cubicup.py against hand-worked positions (RULES.md section 1), the ground truth in
tests/data/cubicup.toml, the naive second implementation tests/naive_cubicup.py, and seeded
random playouts."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from gamecheck.errors import BadTermError, IllegalActionError, UnknownRoleError
from gamecheck.models import get_game
from gamecheck.models.cubicup import CubicupGame, CubicupState
from tests import naive_cubicup
from tests.perft import divide, perft
from tests.playouts import check_conversions, check_rejects_illegal, random_playout

GAME = CubicupGame()
DATA = tomllib.loads((Path(__file__).parent / "data" / "cubicup.toml").read_text())
GROUND = [f"(cube {x} {y} 0 ground)" for y in range(8) for x in range(y, 8)]
SEEDS = range(12)

TWO_CUBICUPS = [
    "(cube 1 1 1 yellow)",
    "(cube 2 1 1 yellow)",
    "(cube 2 2 1 yellow)",
    "(cube 4 3 1 red)",
    "(cube 5 3 1 red)",
    "(cube 5 4 1 red)",
]
"""Yellow's open cubicup (2 2 2) and red's open cubicup (5 4 2) on level 1."""
FOREIGN_ACTIONS = [
    GAME.parse_action("yellow", text)
    for text in ("noop", "(put 1 1 1)", "(put 4 4 2)", "(put 7 7 7)")
]
"""Actions to try on every role where they are not legal: `next` must reject them."""


def state(*facts: str):
    """The state of hand-written facts plus the 36 ground cubes."""
    return GAME.state_from_facts([*GROUND, *facts])


def counts(yellow: int, red: int, green: int) -> list[str]:
    return [f"(cubes yellow {yellow})", f"(cubes red {red})", f"(cubes green {green})"]


def levels(lowest: int, highest: int, colour) -> list[str]:
    """Cube facts filling levels lowest..highest, `colour(x, y, z)` choosing each colour."""
    return [
        f"(cube {x} {y} {z} {colour(x, y, z)})"
        for z in range(lowest, highest + 1)
        for y in range(z, 8)
        for x in range(y, 8)
    ]


def last_cube_level_one() -> list[str]:
    """Level 1 full: red on (1 1 1), (2 1 1), (2 2 1), yellow on the other 25 positions."""
    red = {(1, 1), (2, 1), (2, 2)}
    return levels(1, 1, lambda x, y, z: "red" if (x, y) in red else "yellow")


def red_green_by_column(x: int, y: int, z: int) -> str:
    """Red on odd x, green on even x: two supporters of any position differ in x by one, so
    this colouring never makes a cubicup."""
    return "red" if x % 2 else "green"


def legal_texts(state, role: str) -> list[str]:
    return sorted(GAME.action_text(action) for action in GAME.legal(state, role))


def play(state, put: str):
    """The next state when the controller plays `put` and the others noop."""
    joint = tuple(
        GAME.parse_action(role, put if i == state.control else "noop")
        for i, role in enumerate(GAME.roles)
    )
    return GAME.next(state, joint)


# --- the start ----------------------------------------------------------------------------


def test_registered_with_roles_and_bound():
    game = get_game("cubicup")
    assert game.roles == ("yellow", "red", "green")
    assert game.step_bound == 84


def test_initial_state_facts():
    facts = GAME.state_facts(GAME.initial_state())
    assert facts == frozenset(GROUND + counts(28, 28, 28) + ["(control yellow)"])
    assert len(facts) == 36 + 3 + 1


def test_level_one_positions_are_never_cubicups():
    # Ground cubes belong to nobody: filling a level-1 position is not filling an opponent's
    # cubicup, so control passes on to red.
    after = play(GAME.initial_state(), "(put 1 1 1)")
    assert after == state("(cube 1 1 1 yellow)", *counts(27, 28, 28), "(control red)")


# --- legal actions ------------------------------------------------------------------------


@pytest.mark.parametrize("position", DATA["position"], ids=lambda p: p["name"])
def test_ground_truth_positions(position):
    start = state(*position["facts"])
    for role, expected in position.get("legal", {}).items():
        assert legal_texts(start, role) == sorted(expected), role
    for role, expected in position.get("count", {}).items():
        assert len(GAME.legal(start, role)) == expected, role


def test_controller_may_never_noop():
    start = GAME.initial_state()
    with pytest.raises(IllegalActionError):
        GAME.next(start, (GAME.parse_action("yellow", "noop"),) * 3)


def test_legality_ignores_the_last_cube():
    # Level 1 full: red (1 1 1), (2 1 1), (2 2 1), yellow the other 25; red's open cubicup
    # (2 2 2) must be filled by yellow even with yellow's last cube (1 + 27 + 28 = 56 empty).
    start = state(*last_cube_level_one(), *counts(1, 27, 28), "(control yellow)")
    assert legal_texts(start, "yellow") == ["(put 2 2 2)"]


# --- transitions --------------------------------------------------------------------------


def test_filling_an_opponents_cubicup_keeps_control():
    start = state(*TWO_CUBICUPS, *counts(25, 25, 28), "(control yellow)")
    after = play(start, "(put 5 4 2)")
    assert after == state(
        *TWO_CUBICUPS, "(cube 5 4 2 yellow)", *counts(24, 25, 28), "(control yellow)"
    )
    # Red's cubicup is filled: yellow now has the 22 empty level-1 positions and (2 2 2).
    assert len(GAME.legal(after, "yellow")) == 23


def test_filling_with_the_last_cube_passes_control():
    start = state(*last_cube_level_one(), *counts(1, 27, 28), "(control yellow)")
    after = play(start, "(put 2 2 2)")
    assert after == state(
        *last_cube_level_one(), "(cube 2 2 2 yellow)", *counts(0, 27, 28), "(control red)"
    )
    # Red must now fill yellow's open cubicups: the 21 level-2 positions except (2 2 2),
    # (3 2 2), (3 3 2), whose supporters include a red cube; and red keeps control.
    assert len(GAME.legal(after, "red")) == 18
    again = play(after, "(put 7 7 2)")
    assert again.control == GAME.roles.index("red")
    assert again.cubes == (0, 26, 28)


def test_control_skips_a_role_without_cubes():
    level_one = levels(1, 1, red_green_by_column)
    start = state(*level_one, *counts(28, 0, 28), "(control yellow)")
    assert len(GAME.legal(start, "yellow")) == 21  # all of level 2, no cubicup anywhere
    assert play(start, "(put 4 4 2)") == state(
        *level_one, "(cube 4 4 2 yellow)", *counts(27, 0, 28), "(control green)"
    )
    start = state(*level_one, *counts(0, 28, 28), "(control green)")
    assert play(start, "(put 4 4 2)") == state(
        *level_one, "(cube 4 4 2 green)", *counts(0, 28, 27), "(control red)"
    )


def test_control_stays_when_no_other_role_has_cubes():
    lower = levels(1, 3, red_green_by_column)  # 28 + 21 + 15 = 64 cubes, 20 positions empty
    start = state(*lower, *counts(20, 0, 0), "(control yellow)")
    assert len(GAME.legal(start, "yellow")) == 10  # the whole of level 4
    assert play(start, "(put 4 4 4)") == state(
        *lower, "(cube 4 4 4 yellow)", *counts(19, 0, 0), "(control yellow)"
    )


# --- terminal and goals -------------------------------------------------------------------


def full_pyramid(top: str, support: tuple[str, str, str]) -> CubicupState:
    """A finished game: (7 7 7) of colour `top`, (6 6 6), (7 6 6), (7 7 6) of `support`."""
    special = {(7, 7, 7): top, (6, 6, 6): support[0], (7, 6, 6): support[1]}
    special[(7, 7, 6)] = support[2]
    return state(
        *levels(1, 7, lambda x, y, z: special.get((x, y, z)) or red_green_by_column(x, y, z)),
        *counts(0, 0, 0),
        "(control yellow)",
    )


@pytest.mark.parametrize(
    ("top", "support", "goals"),
    [
        ("yellow", ("red", "red", "red"), (50, 50, 50)),  # red has a cubicup under yellow
        ("red", ("green", "green", "green"), (50, 50, 50)),
        ("yellow", ("red", "green", "red"), (100, 0, 0)),  # no cubicup under (7 7 7)
        ("green", ("green", "green", "green"), (0, 0, 100)),  # the owner's own cubicup
    ],
)
def test_goals_of_finished_games(top, support, goals):
    finished = full_pyramid(top, support)
    assert GAME.is_terminal(finished)
    assert GAME.goals(finished) == goals
    assert all(GAME.legal(finished, role) == [] for role in GAME.roles)


def test_unfinished_game_is_not_terminal():
    assert not GAME.is_terminal(GAME.initial_state())
    assert GAME.goals(GAME.initial_state()) == (0, 0, 0)


# --- conversions and bad input ------------------------------------------------------------


@pytest.mark.parametrize(
    "facts",
    [
        pytest.param(GROUND[1:] + counts(28, 28, 28) + ["(control red)"], id="no ground cube"),
        pytest.param(
            GROUND + counts(28, 28, 27) + ["(control red)", "(cube 1 1 1 ground)"],
            id="ground above level 0",
        ),
        pytest.param(
            GROUND + counts(28, 28, 27) + ["(control red)", "(cube 2 2 2 red)"],
            id="floating cube",
        ),
        pytest.param(
            GROUND
            + counts(28, 28, 27)
            + ["(control red)", "(cube 1 1 1 red)", "(cube 1 1 1 green)"],
            id="two cubes on one position",
        ),
        pytest.param(GROUND + counts(28, 28, 27) + ["(control red)"], id="83 cubes, 84 empty"),
        pytest.param(GROUND + counts(28, 28, 28)[:2] + ["(control red)"], id="count missing"),
        pytest.param(
            GROUND + counts(28, 28, 28) + ["(cubes red 27)", "(control red)"], id="count twice"
        ),
        pytest.param(GROUND + counts(28, 28, 28), id="no control"),
        pytest.param(
            GROUND + counts(28, 28, 28) + ["(control red)", "(control green)"], id="two controls"
        ),
        pytest.param(GROUND + counts(28, 28, 28) + ["(control blue)"], id="unknown role"),
        pytest.param(
            GROUND + counts(28, 28, 28) + ["(control red)", "(score red 3)"], id="unknown fact"
        ),
        pytest.param(GROUND + counts(29, 28, 27) + ["(control red)"], id="29 cubes"),
        pytest.param(
            GROUND + counts(28, 28, 27) + ["(control red)", "(cube 8 8 8 red)"], id="off pyramid"
        ),
        pytest.param(
            GROUND + counts(28, 28, 27) + ["(control red)", "(cube 1 2 1 red)"], id="y above x"
        ),
        pytest.param(
            GROUND + levels(1, 1, red_green_by_column) + counts(0, 28, 28) + ["(control yellow)"],
            id="controller without cubes",
        ),
    ],
)
def test_state_from_facts_rejects_bad_fact_sets(facts):
    with pytest.raises(BadTermError):
        GAME.state_from_facts(facts)


@pytest.mark.parametrize(
    "text", ["(put 1 1 0)", "(put 8 1 1)", "(put 1 2 1)", "(put 1 1)", "(move 1 1 1)", "(put"]
)
def test_parse_action_rejects_non_actions(text):
    with pytest.raises(BadTermError):
        GAME.parse_action("yellow", text)


def test_state_from_facts_reads_a_repeated_fact_once():
    facts = [*GROUND, "(cube 1 1 1 red)", *counts(28, 27, 28), "(control green)"]
    twice = facts + ["(cube 1 1  1 red)", "(cubes red 27)", "(control green)"]
    assert GAME.state_from_facts(twice) == GAME.state_from_facts(facts)
    assert GAME.state_from_facts(twice).cubes == (28, 27, 28)


def test_unknown_role_is_rejected():
    with pytest.raises(UnknownRoleError):
        GAME.parse_action("blue", "noop")
    with pytest.raises(UnknownRoleError):
        GAME.legal(GAME.initial_state(), "blue")


def test_picture_shows_owners_level_by_level():
    picture = GAME.picture(state(*TWO_CUBICUPS, *counts(25, 25, 28), "(control green)"))
    lines = picture.splitlines()
    assert lines[0] == "control green; cubes left: yellow 25, red 25, green 28"
    level_one = lines[lines.index("level 1") + 1 : lines.index("level 2")]
    assert "  y4        . R . ." in level_one
    assert "  y3      . R R . ." in level_one
    assert "  y1  Y Y . . . . ." in level_one


# --- ground truth counts ------------------------------------------------------------------


@pytest.mark.parametrize("case", DATA["perft"], ids=lambda case: f"depth {case['depth']}")
def test_perft_from_the_start(case):
    nodes = perft(GAME.roles, GAME.legal, GAME.apply, GAME.initial_state(), case["depth"])
    assert nodes == case["nodes"], divide(
        GAME.roles, GAME.legal, GAME.apply, GAME.initial_state(), case["depth"]
    )


@pytest.mark.parametrize("depth", [1, 2, pytest.param(3, marks=pytest.mark.slow)])
def test_naive_implementation_agrees_on_perft(depth):
    # Perft at depth 3 asks for the legal actions of 756 states: a few seconds for the naive
    # implementation, which scans the whole pyramid for every question.
    expected = next(case["nodes"] for case in DATA["perft"] if case["depth"] == depth)
    start = GAME.state_facts(GAME.initial_state())
    assert (
        perft(GAME.roles, naive_cubicup.legal, naive_cubicup.next_facts, start, depth) == expected
    )


# --- seeded random playouts ---------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_properties(seed):
    states, joints = random_playout(GAME, seed)
    assert len(joints) == 84  # every game fills all 84 positions
    final = states[-1]
    assert GAME.goals(final) in {(50, 50, 50), (100, 0, 0), (0, 100, 0), (0, 0, 100)}
    check_conversions(GAME, final)
    for current in states[:-1:7]:
        check_conversions(GAME, current)
        check_rejects_illegal(GAME, current, FOREIGN_ACTIONS)


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_random_playouts_agree_with_naive_implementation(seed):
    states, joints = random_playout(GAME, seed)
    facts = GAME.state_facts(states[0])
    for current, joint in zip(states, joints, strict=False):
        assert not naive_cubicup.terminal(facts)
        for role in GAME.roles:
            assert legal_texts(current, role) == naive_cubicup.legal(facts, role)
        facts = naive_cubicup.next_facts(facts, [GAME.action_text(a) for a in joint])
        assert GAME.state_facts(GAME.apply(current, joint)) == facts
    assert naive_cubicup.terminal(facts)
    assert GAME.goals(states[-1]) == naive_cubicup.goals(facts)
