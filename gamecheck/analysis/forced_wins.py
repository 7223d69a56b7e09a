"""The forced-win question as the command line, the API and the reports ask it.

For a role, its team is found first (analysis/teams.py: roles with equal goals in every
reachable terminal state, proved) unless a team is given; the team's roles choose together
and every other role opposes them. Then:

- with no opponent (one role, or a team of every role) a forced win is a winning line:
  verify's line search on the ground rules (analysis/winning_line.py);
- otherwise the AND/OR search on the move generator (solvers/forced_win/search.py), or SAT on
  the ground rules (solvers/forced_win/sat.py) when asked.

Both start at a depth below which no win is possible: from a reachable state, the least depth
of a won state by the rules' counter (analysis/win_bounds.py); from any state, the shortest
winning line when every role cooperates (no line at all: `none`, proved). Finding these takes
the rules' invariants (seconds), so the search first gets a few nodes without them: a
question it settles in them stays quick.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

from gamecheck.analysis.loading import Subject, load_game, load_rule_sheet
from gamecheck.analysis.teams import Teams, find_teams
from gamecheck.analysis.win_bounds import GroundRules, ground_rules
from gamecheck.analysis.winning_line import LineSearch, winning_line
from gamecheck.budget import Budget, OutOfBudget
from gamecheck.errors import GamecheckError
from gamecheck.models.base import State
from gamecheck.solvers.forced_win.sat import forced_win_sat
from gamecheck.solvers.forced_win.search import ForcedWin, Status, depth_bound, forced_win
from gamecheck.solvers.forced_win.sides import Sides, make_sides
from gamecheck.solvers.ground.grounder import ground

METHODS = ("search", "sat")
TEAM_SHARE = 0.1
RULES_SHARE = 0.2
"""Shares of the time left for finding the teams, and the ground rules' invariants."""
QUICK_NODES = 10_000
"""Search nodes tried before the rules' depth bounds are looked for."""
LINE_SHARE = 0.2
"""The share of the time left for the shortest cooperative line."""
LINE_RULES_SHARE = 0.8
"""Without opponents the answer is a line on the ground rules: they may take most of it."""


def solve_forced_win(
    subject: Subject,
    role: str | None = None,
    *,
    team: Sequence[str] | None = None,
    start: State | None = None,
    reachable: bool | None = None,
    max_depth: int | None = None,
    budget: Budget | None = None,
    node_limit: int | None = None,
    method: str = "search",
    progress: bool = False,
    teams: Teams | None = None,
    rules: GroundRules | None = None,
) -> ForcedWin:
    """Whether `role` (with its team) or the given `team` can force goal 100 for all its
    roles from `start` (default: the initial state) within `max_depth` steps (default: the
    game's step bound), and in how few. `reachable` (default: when no start is given) says
    the start is reachable, so the rules' depth bound applies. `teams` and `rules` may be
    passed when they are known already (an endgame study finds them once)."""
    budget = budget or Budget()
    clock = time.monotonic()
    game = load_game(subject)
    sides, source = _sides(game, role, team, teams, budget)
    asked = {"role": role or sides.team_roles[0], "team_source": source}
    if reachable is None:
        reachable = start is None
    state = game.initial_state() if start is None else start
    if method == "sat":
        system = ground(load_rule_sheet(game).rules, game.name, budget=budget)
        result = forced_win_sat(
            game, sides.team_roles, system, start=state, max_depth=max_depth, budget=budget
        )
        return replace(result, **asked, seconds=time.monotonic() - clock)
    if method != "search":
        raise GamecheckError(f"unknown method {method!r}: {' or '.join(METHODS)}")
    search = {
        "start": state,
        "max_depth": max_depth,
        "budget": budget,
        "progress": progress,
    }
    lower = 0
    if rules is None and sides.opponents:
        quick_limit = QUICK_NODES if node_limit is None else min(node_limit, QUICK_NODES)
        quick = forced_win(game, sides.team_roles, **search, node_limit=quick_limit)
        if quick.status is not Status.UNKNOWN or quick_limit == node_limit or budget.expired:
            return replace(quick, **asked, seconds=time.monotonic() - clock)
        lower = quick.searched_depth + 1
    if rules is None and (reachable or not sides.opponents):
        share = RULES_SHARE if sides.opponents else LINE_RULES_SHARE
        rules = ground_rules(game, budget.part(share=share))
    if rules is not None and reachable:
        lower = max(lower, rules.lower_bound(sides.team_roles, state, budget))
    if rules is not None and sides.opponents:
        lower = _cooperative_bound(rules, sides, state, reachable, lower, max_depth, budget)
        if lower is None:  # not even a line where every role helps: no forced win
            bound = depth_bound(game, max_depth)
            return ForcedWin(
                game=game.name,
                team=sides.team_roles,
                max_depth=bound,
                status=Status.NONE,
                depth=None,
                searched_depth=bound,
                first_action=None,
                strategy_size=None,
                nodes=0,
                seconds=time.monotonic() - clock,
                method="line",
                **asked,
            )
    if not sides.opponents and rules is not None:
        result = winning_line(
            rules,
            sides,
            start=state,
            reachable=reachable,
            max_depth=max_depth,
            lower_bound=lower,
            budget=budget,
        )
    else:
        result = forced_win(
            game, sides.team_roles, **search, node_limit=node_limit, lower_bound=lower
        )
    return replace(result, **asked, seconds=time.monotonic() - clock)


def _cooperative_bound(
    rules: GroundRules, sides: Sides, state: State, reachable: bool, lower: int, max_depth, budget
) -> int | None:
    """The depth of the shortest line won by the team when every role helps (at least
    `lower`), or as deep as no such line is proved within a share of the budget; None when
    there is none within the depth bound."""
    last = depth_bound(rules.game, max_depth)
    part = budget.part(share=LINE_SHARE)
    with LineSearch(rules, sides.team_roles, state, reachable=reachable, budget=part) as search:
        try:
            line = search.shortest(lower, last)
        except OutOfBudget:
            return max(lower, search.proved + 1)
    if line is not None:
        return line.depth
    return None if search.proved >= last else max(lower, search.proved + 1)


def _sides(game, role, team, teams, budget: Budget) -> tuple[Sides, str]:
    """The team and how it was chosen: `given`, `proved` (the role's team) or `alone`."""
    if team is not None:
        return make_sides(game, team), "given"
    if role is None:
        raise GamecheckError("a forced-win question needs a role or a team")
    game.role_index(role)
    teams = teams or find_teams(game, budget.part(share=TEAM_SHARE))
    members = teams.team_of(role)
    return make_sides(game, members), "proved" if len(members) > 1 else "alone"
