"""Random playouts and their statistics: game length, branching factor, outcomes.

A playout is determined by its seed: every step each role picks uniformly among its legal
actions (in the order the game lists them) with `random.Random(seed)`, a role with a single
legal action using no randomness. It ends in a terminal state, or shows the rules broken (a
role without a legal action, undefined goals), or stops at a step cap or the budget.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gamecheck.budget import Budget
from gamecheck.errors import GamecheckError
from gamecheck.models.base import Action, Game, Joint, State
from gamecheck.schema import stamped

if TYPE_CHECKING:
    import pandas as pd

MAX_STEPS = 10_000
"""A playout still going after this many steps stops there, reported as such: a GDL game
is finite, but a rule sheet need not be (the longest built-in game has 192 steps)."""
LENGTH_QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)
TERMINAL, STUCK, NO_GOALS, TOO_LONG, STOPPED = (
    "terminal",
    "stuck",
    "goals undefined",
    "too long",
    "stopped",
)


@dataclass(frozen=True)
class Ending:
    """Why a playout ended: a terminal state (the only ending the rules allow), a role
    without a legal action, a terminal state whose goals are not one value per role, the
    step cap, or the budget (time limit or interruption)."""

    reason: str
    detail: str = ""
    """What went wrong, one sentence (empty for a terminal state and a stopped playout)."""

    @property
    def defective(self) -> bool:
        """Whether the ending shows the rules broken (a stuck role, undefined goals)."""
        return self.reason in (STUCK, NO_GOALS)

    def __str__(self) -> str:
        return f"{self.reason}: {self.detail}" if self.detail else self.reason


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
    goals: tuple[int, ...] | None
    """The goal values in role order, or None unless the playout ended terminal."""
    branching: tuple[int, ...]
    """The number of legal joint actions at each step."""
    ending: Ending = Ending(TERMINAL)


@dataclass(frozen=True)
class PlayoutStats:
    """The statistics of a set of playouts, as tables ready to print or save."""

    game: str
    roles: tuple[str, ...]
    playouts: pd.DataFrame
    """One row per playout (see playout_table): seed, length, ending, one goal column per
    role, mean/min/max branching."""
    lengths: pd.Series
    """Game length in steps: count, mean, std, min, quantiles, max."""
    branching: pd.Series
    """Legal joint actions per step over all steps of all playouts: steps, mean, min, max."""
    outcomes: pd.DataFrame
    """One row per goal vector (role order, as text), or per way of ending other than a
    terminal state: count and frequency, most frequent first."""
    asked: int | None = None
    """How many playouts were asked for, if more than were played (time limit)."""
    problems: tuple[str, ...] = ()
    """Each distinct way a playout showed the rules broken or ran too long, one sentence."""

    def to_json(self) -> dict:
        """The figures as one stamped object (numbers as numbers; None where undefined)."""
        table = self.playouts
        endings = table["ending"].value_counts()
        return stamped(
            "playout_stats",
            {
                "game": self.game,
                "roles": list(self.roles),
                "playouts": len(table),
                "asked": self.asked if self.asked is not None else len(table),
                "seeds": [int(table["seed"].min()), int(table["seed"].max())],
                "lengths": {
                    "mean": _number(self.lengths["mean"]),
                    "std": _number(self.lengths["std"]),
                    "min": _number(self.lengths["min"]),
                    "max": _number(self.lengths["max"]),
                    "quantiles": {
                        str(q): _number(self.lengths[f"{q:.0%}"]) for q in LENGTH_QUANTILES
                    },
                },
                "branching": {key: _number(value) for key, value in self.branching.items()},
                "outcomes": outcome_counts(table, self.roles),
                "endings": {ending: int(endings.get(ending, 0)) for ending in ENDINGS},
                "problems": list(self.problems),
            },
        )


class RandomPlayout:
    """The random playout of `game` with `seed` from `start` (default the initial state):
    iterate over it once for its steps; then `ending` says why it stopped, `final` is the
    state it stopped in and `goals` its goal values (None unless it ended terminal). It
    stops at a terminal state, at a state where a role has no legal action, after
    `max_steps` steps, or when `budget` runs out."""

    def __init__(
        self,
        game: Game,
        seed: int,
        *,
        max_steps: int = MAX_STEPS,
        budget: Budget | None = None,
        start: State | None = None,
    ):
        self.game = game
        self.seed = seed
        self.max_steps = max_steps
        self.budget = budget or Budget()
        self.final: State = game.initial_state() if start is None else start
        self.length = 0
        self.ending: Ending | None = None
        self.goals: tuple[int, ...] | None = None

    def __iter__(self) -> Iterator[Step]:
        game, rng = self.game, random.Random(self.seed)
        state = self.final
        while not self._ended(state):
            legal = tuple(game.legal(state, role) for role in game.roles)
            stuck = [role for role, actions in zip(game.roles, legal, strict=True) if not actions]
            if stuck:
                self.ending = Ending(STUCK, self._stuck_text(stuck))
                return
            joint = tuple(
                actions[0] if len(actions) == 1 else rng.choice(actions) for actions in legal
            )
            after = game.apply(state, joint)
            self.length += 1
            yield Step(self.length, state, legal, joint, after)
            state = self.final = after

    def _ended(self, state: State) -> bool:
        """Whether the playout ends in `state` without a move (`ending` then says why)."""
        if self.game.is_terminal(state):
            try:
                self.goals = self.game.goals(state)
                self.ending = Ending(TERMINAL)
            except GamecheckError as error:
                self.ending = Ending(NO_GOALS, str(error))
        elif self.length >= self.max_steps:
            self.ending = Ending(TOO_LONG, f"no terminal state after {self.max_steps} steps")
        elif self.budget.expired:
            self.ending = Ending(STOPPED)
        return self.ending is not None

    def _stuck_text(self, roles: list[str]) -> str:
        who = " and ".join(roles)
        return (
            f"after {self.length} step{'' if self.length == 1 else 's'} the state is not "
            f"terminal but {who} {'has' if len(roles) == 1 else 'have'} no legal action"
        )


class PlayoutError(GamecheckError):
    """A playout that did not end in a terminal state with a goal value for every role."""


def random_steps(game: Game, seed: int, *, max_steps: int = MAX_STEPS) -> Iterator[Step]:
    """The steps of the random playout of `game` with `seed`, until a terminal state;
    PlayoutError (one sentence) if it ends any other way."""
    playout = RandomPlayout(game, seed, max_steps=max_steps)
    yield from playout
    if playout.ending.reason != TERMINAL:
        raise PlayoutError(f"{game.name}, random playout with seed {seed}: {playout.ending}")


def random_playout(
    game: Game,
    seed: int,
    *,
    max_steps: int = MAX_STEPS,
    budget: Budget | None = None,
    start: State | None = None,
) -> Playout:
    """The random playout with `seed` from `start` (default the initial state), summarised
    (however it ended)."""
    playout = RandomPlayout(game, seed, max_steps=max_steps, budget=budget, start=start)
    branching = tuple(math.prod(len(actions) for actions in step.legal) for step in playout)
    return Playout(seed, playout.length, playout.goals, branching, playout.ending)


def outcome_text(goals: Iterable[int]) -> str:
    """A goal vector written as its values separated by spaces, e.g. `100 0 0`."""
    return " ".join(map(str, goals))


ENDINGS = (TERMINAL, STUCK, NO_GOALS, TOO_LONG)
"""How a finished playout can end (a stopped one is left out of the statistics)."""


def goal_column(role: str) -> str:
    """The name of the column of a role's goal in the playout table: `goal red`."""
    return f"goal {role}"


