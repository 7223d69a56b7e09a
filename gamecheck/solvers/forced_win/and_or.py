"""AND/OR search for forced wins: depth-first search and df-pn on shared tables.

`Prover.prove(state, d)` settles "won within d" for a team (solvers/forced_win/sides.py): a
state is won within d when it is terminal and won for the team (`Sides.won`: goal 100 for
every team role; for the spoilers of a team, a goal below 100 for one of the team's roles), or
d > 0, it is not terminal, and some joint action of the team makes every joint reply of the
opponents lead to a state won within d - 1. Won within d implies won within any larger depth,
so one table entry per state keeps the smallest depth a win is proved for (with the team's
action) and the largest depth a loss is proved for; it answers every (state, remaining depth)
query, across depths and across both methods. Where the rules prove that a win takes at
least m steps from a state (`Sides.steps_to_win`: the game's `steps_to_win` or
`steps_to_loss`), the state is recorded as lost up to depth m - 1 as soon as it is met, and
is expanded only where more than m - 1 steps remain; where the game declares a move that
ends a state at once (`Sides.ends_now`: in ttcc4, a line for the role in control), the state
is recorded as won within 1 or lost at every depth as soon as it is met, so the replies that
leave an opponent's threat standing are refuted without a node; and a state the prover of
the opposite question proved won (`share_wins`) is recorded as lost at every depth. The
search:

- depth-first search with move ordering: immediate wins first (every reply known won), moves
  known to lose last, the history heuristic between; and immediate-threat pruning: where the
  opponents move, the replies that ended a line of play with their win elsewhere are tried
  before any other child is made, so that a threat the team's last action did not stop
  refutes it at the cost of one step; "won within 1" is settled lazily, the team's latest
  winning actions first, without keeping the state's expansion (df-pn does the same);
- depth-first proof-number search (df-pn) with the 1 + epsilon trick.

A loss is proved together with the largest depth it holds for (a terminal loss holds for
all), so a caller can skip depths. Tables are keyed by a representative of each state's
symmetry class (solvers/forced_win/symmetry.py) and bounded in memory (`TableLimits`). The
search calls the game's unchecked `apply`; the time limit is the command's Budget, the node
limit a separate count.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gamecheck.budget import Budget, OutOfBudget
from gamecheck.models.base import NEVER, State
from gamecheck.solvers.forced_win import TABLE_MEGABYTES
from gamecheck.solvers.forced_win.sides import Sides, TeamAction
from gamecheck.solvers.forced_win.symmetry import Symmetry, Transform, map_team_action

INFINITE = NEVER
"""A depth beyond any game: a loss proved for it holds at every depth."""
SOLVED_SHARE, NUMBERS_SHARE = 0.5, 0.25
"""The shares of a prover's table memory for proved states and for df-pn's numbers; the
expansions have the rest."""
SOLVED_ENTRY_BYTES = 110
"""A proved state's dict slot and `_Solved`, beside its key (measured with tracemalloc)."""
NUMBERS_ENTRY_BYTES = 200
"""A df-pn entry's dict slot and its (state, depth) and (pn, dn) tuples, beside the state."""
CHILD_BYTES = 16
"""A child's place in an expansion, beside the child state."""
CACHE_FLOOR = 1_000
"""The fewest entries of the df-pn numbers and of the expansions' children, whatever the
memory: df-pn needs the numbers along its path to make progress."""
MEASURE_EVERY = 64
"""Expansions between two measurements of a state's size."""
KILLERS = 4
"""Replies remembered for immediate-threat pruning."""
FINISHERS = 64
"""Team actions remembered for winning at the last step (the table is then started anew)."""
EPSILON = 0.25
"""df-pn's child thresholds are widened by this share of the second-best sibling's number."""
CHECK_EVERY = 1024
"""Nodes between two looks at the clock (and progress reports)."""
WON, OPEN, LOST = 0, 1, 2
"""What is known of a state at a depth, in the order the team's actions are tried."""


class SliceExhausted(Exception):
    """The node slice a caller set (`NodeCounter.slice_end`) ran out."""


