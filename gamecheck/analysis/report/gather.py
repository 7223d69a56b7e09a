"""Run every analysis a game's report shows and keep the results as plain values."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from gamecheck.analysis.endgames import endgame_positions, endgame_study
from gamecheck.analysis.forced_win_lines import METHOD as LINES
from gamecheck.analysis.forced_win_lines import lines_apply
from gamecheck.analysis.forced_wins import ruled_out, solve_forced_win
from gamecheck.analysis.mcts import uct_playout
from gamecheck.analysis.openings import opening_table
from gamecheck.analysis.playouts import Playout, PlayoutStats, random_playout, summarise_playouts
from gamecheck.analysis.report.settings import GameSettings
from gamecheck.analysis.sudoku_solve import BACKENDS, SudokuAnswer, make_backend, solve
from gamecheck.analysis.teams import find_teams
from gamecheck.analysis.verify.pipeline import verify_game
from gamecheck.analysis.verify.results import Outcomes, Verification
from gamecheck.budget import Budget
from gamecheck.models import get_game
from gamecheck.models.base import Game
from gamecheck.models.sudoku import INSTANCES, make_game
from gamecheck.solvers.forced_win.search import ForcedWin, Status

BUILT_IN_INSTANCE_CAP = 2
"""Solutions to look for in the built-in sudoku instance: two decide uniqueness."""


@dataclass(frozen=True)
class SudokuResults:
    """The built-in instance solved by both backends, and every instance counted."""

    answer: SudokuAnswer
    instances: tuple[SudokuAnswer, ...]
    cap: int


@dataclass(frozen=True)
class GameResults:
    """Everything one game's report shows."""

    name: str
    game: Game
    mode: str
    seed: int
    settings: GameSettings
    verifications: dict[str, Verification]
    """By backend: always `cnf`; `cpsat` unless the settings skip it."""
    playouts: tuple[Playout, ...]
    stats: PlayoutStats
    uct_playouts: tuple[Playout, ...]
    """Playouts in which every role plays UCT (empty where the settings skip them)."""
    openings: pd.DataFrame
    """One row per opening, play ("random" or "UCT") and playout: the goal of each role."""
    forced_wins: dict[str, ForcedWin]
    """By team (its roles joined by commas; a role alone is a team of one): the forced win
    from the initial state; empty for a one-role game (its earliest win answers it)."""
    endgames: pd.DataFrame
    """The endgame study: one row per position and team (gamecheck.analysis.endgames);
    empty for a one-role game."""
    sudoku: SudokuResults | None
    seconds: dict[str, float]
    """Wall time of each part of the run (machine-dependent)."""

    @property
    def verification(self) -> Verification:
        """The CNF backend's answers, the ones the report shows in full."""
        return self.verifications["cnf"]


