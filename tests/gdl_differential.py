"""Differential testing of two implementations of one game by random playouts.

`assert_same_game(game_a, game_b, playouts, seed)` plays `playouts` random games on both at
once: at every step it compares the state facts, every role's legal actions (as text), the
terminal flag and, in terminal states, the goals; then it applies the same random joint action
(chosen by a `random.Random(seed)`) to both. The first difference fails the assertion with the
playout, the step, the joint actions that led there and what differs.
"""

from __future__ import annotations

import random

from gamecheck.models.base import Game

DEFAULT_MAX_STEPS = 1000


def assert_same_game(
    game_a: Game, game_b: Game, playouts: int, seed: int, max_steps: int | None = None
) -> int:
    """Fail on the first difference between the games; return the number of steps compared."""
    assert game_a.roles == game_b.roles, f"roles differ: {game_a.roles} vs {game_b.roles}"
    limit = max_steps or game_a.step_bound or game_b.step_bound or DEFAULT_MAX_STEPS
    rng = random.Random(seed)
    steps = 0
    for playout in range(playouts):
        state_a, state_b = game_a.initial_state(), game_b.initial_state()
        line: list[tuple[str, ...]] = []
        for step in range(limit + 1):
            where = _where(game_a, game_b, playout, step, line)
            _compare_states(game_a, game_b, state_a, state_b, where)
            steps += 1
            if game_a.is_terminal(state_a):
                break
            legal = [_legal_by_text(game_a, state_a, role) for role in game_a.roles]
            joint_text = tuple(rng.choice(sorted(actions)) for actions in legal)
            legal_b = [_legal_by_text(game_b, state_b, role) for role in game_b.roles]
            state_a = game_a.next(state_a, _joint(legal, joint_text))
            state_b = game_b.next(state_b, _joint(legal_b, joint_text))
            line.append(joint_text)
    return steps


def _compare_states(game_a: Game, game_b: Game, state_a, state_b, where: str) -> None:
    facts_a, facts_b = game_a.state_facts(state_a), game_b.state_facts(state_b)
    assert facts_a == facts_b, f"{where}: state facts differ" + _difference(facts_a, facts_b)
    terminal_a, terminal_b = game_a.is_terminal(state_a), game_b.is_terminal(state_b)
    assert terminal_a == terminal_b, f"{where}: terminal is {terminal_a} vs {terminal_b}"
    for role in game_a.roles:
        legal_a = set(_legal_by_text(game_a, state_a, role))
        legal_b = set(_legal_by_text(game_b, state_b, role))
        assert legal_a == legal_b, f"{where}: legal actions of {role} differ" + _difference(
            legal_a, legal_b
        )
    if terminal_a:
        goals_a, goals_b = game_a.goals(state_a), game_b.goals(state_b)
        assert goals_a == goals_b, f"{where}: goals are {goals_a} vs {goals_b}"


def _legal_by_text(game: Game, state, role: str) -> dict:
    return {game.action_text(action): action for action in game.legal(state, role)}


def _joint(legal: list[dict], joint_text: tuple[str, ...]) -> list:
    """The game's own action objects for a joint action given as text."""
    return [by_text[text] for by_text, text in zip(legal, joint_text, strict=True)]


def _difference(a, b) -> str:
    only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
    return f"; only in A: {' '.join(only_a) or '-'}; only in B: {' '.join(only_b) or '-'}"


def _where(game_a: Game, game_b: Game, playout: int, step: int, line: list) -> str:
    played = " / ".join(" ".join(joint) for joint in line) or "(initial state)"
    return f"{game_a.name} vs {game_b.name}, playout {playout}, step {step} after {played}"