class NodeCounter:
    """Counts search nodes against a node limit and, every CHECK_EVERY nodes, looks at the
    command's Budget (OutOfBudget when either runs out) and reports progress. `slice_end` (a
    node count) ends one try of a portfolio."""

    def __init__(
        self,
        budget: Budget,
        node_limit: int | None = None,
        progress: Callable[[int], None] | None = None,
    ):
        self.budget = budget
        self.node_limit = node_limit
        self.progress = progress
        self.nodes = 0
        self.slice_end: int | None = None

    def count(self) -> None:
        self.nodes += 1
        if self.nodes == self.slice_end:
            raise SliceExhausted
        if self.nodes % CHECK_EVERY == 0:
            if self.progress is not None:
                self.progress(self.nodes)
            self.check()

    def check(self) -> None:
        """OutOfBudget if the time or the node limit has run out."""
        self.budget.check()
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise OutOfBudget("the node limit ran out")


class TableLimits:
    """How many entries a prover's tables may hold: a share of their memory (bytes; None:
    unbounded) over the size of an entry, which grows with the largest state measured."""

    def __init__(self, memory: float | None):
        self.memory = math.inf if memory is None else memory
        self.state_bytes = 0
        self._update()

    def measure(self, state: State) -> None:
        size = deep_size(state)
        if size > self.state_bytes:
            self.state_bytes = size
            self._update()

    def _update(self) -> None:
        memory, state = self.memory, self.state_bytes
        self.solved = memory * SOLVED_SHARE / (state + SOLVED_ENTRY_BYTES)
        numbers = memory * NUMBERS_SHARE / (state + NUMBERS_ENTRY_BYTES)
        children = memory * (1 - SOLVED_SHARE - NUMBERS_SHARE) / (state + CHILD_BYTES)
        self.numbers, self.children = max(numbers, CACHE_FLOOR), max(children, CACHE_FLOOR)


def deep_size(value: object) -> int:
    """The bytes of a state: the object, and the tuples, frozensets, slots, bytes and large
    ints inside it (small ints and strings are shared, so they are not counted)."""
    if isinstance(value, str) or value is None or isinstance(value, int) and -5 <= value <= 256:
        return 0
    size = sys.getsizeof(value)
    if isinstance(value, tuple | frozenset | list):
        return size + sum(deep_size(part) for part in value)
    slots = getattr(type(value), "__slots__", ())
    return size + sum(deep_size(getattr(value, name)) for name in slots if hasattr(value, name))


@dataclass(slots=True)
class _Expansion:
    """A non-terminal state's moves: the team's joint actions, the opponents' joint replies
    (the same for every team action), and the key of the next state for each pair."""

    actions: Sequence[TeamAction]
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
    """What is proved of a state: won within `win` (INFINITE: no win proved) with the team's
    action number `choice`, and not won within `loss` (-1: no loss proved)."""

    win: int = INFINITE
    choice: int = -1
    loss: int = -1


_UNSOLVED = _Solved()


