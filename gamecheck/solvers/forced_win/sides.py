"""Who plays for whom in a forced-win question: a team of roles that choose their actions
together, against all the other roles, who choose theirs together too.

The team wins in a terminal state where every one of its roles has goal 100. A team of one
role is the plain question "can R force a win whatever all the others do?".
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from gamecheck.errors import GamecheckError
from gamecheck.models.base import Action, Game, State

WIN = 100

TeamAction = tuple
"""One action per team role, in role order."""


class StuckState(Exception):
    """A non-terminal state in which some role has no legal action: the rules are defective
    (GDL requires a legal action for every role in every non-terminal state)."""

    def __init__(self, game: Game, state: State, role: str):
        facts = " ".join(sorted(game.state_facts(state)))
        super().__init__(
            f"{game.name}: role {role} has no legal action in a non-terminal state: {facts}"
        )
        self.state = state
        self.role = role


@dataclass(frozen=True)
class Sides:
    """A game split into a team (role indexes, in role order) and its opponents."""

    game: Game
    team: tuple[int, ...]

    @cached_property
    def opponents(self) -> tuple[int, ...]:
        return tuple(i for i in range(len(self.game.roles)) if i not in self.team)

    @cached_property
    def _places(self) -> tuple[int, ...]:
        """For each role, its place in a team action followed by a reply."""
        order = self.team + self.opponents
        return tuple(order.index(role) for role in range(len(order)))

    @property
    def team_roles(self) -> tuple[str, ...]:
        return tuple(self.game.roles[i] for i in self.team)

    def won(self, state: State) -> bool:
        """Terminal, with goal 100 for every team role."""
        if not self.game.is_terminal(state):
            return False
        goals = self.game.goals(state)
        return all(goals[i] == WIN for i in self.team)

    def steps_to_win(self, state: State) -> int:
        """A lower bound on the steps from a non-terminal state to a won one (0: none known)."""
        return self.game.steps_to_win(state, self.team)

    @cached_property
    def _ending_move(self) -> Callable[[State], tuple[int, tuple] | None] | None:
        return getattr(self.game, "ending_move", None)

    def ends_now(self, state: State) -> bool | None:
        """Whether the non-terminal `state` is decided by a move that ends it at once (the
        game's `ending_move`, where it declares one: the role in control and a joint action in
        which the other roles play their only action): True if that role is in the team and
        the move wins, False if it opposes the team and the move does not; None otherwise."""
        ending = self._ending_move(state) if self._ending_move is not None else None
        if ending is None:
            return None
        mover, joint = ending
        won = self.won(self.game.apply(state, joint))
        if mover in self.team:
            return True if won else None
        return None if won else False

    def ending_action(self, state: State) -> TeamAction:
        """The team's part of the move that wins a state at once (`ends_now` is True)."""
        _, joint = self._ending_move(state)
        return tuple(joint[role] for role in self.team)

    def spoilers(self) -> Sides:
        """The opponents as a team of their own, winning where the game ends without a win of
        this team; if they can force that within some depth, this team has no forced win at
        any depth."""
        return Spoilers(self.game, self.opponents)

    def choices(self, state: State) -> tuple[list[TeamAction], list[tuple]]:
        """The team's joint actions and the opponents' joint replies in a non-terminal
        state; StuckState if a role has none."""
        game = self.game
        legal = []
        for role in game.roles:
            actions = game.legal(state, role)
            if not actions:
                raise StuckState(game, state, role)
            legal.append(actions)
        return _product(legal, self.team), _product(legal, self.opponents)

    def joint(self, action: TeamAction, reply: tuple) -> tuple:
        """The joint action (role order) of a team action and an opponents' reply."""
        both = action + reply
        return tuple([both[place] for place in self._places])

    def action_text(self, action: TeamAction) -> str:
        """A team action as text: the action alone for a team of one; otherwise each role's
        action but noop after the role (`noop` if all pass)."""
        texts = [self.game.action_text(a) for a in action]
        if len(texts) == 1:
            return texts[0]
        moves = [
            f"{role} {text}"
            for role, text in zip(self.team_roles, texts, strict=True)
            if text != "noop"
        ]
        return ", ".join(moves) or "noop"


@dataclass(frozen=True)
class Spoilers(Sides):
    """A team (the opponents of another) that wins in a terminal state where some role of the
    team it opposes (its opponents) has a goal below 100."""

    def won(self, state: State) -> bool:
        if not self.game.is_terminal(state):
            return False
        goals = self.game.goals(state)
        return any(goals[i] != WIN for i in self.opponents)

    def steps_to_win(self, state: State) -> int:
        return self.game.steps_to_loss(state, self.opponents)


def _product(legal: list[Sequence[Action]], roles: tuple[int, ...]) -> list[tuple]:
    """Every joint action of `roles`, the common cases without itertools."""
    choosing = [i for i in roles if len(legal[i]) > 1]
    if not choosing:
        return [tuple(legal[i][0] for i in roles)]
    if len(roles) == 1:
        return [(action,) for action in legal[roles[0]]]
    return list(itertools.product(*(legal[i] for i in roles)))


def make_sides(game: Game, roles: Iterable[str]) -> Sides:
    """The sides with `roles` as the team (every role is allowed: then nobody opposes it);
    GamecheckError for no role, an unknown role, or a role named twice."""
    names = list(roles)
    if not names:
        raise GamecheckError("a team needs at least one role")
    indexes = [game.role_index(name) for name in names]
    if len(set(indexes)) != len(indexes):
        raise GamecheckError(f"the team {','.join(names)} names a role twice")
    return Sides(game, tuple(sorted(indexes)))


def parse_team(text: str) -> list[str]:
    """`R1,R2,...` as role names (blanks around commas allowed)."""
    return [name.strip() for name in text.split(",") if name.strip()]
