"""How much work a report run does per game: the full run and the `--quick` run.

The quick run cuts the full run down to a few minutes in all; `cuts` lists what it cut, in
words, so that every quick report says plainly what was skipped or shortened.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from gamecheck.models import builtin_names, get_game

QUICK, FULL = "quick", "full"


@dataclass(frozen=True)
class GameSettings:
    """The budgets of one game's report. Time limits are in seconds; None skips a part."""

    playouts: int
    horizon: int
    verify_time_limit: float
    """For all answers of one verify run (one backend)."""
    cpsat_time_limit: float | None
    """The CP-SAT verify run; None skips it."""
    forced_win_nodes: int
    """The node budget of each role's forced-win search from the initial state."""
    forced_win_time_limit: float
    """Its time budget, a safety net: the node budget should run out first."""
    endgame_playouts: int
    endgame_befores: tuple[int, ...]
    """The endgame study looks at the positions K steps before the end, for these K."""
    endgame_nodes: int
    """The node budget of each search of the endgame study."""
    endgame_time_limit: float
    """The time budget of the whole study, shared out as it goes (a safety net too)."""
    uct_playouts: int = 0
    """Playouts in which every role plays UCT (analysis/mcts.py); 0 skips them."""
    uct_iterations: int = 0
    """UCT iterations per step."""
    opening_playouts: int = 0
    """Random playouts after each opening (first joint action); 0 skips the opening table."""
    opening_uct_playouts: int = 0
    """UCT playouts after each opening, with `uct_iterations`; 0 skips them."""
    sudoku_count_cap: int = 0
    """Count the solutions of every sudoku instance up to this many."""

    def to_json(self) -> dict:
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}


def _beyond_longest(game: str) -> int:
    """One more than the most steps the rules allow, so that verify can prove the longest
    game (a horizon, not an assumption: verify proves or refutes the bound itself)."""
    return get_game(game).step_bound + 1


_FULL = GameSettings(
    playouts=10_000,
    horizon=0,  # set per game: _beyond_longest
    verify_time_limit=600.0,
    cpsat_time_limit=300.0,
    forced_win_nodes=1_000_000,
    forced_win_time_limit=120.0,
    endgame_playouts=200,
    endgame_befores=(1, 2, 3, 4, 5, 6, 8, 10, 12),
    endgame_nodes=200_000,
    endgame_time_limit=300.0,
    uct_playouts=40,
    uct_iterations=200,
    opening_playouts=200,
    opening_uct_playouts=10,
)
_QUICK = {
    "playouts": 500,
    "verify_time_limit": 60.0,
    "cpsat_time_limit": None,
    "forced_win_nodes": 50_000,
    "forced_win_time_limit": 60.0,
    "endgame_playouts": 20,
    "endgame_befores": (1, 2, 3, 4, 6, 8),
    "endgame_nodes": 20_000,
    "endgame_time_limit": 120.0,
    "uct_playouts": 10,
    "uct_iterations": 50,
    "opening_playouts": 40,
    "opening_uct_playouts": 0,
}
# The forced-win search expands a few hundred nodes a second on sudoku, a few thousand on
# cubicup and about ten thousand on the others. A UCT playout with 200 iterations a step
# takes about 14 s on cubicup and 20 s on tictactoe3d, 1-2 s on the others; balance and
# openings do not apply to one-role sudoku.
_ONE_ROLE = {"uct_playouts": 0, "opening_playouts": 0, "opening_uct_playouts": 0}
_FULL_BY_GAME = {
    "sudoku": {"forced_win_nodes": 50_000, "sudoku_count_cap": 1000, **_ONE_ROLE},
    "cubicup": {"uct_playouts": 30, "opening_uct_playouts": 0},
    "tictactoe3d": {"uct_playouts": 20, "opening_uct_playouts": 4},
}
_QUICK_BY_GAME = {
    "cubicup": {"forced_win_nodes": 20_000},
    "sudoku": {
        "sudoku_count_cap": 10,
        "forced_win_nodes": 2000,
        "endgame_nodes": 2000,
        **_ONE_ROLE,
    },
    "ttcc4": {"verify_time_limit": 120.0},
    "tictacchess": {"cpsat_time_limit": 60.0},
}
FULL_SETTINGS = {
    name: replace(_FULL, horizon=_beyond_longest(name), **_FULL_BY_GAME.get(name, {}))
    for name in builtin_names()
}
QUICK_SETTINGS = {
    name: replace(full, **(_QUICK | _QUICK_BY_GAME.get(name, {})))
    for name, full in FULL_SETTINGS.items()
}
SETTINGS = {QUICK: QUICK_SETTINGS, FULL: FULL_SETTINGS}


def cuts(game: str, mode: str) -> list[str]:
    """What the run in `mode` does less of than the full run, one sentence each."""
    settings, full = SETTINGS[mode][game], FULL_SETTINGS[game]
    notes = []
    if settings.playouts < full.playouts:
        notes.append(f"{settings.playouts} random playouts instead of {full.playouts}.")
    if settings.horizon < full.horizon:
        notes.append(
            f"verify unrolls to depth {settings.horizon} instead of {full.horizon}: its answers "
            f"hold for lines of play up to {settings.horizon} steps only."
        )
    if settings.verify_time_limit < full.verify_time_limit:
        notes.append(
            f"verify (CNF) has {settings.verify_time_limit:.0f} s for all its answers instead "
            f"of {full.verify_time_limit:.0f} s; an answer it did not reach in time is unknown."
        )
    if settings.cpsat_time_limit is None:
        notes.append(
            "verify with the CP-SAT backend is skipped to keep the quick run short; the full "
            "run compares both backends."
        )
    elif settings.cpsat_time_limit < (full.cpsat_time_limit or 0):
        notes.append(
            f"verify with CP-SAT has {settings.cpsat_time_limit:.0f} s instead of "
            f"{full.cpsat_time_limit:.0f} s."
        )
    if settings.forced_win_nodes < full.forced_win_nodes:
        notes.append(
            f"each forced-win search from the initial state stops after "
            f"{settings.forced_win_nodes} nodes instead of {full.forced_win_nodes}."
        )
    if settings.endgame_playouts < full.endgame_playouts:
        notes.append(
            f"the endgame study looks at {settings.endgame_playouts} playouts instead of "
            f"{full.endgame_playouts}, K in {_listed(settings.endgame_befores)} instead of "
            f"{_listed(full.endgame_befores)}, each search stopping after "
            f"{settings.endgame_nodes} nodes instead of {full.endgame_nodes}."
        )
    if settings.uct_playouts < full.uct_playouts:
        notes.append(
            f"{settings.uct_playouts} UCT playouts with {settings.uct_iterations} iterations a "
            f"step instead of {full.uct_playouts} with {full.uct_iterations}."
        )
    if settings.opening_playouts < full.opening_playouts:
        notes.append(
            f"{settings.opening_playouts} random playouts after each opening instead of "
            f"{full.opening_playouts}."
        )
    if settings.opening_uct_playouts < full.opening_uct_playouts:
        notes.append("no UCT playouts after each opening.")
    if settings.sudoku_count_cap < full.sudoku_count_cap:
        notes.append(
            f"solutions of each instance are counted up to {settings.sudoku_count_cap} instead "
            f"of {full.sudoku_count_cap}."
        )
    return notes


def _listed(numbers: tuple[int, ...]) -> str:
    return ", ".join(map(str, numbers))
