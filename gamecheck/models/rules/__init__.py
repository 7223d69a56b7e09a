"""Our own GDL rule sheets of the built-in games (RULES.md sections 1-5), one `.kif` per game.

The sudoku instances differ only in their init facts: `sudoku.kif` holds grade1's, and
`sudoku_rule_text(instance)` writes the sheet of any instance from models/sudoku.py's INSTANCES.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

from gamecheck.errors import UnknownGameError
from gamecheck.models import builtin_names
from gamecheck.models.sudoku import DEFAULT_INSTANCE, cell_coordinates, make_game

SHEETS = tuple(builtin_names())
"""The games with a rule sheet here: every built-in game (`<name>.kif`)."""
INIT_MARKER = "; --- Initial state: sudoku instance "
"""The comment line that opens the init facts of sudoku.kif; the facts follow, 9 per line."""


def rule_sheet_path(game_name: str) -> Traversable:
    """The rule sheet of a built-in game (`sudoku:gradeN` gives the one sudoku sheet), as an
    importlib.resources Traversable (a real path in an installed package)."""
    base, _, _ = game_name.partition(":")
    if base not in SHEETS:
        raise UnknownGameError(
            f"no rule sheet for {game_name!r}; the sheets are {', '.join(SHEETS)}"
        )
    return resources.files(__package__).joinpath(f"{base}.kif")


def rule_text(game_name: str) -> str:
    """The rule sheet text of a built-in game; for `sudoku:gradeN`, with that instance's init."""
    base, _, instance = game_name.partition(":")
    if base == "sudoku":
        return sudoku_rule_text(instance or DEFAULT_INSTANCE)
    return rule_sheet_path(game_name).read_text(encoding="utf-8")


def sudoku_rule_text(instance: str) -> str:
    """sudoku.kif with the init facts of `instance` (grade1 ... grade6H) in place of grade1's."""
    givens = make_game(instance).givens
    lines = rule_sheet_path("sudoku").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(INIT_MARKER))
    end = start + 1
    while end < len(lines) and lines[end].startswith("(init (cell "):
        end += 1
    return "\n".join([*lines[:start], *sudoku_init_lines(instance, givens), *lines[end:]]) + "\n"


def sudoku_init_lines(instance: str, givens: tuple[int, ...]) -> list[str]:
    """The marker line and the 81 init facts of a grid (row-major digits, 0 blank), a row a line."""
    facts = [
        "(init (cell {} {} {} {} {}))".format(*cell_coordinates(index), digit or "b")
        for index, digit in enumerate(givens)
    ]
    marker = f'{INIT_MARKER}{instance} (RULES.md "Instances"), one row per line'
    return [marker] + [" ".join(facts[row * 9 : row * 9 + 9]) for row in range(9)]
