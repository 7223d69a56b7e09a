"""Invariants of a transition system, guessed from random playouts and proved by induction.

Deep reachability questions often turn on arguments a SAT solver cannot find on its own:
"a cube is placed every step, so the pyramid cannot be full before step 84" is a counting
argument, and CDCL search rediscovers counting only at exponential cost. So we look for the
arguments first and hand them to the solver as constraints on every layer:

* state invariants, each a circuit literal true in every reachable state: a fluent that
  never holds (or always does), at most / at least one fluent of a group (fluents that
  differ in one argument only, e.g. the values of one cell, or in two, e.g. the cells where
  one role's piece may stand), an implication between two groups being occupied (a cube
  here needs the cubes under it), and no two roles' goal values that never occur together;
  where a balance (below) fails, clauses between relations are tried too, and the balance
  again: a marked box needs its four lines drawn (dots and boxes);
* counters: a weighted count of true fluents (or occupied groups) that grows by exactly
  one every step, e.g. the filled cells of a sudoku or 3 x marks + selections in 3D
  tic-tac-toe, so at layer t it equals its initial value plus t; and clocks, registers
  whose number every step raises (or lowers) by one, e.g. `(step 12)`, proved over the
  numbers from the initial one to the first that no state can step on from (the end of
  the game), so that no state lies deeper;
* balances: a weighted count that no step changes, e.g. black stones - white stones - (white
  to move) in gomoku, of any number of features (balances.py). A count may weigh a
  register, a group that holds one number in every state, by its number: in checkers,
  black's capture count + red's pieces = 12, which says that a capture count of 12 leaves
  red no piece to take, so the count never runs past the numbers the rules define. A
  count that no step changes is one too (each colour's three pegs in chinese checkers: the
  role to move has three to move or to pass with), written on a free start's layers only
  (every line of play from the initial state keeps it anyway);
* where no count is a counter, limits: a count that steps move one way only, by at most
  one, e.g. the blank cells of a puzzle (a step fills one cell or none), so at layer t it
  is within t of its initial value (a counter tells the depth already, and the limits' sums
  at every layer would only slow the solver down; a clock does not tell the count);
* where there is no counter, a ranking (solvers/ground/ranking.py): fluents that turn only
  one way, one of which every step turns, so that every game ends within a bound. It is
  sought first right after the state invariants and clocks, in a share of the time (the
  slower proofs below could take it all), then, if not found, again after them.
* functional dependencies among derived atoms (functional.py): a running count has one
  value in any state, proved on one layer of a free start (the verify pipeline asks for
  them after the rest, in a share of its own).
* parities (parities.py): sets of fluents of which an odd (or an even) number hold in every
  state, because no step flips an odd number of them: peg solitaire's position classes,
  which leave no single peg on the European board from its centre start. Sought right after
  the state invariants and clocks, in a share of the time; written on a free start's layers
  only (every line of play from the initial state keeps them anyway).

Candidates are the guesses that every sampled state satisfies (solvers/ground/sampling.py). The
proof is Houdini's induction: assume all remaining state candidates in an arbitrary state,
take one legal step from it, and ask the SAT solver for a candidate that fails afterwards;
drop every candidate the model breaks and ask again, until the answer is UNSAT. What
remains holds initially and is preserved by every step, so it holds in every reachable
state. The candidates are proved a family at a time, the smallest first, each family under
the invariants proved before it, and then what is left all at once (`_Induction.houdini`):
a budget too short for one run over thousands of candidates still proves the families it
finished. Counters are then proved by k-induction under the proved state invariants (every
step changes their features in one of the sampled ways; each candidate in a share of the
time); a balance by k-induction on its sum and its registers being there, the sum's change
written over the literals a step changes; and Houdini runs once more on the candidates
left, with the balances assumed. Each stage runs within the budget it is given; a run the
budget cuts short proves nothing (an unfinished Houdini run has not reached its fixpoint),
and what was proved before it stands.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property, partial

import numpy as np

from gamecheck.budget import Budget, OutOfBudget
from gamecheck.gdl.terms import Term, term_text
from gamecheck.solvers.ground.action_cases import ActionCases
from gamecheck.solvers.ground.balances import (
    balance_combinations,
    longer_balances,
    register_balances,
)
from gamecheck.solvers.ground.circuit import value
from gamecheck.solvers.ground.functional import Functional
from gamecheck.solvers.ground.joint_cases import kept_balances
from gamecheck.solvers.ground.joint_houdini import houdini_by_cases
from gamecheck.solvers.ground.parities import Parity, find_parities
from gamecheck.solvers.ground.ranking import Place, Ranking, find_ranking
from gamecheck.solvers.ground.sampling import Playouts, random_playouts
from gamecheck.solvers.ground.transition import TransitionSystem
from gamecheck.solvers.ground.unroll import reaches
from gamecheck.solvers.ground.unroll_cnf import CnfUnrolling
from gamecheck.solvers.sat import Lit, holds, negate

PLAYOUTS = 1024
MAX_STEPS = 1000
MAX_SAMPLES = 8192
"""Distinct sampled states that candidates are checked against (a seeded random choice)."""
VALUE_BYTES = 512 << 20
"""The most memory the circuit's node values in the sampled states may take (a byte each):
a big circuit gets fewer samples (at least MIN_SAMPLES), not gigabytes."""
MIN_SAMPLES = 64
COUNTER_PLAYOUTS = 64
"""Playouts whose steps suggest counters (plenty: a counter must fit every step exactly)."""
MAX_WEIGHT = 12
COUNTER_CANDIDATES = 4
"""Counters tried (the first found among single features, then among pairs of them)."""
PAIRS_BETWEEN_CHECKS = 1000
MIN_EXPECTED = 5.0
"""A two-literal clause is a candidate only if, were its literals independent, the samples
would falsify it this many times on average: never seeing it fail then means something."""
PAIR_BLOCK = 256
"""Atoms whose pairs are compared at once (a block x atoms matrix) between budget checks."""
PAIR_GROUP = 256
"""Groups over two arguments of more fluents than this are not tried (a 16 x 16 board's
cells for one role are; a whole relation of thousands, whose candidates seldom hold, not)."""
SMALL_RELATION = 48
"""Relations with at most this many fluents are bookkeeping (control, turn, selections)."""
MAX_LABELS = 10
"""Up to this many numbers in one argument are labels (digits 1-9); more are quantities."""
SPLIT_TERMS = 1024
"""A balance with a register is written per number if that takes at most this many terms."""
INDUCTION_DEPTHS = (1, 2, 4)
"""Counters are proved by k-induction for these k, the smallest first."""
BALANCE_DEPTHS = (0, 1)
"""And balances for these (each try costs its sum at every layer: cubicup's three false
balance candidates took 2.5 s each with k up to 4)."""
MAX_BALANCE_ENCODING = 500_000
"""A balance is not tried where its terms times their total weight, a rough size of the
encoding of its sum, exceed this: pacman2p's 325 pellets worth 1 to 100 (1.7M) took 19M
clauses, 28 s and 3 GB per bound; cubicup's biggest sum is 220k (170k clauses)."""
LONGER_ENCODING = 10_000
"""The largest encoding size a balance of more than three features, or of other weights
than +-1, may have (it is tried beside those and added to every layer): pentago's, 8325,
settles its shortest game in 13 s where 120 s settled none; 3D tic-tac-toe's x - o - (o to
move), 25545, answered the same in twice the time."""
CONSTANT_COUNTS = 6
"""Counts that no step changes tried as balances, the smallest first: with its four sheep,
sheepAndWolf's longest game is proved in 3.5 s (unknown at 120 s without)."""
MAX_LIMITS = 8
"""Limits tried, those with the most room to move first."""
LIMIT_SHARE = 0.1
"""The share of the time left that proving one limit may take (a limit only narrows the
depths a count allows; cittaceot's took 11-27 s each, before the ranking had its turn)."""
COUNTER_SHARE = 0.25
"""The share of the time left that proving one counter candidate may take (amazons' two
false ones took 11-12 s each, and the ranking, which would have ended it in 3 s, had none
left)."""
TIGHTEST_COUNTER_SHARE = 0.5
"""The share that the candidate bounding the depth tightest may take: amazons_8x8's, which
bounds every game by 112 steps where the next allows 124, took 4.5-6.2 s of the 5.2 s that
COUNTER_SHARE gave it, and, when it ran out, its longest game and earliest wins were unknown."""
EARLY_RANKING_SHARE = 0.5
"""The share of the time left after the state invariants and clocks that a first search for a
ranking by monotone fluents or places may take (amazons_8x8's takes 3 s, and without it
exclusions, counts and balances took the whole invariant budget; amazons_10x10's takes
3.2-3.8 s of the 13 s left there, and with 0.3 of them it ran out: every game unbounded)."""
LIMIT_TERMS = 1 << 16
"""A limit bounds its count at each layer until the count could reach its end (its room to
move): at most this many literals over those layers (a wide board's cells rising one a step
for a whole game would cost each layer's solver thousands of clauses)."""
MAX_BATCH = 1024
"""Candidates run to a Houdini fixpoint of their own before the next are tried."""
BATCH_SHARE = 0.25
FIRST_TRY_SECONDS = 2.0
"""The share of the time left, and the seconds at most, that a batch may take on its first
try (a batch that needs more is tried again once every other family that fits in a batch
has had its turn): amazons_10x10's "one piece moved last", 10 candidates, ran out of 15 s
over the whole step where one joint action at a time proves it in 3.3 s; on 35 of 91 corpus
sheets with questions unsettled, first tries that ran out took 2-21 s of a 36 s budget."""
STATE_SHARE = 0.6
"""The share of the time that proving the state candidates may take: the rest is left for
the counters and the ranking, which alone can bound the length of every game."""
LINK_SECONDS = 10.0
"""Time for finding and proving clauses between relations (`_links`), asked only where a
balance failed: in dots and boxes they make the score's balance inductive; on tron, with 846 of
them and no balance, they took 7 s that the ranking then lacked."""
CASES_SHARE = 0.5
"""The share of the time left that proving balances one joint action at a time may take
(joint_cases.py); those it does not prove are then asked whole."""
PARITY_SHARE = 0.1
"""The share of the time left that finding and proving parities (parities.py) may take:
where the samples show none, no solver call is made; one step of a big game (queens31lg's
962 actions) may take the solver seconds."""
EXCLUSION_SECONDS = 20.0
"""Time for proving exclusions between the fluents of large relations; if it runs out,
they are left out (what is proved stands without them)."""


