"""Checks shared by the game tests: ground-truth data files, perft, random-playout properties."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest

from gamecheck.errors import IllegalActionError
from gamecheck.models.base import Game, State

DATA = Path(__file__).parent / "data"


def load_data(game_name: str) -> dict:
    """The ground-truth file tests/data/GAME.toml."""
    with open(DATA / f"{game_name}.toml", "rb") as file:
        return tomllib.load(file)


def position(data: dict, name: str) -> dict:
    """The position called `name` in a ground-truth file."""
    (found,) = [p for p in data["position"] if p["name"] == name]
    return found


def legal_texts(game: Game, state: State) -> dict[str, list[str]]:
    """Each role's legal actions as sorted GDL texts."""
    return {role: sorted(map(game.action_text, game.legal(state, role))) for role in game.roles}


def perft(game: Game, state: State, depth: int) -> int:
    """The number of joint-action sequences of length `depth` from `state` (terminal: stop)."""
    if depth == 0:
        return 1
    if game.is_terminal(state):
        return 0
    return sum(
        perft(game, game.apply(state, joint), depth - 1) for joint in game.joint_actions(state)
    )


def perft_breakdown(game: Game, state: State, depth: int) -> str:
    """Perft split by first joint action, printed when a perft count is wrong."""
    lines = []
    for joint in game.joint_actions(state):
        nodes = perft(game, game.apply(state, joint), depth - 1)
        lines.append(f"{' '.join(map(game.action_text, joint))}: {nodes}")
    return "\n".join(lines)


def every_reachable_state(game: Game) -> set[State]:
    """Every state reachable from the initial state, terminal ones included: breadth first,
    over every joint action."""
    reachable, layer = set(), {game.initial_state()}
    while layer:
        reachable |= layer
        layer = {
            game.next(state, joint)
            for state in layer
            if not game.is_terminal(state)
            for joint in game.joint_actions(state)
        } - reachable
    return reachable


def reachable_layers(game: Game):
    """The states reachable in exactly 0, 1, 2, ... steps (each layer a set), breadth first
    over every joint action, until no state is left."""
    layer = {game.initial_state()}
    while layer:
        yield layer
        layer = {
            game.next(state, joint)
            for state in layer
            if not game.is_terminal(state)
            for joint in game.joint_actions(state)
        }


def random_joint(game: Game, state: State, rng: random.Random) -> tuple:
    """A uniformly random legal joint action."""
    return tuple(rng.choice(game.legal(state, role)) for role in game.roles)


def check_random_playouts(game: Game, seeds: range) -> None:
    """Play one random game per seed and check the interface's promises at every step."""
    for seed in seeds:
        rng = random.Random(seed)
        state = game.initial_state()
        steps = 0
        while not game.is_terminal(state):
            assert game.state_from_facts(game.state_facts(state)) == state
            for role in game.roles:
                actions = game.legal(state, role)
                assert actions, f"{role} has no legal action in a non-terminal state"
                for action in actions:
                    assert game.parse_action(role, game.action_text(action)) == action
            joint = random_joint(game, state, rng)
            state = game.next(state, joint)
            steps += 1
            assert steps <= game.step_bound
        assert game.state_from_facts(game.state_facts(state)) == state
        assert all(not game.legal(state, role) for role in game.roles)
        goals = game.goals(state)
        assert len(goals) == len(game.roles)
        assert all(0 <= value <= 100 for value in goals)
        with pytest.raises(IllegalActionError):
            game.next(state, joint)


def check_rejects_illegal_joints(game: Game, seeds: range) -> None:
    """Along random playouts, `next` rejects a joint action where one role plays an action
    legal only for another role (e.g. a waiting role's noop for the controller)."""
    for seed in seeds:
        rng = random.Random(seed)
        state = game.initial_state()
        while not game.is_terminal(state):
            joint = random_joint(game, state, rng)
            legal = [game.legal(state, role) for role in game.roles]
            for index, actions in enumerate(legal):
                foreign = [a for other in legal for a in other if a not in actions]
                if foreign:
                    wrong = joint[:index] + (foreign[0],) + joint[index + 1 :]
                    with pytest.raises(IllegalActionError):
                        game.next(state, wrong)
            with pytest.raises(IllegalActionError):
                game.next(state, joint[:-1])
            state = game.next(state, joint)
