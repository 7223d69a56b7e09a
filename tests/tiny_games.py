"""Tiny games for the forced-win tests, where the answers can be worked out in one's head."""

from __future__ import annotations

from collections.abc import Iterable

from gamecheck.errors import BadTermError
from gamecheck.gdl.terms import parse_term, term_text
from gamecheck.models.base import Game

HEADS, TAILS = "heads", "tails"


class PenniesGame(Game):
    """Matching pennies for `rounds` rounds with simultaneous moves (roles `matcher` and
    `mismatcher`). Each round both show a coin; the matcher scores when the coins match. In
    the rounds listed in `tired` the mismatcher can only show heads. The matcher's goal is
    100 with at least `needed` points at the end, else 0; the mismatcher's the opposite.

    State: (round, points); rounds count from 1, the state with round `rounds` + 1 is terminal.
    """

    name = "pennies"
    roles = ("matcher", "mismatcher")

    def __init__(self, rounds: int, needed: int, tired: Iterable[int] = ()):
        self.rounds = rounds
        self.needed = needed
        self.tired = frozenset(tired)
        self.step_bound = rounds

    def initial_state(self) -> tuple[int, int]:
        return (1, 0)

    def legal(self, state: tuple[int, int], role: str) -> list[str]:
        index = self.role_index(role)
        if self.is_terminal(state):
            return []
        if index == 1 and state[0] in self.tired:
            return [HEADS]
        return [HEADS, TAILS]

    def apply(self, state: tuple[int, int], joint: tuple) -> tuple[int, int]:
        return (state[0] + 1, state[1] + (joint[0] == joint[1]))

    def is_terminal(self, state: tuple[int, int]) -> bool:
        return state[0] > self.rounds

    def goals(self, state: tuple[int, int]) -> tuple[int, int]:
        if not self.is_terminal(state):
            return (0, 0)
        return (100, 0) if state[1] >= self.needed else (0, 100)

    def state_facts(self, state: tuple[int, int]) -> frozenset[str]:
        return frozenset({f"(round {state[0]})", f"(points {state[1]})"})

    def state_from_facts(self, facts: Iterable[str]) -> tuple[int, int]:
        values = {}
        for fact in facts:
            term = parse_term(fact)
            if not (isinstance(term, tuple) and len(term) == 2 and term[1].isdigit()):
                raise BadTermError(f"{fact} is not a pennies fact")
            values[term[0]] = int(term[1])
        if set(values) != {"round", "points"}:
            raise BadTermError("a pennies state needs (round n) and (points n)")
        return (values["round"], values["points"])

    def action_text(self, action: str) -> str:
        return action

    def parse_action(self, role: str, text: str) -> str:
        self.role_index(role)
        action = term_text(parse_term(text))
        if action not in (HEADS, TAILS):
            raise BadTermError(f"{text} is not a pennies action")
        return action
