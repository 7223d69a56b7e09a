"""What the questions of `gamecheck verify` ask of a state: as circuit literals, for the
solvers (`Conditions`), and as claims about the last state of a line of play replayed on a
checking game (a game of the reasoner, or a built-in game's own moves)."""

from __future__ import annotations

from collections.abc import Sequence

from gamecheck.models.base import Game
from gamecheck.solvers.ground.circuit import Circuit, value
from gamecheck.solvers.ground.transition import TransitionSystem


class Conditions:
    """Circuit literals for the questions, built once on the system's circuit."""

    def __init__(self, system: TransitionSystem):
        self.system = system
        self.circuit: Circuit = system.circuit
        self.goal_nodes = [literal for goals in system.goals for literal in goals.values()]
        """Every role's goal literals, roles in order (the order `vector_of` reads)."""

    def stuck(self) -> int:
        """Some role has no legal action."""
        return self.circuit.disj(
            self.circuit.conj(-lit for lit in legal) for legal in self.system.legal
        )

    def bad_goals(self) -> int:
        """Some role has no goal value, several, or one outside 0..100."""
        circuit = self.circuit
        bad = []
        for goals in self.system.goals:
            literals = list(goals.values())
            bad.append(-circuit.disj(literals))
            bad.append(-circuit.at_most_one(literals))
            bad.extend(lit for v, lit in goals.items() if not (isinstance(v, int) and v <= 100))
        return circuit.disj(bad)

    def goals_equal(self, vector: tuple) -> int:
        """The goal values are exactly `vector` (per role a value or a tuple of values)."""
        return self.circuit.conj(self.goal_literals(vector))

    def goal_literals(self, vector: tuple) -> list[int]:
        """Literals that all hold exactly where the goal values are `vector`."""
        parts = []
        for goals, wanted in zip(self.system.goals, vector, strict=True):
            wanted = set(wanted) if isinstance(wanted, tuple) else {wanted}
            parts.extend(lit if v in wanted else -lit for v, lit in goals.items())
        return parts

    def vector_of(self, values: Sequence[bool]) -> tuple:
        """The goal vector given the value of every goal literal (`goal_nodes`): per role
        its value, or a tuple of the values it has if that is not exactly one."""
        vector, start = [], 0
        for goals in self.system.goals:
            mine = values[start : start + len(goals)]
            start += len(goals)
            have = sorted(v for v, true in zip(goals, mine, strict=True) if true)
            vector.append(have[0] if len(have) == 1 else tuple(have))
        return tuple(vector)

    def vector_at(self, values: list[bool]) -> tuple:
        """The goal vector of a state, given every node's value there."""
        return self.vector_of([value(values, literal) for literal in self.goal_nodes])


def goal_values(game: Game, state) -> list[set]:
    """Every goal value of every role (a GDL game may give none or several)."""
    if hasattr(game, "goal_values"):
        return [set(values) for values in game.goal_values(state).values()]
    return [{value} for value in game.goals(state)]


def ends_terminal(game: Game, state) -> bool:
    return game.is_terminal(state)


def ends_running(game: Game, state) -> bool:
    return not game.is_terminal(state)


def some_role_stuck(game: Game, state) -> bool:
    return not game.is_terminal(state) and any(not game.legal(state, r) for r in game.roles)


def goals_undefined(game: Game, state) -> bool:
    return game.is_terminal(state) and any(
        len(values) != 1 or not all(isinstance(v, int) and 0 <= v <= 100 for v in values)
        for values in goal_values(game, state)
    )


def ends_with_goal(role: int, goal: int):
    def claim(game: Game, state) -> bool:
        return game.is_terminal(state) and goal in goal_values(game, state)[role]

    return claim


def ends_with_different_goals(a: int, b: int):
    def claim(game: Game, state) -> bool:
        values = goal_values(game, state)
        return game.is_terminal(state) and values[a] != values[b]

    return claim


def ends_with_goals(vector: tuple):
    expected = [set(v) if isinstance(v, tuple) else {v} for v in vector]

    def claim(game: Game, state) -> bool:
        return game.is_terminal(state) and goal_values(game, state) == expected

    return claim
