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
    forced_win_lines_time_limit: float | None = None
    """The time budget of method lines (tictactoe3d's threat-space proof) for a team the
    search left unknown; None skips it."""

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
    "forced_win_nodes": 100_000,
    "forced_win_time_limit": 60.0,
    "endgame_playouts": 20,
    "endgame_befores": (1, 2, 3, 4, 6, 8),
    "endgame_nodes": 20_000,
    "endgame_time_limit": 120.0,
    "uct_playouts": 10,
    "uct_iterations": 50,
    "opening_playouts": 40,
    "opening_uct_playouts": 0,
    "forced_win_lines_time_limit": None,
}
# The forced-win search expands a few hundred nodes a second on sudoku, a few thousand on
# cubicup and about ten thousand on the others. A UCT playout with 200 iterations a step
# takes about 14 s on cubicup and 20 s on tictactoe3d, 1-2 s on the others; balance and
# openings do not apply to one-role sudoku.
_ONE_ROLE = {"uct_playouts": 0, "opening_playouts": 0, "opening_uct_playouts": 0}
_FULL_BY_GAME = {
    "sudoku": {"forced_win_nodes": 50_000, "sudoku_count_cap": 1000, **_ONE_ROLE},
    "cubicup": {"uct_playouts": 30, "opening_uct_playouts": 0},
    # Method lines proves team x's win in about 30 minutes on one core.
    "tictactoe3d": {
        "uct_playouts": 20,
        "opening_uct_playouts": 4,
        "forced_win_lines_time_limit": 3600.0,
    },
    # Settling ttcc4's red and yellow to the end takes 2.8M and 0.9M nodes (about 3 min).
    "ttcc4": {"forced_win_nodes": 4_000_000, "forced_win_time_limit": 600.0},
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
    # At 60 s tictactoe3d's shortest game and earliest wins of x (8 s and 2 s in the full
    # run) came out found in some runs and unknown in others: their time shares sat at the
    # edge.
    "tictactoe3d": {"verify_time_limit": 120.0},
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


_CUTS = (
    ("playouts", "{q.playouts} random playouts instead of {f.playouts}."),
    (
        "horizon",
        "verify unrolls to depth {q.horizon} instead of {f.horizon}: its answers hold for lines "
        "of play up to {q.horizon} steps only.",
    ),
    (
        "verify_time_limit",
        "verify (CNF) has {q.verify_time_limit:.0f} s for all its answers instead of "
        "{f.verify_time_limit:.0f} s; an answer it did not reach in time is unknown.",
    ),
    (
        "forced_win_nodes",
        "each forced-win search from the initial state stops after {q.forced_win_nodes} nodes "
        "instead of {f.forced_win_nodes}.",
    ),
    (
        "endgame_playouts",
        "the endgame study looks at {q.endgame_playouts} playouts instead of "
        "{f.endgame_playouts}, K in {q_befores} instead of {f_befores}, each search stopping "
        "after {q.endgame_nodes} nodes instead of {f.endgame_nodes}.",
    ),
    (
        "uct_playouts",
        "{q.uct_playouts} UCT playouts with {q.uct_iterations} iterations a step instead of "
        "{f.uct_playouts} with {f.uct_iterations}.",
    ),
    (
        "opening_playouts",
        "{q.opening_playouts} random playouts after each opening instead of {f.opening_playouts}.",
    ),
    ("opening_uct_playouts", "no UCT playouts after each opening."),
    (
        "sudoku_count_cap",
        "solutions of each instance are counted up to {q.sudoku_count_cap} instead of "
        "{f.sudoku_count_cap}.",
    ),
)
"""A setting the quick run may lower, and the sentence that says so (q: quick, f: full)."""


def cuts(game: str, mode: str) -> list[str]:
    """What the run in `mode` does less of than the full run, one sentence each."""
    settings, full = SETTINGS[mode][game], FULL_SETTINGS[game]
    words = {
        "q": settings,
        "f": full,
        "q_befores": _listed(settings.endgame_befores),
        "f_befores": _listed(full.endgame_befores),
    }
    notes = [
        sentence.format(**words)
        for setting, sentence in _CUTS
        if getattr(settings, setting) < getattr(full, setting)
    ]
    if settings.cpsat_time_limit is None:
        notes.append(
            "verify with the CP-SAT backend is skipped to keep the quick run short; the full "
            "run compares both backends.",
        )
    elif settings.cpsat_time_limit < (full.cpsat_time_limit or 0):
        notes.append(
            f"verify with CP-SAT has {settings.cpsat_time_limit:.0f} s instead of "
            f"{full.cpsat_time_limit:.0f} s.",
        )
    if full.forced_win_lines_time_limit and settings.forced_win_lines_time_limit is None:
        notes.append(
            "method lines, the threat-space proof of a team's forced win (about 30 minutes), "
            "is skipped; the full run gives it "
            f"{full.forced_win_lines_time_limit:.0f} s.",
        )
    return notes


def _listed(numbers: tuple[int, ...]) -> str:
    return ", ".join(map(str, numbers))
