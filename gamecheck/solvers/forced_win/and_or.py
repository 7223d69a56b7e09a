"""AND/OR search for forced wins: depth-first search and df-pn on shared tables.

`Prover.prove(state, d)` settles "won within d" for one role: a state is won within d when it
is terminal with goal(R) = 100, or d > 0, it is not terminal, and some legal action of R makes
every joint legal action of the other roles lead to a state won within d - 1. Won within d
implies won within any larger depth, so one table entry per state keeps the smallest depth a
win is proved for (with R's action) and the largest depth a loss is proved for; it answers
every (state, remaining depth) query, across depths and across both methods:

- depth-first search with move ordering: immediate wins first (every reply known won), moves
  known to lose last (among them those that leave the others an immediate win, learned at
  the previous depth), the history heuristic between;
- depth-first proof-number search (df-pn) with the 1 + epsilon trick.

A loss is proved together with the largest depth it holds for (a terminal loss holds for all),
so a caller can skip depths. The search calls the game's unchecked `apply`.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass

from tqdm import tqdm

from gamecheck.models.base import Action, Game, State
from gamecheck.solvers.forced_win.strategy_check import WIN

INFINITE = 1 << 40
"""A depth beyond any game: a loss proved for it holds at every depth."""
SOLVED_LIMIT = 2_000_000
"""Past this many proved states, only terminal states and losses at every depth are kept."""
EXPANSION_CACHE = 200_000
PROOF_NUMBER_CACHE = 2_000_000
EPSILON = 0.25
"""df-pn's child thresholds are widened by this share of the second-best sibling's number."""
CHECK_EVERY = 1024
"""Nodes between two looks at the clock (and progress updates)."""
WON, OPEN, LOST = 0, 1, 2
"""What is known of a state at a depth, in the order R's actions are tried."""


class BudgetExhausted(Exception):
    """The time limit or node budget ran out during a search."""


class SliceExhausted(Exception):
    """The node slice a caller set (`Budget.slice_end`) ran out."""


@dataclass(slots=True)
class _Expansion:
    """A non-terminal state's moves: R's actions, the others' joint replies (the same for
    every action of R), and the next state for each pair."""

    actions: Sequence[Action]
    replies: list[tuple]
    children: list[tuple[State, ...]]


@dataclass(slots=True)
class _Numbers:
    """The proof and disproof numbers of a node and what df-pn's thresholds need."""

    pn: int = INFINITE
    dn: int = 0
    pn_second: int = INFINITE
    action: int = -1
    action_dn: int = 0
    reply: int = -1
    reply_pn: int = 0
    dn_second: int = INFINITE


@dataclass(slots=True)
class _Solved:
    """What is proved of a state: won within `win` (INFINITE: no win proved) with R's action
    number `choice`, and not won within `loss` (-1: no loss proved)."""

    win: int = INFINITE
    choice: int = -1
    loss: int = -1


