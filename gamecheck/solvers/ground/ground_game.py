"""A ground transition system played as a Game (models/base.py): states are frozensets of
fluent indexes, actions are (role index, action index) pairs. It makes the grounder testable
with the same differential harness as every other implementation of a game."""

from __future__ import annotations

from collections.abc import Iterable

from gamecheck.errors import BadTermError
from gamecheck.gdl.terms import canonical, term_text
from gamecheck.models.base import Game
from gamecheck.solvers.ground.circuit import value
from gamecheck.solvers.ground.transition import TransitionSystem


class GroundGame(Game):
    """The game a transition system describes, evaluated through its circuit."""

    def __init__(self, system: TransitionSystem):
        self.system = system
        self.name = f"{system.name} (ground)"
        self.roles = system.roles
        self._fluents = {term_text(f): i for i, f in enumerate(system.fluents)}
        self._last_state: frozenset[int] | None = None
        self._last_values: list[bool] = []
        self._actions = [
            {term_text(a): i for i, a in enumerate(actions)} for actions in system.actions
        ]

    def initial_state(self) -> frozenset[int]:
        return self.system.initial

    def legal(self, state: frozenset[int], role: str) -> list[tuple[int, int]]:
        if self.is_terminal(state):
            return []
        index = self.role_index(role)
        values = self._values(state)
        literals = self.system.legal[index]
        return [(index, a) for a, literal in enumerate(literals) if value(values, literal)]

    def apply(self, state: frozenset[int], joint: tuple) -> frozenset[int]:
        return self.system.successor(state, [action for _, action in joint])

    def is_terminal(self, state: frozenset[int]) -> bool:
        return value(self._values(state), self.system.terminal)

    def _values(self, state: frozenset[int]) -> list[bool]:
        """Every node's value in `state` (the last state asked about is kept)."""
        if self._last_state != state:
            self._last_state, self._last_values = state, self.system.evaluate(state)
        return self._last_values

    def goal_values(self, state: frozenset[int]) -> dict[str, set]:
        values = self._values(state)
        return {
            role: {v for v, literal in goals.items() if value(values, literal)}
            for role, goals in zip(self.roles, self.system.goals, strict=True)
        }

    def goals(self, state: frozenset[int]) -> tuple[int, ...]:
        return tuple(min(values, default=0) for values in self.goal_values(state).values())

    def state_facts(self, state: frozenset[int]) -> frozenset[str]:
        return frozenset(self.system.state_text(state))

    def state_from_facts(self, facts: Iterable[str]) -> frozenset[int]:
        try:
            return frozenset(self._fluents[canonical(fact)] for fact in facts)
        except KeyError as missing:
            raise BadTermError(f"{missing.args[0]} is not a fluent of {self.name}") from None

    def action_text(self, action: tuple[int, int]) -> str:
        return self.system.action_text(*action)

    def parse_action(self, role: str, text: str) -> tuple[int, int]:
        index = self.role_index(role)
        try:
            return index, self._actions[index][canonical(text)]
        except KeyError:
            raise BadTermError(f"{text} is not an action of {role} in {self.name}") from None
