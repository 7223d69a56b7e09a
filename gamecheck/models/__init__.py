"""The built-in games, by name. `get_game("sudoku:grade3")` passes `grade3` to the game."""

from __future__ import annotations

import importlib

from gamecheck.errors import UnknownGameError
from gamecheck.models.base import Game

_MODULES = {
    "cubicup": "gamecheck.models.cubicup",
    "ttcc4": "gamecheck.models.ttcc4",
    "tictactoe3d": "gamecheck.models.tictactoe3d",
    "sudoku": "gamecheck.models.sudoku",
    "tictacchess": "gamecheck.models.tictacchess",
}


def builtin_names() -> list[str]:
    """The names of the built-in games."""
    return list(_MODULES)


def get_game(name: str) -> Game:
    """The built-in game called `name` (optionally `name:variant`)."""
    base, _, variant = name.partition(":")
    if base not in _MODULES:
        raise UnknownGameError(
            f"unknown game {name!r}; the built-in games are {', '.join(_MODULES)}"
        )
    module = importlib.import_module(_MODULES[base])
    return module.make_game(variant) if variant else module.make_game()
