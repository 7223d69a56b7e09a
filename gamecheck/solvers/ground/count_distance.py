"""A lower bound on the steps to a condition from one count of fluents: every state of the
condition holds `need` more of them than the initial state (or fewer), and no k steps raise
(lower) the count by more than a rate proved for k.

In gomoku a line is five stones of one colour; the board starts empty, and a colour gets at
most one stone in any two steps (the players alternate): no line of black before step 9,
where one step at a time (five stones, five steps) proves 5. Where the condition is a
disjunction (a line of black, one of white, or a full board), each disjunct is bounded by
its best count and the least of those bounds holds. The best count is then bounded in the
first steps of a game too, from the initial state: in swap2 gomoku a step goes on picking
colours, so black has at most three stones after seven steps and at most one more in any
two, and no line of black comes before step 10.

Counts are those the invariant search weighs (count_candidates.count_features): the fluents
of one relation, or those with one value at one position. Needs and rates are proved by SAT
queries with a cardinality constraint on a free-start unrolling under the proved
invariants: from any such state, as in distance.py, which finds weighted sums instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property

import numpy as np

from gamecheck.budget import Budget, OutOfBudget
from gamecheck.solvers.ground.count_candidates import count_features
from gamecheck.solvers.ground.invariant_kinds import Counter, Feature
from gamecheck.solvers.ground.unroll import Unrolling
from gamecheck.solvers.sat import holds, negate

QUERY_SECONDS = 1.0
"""The most one query may take: the needs and rates that bound are refuted in well under a
second; a count of every cell of gomoku over two steps takes 9 s, and bounds no more than
one colour's, which takes 0.4 s."""
MOST_FLUENTS = 1024
"""A count of more fluents is not tried: its cardinality encodings, written before a query
and with no time limit inside, took 30 s and more on hexPie's 7,141 cell fluents (the
boards of the corpus count up to 450: gomoku's 15 x 15 cells of two colours)."""
MOST_WINDOW = 4
"""The longest run of steps a rate is proved for: one turn of play of up to four roles."""
MOST_OPENING = 12
"""The most first steps of a game a count is bounded in: swap2's opening takes six steps,
and the bound it gives shows from the seventh."""


