"""Who is favoured, and by how much: per role, the share of playouts it wins (goal 100) with
a 95% confidence interval, and its mean goal.

The interval is Wilson's score interval, which stays inside 0..1 and is sensible for shares
near 0 or 1 and for few playouts, unlike the normal approximation.

>>> [round(x, 3) for x in wilson_interval(8, 10)]
[0.49, 0.943]
>>> wilson_interval(0, 0)
(0.0, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import pandas as pd

Z_95 = 1.959963984540054
"""The standard normal quantile of 0.975: a two-sided 95% interval."""
WIN = 100


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a binomial share (0..1 when there are no trials)."""
    if trials == 0:
        return 0.0, 1.0
    share = successes / trials
    spread = z * z / trials
    centre = (share + spread / 2) / (1 + spread)
    half = z * math.sqrt(share * (1 - share) / trials + spread / (4 * trials)) / (1 + spread)
    return max(0.0, centre - half), min(1.0, centre + half)


def win_rates(roles: Sequence[str], outcomes: Iterable[Sequence[int]]) -> pd.DataFrame:
    """One row per role: playouts, wins, win share with its 95% interval, mean goal."""
    outcomes = [tuple(goals) for goals in outcomes]
    rows = []
    for index, role in enumerate(roles):
        wins = sum(goals[index] == WIN for goals in outcomes)
        low, high = wilson_interval(wins, len(outcomes))
        mean = sum(goals[index] for goals in outcomes) / len(outcomes) if outcomes else math.nan
        rows.append(
            {
                "role": role,
                "playouts": len(outcomes),
                "wins": wins,
                "win share": wins / len(outcomes) if outcomes else math.nan,
                "95% low": low,
                "95% high": high,
                "mean goal": mean,
            }
        )
    return pd.DataFrame(rows)


def share_text(row) -> str:
    """A win share with its interval, e.g. `62% (48-74%)`."""
    low, high = round(100 * row["95% low"]), round(100 * row["95% high"])
    return f"{row['win share']:.0%} ({low}-{high}%)"
