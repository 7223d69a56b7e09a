"""Endgame studies: from positions K steps before the end of random playouts, which roles
can force a win within K steps?

The positions come from the seeded random playouts of analysis/playouts.py (seeds S, S+1, ...);
a playout shorter than K steps gives no position for K. Each (position, role) is settled by
the forced-win search (solvers/forced_win/search.py) as found, none or unknown; the time
budget is shared out as the study goes, smallest K first, so the small K are settled and the
large ones get what time is left.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import pandas as pd

from gamecheck.analysis.playouts import random_steps
from gamecheck.models.base import Game, State
from gamecheck.solvers.forced_win.search import Status, forced_win

STUDY_COLUMNS = {
    "seed": "int64",
    "before": "int64",
    "step": "int64",
    "role": "object",
    "status": "object",
    "depth": "Int64",
    "searched_depth": "int64",
    "nodes": "int64",
    "seconds": "float64",
}
SUMMARY_COLUMNS = ["positions", "found", "none", "unknown", "found_share"]


@dataclass(frozen=True)
class EndgamePosition:
    """The state `before` steps before the end of the playout with `seed`, reached after
    `step` steps."""

    seed: int
    before: int
    step: int
    state: State


def endgame_positions(
    game: Game, playouts: int, befores: Sequence[int], *, seed: int = 0
) -> list[EndgamePosition]:
    """The positions K steps before the end of `playouts` random playouts, for each K in
    `befores`, ordered by K, then seed."""
    states_by_seed = [
        (s, [step.state for step in random_steps(game, s)]) for s in range(seed, seed + playouts)
    ]
    return [
        EndgamePosition(s, before, len(states) - before, states[-before])
        for before in sorted(set(befores))
        for s, states in states_by_seed
        if 0 < before <= len(states)
    ]


def endgame_study(
    game: Game,
    positions: Sequence[EndgamePosition],
    *,
    roles: Iterable[str] | None = None,
    time_limit: float = 60.0,
    node_limit: int | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """One row per position and role: can the role force a win within `before` steps?

    Each search gets an equal share of the time still left for the searches still to do,
    and at most `node_limit` nodes (a budget that gives the same answers on any machine).
    """
    roles = list(game.roles if roles is None else roles)
    searches = [(position, role) for position in positions for role in roles]
    deadline = time.perf_counter() + time_limit
    rows = []
    for done, (position, role) in enumerate(searches):
        share = max(deadline - time.perf_counter(), 0.0) / (len(searches) - done)
        result = forced_win(
            game,
            role,
            start=position.state,
            max_depth=position.before,
            time_limit=share,
            node_limit=node_limit,
            progress=progress,
        )
        rows.append(
            {
                "seed": position.seed,
                "before": position.before,
                "step": position.step,
                "role": role,
                "status": str(result.status),
                "depth": result.depth,
                "searched_depth": result.searched_depth,
                "nodes": result.nodes,
                "seconds": round(result.seconds, 3),
            }
        )
    return pd.DataFrame(rows, columns=list(STUDY_COLUMNS)).astype(STUDY_COLUMNS)


def endgame_summary(study: pd.DataFrame) -> pd.DataFrame:
    """Per K and role: positions, how many are found / none / unknown, and the share of
    positions from which the role can force a win (found / positions)."""
    roles = pd.Categorical(study["role"], categories=study["role"].unique())
    counts = pd.crosstab([study["before"], roles], study["status"]).rename_axis(["before", "role"])
    for status in Status:
        if str(status) not in counts:
            counts[str(status)] = 0
    summary = counts[[str(status) for status in Status]].copy()
    summary.insert(0, "positions", summary.sum(axis=1))
    summary["found_share"] = (summary["found"] / summary["positions"]).round(3)
    summary.columns.name = None
    return summary[SUMMARY_COLUMNS]
