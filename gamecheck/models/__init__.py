"""The one registry of the built-in games: name -> module, and whether a name may carry a
variant after a colon (`sudoku:grade3`). Everything that lists or looks up built-in games
(the CLI, the rule sheets, the report, the benchmarks) asks here.

>>> builtin_names()
['cubicup', 'ttcc4', 'tictactoe3d', 'sudoku', 'tictacchess']
>>> get_game("sudoku:grade3").instance
'grade3'
>>> get_game("ttcc4:foo")
Traceback (most recent call last):
gamecheck.errors.UnknownGameError: ttcc4 has no variants: 'ttcc4:foo' names none (sudoku has)
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from gamecheck.errors import UnknownGameError
from gamecheck.models.base import Game


@dataclass(frozen=True)
class BuiltinGame:
    """A built-in game: its module (with `make_game()`) and whether it takes a variant name
    (`make_game(variant)`)."""

    name: str
    module: str
    takes_variant: bool = False


GAMES = {
    game.name: game
    for game in (
        BuiltinGame("cubicup", "gamecheck.models.cubicup"),
        BuiltinGame("ttcc4", "gamecheck.models.ttcc4"),
        BuiltinGame("tictactoe3d", "gamecheck.models.tictactoe3d"),
        BuiltinGame("sudoku", "gamecheck.models.sudoku", takes_variant=True),
        BuiltinGame("tictacchess", "gamecheck.models.tictacchess"),
    )
}
"""Every built-in game, in the order the CLI lists them. Each has a rule sheet in rules/."""


def builtin_names() -> list[str]:
    """The names of the built-in games."""
    return list(GAMES)


def builtin_game(name: str) -> BuiltinGame:
    """The registry entry of `name` (`name:variant` allowed where the game takes variants);
    UnknownGameError, one sentence listing what exists, for any other name."""
    base, colon, variant = name.partition(":")
    entry = GAMES.get(base)
    if entry is None:
        raise UnknownGameError(f"unknown game {name!r}; the built-in games are {', '.join(GAMES)}")
    if colon and not entry.takes_variant:
        with_variants = ", ".join(game.name for game in GAMES.values() if game.takes_variant)
        raise UnknownGameError(f"{base} has no variants: {name!r} names none ({with_variants} has)")
    if colon and not variant:
        raise UnknownGameError(f"{name!r} names no variant of {base} after the colon")
    return entry


def get_game(name: str) -> Game:
    """The built-in game called `name` (optionally `name:variant`)."""
    entry = builtin_game(name)
    module = importlib.import_module(entry.module)
    _, _, variant = name.partition(":")
    return module.make_game(variant) if variant else module.make_game()
