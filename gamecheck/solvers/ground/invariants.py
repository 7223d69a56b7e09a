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

Candidates are the guesses that every sampled state satisfies (solvers/ground/sampling.py):
state_candidates.py guesses the state invariants, count_candidates.py the counts (what
invariant_kinds.py describes). The proofs are induction.py's. For state invariants,
Houdini's induction: assume all remaining state candidates in an arbitrary state, take one
legal step from it, and ask the SAT solver for a candidate that fails afterwards; drop every
candidate the model breaks and ask again, until the answer is UNSAT. What remains holds
initially and is preserved by every step, so it holds in every reachable state. The
candidates are proved a family at a time, the smallest first, each family under the
invariants proved before it, and then what is left all at once (`Induction.houdini`): a
budget too short for one run over thousands of candidates still proves the families it
finished. Counters are then proved by k-induction under the proved state invariants (every
step changes their features in one of the sampled ways; each candidate in a share of the
time); a balance of a register against a count one joint action at a time first
(joint_cases.py: the cases its share leaves are asked after the exclusions, counts and
limits), else by k-induction on its sum and its registers being there, the sum's change
written over the literals a step changes; and Houdini runs once more on the candidates
left, with the balances assumed. Each stage runs within the budget it is given; a run the
budget cuts short proves nothing (an unfinished Houdini run has not reached its fixpoint),
and what was proved before it stands.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import partial

from gamecheck.budget import Budget, OutOfBudget
from gamecheck.solvers.ground.count_candidates import (
    balance_candidates,
    constant_counts,
    count_features,
    counter_candidates,
    feature_changes,
    limit_candidates,
    register_features,
    step_registers,
)
from gamecheck.solvers.ground.functional import Functional
from gamecheck.solvers.ground.induction import BALANCE_DEPTHS, CASES_SHARE, Induction, proved_each
from gamecheck.solvers.ground.invariant_kinds import Counter, Limit, StateInvariant
from gamecheck.solvers.ground.joint_cases import BalanceCases
from gamecheck.solvers.ground.parities import Parity
from gamecheck.solvers.ground.ranking import Place, Ranking, find_ranking
from gamecheck.solvers.ground.sampling import Playouts, random_playouts
from gamecheck.solvers.ground.state_candidates import (
    distinct_sample,
    exclusion_candidates,
    fluent_groups,
    group_text,
    link_candidates,
    most_samples,
    state_candidates,
)
from gamecheck.solvers.ground.transition import TransitionSystem
from gamecheck.solvers.ground.unroll_cnf import CnfUnrolling

