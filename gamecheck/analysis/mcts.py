"""Playouts under stronger play than uniform random: every role plays Monte Carlo tree search.

Decoupled UCT (so simultaneous moves work too): each tree node keeps, for every role, the
visits and summed rewards of each of its legal actions; an iteration descends from the
current state choosing every role's action by UCB1 on that role's own statistics, adds one
node, finishes with a uniform random playout, and adds each role's goal / 100 to the actions
it took. After `iterations` iterations per step every role plays its most visited action
(the first listed on a tie), and the tree below the chosen joint action is kept.

Everything is seeded: the same game, seed and iterations give the same playout.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from gamecheck.analysis.playouts import Playout
from gamecheck.budget import Budget
from gamecheck.errors import GamecheckError
from gamecheck.models.base import Action, Game, Joint, State

EXPLORATION = 1.4
"""UCB1's exploration constant (rewards lie in 0..1)."""
MAX_STEPS = 10_000
"""A playout (or rollout) longer than this stops with an error: GDL games are finite."""


@dataclass
class _Node:
    """A state in the tree: each role's legal actions, their visits and reward sums."""

    state: State
    terminal: bool
    legal: tuple[Sequence[Action], ...]
    visits: list[list[int]]
    rewards: list[list[float]]
    children: dict[Joint, _Node] = field(default_factory=dict)
    total: int = 0


@dataclass(frozen=True)
class GuidedPlayout:
    """A playout under UCT play: its summary (as for random playouts), its moves and the
    terminal state it ends in."""

    playout: Playout
    joints: tuple[Joint, ...]
    final_state: State


class UctPlayer:
    """Plays one game with every role searching by decoupled UCT."""

    def __init__(self, game: Game, *, iterations: int, seed: int):
        self.game = game
        self.iterations = iterations
        self.rng = random.Random(seed)

    def play(self, budget: Budget | None = None) -> GuidedPlayout:
        """One playout from the initial state; OutOfBudget if the budget ends first."""
        return self.play_from(self.game.initial_state(), budget)

    def play_from(self, state: State, budget: Budget | None = None) -> GuidedPlayout:
        """One playout from `state`; OutOfBudget if the budget ends first."""
        game = self.game
        root = self._node(state)
        joints, branching = [], []
        while not root.terminal:
            if len(joints) == MAX_STEPS:
                raise GamecheckError(f"{game.name} reached no terminal state in {MAX_STEPS} steps")
            for _ in range(self.iterations):
                if budget is not None:
                    budget.check()
                self._iterate(root)
            joint = tuple(
                actions[max(range(len(actions)), key=lambda a, v=visits: (v[a], -a))]
                for actions, visits in zip(root.legal, root.visits, strict=True)
            )
            branching.append(math.prod(len(actions) for actions in root.legal))
            joints.append(joint)
            root = root.children.get(joint) or self._node(game.apply(root.state, joint))
        summary = Playout(-1, len(joints), game.goals(root.state), tuple(branching))
        return GuidedPlayout(summary, tuple(joints), root.state)

    def _node(self, state: State) -> _Node:
        game = self.game
        if game.is_terminal(state):
            return _Node(state, True, (), [], [])
        legal = tuple(game.legal(state, role) for role in game.roles)
        if any(not actions for actions in legal):
            stuck = ", ".join(r for r, a in zip(game.roles, legal, strict=True) if not a)
            raise GamecheckError(
                f"{game.name}: {stuck} has no legal action in a non-terminal state"
            )
        return _Node(
            state,
            False,
            legal,
            [[0] * len(actions) for actions in legal],
            [[0.0] * len(actions) for actions in legal],
        )

    def _iterate(self, root: _Node) -> None:
        """One descent, expansion, rollout and backup."""
        path: list[tuple[_Node, tuple[int, ...]]] = []
        node = root
        while not node.terminal:
            choice = tuple(self._select(node, role) for role in range(len(node.legal)))
            path.append((node, choice))
            joint = tuple(node.legal[role][a] for role, a in enumerate(choice))
            child = node.children.get(joint)
            if child is None:
                child = node.children[joint] = self._node(self.game.apply(node.state, joint))
                rewards = self._rollout(child.state)
                break
            node = child
        else:
            rewards = self._rewards(node.state)
        for visited, choice in path:
            visited.total += 1
            for role, action in enumerate(choice):
                visited.visits[role][action] += 1
                visited.rewards[role][action] += rewards[role]

    def _select(self, node: _Node, role: int) -> int:
        """The action index UCB1 picks for `role` (an untried one first, at random)."""
        visits = node.visits[role]
        if len(visits) == 1:
            return 0
        untried = [a for a, count in enumerate(visits) if count == 0]
        if untried:
            return self.rng.choice(untried)
        rewards = node.rewards[role]
        scale = EXPLORATION * math.sqrt(math.log(node.total))
        return max(
            range(len(visits)),
            key=lambda a: rewards[a] / visits[a] + scale / math.sqrt(visits[a]),
        )

    def _rollout(self, state: State) -> list[float]:
        """Every role's goal / 100 at the end of a uniform random playout from `state`."""
        return self._rewards(random_finish(self.game, state, self.rng))

    def _rewards(self, state: State) -> list[float]:
        return [goal / 100 for goal in self.game.goals(state)]


def random_finish(game: Game, state: State, rng: random.Random) -> State:
    """The terminal state a uniform random playout from `state` ends in."""
    for _ in range(MAX_STEPS):
        if game.is_terminal(state):
            return state
        legal = [game.legal(state, role) for role in game.roles]
        if any(not actions for actions in legal):
            raise GamecheckError(f"{game.name}: a role has no legal action in a random playout")
        state = game.apply(state, tuple(rng.choice(actions) for actions in legal))
    raise GamecheckError(f"{game.name} reached no terminal state in {MAX_STEPS} steps")


def uct_playout(game: Game, seed: int, *, iterations: int, budget: Budget | None = None):
    """The UCT playout of `game` with `seed` (see the module docstring)."""
    played = UctPlayer(game, iterations=iterations, seed=seed).play(budget)
    summary = played.playout
    return replace(played, playout=replace(summary, seed=seed))
