"""How much work a report run does per game: the full run and the `--quick` run.

The quick run cuts the full run down to a few minutes in all; `cuts` lists what it cut, in
words, so that every quick report says plainly what was skipped or shortened.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from models import builtin_names, get_game

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
    sudoku_count_cap: int = 0
    """Count the solutions of every sudoku instance up to this many."""

    def to_json(self) -> dict:
        return asdict(self)


def _beyond_longest(game: str) -> int:
    """One more than the most steps the rules allow, so that verify can prove the longest
    game (a horizon, not an assumption: verify proves or refutes the bound itself)."""
    return get_game(game).step_bound + 1


FULL_SETTINGS = {
    name: GameSettings(
        playouts=10_000,
        horizon=_beyond_longest(name),
        verify_time_limit=900.0,
        cpsat_time_limit=900.0,
        sudoku_count_cap=1000 if name == "sudoku" else 0,
    )
    for name in builtin_names()
}
QUICK_SETTINGS = {
    name: replace(full, playouts=500, verify_time_limit=60.0, cpsat_time_limit=None)
    for name, full in FULL_SETTINGS.items()
}
QUICK_SETTINGS["cubicup"] = replace(QUICK_SETTINGS["cubicup"], horizon=20)
QUICK_SETTINGS["tictactoe3d"] = replace(QUICK_SETTINGS["tictactoe3d"], horizon=20)
QUICK_SETTINGS["sudoku"] = replace(QUICK_SETTINGS["sudoku"], sudoku_count_cap=10)
QUICK_SETTINGS["tictacchess"] = replace(QUICK_SETTINGS["tictacchess"], cpsat_time_limit=60.0)
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
    if settings.sudoku_count_cap < full.sudoku_count_cap:
        notes.append(
            f"solutions of each instance are counted up to {settings.sudoku_count_cap} instead "
            f"of {full.sudoku_count_cap}."
        )
    return notes
