"""The foldings the forced-win search keys its tables by (solvers/forced_win/symmetry.py):
each tictactoe3d transform must be an automorphism of the game, each cubicup fold must keep
everything the rest of the game looks at, and representatives must not depend on which
member of a class one starts from. The search with foldings against the plain reference
solver is in test_forced_win.py (endgames of both games)."""

from __future__ import annotations

import itertools

import pytest

from gamecheck.analysis.playouts import random_steps
from gamecheck.models import get_game
from gamecheck.models.tictactoe3d import LINES
from gamecheck.solvers.forced_win.symmetry import map_team_action, symmetry_of

TICTACTOE3D = get_game("tictactoe3d")
CUBICUP = get_game("cubicup")
TEAM_X = (0, 1, 2)


def playout_states(game, seeds) -> list:
    return [step.state for seed in seeds for step in random_steps(game, seed)]


def test_the_cube_group_keeps_teams_and_rotations():
    # 192 maps of the cube keep its 76 lines (48 rigid motions times 4); the 96 whose axis
    # permutation is a rotation keep the rotation row -> column -> level of each team. Only
    # the 32 that keep every axis keep a single role.
    assert len(symmetry_of(TICTACTOE3D, TEAM_X).transforms) == 96 - 1  # without the identity
    assert len(symmetry_of(TICTACTOE3D, (0,)).transforms) == 32 - 1
    assert symmetry_of(get_game("ttcc4"), (0,)) is None


def test_cube_transforms_map_lines_to_lines():
    lines = set(LINES)
    for transform in symmetry_of(TICTACTOE3D, TEAM_X).transforms:
        assert {transform.mask(line) for line in LINES} == lines


def test_cube_transforms_are_automorphisms():
    transforms = symmetry_of(TICTACTOE3D, TEAM_X).transforms
    states = playout_states(TICTACTOE3D, range(2))[::7]
    game = TICTACTOE3D
    for state in states:
        for transform in transforms[::5]:
            image = transform.state(state)
            assert game.is_terminal(image) == game.is_terminal(state)
            assert game.goals(image) == game.goals(state)  # the maps keep each team
            for joint in game.joint_actions(state):
                mapped = [None] * len(game.roles)
                for role, action in enumerate(joint):
                    after, chosen = transform.action(role, action)
                    mapped[after] = chosen
                assert tuple(mapped) in game.joint_actions(image)
                assert transform.state(game.apply(state, joint)) == game.apply(image, tuple(mapped))


def test_representatives_do_not_depend_on_the_member():
    symmetry = symmetry_of(TICTACTOE3D, TEAM_X)
    states = [
        state
        for state in playout_states(TICTACTOE3D, range(3))
        if not any(state.selected) and (state.x_marks | state.o_marks).bit_count() <= 12
    ]
    assert states
    for state in states[::2]:
        representative, transform = symmetry.canonical(state)
        if transform is not None:
            assert transform.state(state) == representative
        for other in symmetry.transforms[::9]:
            assert symmetry.canonical(other.state(state))[0] == representative


def test_a_team_action_maps_role_by_role():
    # the shift moving each axis to the next one makes xrow's row selection xcolumn's
    transform = next(
        t
        for t in symmetry_of(TICTACTOE3D, TEAM_X).transforms
        if t.shift == 1 and all(values == (0, 1, 2, 3, 4) for values in t.values)
    )
    select = TICTACTOE3D.parse_action("xrow", "(select row 3)")
    mapped = map_team_action(transform, TEAM_X, (select, "noop", "noop"))
    assert list(map(TICTACTOE3D.action_text, mapped)) == ["noop", "(select column 3)", "noop"]


@pytest.mark.parametrize("seed", [0, 1])
def test_cubicup_folds_keep_what_the_game_looks_at(seed):
    folding = symmetry_of(CUBICUP, (0,))
    game = CUBICUP
    folded_any = False
    for state in playout_states(game, [seed])[40:]:
        folded, _ = folding.canonical(state)
        folded_any |= folded != state
        assert game.is_terminal(folded) == game.is_terminal(state)
        assert game.goals(folded) == game.goals(state)
        for role in game.roles:
            assert game.legal(folded, role) == game.legal(state, role)
        for joint in itertools.islice(game.joint_actions(state), 6):
            after = folding.canonical(game.apply(state, joint))[0]
            assert folding.canonical(game.apply(folded, joint))[0] == after
            assert game.goals(after) == game.goals(game.apply(state, joint))
    assert folded_any