PLAYOUTS = 1024
MAX_STEPS = 1000
MAX_BALANCE_ENCODING = 500_000
"""A balance is not tried where its terms times their total weight, a rough size of the
encoding of its sum, exceed this: pacman2p's 325 pellets worth 1 to 100 (1.7M) took 19M
clauses, 28 s and 3 GB per bound; cubicup's biggest sum is 220k (170k clauses)."""
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
STATE_SHARE = 0.6
"""The share of the time that proving the state candidates may take: the rest is left for
the counters and the ranking, which alone can bound the length of every game."""
LINK_SECONDS = 10.0
"""Time for finding and proving clauses between relations (`link_candidates`), asked only
where a balance failed: in dots and boxes they make the score's balance inductive; on tron,
with 846 of them and no balance, they took 7 s that the ranking then lacked."""
PARITY_SHARE = 0.1
"""The share of the time left that finding and proving parities (parities.py) may take:
where the samples show none, no solver call is made; one step of a big game (queens31lg's
962 actions) may take the solver seconds."""
EXCLUSION_SECONDS = 20.0
"""Time for proving exclusions between the fluents of large relations; if it runs out,
they are left out (what is proved stands without them)."""


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
    groups = fluent_groups(system.fluents)
    occupied = {
        key: system.circuit.disj(system.fluent_nodes[i] for i in members)
        for key, members in groups.items()
    }
    samples = distinct_sample(playouts.visited(), seed, most_samples(system))
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
        candidates = state_candidates(system, groups, occupied, values, budget)
        exclusions = exclusion_candidates(system, values, budget)
        with CnfUnrolling(system, free_start=True, sat_solver=sat_solver) as unrolling:
            unrolling.budget = budget
            prover = Induction(system, unrolling)
            proofs = prover.statistics
            state = prover.houdini(candidates, budget=budget.part(share=STATE_SHARE))
            features = count_features(system, groups, occupied)
            registers = register_features(system, groups, occupied, values)
            changes = feature_changes(system, playouts, registers + features, budget)
            counters = [  # clocks: cheap, and the depth they tell is worth more than exclusions
                clock
                for register, *way in step_registers(changes, registers, values)
                if (clock := prover.step_counter(register, *way, state, budget))
            ]
            state += [held for clock in counters for held in clock.holding]
            try:
                part = budget.part(share=PARITY_SHARE)
                parities = prover.parities(playouts, samples, groups.values(), state, part)
            except OutOfBudget:
                budget.check()  # only the parities' share ran out
            places = [
                Place(occupied[key], tuple(members), group_text(key))
                for key, members in groups.items()
                if len(members) > 1
            ]
            if not counters:  # fluents that run out often show it before any other proof
                ranking = _early_ranking(system, unrolling, playouts, state, places, budget)
            tried = [
                balance
                for balance in balance_candidates(changes, registers + features, budget)
                + constant_counts(system, changes, registers + features, groups, values)
                if balance.encoding_size <= MAX_BALANCE_ENCODING
            ]
            by_cases = BalanceCases(system, tried)
            early = _kept_by_cases(by_cases, state, budget)  # cheap where it works
            _add_balances(early, state, balances)
            part = budget.part(EXCLUSION_SECONDS)
            state += prover.houdini(exclusions, proved=state, budget=part)
            counted = changes and changes.dropping(len(registers))
            singles, pairs = counter_candidates(counted, features, budget)
            proves = partial(prover.counts_steps, state=state)
            counts = _proved_tightest_first(proves, singles, budget, most=1)
            counts += _proved_tightest_first(proves, pairs, budget)
            counters += counts
            # a clock tells the depth, but not how far a count can have moved
            tried_limits = limit_candidates(counted, features) if not counts else []
            limits = prover.kept_limits(tried_limits, state, budget)
            if not by_cases.finished:  # the rest of the cases (faster than the whole step)
                more = _kept_by_cases(by_cases, state, budget, share=1.0)
                _add_balances(more, state, balances)
                early += more
            failed = _keep_balances(prover, tried, early, state, balances, budget)
            if failed:  # clauses between relations may make them inductive
                part = budget.part(LINK_SECONDS)
                try:
                    links = link_candidates(system, groups, occupied, values, part)
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
                ranking = _ranking_afresh(system, unrolling, playouts, state, budget, places)
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


def _proved_tightest_first(prove, counters: list[Counter], budget: Budget, *, most=None):
    """The counters that `prove` proves (`proved_each`), tried by the depth they bound, the
    tightest first and within TIGHTEST_COUNTER_SHARE of the time left, each of the others
    within COUNTER_SHARE."""
    counters = sorted(counters, key=lambda counter: counter.most_steps)
    proved = proved_each(prove, counters[:1], TIGHTEST_COUNTER_SHARE, budget)
    rest = None if most is None else most - len(proved)
    return proved + proved_each(prove, counters[1:], COUNTER_SHARE, budget, most=rest)


def _early_ranking(system, unrolling, playouts, state, places, budget: Budget) -> Ranking | None:
    """A ranking by monotone fluents or places, sought within EARLY_RANKING_SHARE of the
    time left, before the slower proofs (exclusions, counts, balances) take it; None if
    none is found (the full search comes again after them)."""
    part = budget.part(share=EARLY_RANKING_SHARE)
    try:
        return _ranking_afresh(system, unrolling, playouts, state, part, places, potentials=False)
    except OutOfBudget:
        budget.check()  # only the early search's share ran out
        return None


def _ranking_afresh(system, unrolling, playouts, state, budget: Budget, places, **options):
    """`find_ranking` in a solver of its own: the invariants' solver, after Houdini's
    queries, took over 5 s to prove othello's places monotone, a new one 0.5 s."""
    with unrolling.fresh_start() as fresh:
        fresh.budget = budget
        return find_ranking(system, fresh, playouts, state, budget, places, **options)


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


def _kept_by_cases(
    by_cases: BalanceCases, state: list, budget: Budget, share: float = CASES_SHARE
) -> list[Counter]:
    """The balances that `by_cases` proves one joint action at a time within `share` of the
    time left (none if that runs out: a later call goes on from there)."""
    try:
        return by_cases.proved(state, budget.part(share=share))
    except OutOfBudget:
        budget.check()  # only the cases' share ran out
        return []