@dataclass(frozen=True)
class StateInvariant:
    """A circuit literal that holds in every reachable state. `family` names the candidates
    it is first tried with (one relation's, one group family's, the goals', ...)."""

    literal: int
    description: str
    family: str = field(default="", compare=False)
    exclusive: tuple[int, ...] = field(default=(), compare=False)
    """For "at most one of these fluents holds": the fluents (indexes)."""


@dataclass(frozen=True)
class Counter:
    """At layer t: the sum over features of weight * (number of true literals) equals
    start + rate * t: a counter grows by one every step, a balance (rate 0) never changes.
    A counter's `steps` are the ways a step may change the features, each a tuple of
    (rises, falls) per feature: how many of its literals become true, and false (a
    balance, proved on its sum, has none)."""

    features: tuple[tuple[int, tuple[int, ...]], ...]
    start: int
    steps: tuple[tuple[tuple[int, int], ...], ...]
    description: str
    rate: int = 1
    holding: tuple[StateInvariant, ...] = ()
    """State invariants proved together with it (a register's number is always there)."""
    register: int = 0
    """How many of the first literals are a register's: one of them holds in every state."""
    constant: bool = False
    """A balance of one feature that no step changes (each side's three pegs in chinese
    checkers): written on a free start's layers only, as the functional dependencies are,
    since every line of play from the initial state keeps it anyway."""

    @property
    def sums(self) -> list[tuple[int | None, list[tuple[int, int]], int]]:
        """The balance in a state as (literal, terms, total): where the literal holds (always,
        where it is None), the weights of the true terms add up to the total. With a
        register whose other terms weigh differently (else it is `pinned`), one for each of
        its numbers, over the other terms: a weighted count pinned by the number, which
        propagates where a sum of both would not (unless that takes more than SPLIT_TERMS
        terms, as a step counter's hundred numbers would)."""
        terms = self.terms
        if not self.register or self.register * (len(terms) - self.register) > SPLIT_TERMS:
            return [(None, terms, self.start)]
        rest = terms[self.register :]
        return [(lit, rest, self.start - weight) for weight, lit in terms[: self.register]]

    @cached_property
    def pinned(self) -> list[tuple[int, int]] | None:
        """For a balance of a register against a count (its other terms all weigh the same):
        per number of the register, its literal and the count it pins (-1 where none
        fits: the number never holds); None for other sums. Written so, the count is
        taken once, in unary, where a sum per number would be a weighted sum each."""
        if not self.register or self.rate:
            return None
        terms = self.terms
        units = {weight for weight, _ in terms[self.register :]}
        if len(units) != 1:
            return None
        (unit,) = units
        pinned = []
        for weight, literal in terms[: self.register]:
            count, left = divmod(self.start - weight, unit)
            pinned.append((literal, -1 if left or count < 0 else count))
        return pinned

    @property
    def counted(self) -> list[int]:
        """The literals of its terms after the register's."""
        return [literal for _, literal in self.terms[self.register :]]

    @property
    def terms(self) -> list[tuple[int, int]]:
        """(weight, literal) for every literal of every feature."""
        return [(weight, literal) for weight, literals in self.features for literal in literals]

    @property
    def clock(self) -> bool:
        """Whether it is a clock: a register alone, whose one number tells the depth."""
        return self.rate != 0 and self.register == len(self.terms)

    @property
    def most_steps(self) -> int:
        """How deep into a game a state can be by the counter: its largest sum (a clock's
        largest number) less its start."""
        weights = [weight for weight, _ in self.terms]
        return (max(weights) if self.clock else sum(w for w in weights if w > 0)) - self.start

    @property
    def encoding_size(self) -> int:
        """Its terms times their total weight: a rough size of its sum's encoding (of the
        unary count and the register, where it is `pinned`)."""
        terms = self.terms
        if self.pinned is not None:
            return len(self.counted) ** 2 + self.register
        return len(terms) * sum(abs(weight) for weight, _ in terms)


