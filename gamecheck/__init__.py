"""gamecheck: analyse General Game Playing games with SAT and CP-SAT solvers.

What the command line does, a notebook can call here. Every result is a dataclass whose
`to_json()` is exactly what the command prints with `--json`.

>>> import gamecheck
>>> game = gamecheck.load("tictacchess")
>>> game.roles
('red', 'yellow', 'blue')
>>> result = gamecheck.verify(game, time_limit=120)
>>> result.longest_game.status, result.longest_game.value
('proved', 30)
>>> result.defects, result.unknown
([], [])
>>> win = gamecheck.forced_win(game, "red", max_depth=4)
>>> str(win.status), win.searched_depth
('none', 4)
>>> x = gamecheck.forced_win("tictactoe3d", "xrow", max_depth=6)
>>> x.team, str(x.status)
(('xrow', 'xcolumn', 'xlevel'), 'none')

The modules behind it: `gamecheck.models` (the built-in games and the Game interface),
`gamecheck.gdl` (rule sheets), `gamecheck.solvers` (encodings and searches),
`gamecheck.analysis` (the questions, replays and reports), `gamecheck.cli`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from gamecheck.solvers.forced_win import TABLE_MEGABYTES

__version__ = "0.2.0"

if TYPE_CHECKING:
    from gamecheck.analysis.loading import Subject
    from gamecheck.analysis.verify.results import Verification
    from gamecheck.gdl.checks import Lint
    from gamecheck.models.base import Game
    from gamecheck.solvers.forced_win.search import ForcedWin


def load(subject: Subject) -> Game:
    """A game: a built-in game's name (`"ttcc4"`, `"sudoku:grade3"`), the path of a GDL rule
    sheet, or GDL rule text. GamecheckError (one sentence) if there is no such game."""
    from gamecheck.analysis.loading import load_game

    return load_game(subject)


def lint(path_or_text: str) -> Lint:
    """The static checks of a GDL rule sheet (a path, or rule text): errors and warnings."""
    from gamecheck.analysis.loading import is_rule_text
    from gamecheck.gdl.checks import lint_file, lint_text

    if is_rule_text(path_or_text):
        return lint_text(path_or_text, "rules")
    return lint_file(path_or_text)


def verify(
    subject: Subject,
    *,
    time_limit: float | None = None,
    backend: str = "cnf",
    horizon: int | None = None,
    sat_solver: str | None = None,
    invariants: bool = True,
) -> Verification:
    """Prove or refute termination, playability and goal definedness, and find the outcome
    set and each role's earliest win, within `time_limit` seconds for everything."""
    from gamecheck.analysis.verify.pipeline import DEFAULT_HORIZON, verify_game

    return verify_game(
        subject,
        backend=backend,
        horizon=horizon or DEFAULT_HORIZON,
        time_limit=time_limit,
        sat_solver=sat_solver,
        invariants=invariants,
    )


def forced_win(
    subject: Subject,
    role: str | None = None,
    *,
    team: Sequence[str] | None = None,
    time_limit: float | None = 60.0,
    max_depth: int | None = None,
    method: str = "search",
    table_megabytes: float | None = TABLE_MEGABYTES,
) -> ForcedWin:
    """Whether `role` (with the roles proved to share its goals: its team) or the given
    `team` can force goal 100 from the initial state within `max_depth` steps (default: the
    game's step bound) whatever all other roles do together, and how soon; `method` as the
    command line's (`search`, `sat`, or `lines` for a side of tictactoe3d); the search's
    tables take at most `table_megabytes` (None: unbounded)."""
    from gamecheck.analysis.forced_wins import solve_forced_win
    from gamecheck.budget import Budget

    return solve_forced_win(
        subject,
        role,
        team=team,
        max_depth=max_depth,
        budget=Budget(time_limit),
        method=method,
        table_megabytes=table_megabytes,
    )
