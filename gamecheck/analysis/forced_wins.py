"""The forced-win question as the command line, the API and the reports ask it.

For a role, its team is found first (analysis/teams.py: roles with equal goals in every
reachable terminal state, proved) unless a team is given; the team's roles choose together
and every other role opposes them. Then:

- with no opponent (one role, or a team of every role) a forced win is a winning line:
  verify's line search on the ground rules (analysis/winning_line.py);
- for tictactoe3d by method `lines`, a threat-space proof at the level of marks
  (analysis/forced_win_lines.py), whose depth is a strategy's, not proved the fewest;
- otherwise, where every reachable state can be listed, retrograde analysis of the list
  (solvers/forced_win/retrograde.py: exact at every depth); else the AND/OR search on the
  move generator (solvers/forced_win/search.py); or SAT on the ground rules
  (solvers/forced_win/sat.py) when asked.

Both start at a depth below which no win is possible: from a reachable state, the least depth
of a won state by the rules' counter (analysis/win_bounds.py); from any state, the shortest
winning line when every role cooperates (no line at all: `none`, proved). Finding these takes
the rules' invariants (seconds), so the search first gets a few nodes without them: a
question it settles in them stays quick, and the depth it proved is where the next starts.
Where the game fixes the number of steps every line takes (`Game.steps_to_end`: cubicup),
the search alone answers: it starts at that depth, and a loss it proves there holds at all.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from gamecheck.analysis.forced_win_lines import METHOD as LINES
from gamecheck.analysis.forced_win_lines import applicable_side, lines_forced_win, lines_game
from gamecheck.analysis.loading import Subject, load_game, load_rule_sheet
from gamecheck.analysis.teams import Teams, find_teams
from gamecheck.analysis.verify.results import Outcomes
from gamecheck.analysis.win_bounds import GroundRules, ground_rules
from gamecheck.analysis.winning_line import LineSearch, winning_line
from gamecheck.budget import Budget, OutOfBudget
from gamecheck.errors import GamecheckError
from gamecheck.models.base import Game, State
from gamecheck.solvers.forced_win import TABLE_MEGABYTES
from gamecheck.solvers.forced_win.retrograde import EXHAUSTIVE, listed_forced_win
from gamecheck.solvers.forced_win.sat import forced_win_sat
from gamecheck.solvers.forced_win.search import ForcedWin, Status, depth_bound, forced_win
from gamecheck.solvers.forced_win.sides import WIN, Sides, make_sides
from gamecheck.solvers.ground.grounder import ground

METHODS = ("search", "sat", "lines")
TEAM_SHARE = 0.1
RULES_SHARE = 0.2
"""Shares of the time left for finding the teams, and the ground rules' invariants."""
LINE_RULES_SHARE = 0.8
"""Without opponents the answer is a line on the ground rules: they may take most of it."""
LINE_SHARE = 0.2
"""The share of the time left for the shortest cooperative line."""
LIST_SHARE = 0.3
"""The share of the time left for listing every reachable state."""
QUICK_NODES = 10_000
"""Search nodes tried before the rules' depth bounds are looked for..."""
QUICK_LINE_DEPTH = 12
"""...where there are opponents, or the depth bound is at most this."""


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
    stage: Callable[[str], None] = lambda _: None,
    teams: Teams | None = None,
    rules: Callable[[], GroundRules | None] | None = None,
    table_megabytes: float | None = TABLE_MEGABYTES,
) -> ForcedWin:
    """Whether `role` (with its team) or the given `team` can force goal 100 for all its
    roles from `start` (default: the initial state) within `max_depth` steps (default: the
    game's step bound), and in how few. `reachable` (default: when no start is given) says
    the start is reachable, so the rules' depth bound applies. `progress` shows the search's
    progress bar, `stage` is told each phase. `teams` may be passed when they are known
    already, and `rules` gives the game's ground rules when they are needed (an endgame study
    finds both once for all its questions). `table_megabytes` bounds the search's tables
    (None: unbounded)."""
    if method not in METHODS:
        raise GamecheckError(f"unknown method {method!r}: {' or '.join(METHODS)}")
    clock = time.monotonic()
    budget = budget or Budget()
    game = load_game(subject)
    if method == LINES:
        lines_game(game)
    if team is None:
        stage("teams")
    sides, source = _sides(game, role, team, teams, budget)
    state = game.initial_state() if start is None else start
    question = _Question(
        game, sides, state, max_depth, budget, node_limit, progress, stage, table_megabytes
    )
    if method == "sat":
        result = question.by_sat()
    elif method == LINES:
        applicable_side(sides, state)
        stage("threat-space search at the level of marks")
        result = lines_forced_win(
            sides, state, max_depth=question.last, budget=budget, progress=progress
        )
    else:
        reachable = start is None if reachable is None else reachable
        result = question.answer(reachable, rules or question.own_rules)
    seconds = time.monotonic() - clock
    return replace(
        result,
        role=role or sides.team_roles[0],
        team_source=source,
        seconds=seconds,
        nodes=result.nodes + (question.quick_nodes if result.method != EXHAUSTIVE else 0),
    )


def _sides(game: Game, role, team, teams, budget: Budget) -> tuple[Sides, str]:
    """The team and how it was chosen: `given`, `proved` (the role's team) or `alone`."""
    if team is not None:
        return make_sides(game, team), "given"
    if role is None:
        raise GamecheckError("a forced-win question needs a role or a team")
    game.role_index(role)
    teams = teams or find_teams(game, budget.part(share=TEAM_SHARE))
    members = teams.team_of(role)
    return make_sides(game, members), "proved" if len(members) > 1 else "alone"


