"""Earliest forced win: can a team reach goal 100 for all its roles within d steps, whatever
the other roles do?

The team's roles choose together and all other roles play together against them
(solvers/forced_win/and_or.py gives the exact definition of "won within d"). `forced_win`
deepens d from a lower bound (0, or a depth below which the rules allow no win at all: the
caller's, or the game's own `steps_to_win`): the first depth that is won is the fewest steps
of a forced win, and a loss proved for a larger depth than asked skips the depths in between.
Each depth is settled by a portfolio of the two methods of and_or.py on the same tables,
depth-first search and df-pn, taking turns with node budgets that double every round. The
spoiler search takes turns between theirs, with a fixed share of all the nodes: the opposite
question, deepened on tables of its own, can the opponents force the game to end without the
team's win (sides.py `Spoilers`)? Once that is proved, the team has no forced win at any
depth. Each of the two takes the states the other proved won as lost at every depth
(and_or.py `share_wins`). Where every line of play takes the same number of steps (the
game's `steps_to_end`), there is no spoiler search: every leaf of the search at that depth
is terminal, so a loss it proves holds at every depth. Every strategy found is replayed by
`check_policy` (on the checked `next`) as the table gives it, before it is returned.
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from tqdm import tqdm

from gamecheck.budget import Budget, OutOfBudget
from gamecheck.models.base import Game, State
from gamecheck.schema import stamped
from gamecheck.solvers.forced_win import TABLE_MEGABYTES
from gamecheck.solvers.forced_win.and_or import (
    CHECK_EVERY,
    INFINITE,
    NodeCounter,
    Prover,
    SliceExhausted,
    share_wins,
)
from gamecheck.solvers.forced_win.sides import Sides, make_sides
from gamecheck.solvers.forced_win.strategy import Strategy
from gamecheck.solvers.forced_win.strategy_check import check_policy
from gamecheck.solvers.forced_win.symmetry import symmetry_of

DEFAULT_MAX_DEPTH = 30
"""The depth bound for games whose rules give no step bound."""
SLICE_NODES = 20_000
"""The first node budget of depth-first search in the portfolio; it doubles every round."""
PROOF_NUMBER_SHARE = 8
"""df-pn's node budget is this many times smaller: measured on the built-in games, depth-first
search settled more in the same time (ttcc4 red from the start in 60 s: depth 21 alone, 19
with df-pn taking equal turns; cubicup endgames 30 steps from the end: up to twice the nodes)."""
SPOILER_SHARE = 1
"""The spoiler search gets one node for every SPOILER_SHARE nodes of depth-first search and
df-pn, counted over the whole question: half of them. Measured on ttcc4 from the start, the
search alone (`forced_win`), one run at a time on 2 cores shared with other work, once the
game's ending moves had made the spoilers' nodes cheap: red none to 30 in 134 s with share 1,
195 s with 2; yellow 43 s and 69 s; blue 2 s and 5 s. The price: where depth-first search
or df-pn settles a question (a win found), they get half the nodes instead of two thirds."""
SPOILER_SLICE = SLICE_NODES // PROOF_NUMBER_SHARE
"""The fewest nodes a turn of the spoiler search gets (a try cut short restarts at its root)."""


class Status(StrEnum):
    FOUND = "found"
    NONE = "none"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class ForcedWin:
    """The answer: `found` (with the fewest steps `depth`), `none` (no forced win within
    `searched_depth` steps, proved) or `unknown` (none within `searched_depth`, proved,
    before the time or node budget ran out; -1 if not even depth 0 was settled)."""

    game: str
    role: str
    """The role asked about."""
    team: tuple[str, ...]
    """The roles that choose together (role order): the role alone, or its team."""
    max_depth: int
    """The depth bound asked about."""
    status: Status
    depth: int | None
    searched_depth: int
    first_action: str | None
    strategy_size: int | None
    """The number of distinct states where the strategy chooses among several actions."""
    nodes: int
    """Search nodes (states expanded); for the sat method, SAT calls; for a line, 0; for
    the exhaustive search, the reachable states it listed."""
    seconds: float
    method: str
    lower_bound: int = 0
    """No win takes fewer steps, proved before the main search began (by the rules' counter,
    the shortest line where every role helps, the game's `steps_to_win`, or a first short
    search; 0: no bound)."""
    team_source: str = "alone"
    """How the team was chosen: `alone`, `given` (--team), or `proved` (equal goals)."""
    strategy: Strategy | None = field(default=None, repr=False, compare=False)
    fewest: bool = True
    """Whether a found `depth` is proved to be the fewest steps; False for method `lines`,
    whose depth is the longest line of the strategy it found (fewer steps not ruled out)."""

    def to_json(self) -> dict:
        return stamped(
            "forced_win",
            {
                "game": self.game,
                "role": self.role,
                "team": list(self.team),
                "team_source": self.team_source,
                "status": str(self.status),
                "max_depth": self.max_depth,
                "depth": self.depth,
                "depth_is_fewest": None if self.depth is None else self.fewest,
                "searched_depth": self.searched_depth,
                "lower_bound": self.lower_bound,
                "first_action": self.first_action,
                "strategy_size": self.strategy_size,
                "nodes": self.nodes,
                "seconds": round(self.seconds, 3),
                "method": self.method,
            },
        )


def forced_win(
    game: Game,
    team: str | Sequence[str],
    *,
    start: State | None = None,
    max_depth: int | None = None,
    budget: Budget | None = None,
    node_limit: int | None = None,
    lower_bound: int = 0,
    progress: bool = False,
    table_megabytes: float | None = TABLE_MEGABYTES,
) -> ForcedWin:
    """Whether the `team` (a role, or several that choose together) can force goal 100 for
    all its roles from `start` (default: the initial state) within `max_depth` steps
    (default: the game's step bound), and in how few. `lower_bound`: a depth below which no
    win is possible, proved by the caller (the game's `steps_to_win` is used too).
    `table_megabytes`: the memory of the search's tables (None: unbounded), shared equally
    with the spoiler search if there is one. StuckState if a role has no legal action in a
    non-terminal state the search meets."""
    roles = [team] if isinstance(team, str) else list(team)
    sides = make_sides(game, roles)
    state = game.initial_state() if start is None else start
    max_depth = depth_bound(game, max_depth)
    budget = budget or Budget()
    if not game.is_terminal(state):
        lower_bound = max(lower_bound, sides.steps_to_win(state))
    bar = tqdm(
        desc=f"{game.name} {','.join(sides.team_roles)}",
        unit="node",
        file=sys.stderr,
        disable=None if progress else True,
        leave=False,
        delay=1.0,
    )
    counter = NodeCounter(budget, node_limit, lambda _: bar.update(CHECK_EVERY))
    fixed_length = game.steps_to_end(state) is not None
    with_spoilers = bool(sides.opponents) and not fixed_length
    memory = None if table_megabytes is None else table_megabytes * 2**20 / (1 + with_spoilers)
    prover = Prover(sides, counter, symmetry_of(game, sides.team), memory)
    spoilers = _SpoilerSearch(sides, counter, memory) if with_spoilers else None
    if spoilers is not None:
        share_wins(prover, spoilers.prover)
    answer = _Answer(game, roles[0], sides, max_depth, counter, time.monotonic(), lower_bound)
    if lower_bound > max_depth:
        return answer.result(Status.NONE, max_depth)
    searched = lower_bound - 1
    depth = lower_bound
    order = [True, False]  # depth-first search, then df-pn
    collecting = gc.isenabled()
    gc.disable()  # the tables hold millions of objects and no cycles: collections only cost
    try:
        while depth <= max_depth:
            bar.set_postfix(depth=depth)
            counter.check()
            value = _settle(prover, state, depth, order, spoilers)
            if value is None:
                return answer.result(Status.NONE, max_depth)
            if value >= 0:
                depth = value
                break
            searched = min(-1 - value, max_depth)
            depth = searched + 1
        if depth > max_depth:
            return answer.result(Status.NONE, searched)
        counter.node_limit = None  # a proved win's strategy is checked within the time left
        return answer.found(prover, state, depth)
    except OutOfBudget:  # a win whose replay did not end in time is not reported
        return answer.result(Status.UNKNOWN, searched)
    finally:
        bar.close()
        if collecting:
            gc.enable()


def depth_bound(game: Game, max_depth: int | None) -> int:
    """The depth bound asked for, or else the game's step bound (DEFAULT_MAX_DEPTH without)."""
    if max_depth is not None:
        return max_depth
    return game.step_bound if game.step_bound is not None else DEFAULT_MAX_DEPTH


def _settle(
    prover: Prover,
    state: State,
    depth: int,
    order: list[bool],
    spoilers: _SpoilerSearch | None = None,
) -> int | None:
    """Won within `depth`, by a portfolio: depth-first search and df-pn take turns with node
    budgets that double every round, on the same tables; the method that settles a depth is
    tried first at the next one (`order` is updated). The spoiler search, if any, takes a
    turn before each of theirs once it is owed its share of the nodes (`_SpoilerSearch.owed`):
    None when it proves the opponents' win."""
    counter = prover.counter
    share = SLICE_NODES
    while True:
        for depth_first in list(order):
            if spoilers is not None and spoilers.win(state, spoilers.owed()):
                return None
            slice_nodes = share if depth_first else share // PROOF_NUMBER_SHARE
            counter.slice_end = counter.nodes + slice_nodes
            try:
                value = prover.prove(state, depth, depth_first=depth_first)
            except SliceExhausted:
                continue
            finally:
                counter.slice_end = None
            order.sort(key=lambda method: method != depth_first)
            return value
        share *= 2


class _SpoilerSearch:
    """The opposite question, deepened beside the main search: can the opponents force the
    game to end without the team's win? If so, the team has no forced win at any depth.
    Each try gets a number of nodes; its tables carry over to the next."""

    def __init__(self, sides: Sides, counter: NodeCounter, memory: float | None):
        spoilers = sides.spoilers()
        symmetry = symmetry_of(sides.game, spoilers.team)
        self.prover = Prover(spoilers, counter, symmetry, memory)
        self.depth = 0
        self.nodes = 0
        """The nodes it has spent, of the shared counter's."""

    def owed(self) -> int:
        """The nodes the spoiler search is behind its share (one for every SPOILER_SHARE of
        the main search's, over the whole question), or 0 if that is less than a slice."""
        main_nodes = self.prover.counter.nodes - self.nodes
        owed = main_nodes // SPOILER_SHARE - self.nodes
        return owed if owed >= SPOILER_SLICE else 0

    def win(self, state: State, nodes: int) -> bool:
        """Whether the opponents' win is proved, deepening within `nodes` more nodes."""
        if nodes <= 0 or self.depth >= INFINITE:
            return False
        counter = self.prover.counter
        started = counter.nodes
        counter.slice_end = started + nodes
        try:
            while self.depth < INFINITE:
                value = self.prover.prove(state, self.depth, depth_first=True)
                if value >= 0:
                    return True
                self.depth = -value
        except SliceExhausted:
            pass
        finally:
            counter.slice_end = None
            self.nodes += counter.nodes - started
        return False


def first_action(sides: Sides, strategy: Strategy) -> str | None:
    """The team's first action, or None when the start state is already over."""
    if sides.game.is_terminal(strategy.start):
        return None
    action = strategy.actions.get(strategy.start)
    if action is None:  # a strategy need not list a state where the team has no choice
        action = sides.choices(strategy.start)[0][0]
    return sides.action_text(action)


@dataclass
class _Answer:
    """What every ForcedWin of one search shares."""

    game: Game
    role: str
    sides: Sides
    max_depth: int
    counter: NodeCounter
    started: float
    lower_bound: int

    def result(self, status: Status, searched: int, **found) -> ForcedWin:
        return ForcedWin(
            game=self.game.name,
            role=self.role,
            team=self.sides.team_roles,
            max_depth=self.max_depth,
            status=status,
            depth=found.get("depth"),
            searched_depth=searched,
            first_action=found.get("first_action"),
            strategy_size=found.get("strategy_size"),
            nodes=self.counter.nodes,
            seconds=time.monotonic() - self.started,
            method="search",
            lower_bound=self.lower_bound,
            strategy=found.get("strategy"),
        )

    def found(self, prover: Prover, start: State, depth: int) -> ForcedWin:
        """The answer `found`, once the strategy of the `prover`'s win of `start` within
        `depth` passed its replay."""
        team = self.sides.team_roles
        actions = check_policy(self.game, team, start, prover.choose, depth, self.counter.budget)
        strategy = Strategy(team, start, depth, actions)
        return self.result(
            Status.FOUND,
            depth - 1,
            depth=depth,
            first_action=first_action(self.sides, strategy),
            strategy_size=len(actions),
            strategy=strategy,
        )
