"""Turn a GAME argument into a game: a built-in name or the path of a GDL rule sheet."""

from __future__ import annotations

from pathlib import Path

from gamecheck.models import builtin_names, get_game
from gamecheck.models.base import Game


def is_rule_sheet_path(spec: str) -> bool:
    return spec.endswith(".kif") or Path(spec).is_file()


def load_game(spec: str) -> Game:
    """The built-in game `spec` (e.g. `sudoku:grade3`) or the rule sheet at path `spec`."""
    if is_rule_sheet_path(spec):
        from gamecheck.models.sheet import GdlGame

        return GdlGame.from_file(spec)
    return get_game(spec)


def load_rule_sheet(spec: str):
    """The GDL game of `spec`: our own rule sheet (models/rules) of a built-in game, or the
    rule sheet at path `spec`. The reasoner plays it; the grounder reads its rules."""
    from gamecheck.models.rules import rule_text
    from gamecheck.models.sheet import GdlGame

    if is_rule_sheet_path(spec):
        return GdlGame.from_file(spec)
    get_game(spec)  # an unknown name fails here, with the list of names
    return GdlGame.from_text(rule_text(spec), spec)


def checking_games(spec: str) -> list[Game]:
    """The games a solver's witness is replayed on: the built-in move generator (for a
    built-in game) and the GDL reasoner on the rule sheet."""
    sheet = load_rule_sheet(spec)
    if spec.partition(":")[0] in builtin_names():
        return [get_game(spec), sheet]
    return [sheet]
