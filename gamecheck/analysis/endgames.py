"""Endgame studies: from positions K steps before the end of random playouts, which roles
(or teams) can force a win within K steps?

The positions come from the seeded random playouts of analysis/playouts.py (seeds S, S+1, ...);
a playout shorter than K steps gives no position for K. Each role is asked with its team
(analysis/teams.py: roles with equal goals in every reachable terminal state choose together),
each team once: its row names the team's roles, joined by commas. Each (position, team) is
settled by analysis/forced_wins.py as found, none or unknown, starting at the depth below
which the rules allow no win. The time budget is shared out as the study goes, smallest K
first, so the small K are settled and the large ones get what time is left; what the time
left then allows, the searches cut short by their share are asked again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

import pandas as pd

from gamecheck.analysis.forced_wins import RULES_SHARE, TEAM_SHARE, solve_forced_win
from gamecheck.analysis.playouts import STUCK, RandomPlayout
from gamecheck.analysis.teams import find_teams
from gamecheck.analysis.win_bounds import ground_rules
from gamecheck.budget import Budget
from gamecheck.models.base import Game, State
from gamecheck.schema import stamped
from gamecheck.solvers.forced_win import TABLE_MEGABYTES
from gamecheck.solvers.forced_win.search import ForcedWin, Status
from gamecheck.solvers.forced_win.sides import StuckState

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
class EndgameStudy:
    """The answers of a study: one row per position and role or team (STUDY_COLUMNS)."""

    game: str
    rows: pd.DataFrame

    @property
    def settled_depth(self) -> int | None:
        return settled_depth(self.rows)

    def to_json(self) -> dict:
        rows = self.rows.astype(object).where(self.rows.notna(), None)
        return stamped(
            "endgame_study",
            {
                "game": self.game,
                "settled_depth": self.settled_depth,
                "rows": rows.to_dict(orient="records"),
            },
        )


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
    `befores`, ordered by K, then seed. StuckState if a playout reaches a non-terminal state
    where a role has no legal action."""
    states_by_seed = [(s, _playout_states(game, s)) for s in range(seed, seed + playouts)]
    return [
        EndgamePosition(s, before, len(states) - before, states[-before])
        for before in sorted(set(befores))
        for s, states in states_by_seed
        if 0 < before <= len(states)
    ]


def _playout_states(game: Game, seed: int) -> list[State]:
    """The states in which the random playout with `seed` takes a step; StuckState if it
    reaches a non-terminal state where a role has no legal action."""
    playout = RandomPlayout(game, seed)
    states = [step.state for step in playout]
    if playout.ending.reason == STUCK:
        stuck = next(role for role in game.roles if not game.legal(playout.final, role))
        raise StuckState(game, playout.final, stuck)
    return states


def endgame_study(
    game: Game,
    positions: Sequence[EndgamePosition],
    *,
    roles: Iterable[str] | None = None,
    team: Sequence[str] | None = None,
    budget: Budget | None = None,
    node_limit: int | None = None,
    progress: bool = False,
    table_megabytes: float | None = TABLE_MEGABYTES,
) -> EndgameStudy:
    """One row per position and team (each asked role's team, once; or the given `team`):
    can it force a win within `before` steps?

    Each search gets an equal share of the time still left for the searches still to do
    (and once more if it ended before its first node, the share taken by what is made
    once for all: ground rules, tables), and at most `node_limit` nodes (a budget that
    gives the same answers on any machine), on tables of `table_megabytes`. The searches
    whose time share ran out first are then asked again, in turn, each with an equal share
    of the time left for them: the cheap positions leave most of their shares unused, and a
    hard one early in the study got a share cut for the many still to do. A row gives the
    last search's nodes and the seconds of both.
    """
    budget = budget or Budget()
    if team is not None:
        groups = [tuple(team)]
    else:
        teams = find_teams(game, budget.part(share=TEAM_SHARE))
        asked = list(game.roles if roles is None else roles)
        groups = list(dict.fromkeys(teams.team_of(role) for role in asked))
    rules = _Once(lambda: ground_rules(game, budget.part(share=RULES_SHARE)))

    def ask(position: EndgamePosition, team: tuple[str, ...], left: int) -> ForcedWin:
        """The search of one position and team, with a share 1/`left` of the time left."""
        for _ in range(2):
            result = solve_forced_win(
                game,
                team=team,
                start=position.state,
                reachable=True,
                max_depth=position.before,
                budget=budget.part(share=1 / left),
                node_limit=node_limit,
                progress=progress,
                rules=rules,
                table_megabytes=table_megabytes,
            )
            if result.status is not Status.UNKNOWN or result.nodes or budget.expired:
                break
            # what is made once for all (ground rules, tables) took its share: once more
        return result

    searches = [(position, team) for position in positions for team in groups]
    answers = [ask(*search, len(searches) - done) for done, search in enumerate(searches)]
    cut = [i for i, answer in enumerate(answers) if _time_ran_out(answer, node_limit)]
    for done, i in enumerate(cut):
        if budget.expired:
            break
        again = ask(*searches[i], len(cut) - done)
        answers[i] = replace(again, seconds=answers[i].seconds + again.seconds)
    rows = [
        {
            "seed": position.seed,
            "before": position.before,
            "step": position.step,
            "role": ",".join(team),
            "status": str(answer.status),
            "depth": answer.depth,
            "searched_depth": answer.searched_depth,
            "nodes": answer.nodes,
            "seconds": round(answer.seconds, 3),
        }
        for (position, team), answer in zip(searches, answers, strict=True)
    ]
    frame = pd.DataFrame(rows, columns=list(STUDY_COLUMNS)).astype(STUDY_COLUMNS)
    return EndgameStudy(game.name, frame)


def _time_ran_out(answer: ForcedWin, node_limit: int | None) -> bool:
    """Whether an unknown answer stopped on its time share, not on the node limit."""
    return answer.status is Status.UNKNOWN and (node_limit is None or answer.nodes < node_limit)


class _Once:
    """A value made the first time it is asked for."""

    def __init__(self, make: Callable[[], object]):
        self.make = make
        self.made = False
        self.value = None

    def __call__(self):
        if not self.made:
            self.value, self.made = self.make(), True
        return self.value


def endgame_summary(study: pd.DataFrame) -> pd.DataFrame:
    """Per K and role (or team): positions, how many are found / none / unknown, and the
    share of positions from which it can force a win (found / positions)."""
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


def settled_depth(study: pd.DataFrame) -> int | None:
    """The deepest K up to which the study settled every position (found or none) for every
    role or team: every K up to it is settled; None if the smallest K is not."""
    settled = None
    for before, rows in study.groupby("before", sort=True):
        if (rows["status"] == str(Status.UNKNOWN)).any():
            break
        settled = int(before)
    return settled
