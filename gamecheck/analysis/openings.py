"""Which first moves matter: for every opening (legal joint action in the initial state), the
outcomes of playouts that begin with it, under uniform random play or under UCT play.

The opening is named by the actions of the roles that have a choice (in a game where one
role moves at a time, that role's action). Seeds are the playout numbers from `seed` on, the
same for every opening, so the table is the same in every run.
"""

from __future__ import annotations

import random

import pandas as pd

from gamecheck.analysis.mcts import UctPlayer, random_finish
from gamecheck.budget import Budget
from gamecheck.models.base import Game, Joint


def opening_names(game: Game) -> dict[Joint, str]:
    """Every opening, by the text of the actions of the roles with a choice."""
    state = game.initial_state()
    legal = [game.legal(state, role) for role in game.roles]
    choosing = [i for i, actions in enumerate(legal) if len(actions) > 1] or range(len(legal))
    return {
        joint: " ".join(f"{game.roles[i]} {game.action_text(joint[i])}" for i in choosing)
        if len(choosing) > 1
        else game.action_text(joint[choosing[0]])
        for joint in game.joint_actions(state)
    }


def opening_table(
    game: Game,
    *,
    playouts: int,
    seed: int = 0,
    iterations: int = 0,
    budget: Budget | None = None,
) -> pd.DataFrame:
    """One row per opening and playout: the opening, the seed and every role's goal.
    `iterations` > 0 plays UCT with that many iterations per step after the opening,
    otherwise uniform random moves. OutOfBudget if the budget ends first."""
    start = game.initial_state()
    rows = []
    for joint, name in opening_names(game).items():
        after = game.apply(start, joint)
        for number in range(seed, seed + playouts):
            if budget is not None:
                budget.check()
            if iterations:
                player = UctPlayer(game, iterations=iterations, seed=number)
                end = player.play_from(after, budget).final_state
            else:
                end = random_finish(game, after, random.Random(number))
            goals = dict(zip(game.roles, game.goals(end), strict=True))
            rows.append({"opening": name, "seed": number, **goals})
    return pd.DataFrame(rows, columns=["opening", "seed", *game.roles])


def opening_summary(table: pd.DataFrame, roles: tuple[str, ...]) -> pd.DataFrame:
    """Per opening: playouts, and per role the share of playouts it won (goal 100) and
    its mean goal; the openings in the order they were played."""
    grouped = table.groupby("opening", sort=False)
    summary = pd.DataFrame({"playouts": grouped.size()})
    for role in roles:
        summary[f"{role} wins"] = grouped[role].apply(lambda goals: (goals == 100).mean())
        summary[f"{role} mean goal"] = grouped[role].mean()
    return summary