@dataclass(frozen=True)
class Limit:
    """A count of true `literals` that no step moves against `sign` (+1: it never falls,
    -1: it never rises) nor by more than one: at layer t it lies between start and
    start + sign * t."""

    literals: tuple[int, ...]
    start: int
    sign: int
    description: str

    def bounds(self, depth: int) -> tuple[int, int]:
        """The least and the most the count can be `depth` steps into the game."""
        return tuple(sorted((self.start, self.start + self.sign * depth)))


@dataclass
class Invariants:
    state: list[StateInvariant] = field(default_factory=list)
    counters: list[Counter] = field(default_factory=list)
    ranking: Ranking | None = None
    """Where no counter is found: a bound on the length of every game (ranking.py)."""
    statistics: dict[str, float] = field(default_factory=dict)
    balances: list[Counter] = field(default_factory=list)
    """Counters with rate 0: they hold in every reachable state, whatever its depth."""
    limits: list[Limit] = field(default_factory=list)
    functional: list[Functional] = field(default_factory=list)
    """Groups of derived atoms of which at most one holds in any state (functional.py):
    free-start unrollings constrain each layer with them."""
    parities: list[Parity] = field(default_factory=list)
    """Sets of fluents whose number that hold keeps its parity (parities.py): free-start
    unrollings constrain each layer with them."""


@dataclass(frozen=True)
class _Feature:
    """A count over a state: how many of `literals` hold, or, with `weights`, the sum of the
    weights of those that hold (a register's number). `fluents` are the fluents it counts
    (an occupied group's members: one of them, where at most one holds; a register's: one
    per literal)."""

    literals: tuple[int, ...]
    description: str
    fluents: tuple[int, ...]
    weights: tuple[int, ...] | None = None
    holding: StateInvariant | None = None
    """What the count needs in every state (a register: some number is there)."""

    @property
    def terms(self) -> list[tuple[int, int]]:
        """(weight, literal) for every literal."""
        return list(zip(self.weights or (1,) * len(self.literals), self.literals, strict=True))

    @property
    def fluent_weights(self) -> dict[int, int]:
        """What each fluent adds to the count when it holds."""
        return dict(zip(self.fluents, self.weights or (1,) * len(self.fluents), strict=True))


def find_invariants(
    system: TransitionSystem,
    *,
    budget: Budget | None = None,
    playouts: Playouts | None = None,
    seed: int = 0,
    sat_solver: str | None = None,
) -> Invariants:
    """Proved state invariants and counters of the system, guessed from `playouts`
    (PLAYOUTS seeded random playouts if none are given), as many as the budget allows."""
    budget = budget or Budget()
    start = time.monotonic()
    if playouts is None:
        playouts = random_playouts(system, PLAYOUTS, max_steps=MAX_STEPS, seed=seed)
    groups = _groups(system.fluents)
    occupied = {
        key: system.circuit.disj(system.fluent_nodes[i] for i in members)
        for key, members in groups.items()
    }
    samples = _distinct_sample(playouts.visited(), seed, _most_samples(system))
    candidates, exclusions = [], []
    state: list[StateInvariant] = []
    counters: list[Counter] = []
    balances: list[Counter] = []
    limits: list[Limit] = []
    parities: list[Parity] = []
    ranking = None
    proofs: dict[str, int] = {}
    try:
        values = playouts.compiled(system, budget=budget).node_values(system, samples)
        candidates = _state_candidates(system, groups, occupied, values, budget)
        exclusions = _exclusions(system, values, budget)
        with CnfUnrolling(system, free_start=True, sat_solver=sat_solver) as unrolling:
            unrolling.budget = budget
            prover = _Induction(system, unrolling)
            proofs = prover.statistics
            state = prover.houdini(candidates, budget=budget.part(share=STATE_SHARE))
            features = _features(system, groups, occupied)
            registers = _registers(system, groups, occupied, values)
            changes = _feature_changes(system, playouts, registers + features, budget)
            counters = [  # clocks: cheap, and the depth they tell is worth more than exclusions
                clock
                for register, *way in _step_registers(changes, registers, values)
                if (clock := prover.step_counter(register, *way, state, budget))
            ]
            state += [held for clock in counters for held in clock.holding]
            try:
                part = budget.part(share=PARITY_SHARE)
                parities = prover.parities(playouts, samples, groups.values(), state, part)
            except OutOfBudget:
                budget.check()  # only the parities' share ran out
            places = [
                Place(occupied[key], tuple(members), _group_text(key))
                for key, members in groups.items()
                if len(members) > 1
            ]
            if not counters:  # fluents that run out often show it before any other proof
                ranking = _early_ranking(system, unrolling, playouts, state, places, budget)
            tried = [
                balance
                for balance in _balance_candidates(changes, registers + features, budget)
                + _constant_counts(system, changes, registers + features, groups, values)
                if balance.encoding_size <= MAX_BALANCE_ENCODING
            ]
            early = _kept_by_cases(prover, tried, state, budget)  # cheap where it works
            _add_balances(early, state, balances)
            part = budget.part(EXCLUSION_SECONDS)
            state += prover.houdini(exclusions, proved=state, budget=part)
            counted = changes and changes.dropping(len(registers))
            singles, pairs = _counter_candidates(counted, features, budget)
            proves = partial(prover.counts_steps, state=state)
            counts = _proved_tightest_first(proves, singles, budget, most=1)
            counts += _proved_tightest_first(proves, pairs, budget)
            counters += counts
            # a clock tells the depth, but not how far a count can have moved
            limit_candidates = _limit_candidates(counted, features) if not counts else []
            limits = prover.kept_limits(limit_candidates, state, budget)
            failed = _keep_balances(prover, tried, early, state, balances, budget)
            if failed:  # clauses between relations may make them inductive
                part = budget.part(LINK_SECONDS)
                try:
                    links = _links(system, groups, occupied, values, part)
                except OutOfBudget:
                    budget.check()  # only the links' share ran out
                    links = []
                linked = prover.houdini(links, proved=state, budget=part)
                if linked:
                    state += linked
                    _keep_balances(prover, failed, [], state, balances, budget)
            if balances:  # what the balances imply may now be inductive
                assumed = {id(balance) for balance in early}
                prover.assume_balances(b for b in balances if id(b) not in assumed)
                settled = set(state)
                rest = [candidate for candidate in candidates if candidate not in settled]
                state += prover.houdini(rest, proved=state, budget=budget)
            if not counters and ranking is None:
                ranking = find_ranking(system, unrolling, playouts, state, budget, places)
    except OutOfBudget:
        pass  # what was proved before the budget ended is kept
    statistics = {
        "candidates": len(candidates) + len(exclusions),
        "state_invariants": len(state),
        "counters": len(counters),
        "balances": len(balances),
        "limits": len(limits),
        "parities": len(parities),
        "samples": len(samples),
        "seconds": round(time.monotonic() - start, 3),
        **proofs,
    }
    if ranking is not None:
        statistics["steps_at_most_by_ranking"] = ranking.longest
    return Invariants(state, counters, ranking, statistics, balances, limits, parities=parities)


