"""The proofs of invariants.py, by induction over one step (or k) from an arbitrary state in
an incremental SAT solver: Houdini's fixpoint for state invariants, a family at a time,
k-induction for counters, balances and limits."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

import numpy as np

from gamecheck.budget import Budget, OutOfBudget
from gamecheck.solvers.ground.action_cases import ActionCases
from gamecheck.solvers.ground.circuit import value
from gamecheck.solvers.ground.invariant_kinds import Counter, Feature, Limit, StateInvariant
from gamecheck.solvers.ground.joint_houdini import houdini_by_cases
from gamecheck.solvers.ground.parities import Parity, find_parities
from gamecheck.solvers.ground.transition import TransitionSystem
from gamecheck.solvers.ground.unroll import reaches, unbroken
from gamecheck.solvers.ground.unroll_cnf import CnfUnrolling
from gamecheck.solvers.sat import Lit, holds, negate

INDUCTION_DEPTHS = (1, 2, 4)
"""Counters are proved by k-induction for these k, the smallest first."""
BALANCE_DEPTHS = (0, 1)
"""And balances for these (each try costs its sum at every layer: cubicup's three false
balance candidates took 2.5 s each with k up to 4)."""
LIMIT_SHARE = 0.1
"""The share of the time left that proving one limit may take (a limit only narrows the
depths a count allows; cittaceot's took 11-27 s each, before the ranking had its turn)."""
MAX_BATCH = 1024
"""Candidates run to a Houdini fixpoint of their own before the next are tried."""
BATCH_SHARE = 0.25
FIRST_TRY_SECONDS = 2.0
"""The share of the time left, and the seconds at most, that a batch may take on its first
try (a batch that needs more is tried again once every other family that fits in a batch
has had its turn): amazons_10x10's "one piece moved last", 10 candidates, ran out of 15 s
over the whole step where one joint action at a time proves it in 3.3 s; on 35 of 91 corpus
sheets with questions unsettled, first tries that ran out took 2-21 s of a 36 s budget."""
CASES_SHARE = 0.5
"""The share of the time left that proving balances one joint action at a time may take
(joint_cases.py; the cases it leaves are asked after the exclusions, counts and limits, in
all the time left: cylinder checkers' 2288 cases take 8-11 s, asked whole 25-50 s), and
Houdini's batches (joint_houdini.py); those it does not prove are then asked whole."""


def proved_each(prove, candidates: list, share: float, budget: Budget, *, most=None) -> list:
    """The candidates that `prove(candidate, budget=...)` proves, each within `share` of the
    time left (a candidate whose share runs out is left out), the first `most` at most."""
    proved = []
    for candidate in candidates:
        if len(proved) == most:
            break
        try:
            if prove(candidate, budget=budget.part(share=share)):
                proved.append(candidate)
        except OutOfBudget:
            budget.check()  # only the candidate's share ran out
    return proved


class Induction:
    """One step from an arbitrary state, in an incremental SAT solver."""

    def __init__(self, system: TransitionSystem, unrolling: CnfUnrolling):
        self.system = system
        self.unrolling = unrolling
        self.step = self.unrolling.alive(1)
        self.cases = ActionCases(unrolling)
        self.statistics = dict.fromkeys(
            (
                "houdini_batches",
                "houdini_batches_proved",
                "houdini_batches_deferred",
                "houdini_batches_by_cases",
                "houdini_sat_calls",
                "houdini_together_proved",
                "houdini_together_calls",
                "parity_sat_calls",
            ),
            0,
        )

    def houdini(
        self,
        candidates: list[StateInvariant],
        *,
        budget: Budget,
        proved: Iterable[StateInvariant] = (),
    ) -> list[StateInvariant]:
        """The candidates proved invariant (with the `proved` invariants assumed before and
        after the step) within the budget: a batch at a time, then all that is left at once.

        Each batch (a family of candidates, or MAX_BATCH of a larger one) is run to its
        Houdini fixpoint under the invariants proved so far, and what remains of it is
        proved: it holds initially, and a step from any state satisfying it and the proved
        invariants, to a state satisfying those (as every reachable state does), keeps it;
        so by induction on the steps it holds in every reachable state. What a batch
        proves is assumed for the next. The families that fit in a batch go first, the
        smallest first, each within BATCH_SHARE of the time left and FIRST_TRY_SECONDS at
        most; those that take longer are tried again, one joint action at a time first
        (joint_houdini.py), then over the whole step without that limit, before the pieces
        of the larger families.
        Last, the candidates still unproved are run to one fixpoint together, which also
        finds those inductive only together (with the proved ones assumed, this keeps at
        least what one run over all of the candidates would). A run the budget cuts short
        proves nothing; what was proved before it stands, and the budget's end is left for
        the caller to see."""
        proved = list(proved)
        initial = self.system.evaluate(self.system.initial)
        active = [c for c in candidates if value(initial, c.literal)]
        assumed = self.unrolling.new_variable()
        self._assume(assumed, proved)
        found: list[StateInvariant] = []
        small, large = _batches(active)
        self.statistics["houdini_batches"] += len(small) + len(large)
        try:
            deferred = []
            for batch in small:
                part = budget.part(share=BATCH_SHARE).part(FIRST_TRY_SECONDS)
                try:
                    found += self._prove(batch, assumed, part)
                except OutOfBudget:
                    budget.check()  # only the batch's share ran out
                    deferred.append(batch)
            self.statistics["houdini_batches_deferred"] += len(deferred)
            for batch in deferred:
                found += self._by_cases(batch, assumed, [*proved, *found], budget)
            for batch in large:
                found += self._prove(batch, assumed, budget)
            settled = set(found)
            rest = [c for c in active if c not in settled]
            if len(small) + len(large) > 1 and rest:
                found += self._together(rest, assumed, budget)
        except OutOfBudget:
            pass  # the batches proved so far stand
        finally:
            self.unrolling.add_clause([-assumed])
        return found

    def _together(
        self, rest: list[StateInvariant], assumed: int, budget: Budget
    ) -> list[StateInvariant]:
        """The fixpoint of the candidates no batch proved, run together; what it proves and
        the SAT calls it makes (or made before the budget ended) counted in the statistics
        (houdini_together_proved, houdini_together_calls)."""
        calls = self.statistics["houdini_sat_calls"]
        try:
            proved = self._fixpoint(rest, assumed, budget)
        finally:
            made = self.statistics["houdini_sat_calls"] - calls
            self.statistics["houdini_together_calls"] += made
        self.statistics["houdini_together_proved"] += len(proved)
        return proved

    def _prove(
        self, batch: list[StateInvariant], assumed: int, budget: Budget
    ) -> list[StateInvariant]:
        """The batch's fixpoint, from now on assumed with what `assumed` switches on."""
        kept = self._fixpoint(batch, assumed, budget)
        self._assume(assumed, kept)
        self.statistics["houdini_batches_proved"] += 1
        return kept

    def _by_cases(
        self, batch: list[StateInvariant], assumed: int, proved: list, budget: Budget
    ) -> list[StateInvariant]:
        """The fixpoint of a batch the whole step did not settle in its share: one joint
        action at a time first, within CASES_SHARE of the time left; then, over the whole
        step, what that leaves (all of it where the joint actions are too many to split)."""
        try:
            kept = houdini_by_cases(self.system, batch, proved, budget.part(share=CASES_SHARE))
        except OutOfBudget:
            budget.check()  # only the cases' share ran out
            kept = None
        if kept is None:
            return self._prove(batch, assumed, budget)
        self._assume(assumed, kept)
        self.statistics["houdini_batches_by_cases"] += 1
        settled = set(kept)
        rest = [candidate for candidate in batch if candidate not in settled]
        return kept + (self._prove(rest, assumed, budget) if rest else [])

    def _assume(self, switch: int, invariants: Iterable[StateInvariant]) -> None:
        """Let `switch` assume the invariants before and after the step."""
        for invariant in invariants:
            for t in (0, 1):
                self.unrolling.add_clause([-switch, self.unrolling.literal(invariant.literal, t)])

    def _fixpoint(
        self, candidates: list[StateInvariant], assumed: int, budget: Budget
    ) -> list[StateInvariant]:
        """Houdini's fixpoint: the largest subset of the candidates that a step from a state
        satisfying it (and what `assumed` switches on) keeps; OutOfBudget if the budget
        ends first."""
        unrolling = self.unrolling
        switches, broken = {}, {}
        for candidate in candidates:
            switches[candidate] = switch = unrolling.new_variable()
            unrolling.add_clause([-switch, unrolling.literal(candidate.literal, 0)])
            broken[candidate] = negate(unrolling.literal(candidate.literal, 1))
        return self._unbroken(broken, switches, [self.step, assumed], budget)

    def _unbroken(self, broken: dict, switches: dict, assumed: list[Lit], budget: Budget) -> list:
        """Houdini's loop (`unbroken`): the most keys of `broken` (each with a solver
        literal: the step breaks it) that no step breaks from a state where their
        `switches` (and `assumed`) hold, each call counted in houdini_sat_calls."""

        def solve(some: int, active: list):
            self.statistics["houdini_sat_calls"] += 1
            assumptions = [*assumed, some, *(switches[key] for key in active)]
            return self.cases.satisfiable(assumptions, 0, budget)

        return unbroken(self.unrolling, broken, solve)

    def parities(self, playouts, samples, groups, state, budget: Budget) -> list[Parity]:
        """The parities (parities.py) that a step from any state satisfying the proved
        `state` invariants (to one that does) keeps, found within the budget."""
        unrolling = self.unrolling
        flips = [  # per fluent: the step flips it
            unrolling.xor(unrolling.literal(node, 0), unrolling.literal(node, 1))
            for node in self.system.fluent_nodes
        ]
        assumed = unrolling.new_variable()
        self._assume(assumed, state)

        def step_flips(candidates: list[tuple[int, ...]]) -> np.ndarray | None:
            some = unrolling.new_variable()
            odd = [unrolling.odd(flips[i] for i in members) for members in candidates]
            unrolling.add_clause([-some, *odd])
            try:
                model = self.cases.satisfiable([self.step, assumed, some], 0, budget)
            finally:
                unrolling.add_clause([-some])
            self.statistics["parity_sat_calls"] += 1
            if model is False:
                return None
            return np.array([holds(flip, model) for flip in flips])

        try:
            return find_parities(self.system, playouts, samples, groups, step_flips, budget)
        finally:
            unrolling.add_clause([-assumed])

    def counts_steps(
        self, counter: Counter, state: Iterable[StateInvariant], budget: Budget
    ) -> bool:
        """Whether every step changes the counter's features in one of its sampled ways
        (each adds the counter's rate), or, for a clock, takes its number to the next, by
        k-induction (`_k_induction`)."""
        if counter.clock:
            return self._keeps(counter, state, budget, INDUCTION_DEPTHS, self._number_skipped)
        for k in INDUCTION_DEPTHS:
            proved = self._k_induction(partial(self._unsampled, counter), state, budget, k)
            if proved is not None:
                return proved
        return False

    def step_counter(
        self, register: Feature, sign: int, first: int, farthest: int, state, budget: Budget
    ) -> Counter | None:
        """The register as a counter of the steps (its numbers weighed by `sign`), if
        proved by `counts_steps`: over its numbers from `first` on, its way, up to the
        first from `farthest` on that no state the proved invariants allow can step on
        from (a step counter's last number ends the game; the rules may count further).
        Exactly one of those numbers holds in every reachable state, which the proof
        shows too."""
        unrolling = self.unrolling
        moving = [unrolling.alive(1)]  # a step from layer 0, a state the invariants allow
        moving += [unrolling.literal(invariant.literal, 0) for invariant in state]
        terms = []
        for number, literal in sorted(register.terms, key=lambda term: sign * term[0]):
            if sign * number < sign * first:
                continue
            terms.append((sign * number, literal))
            if sign * number < sign * farthest:
                continue
            there = unrolling.literal(literal, 0)
            if unrolling.satisfiable([*moving, there], budget) is False:
                break
        literals = [literal for _, literal in terms]
        low, high = sorted((first, sign * terms[-1][0]))
        one = self.system.circuit.conj(
            [self.system.circuit.disj(literals), self.system.circuit.at_most_one(literals)]
        )
        counter = Counter(
            features=tuple((weight, (literal,)) for weight, literal in terms),
            start=sign * first,
            steps=(),
            description=f"{register.description} {'grows' if sign > 0 else 'falls'} by one "
            "every step",
            holding=(
                StateInvariant(one, f"one {register.description} from {low} to {high}", "clocks"),
            ),
            register=len(terms),
        )
        return counter if self.counts_steps(counter, state, budget) else None

    def keeps_balance(
        self, balance: Counter, state: Iterable[StateInvariant], budget: Budget, depths=None
    ) -> bool:
        """Whether no step changes the balance's sum (nor breaks what it is `holding`), by
        k-induction for the k of `depths` (BALANCE_DEPTHS if None)."""
        depths = BALANCE_DEPTHS if depths is None else depths
        return self._keeps(balance, state, budget, depths, self._unbalanced)

    def balances_kept_together(
        self, balances: list[Counter], state: Iterable[StateInvariant], budget: Budget
    ) -> list[Counter]:
        """Houdini's fixpoint over balances: the most of them that a step from a state
        where all of them (and the proved invariants) hold keeps. Each holds initially, so
        together they hold in every reachable state. One run proves them all at the cost
        of about one (checkers: its three piece balances in 31 s, where two of them took 36 s
        one by one and the third, which those two imply, is not kept by a step alone)."""
        unrolling = self.unrolling
        active = [balance for balance in balances if self._holding_initially(balance, budget)]
        switches = {}
        for index, balance in enumerate(active):
            switches[index] = switch = unrolling.new_variable()
            unrolling.add_balance(balance, 0, switch)
            for held in balance.holding:
                unrolling.add_clause([-switch, unrolling.literal(held.literal, 0)])
        broken = {index: self._unbalanced(balance, 0) for index, balance in enumerate(active)}
        proved = [unrolling.literal(invariant.literal, t) for invariant in state for t in (0, 1)]
        try:
            kept = self._unbroken(broken, switches, [unrolling.alive(1), *proved], budget)
        finally:
            for switch in switches.values():
                unrolling.add_clause([-switch])
        return [active[index] for index in kept]

    def _holding_initially(self, counter: Counter, budget: Budget) -> bool:
        """Whether what the counter is holding holds in the initial state."""
        initial = self.unrolling.initial_state()
        return all(
            self.unrolling.satisfiable(
                [*initial, negate(self.unrolling.literal(held.literal, 0))], budget
            )
            is False
            for held in counter.holding
        )

    def _keeps(self, counter: Counter, state, budget: Budget, depths, broken) -> bool:
        """Whether no step is `broken` for the counter (a function of the counter and t),
        by k-induction (`_k_induction`) for the k of `depths`, what the counter is holding
        (and a balance's sum) assumed before the step checked."""
        if not self._holding_initially(counter, budget):
            return False
        for k in depths:
            kept = self.unrolling.new_variable()
            for t in range(k + 1):
                if not counter.rate:
                    self.unrolling.add_balance(counter, t, kept)
                for held in counter.holding:
                    self.unrolling.add_clause([-kept, self.unrolling.literal(held.literal, t)])
            proved = self._k_induction(partial(broken, counter), state, budget, k, kept=kept)
            self.unrolling.add_clause([-kept])
            if proved is not None:
                return proved
        return False

    def keeps_limit(self, limit: Limit, state: Iterable[StateInvariant], budget: Budget) -> bool:
        """Whether every step moves the limit's count by 0 or 1 its way, by k-induction
        (`_k_induction`)."""
        for k in INDUCTION_DEPTHS:
            proved = self._k_induction(partial(self._beyond, limit), state, budget, k)
            if proved is not None:
                return proved
        return False

    def kept_limits(self, limits: list[Limit], state, budget: Budget) -> list[Limit]:
        """The limits `keeps_limit` proves, each within LIMIT_SHARE of the time left."""
        return proved_each(partial(self.keeps_limit, state=state), limits, LIMIT_SHARE, budget)

    def _beyond(self, limit: Limit, t: int) -> Lit:
        """A solver literal (fresh): the step from layer t moves the limit's count against
        its sign, or by more than one."""
        beyond = self.unrolling.new_variable()
        change = self._sum_change([(limit.sign, literal) for literal in limit.literals], t)
        self.unrolling.add_clause([-beyond, *self._outside(change, 0, 1)])
        return beyond

    def _k_induction(self, broken, state, budget: Budget, k: int, *, kept: Lit = True):
        """Whether no step is `broken` (a function of t giving a solver literal: the step
        from layer t breaks the property): True if the step after k steps from any state,
        all of them satisfying the proved invariants (and `kept`), is never broken, nor is
        any step of a line of play from the initial state up to step k (the base case);
        False if the base case fails; None if the step after k steps is not settled."""
        unrolling = self.unrolling
        assumptions = [unrolling.alive(k + 1), kept, broken(k)]
        for invariant in state:
            assumptions += [unrolling.literal(invariant.literal, t) for t in range(k + 2)]
        if self.cases.satisfiable(assumptions, k, budget) is not False:
            return None
        initial = self.unrolling.initial_state()
        return all(
            unrolling.satisfiable([*initial, unrolling.alive(t + 1), broken(t)], budget) is False
            for t in range(k)
        )

    def _unsampled(self, counter: Counter, t: int) -> Lit:
        """A solver literal: the step from layer t changes the counter's features in none
        of its sampled ways."""
        unrolling = self.unrolling
        options = [
            unrolling.conjunction(
                self._changes(literals, changes[direction], at=t, rising=direction == 0)
                for (_, literals), changes in zip(counter.features, way, strict=True)
                for direction in (0, 1)
            )
            for way in counter.steps
        ]
        return unrolling.conjunction(negate(option) for option in options)

    def _unbalanced(self, balance: Counter, t: int) -> Lit:
        """A solver literal (fresh): the step from layer t changes the balance's sum, or
        what it is `holding` fails after it."""
        unrolling = self.unrolling
        changed = unrolling.new_variable()
        broken = [negate(unrolling.literal(held.literal, t + 1)) for held in balance.holding]
        if balance.pinned is None:
            broken += self._outside(self._sum_change(balance.terms, t), 0, 0)
        else:
            broken += self._unpinned(balance, t)
        unrolling.add_clause([-changed, *broken])
        return changed

    def _unpinned(self, balance: Counter, t: int) -> list[Lit]:
        """Solver literals (fresh): the step from layer t, where the balance holds, breaks
        it. The count after the step is the count its register pinned before, plus the
        counted literals that rise, less those that fall: written over the few literals a
        step changes, in unary, it leaves the solver no counting to do. Broken where that
        differs from the count pinned after, or the numbers after pin different counts."""
        unrolling = self.unrolling
        rises = self._turning(balance.counted, t, rising=True)
        falls = self._turning(balance.counted, t, rising=False)
        reached = self._most_pinned(balance, t)
        after = self._most_pinned(balance, t + 1)
        below, never = self._pin_conflicts(balance, t + 1)
        gained = unrolling.merge(reached, unrolling.count(rises))
        kept = unrolling.merge(after, unrolling.count(falls))
        wrong = list(never)
        pairs = list(zip(after, below, strict=True))
        for more, less in ((gained, kept), (kept, gained)):
            pairs += [(literal, negate(reaches(less, j + 1))) for j, literal in enumerate(more)]
        for first, second in pairs:
            both = unrolling.conjunction([first, second])
            if both is not False:
                wrong.append(both)
        return wrong

    def _most_pinned(self, balance: Counter, t: int) -> list[Lit]:
        """At layer t, in unary, the most any number of the register that holds pins (x[j]:
        more than j), as solver literals."""
        most = _most_pinned_count(balance)
        return [self._some_number(balance, t, j + 1, most) for j in range(most)]

    def _pin_conflicts(self, balance: Counter, t: int) -> tuple[list[Lit], list[Lit]]:
        """At layer t, solver literals: y[j]: some number of the register that holds pins j
        or less; and the numbers that hold and pin no count."""
        below = [self._some_number(balance, t, 0, j) for j in range(_most_pinned_count(balance))]
        never = [self.unrolling.literal(lit, t) for lit, count in balance.pinned if count < 0]
        return below, never

    def _some_number(self, balance: Counter, t: int, low: int, high: int) -> Lit:
        """A solver literal: at layer t some number of the register holds that pins a count
        from `low` to `high`."""
        unrolling = self.unrolling
        numbers = [
            unrolling.literal(lit, t) for lit, count in balance.pinned if low <= count <= high
        ]
        return negate(unrolling.conjunction([negate(number) for number in numbers]))

    def _number_skipped(self, counter: Counter, t: int) -> Lit:
        """A solver literal: the step from layer t does not take a clock from its number to
        the next (the number plus its rate), or what it is `holding` (exactly one number)
        fails after it."""
        unrolling = self.unrolling
        after = {weight: unrolling.literal(lit, t + 1) for weight, lit in counter.terms}
        taken = [
            negate(
                unrolling.conjunction(
                    [unrolling.literal(lit, t), negate(after.get(weight + counter.rate, False))]
                )
            )
            for weight, lit in counter.terms
        ]
        held = [unrolling.literal(held.literal, t + 1) for held in counter.holding]
        return negate(unrolling.conjunction([*taken, *held]))

    def _outside(self, change: list[tuple[int, Lit]], low: int, high: int) -> list[Lit]:
        """Two solver literals (fresh): the first holds only where the weighted sum of the
        `change` terms is below `low`, the second only where it is above `high`."""
        unrolling = self.unrolling
        most = sum(abs(weight) for weight, _ in change)
        below, above = unrolling.new_variable(), unrolling.new_variable()
        unrolling.add_linear(change, -most, low - 1, condition=below)
        unrolling.add_linear(change, high + 1, most, condition=above)
        return [below, above]

    def _sum_change(self, terms: list[tuple[int, int]], t: int) -> list[tuple[int, Lit]]:
        """(weight, solver literal) terms whose sum is how the step after layer t changes
        the weighted sum of the (weight, circuit literal) `terms`: a literal that rises adds
        its weight, one that falls takes it away. Written over the few literals a step
        changes, not as two sums compared, it leaves the solver no counting to do."""
        unrolling = self.unrolling
        change = []
        for weight, literal in terms:
            before, after = unrolling.literal(literal, t), unrolling.literal(literal, t + 1)
            change.append((weight, unrolling.conjunction([after, negate(before)])))
            change.append((-weight, unrolling.conjunction([before, negate(after)])))
        return change

    def assume_balances(self, balances: Iterable[Counter]) -> None:
        """Assume the (proved) balances before and after the step from now on."""
        for balance in balances:
            for t in (0, 1):
                self.unrolling.add_balance(balance, t)

    def _changes(self, literals: tuple[int, ...], count: int, *, at: int, rising: bool):
        """A solver literal: exactly `count` of the literals rise (or fall) from layer `at`
        to the next."""
        changed = [lit for lit in self._turning(literals, at, rising=rising) if lit is not False]
        if count > len(changed):
            return False
        return _exactly(self.unrolling, changed, count)

    def _turning(self, literals: Iterable[int], at: int, *, rising: bool) -> list[Lit]:
        """Per circuit literal, a solver literal: it rises (or falls) from layer `at` to the
        next."""
        unrolling = self.unrolling
        turning = []
        for literal in literals:
            before, after = unrolling.literal(literal, at), unrolling.literal(literal, at + 1)
            pair = (after, negate(before)) if rising else (before, negate(after))
            turning.append(unrolling.conjunction(pair))
        return turning


def _most_pinned_count(balance: Counter) -> int:
    return max((count for _, count in balance.pinned), default=0)


def _batches(
    candidates: list[StateInvariant],
) -> tuple[list[list[StateInvariant]], list[list[StateInvariant]]]:
    """The candidates by family: the families of at most MAX_BATCH, and pieces of MAX_BATCH
    of the larger ones, the smallest families first (ties by name, so that the order is the
    same every run)."""
    families: dict[str, list[StateInvariant]] = {}
    for candidate in candidates:
        families.setdefault(candidate.family, []).append(candidate)
    order = sorted(families.items(), key=lambda item: (len(item[1]), item[0]))
    small = [members for _, members in order if len(members) <= MAX_BATCH]
    large = [
        members[start : start + MAX_BATCH]
        for _, members in order
        if len(members) > MAX_BATCH
        for start in range(0, len(members), MAX_BATCH)
    ]
    return small, large


def _exactly(unrolling, literals: list, k: int):
    """A solver literal true when exactly k of the (solver) literals are: a unary counter."""
    reached = [True] + [False] * (k + 1)
    for literal in literals:
        for j in range(k + 1, 0, -1):
            reached[j] = negate(
                unrolling.conjunction(
                    [negate(reached[j]), negate(unrolling.conjunction([literal, reached[j - 1]]))]
                )
            )
    return unrolling.conjunction([reached[k], negate(reached[k + 1])])