class CountDistance:
    """Lower bounds on the steps to conditions of one game, sharing the rates proved."""

    def __init__(self, states: Unrolling):
        self.states = states
        system = states.system
        self.window = min(max(2, len(system.roles)), MOST_WINDOW)
        features = count_features(system, {}, {})
        distinct = {f.fluents: f for f in features if len(f.fluents) <= MOST_FLUENTS}
        self.features = list(distinct.values())
        self._rates: dict[tuple, tuple[int, int]] = {}
        """(feature's fluents, sign, steps) -> (rate, the most sought): exact if less."""
        self._bounds: dict[int, tuple[int | None, int | None]] = {}
        """Disjunct -> (the `enough` it was asked with, the steps it needs: None if none)."""
        self._cut = False
        """Whether a query was cut by its time since the last disjunct began."""
        self._steps_moving: dict[tuple, object] = {}
        """(feature's fluents, sign, step) -> whether that step of a line moves the count."""

    def steps_needed(
        self, condition: int, above: int, budget: Budget, most: int | None = None
    ) -> int | None:
        """The least steps from the initial state to a state satisfying `condition` (a
        circuit literal) that the counts prove, if more than `above`; else None. No bound
        beyond `most` (a line of play found) is sought. OutOfBudget if the budget ends."""
        bound = most
        for disjunct in self._disjuncts(condition):
            steps = self._known_steps(disjunct, bound, budget)
            if steps is None:
                continue  # no state satisfies it
            if steps <= above:
                return None
            bound = steps if bound is None else min(bound, steps)
        return bound if bound is not None and bound > above else None

    def _known_steps(self, disjunct: int, enough: int | None, budget: Budget) -> int | None:
        """`_disjunct_steps`, once per disjunct unless asked for more than it gave (or a
        query was cut by its time): a run that the budget cuts keeps the disjuncts it
        bounded, and the next round goes on from there."""
        if disjunct in self._bounds:
            asked, steps = self._bounds[disjunct]
            complete = asked is None or steps is None or steps < asked
            if complete or (enough is not None and steps >= enough):
                return steps
        self._cut = False
        steps = self._disjunct_steps(disjunct, enough, budget)
        if not self._cut:  # a query cut by its time may prove more another time
            self._bounds[disjunct] = (enough, steps)
        return steps

    def _disjunct_steps(self, condition: int, enough: int | None, budget: Budget) -> int | None:
        """The largest bound any count proves for `condition`, or the first that reaches
        `enough`; None if no state satisfies it. A count is tried only where every state of
        the condition seen so far (models of the queries) lies beyond the initial state's."""
        states, system = self.states, self.states.system
        reached = [states.alive(0), states.literal(condition, 0)]
        first = self._solve([], 0, 0, reached, budget)
        if first is False:
            return None
        if first is None:
            return 0
        seen = [self._state_of(first)]
        cone = {system.node_fluent.get(node) for node in system.circuit.cone([condition])}
        best, tightest = self._counter_steps(reached, budget), None
        for feature in self.features:
            if cone.isdisjoint(feature.fluents):
                continue
            for sign in (1, -1):
                start = self._start(feature)
                if all(sign * (_count(state, feature) - start) > 0 for state in seen):
                    need = self._need(reached, feature, sign, seen, budget)
                    rates = self._rates_to(feature, sign, need, enough, budget) if need else []
                    fewest = _fewest_steps(rates, need) if rates and all(rates) else 0
                    if fewest > best:
                        best, tightest = fewest, (feature, sign, need, rates)
                if enough is not None and best >= enough:
                    return best
        if tightest is None:
            return best
        return self._after_openings(*tightest, enough, budget)

    def _counter_steps(self, reached: list, budget: Budget) -> int:
        """The most steps any proved counter (its sum moves by its rate every step, as a
        step clock's number does) tells a state satisfying `reached` is from the start."""
        counters = self.states.invariants.counters if self.states.invariants else ()
        moving = [
            counter
            for counter in counters
            if counter.rate and counter.most_steps > 0 and len(counter.terms) <= MOST_FLUENTS
        ]
        return max((self._steps_by(counter, reached, budget) for counter in moving), default=0)

    def _steps_by(self, counter: Counter, reached: list, budget: Budget) -> int:
        """How many steps into the game the counter tells every state of `reached` is."""
        terms = [(weight, self.states.literal(lit, 0)) for weight, lit in counter.terms]
        lowest = sum(min(weight, 0) for weight, _ in terms)
        highest = sum(max(weight, 0) for weight, _ in terms)

        def none_within(steps: int) -> bool:
            """No state of the condition is fewer than `steps` steps into the game."""
            last = counter.start + counter.rate * (steps - 1)
            low, high = (lowest, last) if counter.rate > 0 else (last, highest)
            return self._solve(terms, low, high, reached, budget) is False

        return _largest(none_within, 1, counter.most_steps) if none_within(1) else 0

    def _need(self, reached: list, feature: Feature, sign: int, seen: list, budget: Budget) -> int:
        """How much the count must rise (sign 1) or fall (-1) from the initial state's to
        reach any state satisfying `reached`: at most what it does to the states `seen`
        (models found join them), 0 if it may not change at all or that is not proved."""
        start, total = self._start(feature), len(feature.fluents)
        terms = [(1, self.states.literal(literal, 0)) for literal in feature.literals]

        def none_within(change: int) -> bool:
            """No state of the condition has a count within `change` - 1 of the start's
            (False where the query's time ran out: not proved)."""
            low, high = (0, start + change - 1) if sign > 0 else (start - change + 1, total)
            found = self._solve(terms, low, high, reached, budget)
            if found is not None and found is not False:
                seen.append(self._state_of(found))
            return found is False

        most = min(sign * (_count(state, feature) - start) for state in seen)
        if not none_within(1):
            return 0
        return _largest(none_within, 1, most)

    @cached_property
    def _first_layer(self) -> list:
        """The solver literal of every fluent at layer 0."""
        return [self.states.literal(node, 0) for node in self.states.system.fluent_nodes]

    @cached_property
    def _initial_state(self) -> list:
        return self.states.initial_state()

    def _state_of(self, model) -> np.ndarray:
        """The state at layer 0 of a model: a value per fluent."""
        return np.array([holds(literal, model) for literal in self._first_layer])

    def _start(self, feature: Feature) -> int:
        initial = self.states.system.initial
        return sum(fluent in initial for fluent in feature.fluents)

    def _rates_to(
        self, feature: Feature, sign: int, need: int, enough: int | None, budget: Budget
    ) -> list[int]:
        """The most the count changes in the direction of `sign` in runs of 1, 2, ...
        window steps (proved in that order, until the steps they need reach `enough`, or
        a run cannot change it at all: what is never reached bounds nothing here, the
        invariants tell it)."""
        rates, fewest = [], 0
        while len(rates) < self.window and (enough is None or fewest < enough):
            rates.append(self._rate(feature, sign, len(rates) + 1, need, budget))
            if not rates[-1]:
                break
            fewest = _fewest_steps(rates, need)
        return rates

    def _after_openings(
        self,
        feature: Feature,
        sign: int,
        need: int,
        rates: list[int],
        enough: int | None,
        budget: Budget,
    ) -> int:
        """The fewest steps within which the count can change by `need`, by its `rates`
        and the most it changes in the first 1, 2, ... steps of a game: an opening that
        spends a step on no stone, as swap2's colour pick, delays every later run."""
        openings: list[int] = []
        fewest = _fewest_steps(rates, need)
        while len(openings) < min(fewest - 1, MOST_OPENING) and (enough is None or fewest < enough):
            opening = self._opening(feature, sign, len(openings) + 1, need, rates, budget)
            if opening is None or opening >= need:
                break  # no line of play lasts that long, unknown, or no bound from here on
            openings.append(opening)
            fewest = _fewest_steps(rates, need, openings)
        return fewest

    def _opening(
        self, feature: Feature, sign: int, steps: int, need: int, rates: list[int], budget: Budget
    ) -> int | None:
        """The most the count changes in the direction of `sign` in the first `steps` steps
        of a game, as bounded by the steps that change it that way at all, each by
        rates[0] at most: the SAT query counts steps, not fluents (which it would take
        every way to pick them to refute). `need` where a query's time runs out; None
        where no line of play lasts `steps` steps."""
        known = [*self._initial_state, self.states.alive(steps)]
        if self._solve([], 0, 0, known, budget) is False:
            return None
        moving = [(1, self._moves(feature, sign, t)) for t in range(1, steps + 1)]

        def reached(moves: int) -> bool | None:
            found = self._solve(moving, moves, steps, known, budget)
            return found if found is None else found is not False

        return rates[0] * _largest(reached, 0, -(-need // rates[0]))

    def _moves(self, feature: Feature, sign: int, step: int):
        """A solver literal: step `step` (from layer step - 1) turns one of the feature's
        fluents on (sign 1) or off (-1)."""
        key = (feature.fluents, sign, step)
        if key not in self._steps_moving:
            states = self.states
            still = [
                negate(states.turned(literal, step, rising=sign > 0, start=step - 1))
                for literal in feature.literals
            ]
            self._steps_moving[key] = negate(states.conjunction(still))
        return self._steps_moving[key]

    def _rate(self, feature: Feature, sign: int, steps: int, need: int, budget: Budget) -> int:
        """The most the count changes in the direction of `sign` over `steps` steps from a
        state that satisfies the invariants (`need` where it is that or more)."""
        key = (feature.fluents, sign, steps)
        rate, sought = self._rates.get(key, (0, 0))
        if rate == sought < need:  # not known beyond what was sought before (or at all)
            states = self.states
            rises = [states.turned(lit, steps, rising=sign > 0) for lit in feature.literals]
            falls = [states.turned(lit, steps, rising=sign < 0) for lit in feature.literals]
            terms = [(1, lit) for lit in rises] + [(-1, lit) for lit in falls]
            alive = [states.alive(steps)]

            def reached(change: int) -> bool | None:
                found = self._solve(terms, change, len(rises), alive, budget)
                return found if found is None else found is not False

            rate, sought = _largest(reached, rate, need), need
            self._rates[key] = rate, sought
        return min(rate, need)

    def _solve(self, terms, low: int, high: int, known: list, budget: Budget):
        """A model of a line of the free start that satisfies `known` and, if there are
        `terms`, low <= their sum <= high; False if there is none, None where QUERY_SECONDS
        end first (what is not refuted may be)."""
        budget.check()
        states = self.states
        query = states.new_variable()
        if terms:
            states.add_linear(terms, low, high, condition=query)
        try:
            return states.satisfiable([*known, query], budget.part(QUERY_SECONDS))
        except OutOfBudget:
            budget.check()  # only the query's time ran out
            self._cut = True
            return None
        finally:
            states.add_clause([-query])

    def _disjuncts(self, condition: int) -> list[int]:
        """`condition` as a disjunction: an OR's children, or an AND with an OR among its
        children distributed over that OR; else the condition alone."""
        circuit = self.states.system.circuit
        if condition < 0 and not circuit.is_input(-condition):
            return [-child for child in circuit.children[-condition]]
        if condition > 0 and not circuit.is_input(condition):
            children = circuit.children[condition]
            for child in children:
                if child < 0 and not circuit.is_input(-child):
                    rest = [other for other in children if other != child]
                    return [circuit.conj([*rest, -part]) for part in circuit.children[-child]]
        return [condition]


def _count(state: np.ndarray, feature: Feature) -> int:
    """How many of the feature's fluents hold in the state (a value per fluent)."""
    return int(state[list(feature.fluents)].sum())


def _fewest_steps(rates: list[int], need: int, openings: Sequence[int] = ()) -> int:
    """The fewest steps within which a count changes by `need`, if it changes by at most
    rates[k - 1] in any k steps (a run of steps splits into runs of at most len(rates)),
    and by at most openings[p - 1] in the first p steps of a game."""
    most_within = [0]  # the most the count changes within t steps
    while True:
        t = len(most_within) - 1
        after = [opening + most_within[t - p] for p, opening in enumerate(openings[:t], 1)]
        if min([most_within[t], *after]) >= need:
            return t
        runs = range(1, min(len(rates), t + 1) + 1)
        changes = [rates[k - 1] + most_within[t + 1 - k] for k in runs]
        most_within.append(max(most_within[-1], min(changes)))


def _largest(holds: Callable[[int], bool | None], low: int, high: int) -> int:
    """The largest x in low..high for which `holds` (true at `low`, then false from some
    x on) is true, or `high` once it is unknown (None) somewhere: tried at low + 1, 2, 4,
    ... first, since the answers are mostly small and a query far above the answer is the
    hardest to refute."""
    step = 1
    while low + step <= high:
        found = holds(low + step)
        if found is None:
            return high
        if not found:
            break
        low, step = low + step, 2 * step
    high = min(high, low + step - 1)
    while low < high:
        middle = (low + high + 1) // 2
        found = holds(middle)
        if found is None:
            return high
        low, high = (middle, high) if found else (low, middle - 1)
    return low
