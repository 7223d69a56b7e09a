"""Turn what a user names into games: a built-in game's name (`sudoku:grade3`), the path
of a GDL rule sheet, rule text, or a Game already made."""

from __future__ import annotations

from pathlib import Path

from gamecheck.errors import UnknownGameError
from gamecheck.models import get_game
from gamecheck.models.base import Game
from gamecheck.models.sheet import GdlGame

Subject = str | Game
"""A built-in game's name, a rule sheet's path, rule text, or a Game."""


def is_rule_text(subject: str) -> bool:
    """Whether `subject` is GDL text rather than a name or a path (names have no brackets)."""
    return "(" in subject


def is_rule_sheet_path(subject: str) -> bool:
    return subject.endswith(".kif") or Path(subject).is_file()


def load_game(subject: Subject) -> Game:
    """The game `subject` names: a built-in game, or the GDL game of a rule sheet (its path
    or its text). Bad input raises GamecheckError with one sentence."""
    if isinstance(subject, Game):
        return subject
    if is_rule_text(subject):
        return GdlGame.from_text(subject, "rules")
    if is_rule_sheet_path(subject):
        return GdlGame.from_file(subject)
    return get_game(subject)


def load_rule_sheet(subject: Subject) -> GdlGame:
    """The GDL game of `subject`: the rule sheet itself, or our own rule sheet
    (models/rules) of a built-in game. The reasoner plays it; the grounder reads its rules."""
    game = load_game(subject)
    if isinstance(game, GdlGame):
        return game
    from gamecheck.models.rules import rule_text

    try:
        return GdlGame.from_text(rule_text(game.name), game.name)
    except UnknownGameError:
        raise UnknownGameError(f"{game.name} has no rule sheet to ground") from None


def checking_games(subject: Subject) -> list[Game]:
    """The games a solver's witness is replayed on: the built-in move generator (for a
    built-in game) and the GDL reasoner on the rule sheet."""
    game = load_game(subject)
    sheet = load_rule_sheet(game)
    return [sheet] if game is sheet else [game, sheet]
