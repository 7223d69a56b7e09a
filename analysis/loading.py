"""Turn a GAME argument into a game: a built-in name or the path of a GDL rule sheet."""

from __future__ import annotations

from pathlib import Path

from models import get_game
from models.base import Game


def load_game(spec: str) -> Game:
    """The built-in game `spec` (e.g. `sudoku:grade3`) or the rule sheet at path `spec`."""
    if spec.endswith(".kif") or Path(spec).is_file():
        from solvers.gdl.game import GdlGame

        return GdlGame.from_file(spec)
    return get_game(spec)