def _proved(prove, candidates: list, share: float, budget: Budget, *, most=None) -> list:
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


def _proved_tightest_first(prove, counters: list[Counter], budget: Budget, *, most=None):
    """The counters that `prove` proves (`_proved`), tried by the depth they bound, the
    tightest first and within TIGHTEST_COUNTER_SHARE of the time left, each of the others
    within COUNTER_SHARE."""
    counters = sorted(counters, key=lambda counter: counter.most_steps)
    proved = _proved(prove, counters[:1], TIGHTEST_COUNTER_SHARE, budget)
    rest = None if most is None else most - len(proved)
    return proved + _proved(prove, counters[1:], COUNTER_SHARE, budget, most=rest)


def _early_ranking(system, unrolling, playouts, state, places, budget: Budget) -> Ranking | None:
    """A ranking by monotone fluents or places, sought within EARLY_RANKING_SHARE of the
    time left, before the slower proofs (exclusions, counts, balances) take it; None if
    none is found (the full search comes again after them)."""
    part = budget.part(share=EARLY_RANKING_SHARE)
    try:
        return find_ranking(system, unrolling, playouts, state, part, places, potentials=False)
    except OutOfBudget:
        budget.check()  # only the early search's share ran out
        return None


def _keep_balances(
    prover, tried, by_cases: list, state: list, balances: list, budget: Budget
) -> list[Counter]:
    """Add to `balances` those of `tried` not `by_cases` (proved one joint action at a time,
    and assumed here) that are proved; the others. A balance of registers those all pin is
    not asked (checkers' two counts and the blank cells: what it says, those and each
    cell's one piece or blank say)."""
    prover.assume_balances(by_cases)
    pinned = {literal for balance in by_cases for literal, _ in balance.pinned}
    rest = [b for b in tried if b not in by_cases and not _registers_pinned(b, pinned)]
    together = {id(balance) for balance in prover.balances_kept_together(rest, state, budget)}
    kept = [
        balance
        for balance in rest
        if id(balance) in together
        or prover.keeps_balance(balance, state, budget, BALANCE_DEPTHS[1:])
    ]
    _add_balances(kept, state, balances)
    return [balance for balance in rest if balance not in kept]


def _add_balances(proved: list[Counter], state: list, balances: list) -> None:
    """Add proved balances to `balances`, and what they hold to `state`."""
    for balance in proved:
        balances.append(balance)
        state += [held for held in balance.holding if held not in state]


def _registers_pinned(balance: Counter, pinned: set[int]) -> bool:
    """Whether the balance weighs registers, all of whose numbers are in `pinned`."""
    numbers = {literal for _, literal in balance.terms[: balance.register]}
    return bool(numbers) and numbers <= pinned


def _kept_by_cases(prover, tried, state: list, budget: Budget) -> list[Counter]:
    """The balances of `tried` that `kept_balances` proves one joint action at a time,
    within CASES_SHARE of the time left."""
    try:
        return kept_balances(prover.system, tried, state, budget.part(share=CASES_SHARE))
    except OutOfBudget:
        budget.check()  # only the cases' share ran out
        return []


# -- candidates ----------------------------------------------------------------------------
def _groups(fluents: tuple[Term, ...]) -> dict[tuple, list[int]]:
    """Fluents that differ in one argument only, keyed by (relation, position, the other
    arguments): the possible values of one thing, such as one cell's mark."""
    groups: dict[tuple, list[int]] = {}
    for index, fluent in enumerate(fluents):
        if isinstance(fluent, str):
            continue
        relation, args = fluent[0], fluent[1:]
        for position in range(len(args)):
            rest = args[:position] + args[position + 1 :]
            groups.setdefault((relation, position, rest), []).append(index)
    return groups