class Prover:
    """Proves or refutes "won within d" for the states of one game and team, sharing its
    tables across depths and across the two search methods."""

    def __init__(
        self,
        sides: Sides,
        counter: NodeCounter,
        symmetry: Symmetry | None = None,
        memory: float | None = TABLE_MEGABYTES * 2**20,
    ):
        """`memory`: the bytes the tables may take (None: unbounded)."""
        self.sides = sides
        self.game = sides.game
        self.counter = counter
        self.symmetry = symmetry
        self.solved: dict[State, _Solved] = {}
        self.limits = TableLimits(memory)
        self.forgetful = False
        """Whether a prune dropped terminal states: they are then classified again when
        looked up (`_known`)."""
        self.rival: Prover | None = None
        """The prover of the opposite question on the same keys (`share_wins`): a state it
        proved won at some depth is lost here at every depth."""
        self.expansions: dict[State, _Expansion] = {}
        self.children = 0
        """The children of the expansions kept."""
        self.numbers: dict[tuple[State, int], tuple[int, int]] = {}
        self.my_history: dict[TeamAction, int] = {}
        self.their_history: dict[tuple, int] = {}
        self.killers: list[tuple] = []
        self.finishers: dict[TeamAction, int] = {}
        """Team actions that won a state within 1, with the node count when they last did:
        the latest are tried first at the last step."""

    # results are encoded as one int: v >= 0 is "won within v", v < 0 "not won within -1-v"

    def prove(self, state: State, depth: int, *, depth_first: bool) -> int:
        """Won within `depth`: the depth a win is proved for, or -1 - the depth a loss is."""
        key = self.key(state)
        self.limits.measure(key)
        return self._prove_key(key, depth, depth_first=depth_first)

    def _prove_key(self, key: State, depth: int, *, depth_first: bool) -> int:
        """`prove` for a representative, without measuring it (the strategy's walk asks
        millions of these)."""
        self._classify(key)
        known = self._known(key, depth)
        if known is not None:
            return known
        if depth_first or depth == 0:
            return self._search(key, depth)
        self._proof_numbers(key, depth, INFINITE, INFINITE)
        return self._known(key, depth)

    def key(self, state: State) -> State:
        """The representative of the state's symmetry class: what the tables are keyed by."""
        return state if self.symmetry is None else self.symmetry.canonical(state)[0]

    def _count(self) -> None:
        """Count a node; keep the table of proved states bounded."""
        self.counter.count()
        if len(self.solved) > self.limits.solved:
            self._prune()

    def _prune(self) -> None:
        """Keep at most half the table's limit: the terminal states (and other losses at
        every depth) first, for the children of the expansions in use were classified only
        when made, then the deepest proofs (what cost the most nodes). Where the terminal
        states alone do not fit, some go, and from then on a state not in the table is
        classified again when looked up. The expansions go: their children are classified
        again when remade."""
        ranks = [_rank(entry) for entry in self.solved.values()]
        kept = sorted(ranks, reverse=True)[: int(self.limits.solved) // 2]
        least = kept[-1] + 1 if kept and len(kept) < len(ranks) else 0
        self.forgetful = self.forgetful or least > _rank(_Solved(win=0))
        self.solved = {
            key: entry
            for (key, entry), rank in zip(self.solved.items(), ranks, strict=True)
            if rank >= least
        }
        self._drop_expansions()

    def _drop_expansions(self) -> None:
        self.expansions.clear()
        self.children = 0

    def _classify(self, key: State) -> None:
        """Record a terminal state as won at depth 0 or lost at every depth, a state that a
        move ends at once as won within 1 or lost at every depth (`Sides.ends_now`), and
        another state as lost within m - 1 when the rules prove that a win takes at least m
        steps (`Sides.steps_to_win`; at every depth when they prove there is none)."""
        if key in self.solved:
            return
        if self.game.is_terminal(key):
            if self.sides.won(key):
                self.solved[key] = _Solved(win=0)
            else:
                self.solved[key] = _Solved(loss=INFINITE)
            return
        rival = self.rival
        if rival is not None and rival.solved.get(key, _UNSOLVED).win < INFINITE:
            self.solved[key] = _Solved(loss=INFINITE)
            return
        ends = self.sides.ends_now(key)
        if ends is not None:
            self.solved[key] = _Solved(win=1) if ends else _Solved(loss=INFINITE)
            return
        steps = self.sides.steps_to_win(key)
        if steps > 1:
            self.solved[key] = _Solved(loss=INFINITE if steps >= NEVER else steps - 1)

    def _known(self, key: State, depth: int) -> int | None:
        entry = self.solved.get(key)
        if entry is None and self.forgetful:
            self._classify(key)  # a terminal state the prune dropped
            entry = self.solved.get(key)
        if entry is None:
            return None
        if entry.win <= depth:
            return entry.win
        if entry.loss >= depth:
            return -1 - entry.loss
        return None

    def _record_win(self, key: State, depth: int, choice: int) -> int:
        entry = self.solved.setdefault(key, _Solved())
        if depth < entry.win:
            entry.win, entry.choice = depth, choice
        return depth

    def _record_loss(self, key: State, depth: int) -> int:
        entry = self.solved.setdefault(key, _Solved())
        entry.loss = max(entry.loss, depth)
        return -1 - depth

    def _make_expansion(self, key: State, choices: tuple[list, list]) -> _Expansion:
        sides, apply, child_key = self.sides, self.game.apply, self.key
        actions, replies = choices
        children = []
        for action in actions:
            row = []
            for reply in replies:
                child = child_key(apply(key, sides.joint(action, reply)))
                self._classify(child)
                row.append(child)
            children.append(tuple(row))
        expansion = _Expansion(actions, replies, children)
        if len(self.expansions) % MEASURE_EVERY == 0 and children and children[0]:
            self.limits.measure(children[0][0])
        self.children += len(actions) * len(replies)
        if self.children > self.limits.children:
            self._drop_expansions()
        self.expansions[key] = expansion
        return expansion

    def _expand_unless_threatened(self, key: State) -> _Expansion | None:
        """The moves of a non-terminal state, or None if immediate-threat pruning shows it
        lost at every depth: where only the opponents choose, a reply that ended another
        line of play with their win is tried first, and if it ends this one too, no other
        child is made."""
        expansion = self.expansions.get(key)
        if expansion is not None:
            return expansion
        actions, replies = choices = self.sides.choices(key)
        if len(actions) == 1 and self.killers:
            legal = set(replies)
            for reply in self.killers:
                if reply in legal:
                    child = self.key(self.game.apply(key, self.sides.joint(actions[0], reply)))
                    self._classify(child)
                    entry = self.solved.get(child)
                    if entry is not None and entry.loss >= INFINITE:
                        return None
        return self._make_expansion(key, choices)

    def _remember_threat(self, reply: tuple) -> None:
        killers = self.killers
        if killers and killers[0] == reply:
            return
        if reply in killers:
            killers.remove(reply)
        killers.insert(0, reply)
        del killers[KILLERS:]

    # -- move ordering ------------------------------------------------------------------

    def _action_order(self, expansion: _Expansion, depth: int) -> list[int]:
        """The team's actions: immediate wins (every reply known won) first, actions known
        to be refuted last; ties by the history heuristic, then the game's order."""
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
        """The opponents' replies to one action: known refutations first (their immediate
        wins among them), replies known won for the team last; ties by the history
        heuristic, then the game's order."""
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

    def _tier(self, key: State, depth: int) -> int:
        """WON, OPEN or LOST: what is known of "won within `depth`"."""
        entry = self.solved.get(key)
        if entry is None:
            return OPEN
        if entry.win <= depth:
            return WON
        return LOST if entry.loss >= depth else OPEN

    # -- depth-first search ------------------------------------------------------------

    def _search(self, key: State, depth: int) -> int:
        known = self._known(key, depth)
        if known is not None:
            return known
        if depth == 0:
            return -1  # not terminal (children are classified when made), not won
        self._count()
        expansion = self.expansions.get(key)
        if expansion is None:
            if depth == 1:
                return self._last_step(key)
            actions, replies = choices = self.sides.choices(key)
            if len(actions) == 1:
                return self._replies_value(key, actions[0], replies, depth)
            expansion = self._make_expansion(key, choices)
        bound = INFINITE
        for action in self._action_order(expansion, depth):
            value = self._action_value(expansion, action, depth)
            if value >= 0:
                self._reward(expansion.actions[action], depth)
                return self._record_win(key, value, action)
            bound = min(bound, -1 - value)
        return self._record_loss(key, bound)

    def _last_step(self, key: State) -> int:
        """Won within 1, lazily: the team actions that won the last such states first, each
        until a reply does not end the game won; no expansion is kept. An action whose first
        such reply ends the game is refuted at every depth, another within 1."""
        sides, apply, won = self.sides, self.game.apply, self.sides.won
        actions, replies = sides.choices(key)
        finishers = self.finishers
        order = sorted(range(len(actions)), key=lambda i: -finishers.get(actions[i], 0))
        bound = INFINITE
        for i in order:
            action = actions[i]
            for reply in replies:
                child = apply(key, sides.joint(action, reply))
                if not won(child):
                    if not self.game.is_terminal(child):
                        bound = 1
                    break
            else:
                if len(finishers) >= FINISHERS:
                    finishers.clear()
                finishers[action] = self.counter.nodes
                return self._record_win(key, 1, i)
        return self._record_loss(key, bound)

    def _action_value(self, expansion: _Expansion, action: int, depth: int) -> int:
        """Whether one team action wins within `depth`, encoded like `prove`."""
        row = expansion.children[action]
        deepest = 0
        for j in self._reply_order(expansion, action, depth):
            value = self._search(row[j], depth - 1)
            if value < 0:
                reply = expansion.replies[j]
                self.their_history[reply] = self.their_history.get(reply, 0) + depth * depth
                if value == -1 - INFINITE:
                    self._remember_threat(reply)
                return -1 - _successor_loss(-1 - value)
            deepest = max(deepest, value)
        return deepest + 1

    def _replies_value(self, key: State, action: TeamAction, replies: list, depth: int) -> int:
        """Where only the opponents choose: their replies one child at a time, until one
        refutes (recorded, like `prove`). Immediate-threat pruning: replies that ended other
        lines with the opponents' win come first, then the history heuristic's order; a
        refutation usually comes first, so the other children are never made."""
        history = self.their_history
        if len(replies) > 1:
            threats = set(self.killers)
            replies = sorted(
                replies,
                key=lambda reply: -history.get(reply, 0) - (INFINITE if reply in threats else 0),
            )
        deepest = 0
        for reply in replies:
            child = self.key(self.game.apply(key, self.sides.joint(action, reply)))
            self._classify(child)
            value = self._search(child, depth - 1)
            if value < 0:
                history[reply] = history.get(reply, 0) + depth * depth
                if value == -1 - INFINITE:
                    self._remember_threat(reply)
                return self._record_loss(key, _successor_loss(-1 - value))
            deepest = max(deepest, value)
        return self._record_win(key, deepest + 1, 0)

    # -- depth-first proof-number search ---------------------------------------------

    def _proof_numbers(self, key: State, depth: int, pn_limit: int, dn_limit: int) -> None:
        """Work on "won within `depth`" until its proof or disproof number reaches its
        limit (df-pn); a state settled here is recorded in `solved`."""
        self._count()
        if depth == 1 and key not in self.expansions:
            self._last_step(key)
            return
        expansion = self._expand_unless_threatened(key)
        if expansion is None:
            self._record_loss(key, INFINITE)
            return
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
                self._record_win(key, deepest + 1, best)
                self.numbers.pop((key, depth), None)
                return
            if numbers.dn == 0:
                self._record_loss(key, self._refuted_bound(expansion, below))
                self.numbers.pop((key, depth), None)
                return
            if numbers.pn >= pn_limit or numbers.dn >= dn_limit:
                if len(self.numbers) >= self.limits.numbers:
                    self.numbers.clear()
                self.numbers[(key, depth)] = (numbers.pn, numbers.dn)
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
        """The proof and disproof numbers of a node, an OR over the team's actions of ANDs
        over the opponents' replies, with its most proving action and reply."""
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

    def _loss_bound(self, key: State, depth: int) -> int:
        """The depth `key` is proved not won within, if it is not won within `depth`;
        -1 otherwise."""
        known = self._known(key, depth)
        if known is None:
            return 0 if depth == 0 else -1  # non-terminal at the horizon: not won within 0
        return -1 - known if known < 0 else -1

    def _reward(self, action: TeamAction, depth: int) -> None:
        """The history heuristic: a team action that proved a win is tried early again."""
        self.my_history[action] = self.my_history.get(action, 0) + depth * depth

    # -- the strategy ---------------------------------------------------------------------

    def choose(self, state: State, remaining: int) -> TeamAction:
        """The team's action in `state` (a real state, not a representative) that the
        proved win within `remaining` steps takes: the action the table gives its
        representative, mapped back. A state the tables dropped is proved again."""
        actions = self.sides.choices(state)[0]
        if len(actions) == 1:
            return actions[0]
        key, transform = self._canonical(state)
        if self._prove_key(key, remaining, depth_first=True) < 0:
            raise AssertionError("a state on a proved strategy is not won")
        entry = self.solved[key]
        if entry.choice < 0:  # won at once by the game's ending move
            wanted = self.sides.ending_action(key)
        else:
            wanted = self.sides.choices(key)[0][entry.choice]  # the expansion's order
        if transform is None:
            return wanted
        return next(a for a in actions if map_team_action(transform, self.sides.team, a) == wanted)

    def _canonical(self, state: State) -> tuple[State, Transform | None]:
        if self.symmetry is None:
            return state, None
        return self.symmetry.canonical(state)


def share_wins(prover: Prover, rival: Prover) -> None:
    """Let two provers of opposite questions (a team's and its spoilers': a state cannot be
    won for both, at any depths, as a line of play where each follows its strategy ends in
    one terminal state) use each other's wins, where they key states alike."""
    if prover.symmetry is rival.symmetry:
        prover.rival, rival.rival = rival, prover


def _rank(entry: _Solved) -> int:
    """What a prune keeps first: terminal states (won at 0 or lost at every depth), then
    the largest depth an entry settles (the depth of its loss, or of its win if larger)."""
    depth = max(entry.loss, entry.win if entry.win < INFINITE else -1)
    protected = entry.win == 0 or entry.loss >= INFINITE
    return depth + (INFINITE + 1 if protected else 0)


def _successor_loss(bound: int) -> int:
    """A child not won within `bound` makes its parent's action not won within bound + 1."""
    return bound if bound >= INFINITE else bound + 1


def _widened(number: int) -> int:
    """A sibling's proof or disproof number plus one, widened by EPSILON (the 1 + epsilon
    trick: fewer returns to a parent that would choose the same child again)."""
    return number if number >= INFINITE else number + 1 + int(number * EPSILON)


def _minus(limit: int, amount: int) -> int:
    return limit if limit >= INFINITE else max(limit - amount, 0)
