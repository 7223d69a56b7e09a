"""A winning strategy as a value and as a JSON file anyone can check.

The file lists, for every state the strategy reaches where the team has a choice (a state
where it has one joint action may be left out), the state as GDL facts and the action of
each team role as a GDL term:

    {"kind": "strategy", "schema_version": 1, "gamecheck": "0.2.0",
     "game": "tictacchess", "team": ["red"], "depth": 1,
     "start": ["(cell 1 4 red)", ...],
     "states": [{"state": ["(cell 1 4 red)", ...], "actions": {"red": "(move 1 4 3 5)"}}]}

`gamecheck check-strategy GAME FILE` reads it back (`read_strategy`) and replays it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from gamecheck.errors import GamecheckError
from gamecheck.models.base import Game, State
from gamecheck.schema import stamped

KIND = "strategy"


@dataclass(frozen=True)
class Strategy:
    """The team's joint action (role order) in every state it reaches from `start` where the
    team has a choice (others may be listed too), winning within `depth` steps."""

    team: tuple[str, ...]
    start: State
    depth: int
    actions: dict[State, tuple]

    def to_json(self, game: Game) -> dict:
        states = sorted(
            (sorted(game.state_facts(state)), self._texts(game, action))
            for state, action in self.actions.items()
        )
        return stamped(
            KIND,
            {
                "game": game.name,
                "team": list(self.team),
                "depth": self.depth,
                "start": sorted(game.state_facts(self.start)),
                "states": [{"state": facts, "actions": actions} for facts, actions in states],
            },
        )

    def _texts(self, game: Game, action: tuple) -> dict[str, str]:
        return {
            role: game.action_text(chosen) for role, chosen in zip(self.team, action, strict=True)
        }


def read_strategy(game: Game, text: str, path: str) -> Strategy:
    """The strategy written in a strategy file, its states and actions parsed by `game`;
    GamecheckError naming `path` if it is not one."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise GamecheckError(
            f"{path}:{error.lineno}:{error.colno}: not JSON: {error.msg}"
        ) from None
    try:
        return _strategy(game, data)
    except (KeyError, TypeError, ValueError) as error:
        raise GamecheckError(f"{path}: not a strategy file: {_reason(error)}") from None
    except GamecheckError as error:
        raise GamecheckError(f"{path}: {error}") from None


def _strategy(game: Game, data: dict) -> Strategy:
    if data["kind"] != KIND:
        raise ValueError(f"its kind is {data['kind']!r}, not {KIND!r}")
    if data["game"] != game.name:
        raise ValueError(f"it is a strategy for {data['game']}, not {game.name}")
    team = _team(game, data["team"])
    depth = data["depth"]
    if not isinstance(depth, int) or depth < 0:
        raise ValueError(f"depth {depth!r} is not a whole number")
    actions: dict[State, tuple] = {}
    for number, entry in enumerate(data["states"], start=1):
        state = game.state_from_facts(_facts(entry["state"]))
        chosen = entry["actions"]
        if set(chosen) != set(team):
            raise ValueError(f"state {number} does not give one action per team role")
        actions[state] = tuple(game.parse_action(role, chosen[role]) for role in team)
    return Strategy(team, game.state_from_facts(_facts(data["start"])), depth, actions)


def _team(game: Game, names: Sequence[str]) -> tuple[str, ...]:
    if not isinstance(names, list) or not names:
        raise ValueError("team is not a list of roles")
    for name in names:
        game.role_index(name)
    return tuple(role for role in game.roles if role in names)


def _facts(facts) -> list[str]:
    if not isinstance(facts, list) or not all(isinstance(fact, str) for fact in facts):
        raise ValueError("a state is not a list of GDL facts")
    return facts


def _reason(error: Exception) -> str:
    if isinstance(error, KeyError):
        return f"the key {error.args[0]!r} is missing"
    return str(error)
