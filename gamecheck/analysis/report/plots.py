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


def outcome_shares(game: str, roles: tuple[str, ...], outcomes: pd.DataFrame) -> Figure:
    """The outcomes proved reachable (and any other observed) with their share of the random
    and of the UCT playouts, 0 where never observed (`observed_outcomes` of tables.py)."""
    figure, axes = _figure(SIZE)
    labels = [" ".join(map(str, row)) for row in outcomes[list(roles)].itertuples(index=False)]
    plays = [column for column in outcomes.columns if column.startswith("share, ")]
    width = 0.8 / max(len(plays), 1)
    for number, column in enumerate(plays):
        positions = np.arange(len(labels)) + number * width
        axes.bar(positions, outcomes[column], width, label=column.removeprefix("share, "))
    axes.set_xticks(np.arange(len(labels)) + width * (len(plays) - 1) / 2, labels)
    axes.set_title(f"{game}: outcomes proved reachable, and how often play ends in each")
    axes.set_xlabel(f"goal values ({' '.join(roles)})")
    axes.set_ylabel("share of playouts")
    axes.tick_params(axis="x", labelrotation=30 if len(labels) > 4 else 0)
    axes.legend(title="play")
    return figure


def win_shares(game: str, rows: pd.DataFrame) -> Figure:
    """Per role and play, the share of playouts won with its 95% interval (`balance_rows`)."""
    figure, axes = _figure(SIZE)
    roles = list(dict.fromkeys(rows["role"]))
    plays = list(dict.fromkeys(rows["play"]))
    width = 0.8 / len(plays)
    for number, play in enumerate(plays):
        part = rows[rows["play"] == play].set_index("role").loc[roles]
        errors = np.clip(
            [part["win share"] - part["95% low"], part["95% high"] - part["win share"]], 0, 1
        )
        positions = np.arange(len(roles)) + number * width
        axes.bar(positions, part["win share"], width, yerr=errors, capsize=3, label=play)
    axes.set_xticks(np.arange(len(roles)) + width * (len(plays) - 1) / 2, roles)
    axes.set_ylim(0, 1)
    axes.set_title(f"{game}: who wins, with 95% intervals")
    axes.set_xlabel("role")
    axes.set_ylabel("share of playouts won (goal 100)")
    axes.legend(title="play")
    return figure


def opening_heat_map(game: str, roles: tuple[str, ...], rows: pd.DataFrame) -> Figure:
    """Openings x roles, coloured by the share of playouts after the opening that the role
    wins (`opening_rows` of one play), the share written in each cell."""
    shares = rows[[f"{role} wins" for role in roles]].to_numpy(dtype=float)
    height = 1.2 + 0.28 * len(rows)
    figure, axes = _figure((max(SIZE[0], 1.6 + 1.1 * len(roles)), height))
    image = axes.imshow(shares, cmap="viridis", vmin=0, vmax=1, aspect="auto")
    axes.set_xticks(range(len(roles)), roles)
    axes.set_yticks(range(len(rows)), rows["opening"])
    for (y, x), share in np.ndenumerate(shares):
        colour = "white" if share < 0.5 else "black"
        axes.text(x, y, f"{share:.0%}", ha="center", va="center", color=colour, fontsize=8)
    axes.set_title(f"{game}: share of playouts won after each opening")
    axes.set_xlabel("role")
    axes.set_ylabel("opening")
    figure.colorbar(image, ax=axes, label="share won")
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