def playout_table(playouts: Iterable[Playout], roles: Sequence[str]) -> pd.DataFrame:
    """One row per playout: seed, length, ending (`terminal`, `stuck`, `goals undefined`,
    `too long`), the goal of each role (`goal ROLE`, whole numbers, missing unless the
    playout ended terminal), mean/min/max branching (missing for a playout of no step)."""
    import pandas as pd

    columns = {
        "seed": "int64",
        "length": "int64",
        "ending": "object",
        **{goal_column(role): "Int64" for role in roles},
        "mean_branching": "float64",
        "min_branching": "Int64",
        "max_branching": "Int64",
    }
    rows = [
        {
            "seed": playout.seed,
            "length": playout.length,
            "ending": playout.ending.reason,
            **{
                goal_column(role): None if playout.goals is None else playout.goals[index]
                for index, role in enumerate(roles)
            },
            "mean_branching": sum(playout.branching) / playout.length if playout.length else None,
            "min_branching": min(playout.branching, default=None),
            "max_branching": max(playout.branching, default=None),
        }
        for playout in playouts
    ]
    return pd.DataFrame(rows, columns=list(columns)).astype(columns)


def outcome_keys(table: pd.DataFrame, roles: Sequence[str]) -> pd.Series:
    """Per playout, its outcome as text: the goal vector (`100 0 0`) or how it ended."""
    goals = table[[goal_column(role) for role in roles]].astype(object)
    vectors = goals.apply(lambda row: outcome_text(row.tolist()), axis=1)
    return vectors.where(table["ending"] == TERMINAL, table["ending"]).rename("outcome")


