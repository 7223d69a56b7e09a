"""The figures of a report: each function returns a matplotlib Figure with a title and
labelled axes; `save` writes it as a PNG without metadata that would change between runs.

Figures are made without pyplot, so no GUI backend and no global state is involved: a
Figure's PNG is drawn by matplotlib's Agg renderer.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

SIZE = (7.0, 4.0)
BACKEND_COLOURS = {"cnf": "tab:blue", "cpsat": "tab:orange"}


def length_histogram(game: str, lengths: pd.Series) -> Figure:
    """How many random playouts lasted each number of steps."""
    figure, axes = _figure(SIZE)
    low, high = int(lengths.min()), int(lengths.max())
    axes.hist(lengths, bins=np.arange(low, high + 2) - 0.5, color="tab:blue")
    axes.set_title(f"{game}: length of {len(lengths)} random playouts")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel("game length (steps)")
    axes.set_ylabel("playouts")
    return figure


def branching_histogram(game: str, counts: pd.DataFrame) -> Figure:
    """How many steps had each number of legal joint actions (`joint actions`, `steps`)."""
    figure, axes = _figure(SIZE)
    values, steps = counts["joint actions"], counts["steps"]
    if values.max() > 50 * max(values.min(), 1):
        edges = np.geomspace(max(values.min(), 1) * 0.9, values.max() * 1.1, 40)
        axes.set_xscale("log")
    else:
        edges = np.arange(values.min(), values.max() + 2) - 0.5
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.hist(values, bins=edges, weights=steps, color="tab:green")
    axes.set_title(f"{game}: branching factor over {int(steps.sum())} steps of random playouts")
    axes.set_xlabel("legal joint actions in the state")
    axes.set_ylabel("steps")
    return figure


def outcome_bars(game: str, roles: tuple[str, ...], outcomes: pd.DataFrame) -> Figure:
    """The share of random playouts ending with each goal vector (`outcome`, `frequency`)."""
    figure, axes = _figure(SIZE)
    axes.bar(outcomes["outcome"].astype(str), outcomes["frequency"], color="tab:purple")
    axes.set_title(f"{game}: outcomes of random playouts")
    axes.set_xlabel(f"goal values ({' '.join(roles)})")
    axes.set_ylabel("share of playouts")
    axes.tick_params(axis="x", labelrotation=30 if len(outcomes) > 4 else 0)
    return figure


def endgame_shares(game: str, shares: pd.DataFrame) -> Figure:
    """Per role, the share of positions K steps before the end of a random playout from
    which it can force a win within K steps (`K`, `role`, `share found`)."""
    figure, axes = _figure(SIZE)
    for role, rows in shares.groupby("role", sort=False, observed=True):
        axes.plot(rows["K"], rows["share found"], marker="o", label=role)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_ylim(-0.05, 1.05)
    axes.set_title(f"{game}: forced wins K steps before the end of random playouts")
    axes.set_xlabel("K (steps before the end)")
    axes.set_ylabel("share of positions won by force")
    axes.legend(title="role")
    return figure


def solver_times(game: str, figures: pd.DataFrame) -> Figure:
    """Seconds per question per backend (`backend`, `question`, `seconds`), as grouped bars."""
    figure, axes = _figure((SIZE[0], 1.5 + 0.35 * figures["question"].nunique()))
    questions = list(dict.fromkeys(figures["question"]))
    backends = list(dict.fromkeys(figures["backend"]))
    height = 0.8 / max(len(backends), 1)
    for number, backend in enumerate(backends):
        rows = figures[figures["backend"] == backend].set_index("question")
        seconds = [max(float(rows["seconds"].get(q, 0.0)), 0.01) for q in questions]
        positions = np.arange(len(questions)) + number * height
        axes.barh(positions, seconds, height, label=backend, color=BACKEND_COLOURS.get(backend))
    axes.set_yticks(np.arange(len(questions)) + height * (len(backends) - 1) / 2, questions)
    axes.invert_yaxis()
    axes.set_xscale("log")
    axes.set_title(f"{game}: verify time per question")
    axes.set_xlabel("seconds (log scale; at least 0.01)")
    axes.set_ylabel("question")
    axes.legend(title="backend")
    return figure


def save(figure: Figure, path: Path) -> None:
    """Write the figure as a PNG."""
    figure.savefig(path, dpi=100, metadata={"Software": None})


def _figure(size: tuple[float, float]):
    figure = Figure(figsize=size, layout="tight")
    return figure, figure.subplots()