class Budget:
    """A deadline and a node budget, checked every CHECK_EVERY nodes, with progress shown;
    `slice_end` (a node count) ends one try of a portfolio."""

    def __init__(self, time_limit: float | None, node_limit: int | None, progress: tqdm):
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit
        self.node_limit = node_limit
        self.nodes = 0
        self.slice_end: int | None = None
        self.progress = progress

    def count(self) -> None:
        self.nodes += 1
        if self.nodes == self.slice_end:
            raise SliceExhausted
        if self.nodes % CHECK_EVERY == 0:
            self.progress.update(CHECK_EVERY)
            self.check()

    def check(self) -> None:
        """Raise BudgetExhausted if the time or the node budget has run out."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise BudgetExhausted
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise BudgetExhausted

    def lift(self) -> None:
        """No more limits: the strategy of a proved win is extracted whatever it costs."""
        self.deadline = self.node_limit = self.slice_end = None

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.start


class Prover:
    """Proves or refutes "won within d" for states of one game and role, sharing its tables
    across depths and across the two search methods."""

    def __init__(self, game: Game, role: int, budget: Budget):
        self.game = game
        self.role = role
        self.others = [r for i, r in enumerate(game.roles) if i != role]
        self.budget = budget
        self.solved: dict[State, _Solved] = {}
        self.solved_limit = SOLVED_LIMIT
        self.expansions: dict[State, _Expansion] = {}
        self.numbers: dict[tuple[State, int], tuple[int, int]] = {}
        self.my_history: dict[Action, int] = {}
        self.their_history: dict[tuple, int] = {}

    # results are encoded as one int: v >= 0 is "won within v", v < 0 "not won within -1-v"

    def prove(self, state: State, depth: int, *, depth_first: bool) -> int:
        """Won within `depth`: the depth a win is proved for, or -1 - the depth a loss is."""
        self._classify(state)
        known = self._known(state, depth)
        if known is not None:
            return known
        if depth_first or depth == 0:
            return self._search(state, depth)
        self._proof_numbers(state, depth, INFINITE, INFINITE)
        return self._known(state, depth)

    def _count(self) -> None:
        """Count a node against the budget; keep the table of proved states bounded."""
        self.budget.count()
        if len(self.solved) > self.solved_limit:
            self.solved = {
                state: entry
                for state, entry in self.solved.items()
                if entry.win == 0 or entry.loss >= INFINITE
            }
            self.solved_limit = max(SOLVED_LIMIT, 2 * len(self.solved))

    def _classify(self, state: State) -> None:
        """Record a terminal state as won at depth 0 or lost at every depth."""
        if state not in self.solved and self.game.is_terminal(state):
            if self.game.goals(state)[self.role] == WIN:
                self.solved[state] = _Solved(win=0)
            else:
                self.solved[state] = _Solved(loss=INFINITE)

    def _known(self, state: State, depth: int) -> int | None:
        entry = self.solved.get(state)
        if entry is None:
            return None
        if entry.win <= depth:
            return entry.win
        if entry.loss >= depth:
            return -1 - entry.loss
        return None

    def _record_win(self, state: State, depth: int, choice: int) -> int:
        entry = self.solved.setdefault(state, _Solved())
        if depth < entry.win:
            entry.win, entry.choice = depth, choice
        return depth

    def _record_loss(self, state: State, depth: int) -> int:
        entry = self.solved.setdefault(state, _Solved())
        entry.loss = max(entry.loss, depth)
        return -1 - depth

    def _expand(self, state: State) -> _Expansion:
        """The moves of a non-terminal state; every new child is classified."""
        expansion = self.expansions.get(state)
        if expansion is not None:
            return expansion
        game = self.game
        mine = game.legal(state, game.roles[self.role])
        replies = list(itertools.product(*(game.legal(state, role) for role in self.others)))
        position = self.role
        children = []
        for action in mine:
            row = []
            for reply in replies:
                joint = (*reply[:position], action, *reply[position:])
                child = game.apply(state, joint)
                self._classify(child)
                row.append(child)
            children.append(tuple(row))
        expansion = _Expansion(mine, replies, children)
        if len(self.expansions) >= EXPANSION_CACHE:
            self.expansions.clear()
        self.expansions[state] = expansion
        return expansion

    # -- move ordering ------------------------------------------------------------------

    def _action_order(self, expansion: _Expansion, depth: int) -> list[int]:
        """R's actions: immediate wins (every reply known won) first, actions known to be
        refuted last, among them those leaving the others an immediate win (a terminal loss,
        learned at the previous depth); ties by the history heuristic, then the game's order."""
        if len(expansion.actions) == 1:
            return [0]
        history = self.my_history
        keys = []
        for i, row in enumerate(expansion.children):
            tiers = [self._tier(child, depth - 1) for child in row]
            tier = WON if all(t == WON for t in tiers) else max(tiers)
            keys.append((tier, -history.get(expansion.actions[i], 0), i))
        keys.sort()
        return [key[2] for key in keys]

    def _reply_order(self, expansion: _Expansion, action: int, depth: int) -> list[int]:
        """The others' replies to one action: known refutations first (immediate wins of the
        others among them), replies known won for R last; ties by the history heuristic,
        then the game's order."""
        row = expansion.children[action]
        if len(row) == 1:
            return [0]
        history = self.their_history
        replies = expansion.replies
        keys = [
            (-self._tier(child, depth - 1), -history.get(replies[j], 0), j)
            for j, child in enumerate(row)
        ]
        keys.sort()
        return [key[2] for key in keys]

    def _tier(self, state: State, depth: int) -> int:
        """WON, OPEN or LOST: what is known of "won within `depth`"."""
        entry = self.solved.get(state)
        if entry is None:
            return OPEN
        if entry.win <= depth:
            return WON
        return LOST if entry.loss >= depth else OPEN

    # -- depth-first search ------------------------------------------------------------

    def _search(self, state: State, depth: int) -> int:
        known = self._known(state, depth)
        if known is not None:
            return known
        if depth == 0:
            return -1  # not terminal (children are classified when generated), not won
        self._count()
        expansion = self._expand(state)
        bound = INFINITE
        for action in self._action_order(expansion, depth):
            value = self._action_value(expansion, action, depth)
            if value >= 0:
                self._reward(expansion.actions[action], depth)
                return self._record_win(state, value, action)
            bound = min(bound, -1 - value)
        return self._record_loss(state, bound)

    def _action_value(self, expansion: _Expansion, action: int, depth: int) -> int:
        """Whether one action of R wins within `depth`, encoded like `prove`."""
        row = expansion.children[action]
        deepest = 0
        for j in self._reply_order(expansion, action, depth):
            value = self._search(row[j], depth - 1)
            if value < 0:
                reply = expansion.replies[j]
                self.their_history[reply] = self.their_history.get(reply, 0) + depth * depth
                return -1 - _successor_loss(-1 - value)
            deepest = max(deepest, value)
        return deepest + 1

    # -- depth-first proof-number search ---------------------------------------------

    def _proof_numbers(self, state: State, depth: int, pn_limit: int, dn_limit: int) -> None:
        """Work on "won within `depth`" until its proof or disproof number reaches its
        limit (df-pn); a state settled here is recorded in `solved`."""
        self._count()
        expansion = self._expand(state)
        order = self._action_order(expansion, depth)
        reply_orders = [self._reply_order(expansion, action, depth) for action in order]
        below = depth - 1
        while True:
            numbers = self._node_numbers(expansion, order, reply_orders, below)
            if numbers.pn == 0:
                best = numbers.action
                row = expansion.children[best]
                deepest = max((self._known(child, below) for child in row), default=0)
                self._reward(expansion.actions[best], depth)
                self._record_win(state, deepest + 1, best)
                self.numbers.pop((state, depth), None)
                return
            if numbers.dn == 0:
                self._record_loss(state, self._refuted_bound(expansion, below))
                self.numbers.pop((state, depth), None)
                return
            if numbers.pn >= pn_limit or numbers.dn >= dn_limit:
                if len(self.numbers) >= PROOF_NUMBER_CACHE:
                    self.numbers.clear()
                self.numbers[(state, depth)] = (numbers.pn, numbers.dn)
                return
            # the action's limits, then the reply's (df-pn's thresholds, two levels at once)
            action_pn_limit = min(pn_limit, _widened(numbers.pn_second))
            action_dn_limit = _minus(dn_limit, numbers.dn - numbers.action_dn)
            child_dn_limit = min(action_dn_limit, _widened(numbers.dn_second))
            child_pn_limit = _minus(action_pn_limit, numbers.pn - numbers.reply_pn)
            child = expansion.children[numbers.action][numbers.reply]
            self._proof_numbers(child, below, child_pn_limit, child_dn_limit)

    def _node_numbers(
        self, expansion: _Expansion, order: list[int], reply_orders: list[list[int]], below: int
    ) -> _Numbers:
        """The proof and disproof numbers of a node, an OR over R's actions of ANDs over the
        others' replies, with its most proving action and reply."""
        result = _Numbers()
        for position, action in enumerate(order):
            row = expansion.children[action]
            pn, dn = 0, INFINITE
            reply = reply_pn = -1
            dn_second = INFINITE
            for j in reply_orders[position]:
                child_pn, child_dn = self._child_numbers(row[j], below)
                pn = min(pn + child_pn, INFINITE)
                if child_dn < dn:
                    dn, dn_second, reply, reply_pn = child_dn, dn, j, child_pn
                elif child_dn < dn_second:
                    dn_second = child_dn
            result.dn = min(result.dn + dn, INFINITE)
            if pn < result.pn:
                result.pn_second, result.pn = result.pn, pn
                result.action, result.action_dn = action, dn
                result.reply, result.reply_pn, result.dn_second = reply, reply_pn, dn_second
            elif pn < result.pn_second:
                result.pn_second = pn
        return result

    def _child_numbers(self, child: State, depth: int) -> tuple[int, int]:
        known = self._known(child, depth)
        if known is not None:
            return (0, INFINITE) if known >= 0 else (INFINITE, 0)
        if depth == 0:
            return INFINITE, 0
        return self.numbers.get((child, depth), (1, 1))

    def _refuted_bound(self, expansion: _Expansion, below: int) -> int:
        """The depth a loss is proved for, once every action has a refuting reply: the
        smallest over the actions of one more than their deepest refutation."""
        bound = INFINITE
        for row in expansion.children:
            deepest = max(self._loss_bound(child, below) for child in row)
            bound = min(bound, _successor_loss(deepest))
        return bound

    def _loss_bound(self, state: State, depth: int) -> int:
        """The depth `state` is proved not won within, if it is not won within `depth`;
        -1 otherwise."""
        known = self._known(state, depth)
        if known is None:
            return 0 if depth == 0 else -1  # non-terminal at the horizon: not won within 0
        return -1 - known if known < 0 else -1

    def _reward(self, action: Action, depth: int) -> None:
        """The history heuristic: an action of R that proved a win is tried early again."""
        self.my_history[action] = self.my_history.get(action, 0) + depth * depth

    # -- the strategy ---------------------------------------------------------------------

    def strategy(self, start: State, depth: int) -> dict[State, Action]:
        """R's action in every state with a choice that the proved win of `start` within
        `depth` can reach."""
        strategy: dict[State, Action] = {}
        used: dict[State, int] = {}  # state -> the win depth its action was taken for
        stack = [(start, depth)]
        while stack:
            state, remaining = stack.pop()
            if used.get(state, INFINITE) <= remaining:
                continue
            if self.prove(state, remaining, depth_first=True) < 0:
                raise AssertionError("a state on a proved strategy is not won")
            entry = self.solved[state]
            used[state] = entry.win
            if entry.win == 0:
                continue  # a terminal state
            expansion = self._expand(state)
            if len(expansion.actions) > 1:
                strategy[state] = expansion.actions[entry.choice]
            stack.extend((child, entry.win - 1) for child in expansion.children[entry.choice])
        return strategy


def _successor_loss(bound: int) -> int:
    """A child not won within `bound` makes its parent's action not won within bound + 1."""
    return bound if bound >= INFINITE else bound + 1


def _widened(number: int) -> int:
    """A sibling's proof or disproof number plus one, widened by EPSILON (the 1 + epsilon
    trick: fewer returns to a parent that would choose the same child again)."""
    return number if number >= INFINITE else number + 1 + int(number * EPSILON)


def _minus(limit: int, amount: int) -> int:
    return limit if limit >= INFINITE else max(limit - amount, 0)