def outcome_counts(table: pd.DataFrame, roles: Sequence[str]) -> list[dict]:
    """Each goal vector (list of whole numbers; None for an ending other than terminal)
    and ending, with its count and frequency, most frequent first."""
    keys: dict[tuple, int] = {}
    for _, row in table.iterrows():
        if row["ending"] == TERMINAL:
            key = (tuple(int(row[goal_column(role)]) for role in roles), TERMINAL)
        else:
            key = (None, row["ending"])
        keys[key] = keys.get(key, 0) + 1
    ranked = sorted(keys.items(), key=lambda item: (-item[1], str(item[0])))
    return [
        {
            "goals": None if goals is None else list(goals),
            "ending": ending,
            "count": count,
            "frequency": count / len(table),
        }
        for (goals, ending), count in ranked
    ]


def _number(value) -> int | float | None:
    """A figure for JSON: a whole number as int, NaN or NA (no value) as None."""
    import pandas as pd

    if pd.isna(value):
        return None
    value = float(value)
    return int(value) if value.is_integer() else value


def length_summary(table: pd.DataFrame) -> pd.Series:
    """Count, mean, std, min, quantiles and max of the game lengths."""
    return table["length"].describe(percentiles=list(LENGTH_QUANTILES))


def branching_summary(table: pd.DataFrame) -> pd.Series:
    """The branching factor over all steps: number of steps, mean, min, max."""
    import pandas as pd

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


def outcome_table(table: pd.DataFrame, roles: Sequence[str]) -> pd.DataFrame:
    """Each outcome (goal vector as text, or how a playout ended otherwise) with its count
    and frequency, most frequent first."""
    import pandas as pd

    counts = outcome_keys(table, roles).value_counts()
    outcomes = pd.DataFrame({"count": counts, "frequency": counts / len(table)})
    outcomes.index.name = "outcome"
    return outcomes.sort_values(["count", "outcome"], ascending=[False, True])


def playout_stats(
    game: Game, seeds: Iterable[int], *, budget: Budget | None = None
) -> PlayoutStats:
    """Play one random playout per seed and summarise them; when `budget` runs out, the
    playouts finished by then (GamecheckError if there is none)."""
    return summarise_playouts(game, finished_playouts(game, seeds, budget or Budget()))


def finished_playouts(
    game: Game,
    seeds: Iterable[int],
    budget: Budget,
    *,
    max_steps: int = MAX_STEPS,
    start: State | None = None,
) -> Iterator[Playout]:
    """The random playouts with `seeds` from `start` (default the initial state), one by
    one, until `budget` runs out (the playout it cut short left out)."""
    for seed in seeds:
        playout = random_playout(game, seed, max_steps=max_steps, budget=budget, start=start)
        if playout.ending.reason == STOPPED:
            return
        yield playout


def summarise_playouts(game: Game, playouts: Iterable[Playout]) -> PlayoutStats:
    """The statistics of playouts already played."""
    playouts = list(playouts)
    table = playout_table(playouts, game.roles)
    if table.empty:
        raise GamecheckError("statistics need at least one finished playout")
    problems = dict.fromkeys(str(p.ending) for p in playouts if p.ending.reason != TERMINAL)
    return PlayoutStats(
        game.name,
        tuple(game.roles),
        table,
        length_summary(table),
        branching_summary(table),
        outcome_table(table, game.roles),
        problems=tuple(problems),
    )