def _most_samples(system: TransitionSystem) -> int:
    """MAX_SAMPLES, or as many as keep the node values within VALUE_BYTES."""
    return max(MIN_SAMPLES, min(MAX_SAMPLES, VALUE_BYTES // max(1, len(system.circuit))))


def _distinct_sample(states: np.ndarray, seed: int, most: int) -> np.ndarray:
    """At most `most` distinct states (rows), chosen at random with the seed."""
    packed = np.packbits(states, axis=1)
    _, first = np.unique(packed.view(f"V{packed.shape[1]}").ravel(), return_index=True)
    states = states[np.sort(first)]
    if len(states) > most:
        chosen = np.random.default_rng(seed).choice(len(states), most, replace=False)
        states = states[np.sort(chosen)]
    return states


def _row(values: np.ndarray, literal: int) -> np.ndarray:
    return values[literal] if literal > 0 else ~values[-literal]


def _state_candidates(system, groups, occupied, values, budget) -> list[StateInvariant]:
    candidates = []
    for index, node in enumerate(system.fluent_nodes):
        row = values[node]
        name = term_text(system.fluents[index])
        if row.all():
            family = f"always {_relation(system.fluents[index])}"
            candidates.append(StateInvariant(node, f"{name} always holds", family))
    for key, members in groups.items():
        if len(members) > 1:
            family = f"group {key[0]} {key[1]}"
            candidates += _one_of(system, members, values, _group_text(key), family)
    for (relation, free, rest), members in _pair_groups(system.fluents).items():
        args = [term_text(a) for a in rest]
        for position in free:
            args.insert(position, "_")
        text = f"({relation} {' '.join(args)})"
        family = f"pair group {relation} {free[0]} {free[1]}"
        candidates += _one_of(system, members, values, text, family)
    candidates += _implications(system, occupied, values, budget)
    candidates += _goal_exclusions(system, values)
    return candidates + _either_value(system, values)


def _one_of(system, members: list[int], values, text: str, family: str) -> list[StateInvariant]:
    """Candidates: at most one of the fluents `members` holds, where no sample has two (and
    some sample has one); some of them holds, where every sample has one."""
    literals = [system.fluent_nodes[i] for i in members]
    count = values[literals].sum(axis=0)
    found = []
    if (count <= 1).all() and count.any():
        at_most_one = system.circuit.at_most_one(literals)
        found.append(StateInvariant(at_most_one, f"at most one {text}", family, tuple(members)))
    if (count >= 1).all():
        found.append(StateInvariant(system.circuit.disj(literals), f"some {text}", family))
    return found


def _either_value(system, values) -> list[StateInvariant]:
    """Candidates: some fluent of a relation has one of two labels as its last argument,
    where every sample has one: `some (cell _ _ white) or some (cell _ _ black)`, one side's
    pieces or the other's are left. In breakthrough with holes a side without pieces
    passes, so a board with none would be passed on forever; until that board is ruled out,
    no potential bounds the game. The last argument only (what a board's cell holds; a
    file of cells, a..h, always holds something); left out where it is a number or one of
    more than MAX_LABELS labels, and labels whose fluents no sample changes (a hole)."""
    holders: dict[tuple, dict[Term, list[int]]] = {}
    for node, fluent in zip(system.fluent_nodes, system.fluents, strict=True):
        if isinstance(fluent, tuple):
            position = len(fluent) - 2
            holders.setdefault((fluent[0], position), {}).setdefault(fluent[-1], []).append(node)
    found = []
    for (relation, position), by_label in holders.items():
        if len(by_label) > MAX_LABELS or _numbers(list(by_label)):
            continue
        rows = {label: values[nodes] for label, nodes in by_label.items()}
        moving = [label for label, row in rows.items() if (row != row[:, :1]).any()]
        for a, b in itertools.combinations(moving, 2):
            if (rows[a].any(axis=0) | rows[b].any(axis=0)).all():
                literal = system.circuit.disj(by_label[a] + by_label[b])
                text = f"some {relation} fact with {term_text(a)} or {term_text(b)}"
                found.append(
                    StateInvariant(literal, f"{text} as argument {position + 1}", "either")
                )
    return found


def _pair_groups(fluents: tuple[Term, ...]) -> dict[tuple, list[int]]:
    """Fluents that differ in two arguments only, keyed by (relation, the two positions, the
    other arguments): one role's position (x y) on a board. Groups of more than PAIR_GROUP
    fluents are left out, and so are those one argument tells apart (a group of
    `_groups`)."""
    groups: dict[tuple, list[int]] = {}
    for index, fluent in enumerate(fluents):
        if isinstance(fluent, tuple) and len(fluent) > 2:
            args = fluent[1:]
            for free in itertools.combinations(range(len(args)), 2):
                rest = tuple(arg for position, arg in enumerate(args) if position not in free)
                groups.setdefault((fluent[0], free, rest), []).append(index)
    return {
        key: members
        for key, members in groups.items()
        if 1 < len(members) <= PAIR_GROUP
        and all(len({fluents[i][1 + p] for i in members}) > 1 for p in key[1])
    }


def _implications(system, occupied, values, budget) -> list[StateInvariant]:
    """Two-literal clauses no sample contradicts: between occupied groups of one family
    (`a cube here needs the cubes under it`), and among the fluents and occupied groups of
    small relations, which hold the bookkeeping of whose turn it is (`xcolumn in control:
    no column selected yet`)."""
    families: dict[tuple, list[tuple]] = {}
    for key in occupied:
        families.setdefault(key[:2], []).append(key)
    found = []
    for (relation, position), keys in families.items():
        atoms = [(occupied[key], _group_text(key)) for key in keys]
        family = f"implications {relation} {position}"
        found += _binary_clauses(
            system.circuit, atoms, values, budget, (False,), (True,), family=family
        )
    small = _small_relations(system.fluents)
    atoms = [
        (node, term_text(fluent))
        for node, fluent in zip(system.fluent_nodes, system.fluents, strict=True)
        if _relation(fluent) in small
    ]
    atoms += [(lit, _group_text(key)) for key, lit in occupied.items() if key[0] in small]
    return found + _binary_clauses(system.circuit, atoms, values, budget, family="bookkeeping")


def _links(system, groups, occupied, values, budget) -> list[StateInvariant]:
    """Two-literal clauses `group occupied -> fluent` between relations: a box marked
    needs its four lines drawn (dots and boxes), which is what makes the count of boxes
    marked equal a player's score, a balance (a family per relation of the groups)."""
    keys = [key for key in occupied if len(groups[key]) > 1]
    marked = [(occupied[key], _group_text(key)) for key in keys]
    nodes = zip(system.fluent_nodes, system.fluents, strict=True)
    fluents = [(node, term_text(fluent)) for node, fluent in nodes]
    relations = [key[0] for key in keys], [_relation(fluent) for fluent in system.fluents]
    return _binary_clauses(
        system.circuit,
        marked,
        values,
        budget,
        (False,),
        (True,),
        family="links",
        partners=fluents,
        relations=relations,
    )


def _exclusions(system, values, budget) -> list[StateInvariant]:
    """Pairs of fluents of one large relation that never hold together (`no digit twice in
    a row`). Relations that count (an argument takes more than MAX_LABELS numbers, like
    cube counts or steps) are left out: their exclusions say how far play has gone."""
    small = _small_relations(system.fluents)
    by_relation: dict[str, list[tuple[int, str]]] = {}
    for node, fluent in zip(system.fluent_nodes, system.fluents, strict=True):
        if _relation(fluent) not in small:
            by_relation.setdefault(_relation(fluent), []).append((node, fluent))
    found = []
    for relation, members in sorted(by_relation.items()):
        if _counts_something([fluent for _, fluent in members]):
            continue
        atoms = [(node, term_text(fluent)) for node, fluent in members]
        family = f"exclusions {relation}"
        found += _binary_clauses(
            system.circuit, atoms, values, budget, (False,), (False,), family=family
        )
    return found


def _small_relations(fluents) -> set[str]:
    sizes: dict[str, int] = {}
    for fluent in fluents:
        sizes[_relation(fluent)] = sizes.get(_relation(fluent), 0) + 1
    return {relation for relation, size in sizes.items() if size <= SMALL_RELATION}


def _counts_something(fluents) -> bool:
    """Whether some argument position takes more than MAX_LABELS distinct numbers."""
    numbers: dict[int, set[str]] = {}
    for fluent in fluents:
        for position, arg in enumerate(fluent[1:] if isinstance(fluent, tuple) else ()):
            if isinstance(arg, str) and arg.isdigit():
                numbers.setdefault(position, set()).add(arg)
    return any(len(found) > MAX_LABELS for found in numbers.values())


def _relation(fluent: Term) -> str:
    return fluent if isinstance(fluent, str) else fluent[0]


def _binary_clauses(
    circuit,
    atoms,
    values,
    budget,
    signs_a=(True, False),
    signs_b=(True, False),
    *,
    family="",
    partners=None,
    relations=None,
) -> list[StateInvariant]:
    """Clauses `a or b` (a and b with the given signs) over pairs of distinct atoms (b among
    `partners` if they are given) that no sample falsifies, though independent literals
    would falsify it MIN_EXPECTED times (the pairs compared a block of atoms at a time, with
    a look at the budget between blocks). With the `relations` of the atoms and of the
    partners, pairs of one relation are left out, and a's relation joins the family."""
    one_list = partners is None
    partners = atoms if one_list else partners
    if not atoms or len(partners) < (2 if one_list else 1):
        return []
    rows = _rows(values, atoms)
    rows_b = rows if one_list else _rows(values, partners)
    samples = rows.shape[1]
    found = []
    for positive_a, positive_b in itertools.product(signs_a, signs_b):
        false_a = 1 - rows if positive_a else rows
        false_b = 1 - rows_b if positive_b else rows_b
        support_a, support_b = false_a.sum(axis=1), false_b.sum(axis=1)
        # a pair can only be expected MIN_EXPECTED times if each side is false often enough
        side_a = np.flatnonzero(support_a * support_b.max() >= MIN_EXPECTED * samples)
        side_b = np.flatnonzero(support_b * support_a.max() >= MIN_EXPECTED * samples)
        pairs = []
        for start in range(0, len(side_a), PAIR_BLOCK):
            budget.check()
            block = side_a[start : start + PAIR_BLOCK]
            both_false = false_a[block] @ false_b[side_b].T
            expected = support_a[block, None] * support_b[None, side_b] / samples
            keep = (both_false == 0) & (expected >= MIN_EXPECTED)
            pairs += zip(block[np.nonzero(keep)[0]], side_b[np.nonzero(keep)[1]], strict=True)
        for a, b in pairs:
            if one_list and (a == b or (positive_a == positive_b and a > b)):
                continue
            named = family
            if relations is not None:
                if relations[0][a] == relations[1][b]:
                    continue
                named = f"{family} {relations[0][a]}"
            (lit_a, text_a), (lit_b, text_b) = atoms[a], partners[b]
            lit_a, lit_b = (lit_a if positive_a else -lit_a), (lit_b if positive_b else -lit_b)
            text = (
                f"{'' if positive_a else 'not '}{text_a} or {'' if positive_b else 'not '}{text_b}"
            )
            found.append(StateInvariant(circuit.disj([lit_a, lit_b]), text, named))
    return found


def _rows(values: np.ndarray, atoms) -> np.ndarray:
    return np.array([_row(values, literal) for literal, _ in atoms], dtype=np.float32)


def _goal_exclusions(system, values) -> list[StateInvariant]:
    """Goal values of two roles that never hold together."""
    goals = [
        (role, value, literal)
        for role, table in zip(system.roles, system.goals, strict=True)
        for value, literal in table.items()
    ]
    found = []
    for (r1, v1, l1), (r2, v2, l2) in itertools.combinations(goals, 2):
        if r1 != r2 and not (_row(values, l1) & _row(values, l2)).any():
            found.append(
                StateInvariant(
                    system.circuit.disj([-l1, -l2]),
                    f"never goal {r1} {v1} with goal {r2} {v2}",
                    "goals",
                )
            )
    return found


def _group_text(key: tuple) -> str:
    relation, position, rest = key
    args = [term_text(a) for a in rest]
    args.insert(position, "_")
    return f"({relation} {' '.join(args)})"


# -- counters ------------------------------------------------------------------------------
def _features(system, groups, occupied) -> list[_Feature]:
    """Counts a counter may weigh: occupied groups of one family, and fluents of one
    relation with one value at one position."""
    features: dict[tuple, tuple[list[int], list[int]]] = {}
    for key, lit in occupied.items():
        literals, fluents = features.setdefault(("occupied", key[0], key[1]), ([], []))
        literals.append(lit)
        fluents += groups[key]
    for index, fluent in enumerate(system.fluents):
        if isinstance(fluent, str):
            continue
        keys = [("relation", fluent[0])]
        keys += [("value", fluent[0], position, arg) for position, arg in enumerate(fluent[1:])]
        for key in keys:
            literals, fluents = features.setdefault(key, ([], []))
            literals.append(system.fluent_nodes[index])
            fluents.append(index)
    return [
        _Feature(tuple(literals), _feature_text(key), tuple(fluents))
        for key, (literals, fluents) in features.items()
    ]


def _feature_text(key: tuple) -> str:
    if key[0] == "occupied":
        return f"{key[1]} facts distinct apart from argument {key[2] + 1}"
    if key[0] == "relation":
        return f"{key[1]} facts"
    return f"{key[1]} facts with {term_text(key[3])} as argument {key[2] + 1}"


@dataclass
class _Changes:
    """How the steps of the first COUNTER_PLAYOUTS playouts changed each feature: per step,
    how many of its literals rose and fell; and its count in the initial state."""

    rises: list[np.ndarray]
    falls: list[np.ndarray]
    counts: list[int]

    @property
    def deltas(self) -> list[np.ndarray]:
        return [r - f for r, f in zip(self.rises, self.falls, strict=True)]

    def dropping(self, first: int) -> _Changes:
        """The changes of the features after the first ones."""
        return _Changes(self.rises[first:], self.falls[first:], self.counts[first:])

    def counter(self, combination, features, rate: int, text: str) -> Counter:
        """The weighted sum of features as a counter growing by `rate` a step, with the
        ways the sampled steps changed it."""
        changes = np.stack(
            [np.stack([self.rises[j], self.falls[j]], axis=1) for _, j in combination], 1
        )
        return Counter(
            features=tuple((w, features[j].literals) for w, j in combination),
            start=sum(w * self.counts[j] for w, j in combination),
            steps=tuple(sorted({tuple(map(tuple, change)) for change in changes.tolist()})),
            description=" + ".join(f"{w} x ({features[j].description})" for w, j in combination)
            + text,
            rate=rate,
        )


def _feature_changes(system, playouts: Playouts, features, budget) -> _Changes | None:
    """The features' changes on the sampled steps (a register's: of its number); None if
    there are none."""
    if not features:
        return None
    trajectory = playouts.states[:, :COUNTER_PLAYOUTS]
    lengths = playouts.lengths[:COUNTER_PLAYOUTS]
    steps, runs, _ = trajectory.shape
    literals = sorted({literal for feature in features for literal in feature.literals})
    circuit = playouts.compiled(system, literals, budget)
    states = trajectory.reshape(steps * runs, -1)
    row_of = dict(zip(literals, circuit.node_rows(system, states, literals), strict=True))
    taken = np.arange(steps - 1)[:, None] < lengths[None, :]
    changes = _Changes([], [], [])
    for feature in features:
        budget.check()
        weights, literals = zip(*feature.terms, strict=True)
        rows = np.array([row_of[literal] for literal in literals])
        rows = rows.reshape(len(literals), steps, runs)
        before, after = rows[:, :-1, :], rows[:, 1:, :]
        weights = np.array(weights)[:, None, None]
        changes.rises.append(((after & ~before) * weights).sum(axis=0)[taken])
        changes.falls.append(((before & ~after) * weights).sum(axis=0)[taken])
        changes.counts.append(int((rows[:, 0, 0] * weights[:, 0, 0]).sum()))
    return changes if len(changes.rises[0]) else None


def _counter_candidates(
    changes: _Changes | None, features, budget
) -> tuple[list[Counter], list[Counter]]:
    """Weighted sums of one feature, and of two, that grow by exactly one on every sampled
    step, with the ways those steps changed them. Two features can pin down what one does
    not: in gomoku 2 x (black stones) + (black to move) counts the steps as well as all
    stones do, and it bounds black's stones alone."""
    if changes is None:
        return [], []
    deltas = changes.deltas
    singles = [
        ((int(deltas[j][0]), j),)
        for j in range(len(features))
        if deltas[j][0] in (1, -1) and (deltas[j] == deltas[j][0]).all()
    ]
    pairs, mains = [], set()
    distinct = np.unique(np.array(deltas).T, axis=0).T  # the ways steps change features
    moving = [j for j in range(len(features)) if distinct[j].any() and (distinct[j] != 1).any()]
    for number, (j, k) in enumerate(itertools.combinations(moving, 2)):
        if len(pairs) == COUNTER_CANDIDATES:
            break
        if number % PAIRS_BETWEEN_CHECKS == 0:
            budget.check()
        weights = _pair_weights(distinct[j], distinct[k])
        if not weights or (singles and weights == (1, 1)):  # (1, 1): a single's parts
            continue
        main = j if abs(weights[0]) >= abs(weights[1]) else k
        if main not in mains:  # 2 x + (x to move) and 2 x - (o to move) say the same
            mains.add(main)
            pairs.append(((weights[0], j), (weights[1], k)))
    text = " grows by one every step"
    return tuple(
        [changes.counter(combination, features, 1, text) for combination in found]
        for found in (singles[:COUNTER_CANDIDATES], pairs)
    )


def _step_registers(changes: _Changes | None, registers, values) -> list[tuple]:
    """Registers whose number every sampled step raises by one (a step counter) or lowers
    by one (a countdown): (register, +1 or -1, its initial number, the farthest number
    the samples reach)."""
    if changes is None:
        return []
    found = []
    for j, register in enumerate(registers):
        delta = changes.deltas[j]
        if delta[0] in (1, -1) and (delta == delta[0]).all():
            sign = int(delta[0])
            reached = [sign * number for number, lit in register.terms if values[lit].any()]
            found.append((register, sign, changes.counts[j], sign * max(reached)))
    return found


def _limit_candidates(changes: _Changes | None, features) -> list[Limit]:
    """Features that every sampled step moved by 0 or 1 one way, some by 1 (not every one:
    that is a counter), the MAX_LIMITS with the most room to move (to 0, or to all of
    their literals) first, within LIMIT_TERMS."""
    if changes is None:
        return []
    found = []
    for j, (feature, delta) in enumerate(zip(features, changes.deltas, strict=True)):
        moves = set(np.unique(delta).tolist())
        if moves not in ({0, 1}, {0, -1}):
            continue
        sign = max(moves, key=abs)
        start = changes.counts[j]
        room = len(feature.literals) - start if sign > 0 else start
        if room > 1 and room * len(feature.literals) <= LIMIT_TERMS:
            way = "one more" if sign > 0 else "one fewer"
            text = f"{feature.description}: at most {way} each step, never the other way"
            found.append((-room, j, Limit(feature.literals, start, sign, text)))
    return [limit for *_, limit in sorted(found)[:MAX_LIMITS]]


def _balance_candidates(changes: _Changes | None, features, budget) -> list[Counter]:
    """Weighted sums of features that no sampled step changes (balances.py), the terms of
    a register among them first: those of two or three features, then longer ones whose
    sums are small (LONGER_ENCODING), then one count against registers alone."""
    if changes is None:
        return []
    fluents = [feature.fluent_weights for feature in features]
    found = balance_combinations(changes.deltas, fluents, budget)
    longer = [
        balance
        for combination in longer_balances(changes.deltas, fluents, found)
        if (balance := _balance(combination, changes, features)).encoding_size <= LONGER_ENCODING
    ]
    registers = [j for j, feature in enumerate(features) if feature.weights]
    counted = register_balances(changes.deltas, fluents, registers, found, budget)
    return [_balance(combination, changes, features) for combination in found + counted] + longer


def _constant_counts(system, changes: _Changes | None, features, groups, values) -> list[Counter]:
    """Balances of one feature that no sampled step changes and no state invariant says:
    counts of at least two (the pegs of one colour), not of fluents that never change (the
    walls), nor of whole groups of which one fluent holds in every sampled state (a board's
    cells: one mark each)."""
    if changes is None:
        return []
    fluent_values = values[list(system.fluent_nodes)]
    changing = fluent_values.any(axis=1) & ~fluent_values.all(axis=1)
    counted = {
        j: set(feature.fluents)
        for j, (feature, delta) in enumerate(zip(features, changes.deltas, strict=True))
        if not feature.weights
        and changes.counts[j] >= 2
        and not delta.any()
        and changing[list(feature.fluents)].any()
    }
    inside = set().union(*counted.values())
    exactly_one = [
        set(members)
        for members in groups.values()
        if inside.issuperset(members) and _one_holds(system, members, values)
    ]
    found = sorted(
        (changes.counts[j], len(fluents), j)
        for j, fluents in counted.items()
        if fluents != set().union(*(group for group in exactly_one if group <= fluents))
    )
    return [
        replace(_balance(((1, j),), changes, features), constant=True)
        for *_, j in found[:CONSTANT_COUNTS]
    ]


def _one_holds(system, members, values) -> bool:
    """Whether exactly one of the fluents holds in every sampled state."""
    return bool((values[[system.fluent_nodes[i] for i in members]].sum(axis=0) == 1).all())


def _balance(combination, changes: _Changes, features) -> Counter:
    """The weighted sum of features as a balance (its register's terms first)."""
    order = sorted(combination, key=lambda pair: features[pair[1]].holding is None)
    first = features[order[0][1]]
    return Counter(
        features=tuple(
            (weight * term_weight, (literal,))
            for weight, j in order
            for term_weight, literal in features[j].terms
        ),
        start=sum(weight * changes.counts[j] for weight, j in combination),
        steps=(),
        description=" + ".join(f"{w} x ({features[j].description})" for w, j in order)
        + " is the same in every state",
        rate=0,
        holding=tuple(features[j].holding for _, j in order if features[j].holding),
        register=len(first.literals) if first.holding else 0,
    )


def _registers(system, groups, occupied, values) -> list[_Feature]:
    """Groups that hold exactly one fluent in every sampled state, each with a number in the
    argument they differ in (a capture count, a piece count: `c12` counts as 12): features
    that count that number, for balances such as captures + the opponent's pieces = 12."""
    found = []
    for key, members in groups.items():
        numbers = _numbers([system.fluents[i][key[1] + 1] for i in members])
        if numbers and len(members) > 2 and _one_holds(system, members, values):
            nodes = [system.fluent_nodes[i] for i in members]
            group = _group_text(key)
            holding = StateInvariant(occupied[key], f"some {group}", f"group {key[0]} {key[1]}")
            text = f"the number in {group}"
            found.append(_Feature(tuple(nodes), text, tuple(members), numbers, holding))
    return found


def _numbers(args: list) -> tuple[int, ...] | None:
    """The numbers the arguments write, digits after a prefix they share, if they all do."""
    if not all(isinstance(arg, str) for arg in args):
        return None
    prefix = len(args[0].rstrip("0123456789"))
    if any(not arg[prefix:].isdigit() or arg[:prefix] != args[0][:prefix] for arg in args):
        return None
    return tuple(int(arg[prefix:]) for arg in args)


def _pair_weights(a: np.ndarray, b: np.ndarray) -> tuple[int, int] | None:
    """Small nonzero integers (x, y) with x*a + y*b == 1 in every position, if any: solved
    exactly on two independent positions, then checked on all."""
    nonzero = np.flatnonzero(a | b)
    if not len(nonzero):
        return None
    a1, b1 = int(a[nonzero[0]]), int(b[nonzero[0]])
    determinants = a1 * b - a * b1
    independent = np.flatnonzero(determinants)
    if not len(independent):
        return None
    a2, b2 = int(a[independent[0]]), int(b[independent[0]])
    determinant = a1 * b2 - a2 * b1
    x, y = Fraction(b2 - b1, determinant), Fraction(a1 - a2, determinant)
    if x.denominator != 1 or y.denominator != 1 or not (x and y):
        return None
    x, y = int(x), int(y)
    if max(abs(x), abs(y)) > MAX_WEIGHT or ((x * a + y * b) != 1).any():
        return None
    return x, y


# -- proofs --------------------------------------------------------------------------------
class _Induction:
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
                found += self._fixpoint(rest, assumed, budget)
        except OutOfBudget:
            pass  # the batches proved so far stand
        finally:
            self.unrolling.add_clause([-assumed])
        return found

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
        """Houdini's loop: the most keys of `broken` (each with a solver literal: the step
        breaks it) that no step breaks from a state where their `switches` (and `assumed`)
        hold; those a model breaks are dropped, and the step asked again (each time counted
        in houdini_sat_calls)."""
        unrolling = self.unrolling
        active = list(broken)
        while active:
            self.statistics["houdini_sat_calls"] += 1
            some = unrolling.new_variable()
            unrolling.add_clause([-some, *(broken[key] for key in active)])
            assumptions = [*assumed, some, *(switches[key] for key in active)]
            try:
                model = self.cases.satisfiable(assumptions, 0, budget)
            finally:
                unrolling.add_clause([-some])
            if model is False:
                break
            active = [key for key in active if not holds(broken[key], model)]
        return active

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
        self, register: _Feature, sign: int, first: int, farthest: int, state, budget: Budget
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
        initial = self._initial_state()
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
        return _proved(partial(self.keeps_limit, state=state), limits, LIMIT_SHARE, budget)

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
        initial = self._initial_state()
        return all(
            unrolling.satisfiable([*initial, unrolling.alive(t + 1), broken(t)], budget) is False
            for t in range(k)
        )

    def _initial_state(self) -> list[Lit]:
        """Assumptions that make layer 0 the initial state."""
        initial = self.system.initial
        return [
            self.unrolling.literal(node if index in initial else -node, 0)
            for index, node in enumerate(self.system.fluent_nodes)
        ]

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
