"""Differential testing: two implementations of one game must agree on seeded random playouts.

Typically `a` is a built-in move generator and `b` the GDL reasoner on our rule sheet. At every
state of every playout the two must give the same state facts, terminal flag and goals, read
each other's facts back, and (while the game is not over) give every role the same legal
actions as GDL text; the joint action is then drawn at random among the legal ones and applied
to both. The first disagreement fails with the playout, step, actions so far and the
differing facts or actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from models.base import Game, State
from models.errors import GamecheckError


class Disagreement(AssertionError):
    """The two games differ; the message says where and how."""


def assert_same_game(a: Game, b: Game, playouts: int, seed: int) -> int:
    """Play `playouts` random games on both `a` and `b` (same roles, same rules); raise
    Disagreement at the first difference. Returns the number of steps played in all."""
    if a.roles != b.roles:
        raise Disagreement(f"roles differ: {a.roles} vs {b.roles}")
    rng = random.Random(seed)
    steps = 0
    for playout in range(playouts):
        steps += _playout(a, b, rng, f"playout {playout} (seed {seed})")
    return steps


def _playout(a: Game, b: Game, rng: random.Random, label: str) -> int:
    state_a, state_b = a.initial_state(), b.initial_state()
    history: list[str] = []
    while True:
        where = f"{label}, step {len(history)}" + (
            f" after {' ; '.join(history[-3:])}" if history else " (initial state)"
        )
        _compare_states(a, b, state_a, state_b, where)
        if a.is_terminal(state_a):
            return len(history)
        chosen_a, chosen_b, texts = [], [], []
        for role in a.roles:
            legal_a = _legal_by_text(a, state_a, role)
            legal_b = _legal_by_text(b, state_b, role)
            _compare_sets(f"{where}: legal actions of {role}", set(legal_a), set(legal_b))
            text = rng.choice(sorted(legal_a))
            chosen_a.append(legal_a[text])
            chosen_b.append(legal_b[text])
            texts.append(text)
        history.append("[" + " ".join(texts) + "]")
        state_a = a.apply(state_a, tuple(chosen_a))
        state_b = b.apply(state_b, tuple(chosen_b))


def _compare_states(a: Game, b: Game, state_a: State, state_b: State, where: str) -> None:
    facts_a, facts_b = a.state_facts(state_a), b.state_facts(state_b)
    _compare_sets(f"{where}: state facts", facts_a, facts_b)
    for reader, name in ((a, "a"), (b, "b")):
        read_back = reader.state_facts(reader.state_from_facts(facts_a))
        _compare_sets(f"{where}: game {name} reading the facts back", facts_a, read_back)
    terminal_a, terminal_b = a.is_terminal(state_a), b.is_terminal(state_b)
    if terminal_a != terminal_b:
        raise Disagreement(f"{where}: terminal is {terminal_a} in a but {terminal_b} in b")
    goals_a, goals_b = _goals(a.goals, state_a), _goals(b.goals, state_b)
    if goals_a != goals_b:
        raise Disagreement(f"{where}: goals are {goals_a} in a but {goals_b} in b")


def _legal_by_text(game: Game, state: State, role: str) -> dict:
    """The legal actions of `role` keyed by GDL text; each text must parse back to its action."""
    by_text = {game.action_text(action): action for action in game.legal(state, role)}
    for text, action in by_text.items():
        if game.parse_action(role, text) != action:
            raise Disagreement(f"{game.name}: {text} of {role} does not parse back to itself")
    return by_text


def _goals(goals: Callable[[State], tuple[int, ...]], state: State) -> tuple | str:
    try:
        return goals(state)
    except GamecheckError as error:
        return f"error: {error}"


def _compare_sets(what: str, a: set | frozenset, b: set | frozenset) -> None:
    if a != b:
        raise Disagreement(
            f"{what} differ\n  only in a: {sorted(a - b)}\n  only in b: {sorted(b - a)}"
        )
