"""Random playouts and their statistics: game length, branching factor, outcomes.

A playout is determined by its seed: every step each role picks uniformly among its legal
actions (in the order the game lists them) with `random.Random(seed)`, a role with a single
legal action using no randomness.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import pandas as pd

from gamecheck.errors import GamecheckError
from gamecheck.models.base import Action, Game, Joint, State

MAX_STEPS = 100_000
"""A playout that has not ended after this many steps stops with an error (rule sheets of
games that never end)."""
LENGTH_QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)


@dataclass(frozen=True)
class Step:
    """One step of a playout: the state, every role's legal actions, the joint action chosen."""

    number: int
    state: State
    legal: tuple[Sequence[Action], ...]
    joint: Joint
    after: State


@dataclass(frozen=True)
class Playout:
    """What stats need of a playout: its seed, length, goals and branching at every step."""

    seed: int
    length: int
    goals: tuple[int, ...]
    branching: tuple[int, ...]
    """The number of legal joint actions at each step."""


@dataclass(frozen=True)
class PlayoutStats:
    """The statistics of a set of playouts, as tables ready to print or save."""

    game: str
    roles: tuple[str, ...]
    playouts: pd.DataFrame
    """One row per playout: seed, length, outcome, mean/min/max branching."""
    lengths: pd.Series
    """Game length in steps: count, mean, std, min, quantiles, max."""
    branching: pd.Series
    """Legal joint actions per step over all steps of all playouts: steps, mean, min, max."""
    outcomes: pd.DataFrame
    """One row per goal vector (role order): count and frequency, most frequent first."""


def random_steps(game: Game, seed: int) -> Iterator[Step]:
    """The steps of the random playout of `game` with `seed`, until a terminal state."""
    rng = random.Random(seed)
    state = game.initial_state()
    number = 0
    while not game.is_terminal(state):
        if number == MAX_STEPS:
            raise GamecheckError(f"{game.name} reached no terminal state in {MAX_STEPS} steps")
        legal = tuple(game.legal(state, role) for role in game.roles)
        joint = tuple(actions[0] if len(actions) == 1 else rng.choice(actions) for actions in legal)
        number += 1
        after = game.apply(state, joint)
        yield Step(number, state, legal, joint, after)
        state = after


def final_state(game: Game, steps: Sequence[Step]) -> State:
    """The state a list of steps ends in (the initial state if there are none)."""
    return steps[-1].after if steps else game.initial_state()


def random_playout(game: Game, seed: int) -> Playout:
    """The random playout with `seed`, summarised."""
    branching = []
    state = game.initial_state()
    for step in random_steps(game, seed):
        branching.append(math.prod(len(actions) for actions in step.legal))
        state = step.after
    return Playout(seed, len(branching), game.goals(state), tuple(branching))


def outcome_text(goals: Iterable[int]) -> str:
    """A goal vector written as its values separated by spaces, e.g. `100 0 0`."""
    return " ".join(map(str, goals))


PLAYOUT_COLUMNS = {
    # column: dtype (Int64 allows the missing branching of a playout that starts terminal)
    "seed": "int64",
    "length": "int64",
    "outcome": "object",
    "mean_branching": "float64",
    "min_branching": "Int64",
    "max_branching": "Int64",
}


def playout_table(playouts: Iterable[Playout]) -> pd.DataFrame:
    """One row per playout: seed, length, outcome, mean/min/max branching."""
    rows = [
        {
            "seed": playout.seed,
            "length": playout.length,
            "outcome": outcome_text(playout.goals),
            "mean_branching": sum(playout.branching) / playout.length if playout.length else None,
            "min_branching": min(playout.branching, default=None),
            "max_branching": max(playout.branching, default=None),
        }
        for playout in playouts
    ]
    return pd.DataFrame(rows, columns=list(PLAYOUT_COLUMNS)).astype(PLAYOUT_COLUMNS)


def length_summary(table: pd.DataFrame) -> pd.Series:
    """Count, mean, std, min, quantiles and max of the game lengths."""
    return table["length"].describe(percentiles=list(LENGTH_QUANTILES))


def branching_summary(table: pd.DataFrame) -> pd.Series:
    """The branching factor over all steps: number of steps, mean, min, max."""
    steps = int(table["length"].sum())
    total = (table["mean_branching"].fillna(0) * table["length"]).sum()
    return pd.Series(
        {
            "steps": steps,
            "mean": total / steps if steps else math.nan,
            "min": table["min_branching"].min(),
            "max": table["max_branching"].max(),
        },
        name="branching",
    )


def outcome_table(table: pd.DataFrame) -> pd.DataFrame:
    """Each outcome (goal vector) with its count and frequency, most frequent first."""
    counts = table["outcome"].value_counts()
    outcomes = pd.DataFrame({"count": counts, "frequency": counts / len(table)})
    outcomes.index.name = "outcome"
    return outcomes.sort_values(["count", "outcome"], ascending=[False, True])


def playout_stats(game: Game, seeds: Iterable[int]) -> PlayoutStats:
    """Play one random playout per seed and summarise them."""
    return summarise_playouts(game, (random_playout(game, seed) for seed in seeds))


def summarise_playouts(game: Game, playouts: Iterable[Playout]) -> PlayoutStats:
    """The statistics of playouts already played."""
    table = playout_table(playouts)
    if table.empty:
        raise GamecheckError("statistics need at least one playout")
    return PlayoutStats(
        game.name,
        tuple(game.roles),
        table,
        length_summary(table),
        branching_summary(table),
        outcome_table(table),
    )