def gather_game(
    name: str,
    *,
    mode: str,
    seed: int,
    settings: GameSettings,
    progress: Callable[[str], None] = lambda _: None,
) -> GameResults:
    """Run the analyses of `name` within the budgets of `settings`."""
    game = get_game(name)
    seconds: dict[str, float] = {}
    start = time.monotonic()

    progress("random playouts")
    playouts = tuple(random_playout(game, s) for s in range(seed, seed + settings.playouts))
    stats = summarise_playouts(game, playouts)
    seconds["random playouts"] = _since(start)

    began = time.monotonic()
    progress("UCT playouts")
    uct_playouts = tuple(
        uct_playout(game, s, iterations=settings.uct_iterations).playout
        for s in range(seed, seed + settings.uct_playouts)
    )
    seconds["UCT playouts"] = _since(began)

    began = time.monotonic()
    progress("openings")
    openings = _openings(game, settings, seed)
    seconds["openings"] = _since(began)

    verifications = {}
    for backend, limit in (
        ("cnf", settings.verify_time_limit),
        ("cpsat", settings.cpsat_time_limit),
    ):
        if limit is None:
            continue
        began = time.monotonic()
        verifications[backend] = verify_game(
            name,
            backend=backend,
            horizon=settings.horizon,
            time_limit=limit,
            exhaustive=False,  # the report compares the two backends
            progress=lambda stage, b=backend: progress(f"verify ({b}): {stage}"),
        )
        seconds[f"verify ({backend})"] = _since(began)

    forced_wins: dict[str, ForcedWin] = {}
    endgames = pd.DataFrame()
    if len(game.roles) > 1:
        began = time.monotonic()
        outcomes = verifications["cnf"].outcomes
        forced_wins = _forced_wins(game, settings, outcomes, progress)
        seconds["forced wins"] = _since(began)
        began = time.monotonic()
        progress("endgame study")
        positions = endgame_positions(
            game, settings.endgame_playouts, settings.endgame_befores, seed=seed
        )
        endgames = endgame_study(
            game,
            positions,
            budget=Budget(settings.endgame_time_limit),
            node_limit=settings.endgame_nodes,
        ).rows
        seconds["endgame study"] = _since(began)

    sudoku = None
    if name == "sudoku":
        began = time.monotonic()
        progress("sudoku instances")
        sudoku = solve_sudoku_instances(game, settings.sudoku_count_cap)
        seconds["sudoku instances"] = _since(began)
    seconds["total"] = _since(start)
    return GameResults(
        name,
        game,
        mode,
        seed,
        settings,
        verifications,
        playouts,
        stats,
        uct_playouts,
        openings,
        forced_wins,
        endgames,
        sudoku,
        seconds,
    )


def _forced_wins(
    game: Game, settings: GameSettings, outcomes: Outcomes, progress: Callable[[str], None]
) -> dict[str, ForcedWin]:
    """By team (a role alone is a team of one): the forced win from the initial state; one
    the search leaves unknown by method lines where it applies and the settings give it time,
    then by another team's win where the outcomes rule it out."""
    forced_wins = {}
    for team in find_teams(game).groups:
        label = ",".join(team)
        progress(f"forced win of {label}")
        win = solve_forced_win(
            game,
            team=team,
            budget=Budget(settings.forced_win_time_limit),
            node_limit=settings.forced_win_nodes,
        )
        limit = settings.forced_win_lines_time_limit
        if win.status is Status.UNKNOWN and limit is not None and lines_apply(game, team):
            progress(f"forced win of {label} by method lines (about half an hour)")
            lined = solve_forced_win(game, team=team, method=LINES, budget=Budget(limit))
            win = lined if lined.status is Status.FOUND else win
        forced_wins[label] = win
    for label, win in forced_wins.items():
        for other in forced_wins.values():
            win = ruled_out(win, other, game.roles, outcomes)
        forced_wins[label] = win
    return forced_wins


def _openings(game: Game, settings: GameSettings, seed: int) -> pd.DataFrame:
    """The opening table under random play and, where the settings ask, under UCT play."""
    plays = [("random", settings.opening_playouts, 0)]
    plays.append(("UCT", settings.opening_uct_playouts, settings.uct_iterations))
    frames = [
        opening_table(game, playouts=count, seed=seed, iterations=iterations).assign(play=play)
        for play, count, iterations in plays
        if count
    ]
    columns = ["play", "opening", "seed", *game.roles]
    return pd.concat(frames)[columns] if frames else pd.DataFrame(columns=columns)


def solve_sudoku_instances(game, cap: int) -> SudokuResults:
    """The built-in instance (uniqueness) and every instance (solutions up to `cap`), each
    with both backends, every solution replayed."""
    backends = [make_backend(name) for name in BACKENDS]
    answer = solve(game, backends, cap=BUILT_IN_INSTANCE_CAP)
    instances = tuple(solve(make_game(name), backends, cap=cap) for name in INSTANCES)
    return SudokuResults(answer, instances, cap)


def _since(start: float) -> float:
    return time.monotonic() - start