class _Question:
    """One forced-win question, answered phase by phase within one budget."""

    def __init__(
        self, game, sides, state, max_depth, budget, node_limit, progress, stage, table_megabytes
    ):
        self.game = game
        self.sides = sides
        self.state = state
        self.max_depth = max_depth
        self.last = depth_bound(game, max_depth)
        self.budget = budget
        self.node_limit = node_limit
        self.progress = progress
        self.stage = stage
        self.table_megabytes = table_megabytes
        self.quick_nodes = 0
        """The nodes of a quick search that did not settle the question."""

    def by_sat(self) -> ForcedWin:
        self.stage("grounding")
        system = ground(load_rule_sheet(self.game).rules, self.game.name, budget=self.budget)
        self.stage("SAT, depth by depth")
        return forced_win_sat(
            self.game,
            self.sides.team_roles,
            system,
            start=self.state,
            max_depth=self.max_depth,
            budget=self.budget,
        )

    def own_rules(self) -> GroundRules | None:
        self.stage("ground rules and invariants")
        share = RULES_SHARE if self.sides.opponents else LINE_RULES_SHARE
        return ground_rules(self.game, self.budget.part(share=share))

    def answer(self, reachable: bool, find_rules: Callable[[], GroundRules | None]) -> ForcedWin:
        opposed = bool(self.sides.opponents)
        if opposed and self.game.steps_to_end(self.state) is not None:
            return self._search(self.node_limit, 0)
        lower = 0
        if opposed or self.last <= QUICK_LINE_DEPTH:
            quick = self._search(min(QUICK_NODES, self.node_limit or QUICK_NODES), 0)
            settled = quick.status is not Status.UNKNOWN
            if settled or quick.nodes < QUICK_NODES or quick.nodes == self.node_limit:
                return quick  # settled, or the budget (time or nodes) ran out
            self.quick_nodes = quick.nodes
            lower = quick.searched_depth + 1
        rules = find_rules() if reachable or not opposed else None
        if rules is not None and opposed:
            listed = self._listed(rules)
            if listed is not None:
                return listed
        if rules is not None and reachable:
            lower = max(lower, rules.lower_bound(self.sides.team_roles, self.state, self.budget))
        if rules is not None and not opposed:
            self.stage(f"winning line, from depth {lower}")
            return winning_line(
                rules,
                self.sides,
                start=self.state,
                reachable=reachable,
                max_depth=self.max_depth,
                lower_bound=lower,
                budget=self.budget,
            )
        if rules is not None:
            lower = self._cooperative_bound(rules, reachable, lower)
            if lower is None:  # not even a line where every role helps: no forced win
                return self._no_line()
        left = None if self.node_limit is None else self.node_limit - self.quick_nodes
        return self._search(left, lower)

    def _listed(self, rules: GroundRules) -> ForcedWin | None:
        """The answer read off every reachable state, where they can be listed within a
        share of the time and the start is one of them (None otherwise)."""
        if not rules.listable:
            return None
        self.stage("listing every reachable state")
        graph = rules.state_graph(self.budget.part(share=LIST_SHARE))
        if graph is None:
            return None
        self.stage(f"retrograde analysis of {graph.count:,} states")
        return listed_forced_win(
            self.sides, rules.system, graph, self.state, self.last, self.budget
        )

    def _search(self, node_limit: int | None, lower: int) -> ForcedWin:
        self.stage(f"search from depth {lower}")
        return forced_win(
            self.game,
            self.sides.team_roles,
            start=self.state,
            max_depth=self.max_depth,
            budget=self.budget,
            node_limit=node_limit,
            lower_bound=lower,
            progress=self.progress,
            table_megabytes=self.table_megabytes,
        )

    def _cooperative_bound(self, rules: GroundRules, reachable: bool, lower: int) -> int | None:
        """The depth of the shortest line won by the team when every role helps (at least
        `lower`), or as deep as no such line is proved within a share of the budget; None when
        there is none within the depth bound."""
        self.stage(f"shortest line where every role helps, from depth {lower}")
        part = self.budget.part(share=LINE_SHARE)
        team = self.sides.team_roles
        with LineSearch(rules, team, self.state, reachable=reachable, budget=part) as search:
            try:
                line = search.shortest(lower, self.last)
            except OutOfBudget:
                return max(lower, search.proved + 1)
        if line is not None:
            return line.depth
        return None if search.proved >= self.last else max(lower, search.proved + 1)

    def _no_line(self) -> ForcedWin:
        return ForcedWin(
            game=self.game.name,
            role=self.sides.team_roles[0],
            team=self.sides.team_roles,
            max_depth=self.last,
            status=Status.NONE,
            depth=None,
            searched_depth=self.last,
            first_action=None,
            strategy_size=None,
            nodes=0,
            seconds=0.0,
            method="line",
        )


def ruled_out(
    win: ForcedWin, other: ForcedWin, roles: Sequence[str], outcomes: Outcomes
) -> ForcedWin:
    """`win`, or `none` at every depth where `other` rules it out: `other` is a found forced
    win of a team with no role in common and no reachable outcome (`outcomes`: the complete
    set, verify's) gives both teams 100. Playing the strategy `win` asks for against the
    one `other` found would reach a terminal state that gives both."""
    if win.status is not Status.UNKNOWN or other.status is not Status.FOUND:
        return win
    if set(win.team) & set(other.team) or not outcomes.complete:
        return win
    both = [roles.index(role) for role in (*win.team, *other.team)]
    if any(all(vector[i] == WIN for i in both) for vector in outcomes.vectors):
        return win
    return replace(
        win,
        status=Status.NONE,
        searched_depth=win.max_depth,
        method=f"ruled out by the forced win of {','.join(other.team)}",
    )
