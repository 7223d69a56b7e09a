"""`verify_game`: from a game to every answer of `gamecheck verify`, within one budget.

Load the rule sheet, ground it, play random playouts; then, if breadth-first search lists
every reachable state within its share, answer every question from the list
(analysis/verify/exhaustive.py); else prove invariants, unroll, and ask the questions of a
solver (analysis/verify/search.py). The phases before the questions get bounded shares of
the budget; if the budget ends before the questions, every answer is unknown.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from gamecheck.analysis.loading import Subject, load_game, load_rule_sheet
from gamecheck.analysis.verify.exhaustive import ExhaustiveVerifier
from gamecheck.analysis.verify.results import UNKNOWN, Answer, Outcomes, Verification
from gamecheck.analysis.verify.search import Verifier
from gamecheck.budget import Budget, OutOfBudget
from gamecheck.gdl.datalog import TooLarge
from gamecheck.solvers.ground.explore import StateGraph, TooManyStates, explore, worth_listing
from gamecheck.solvers.ground.functional import find_functional
from gamecheck.solvers.ground.grounder import ground
from gamecheck.solvers.ground.invariants import PLAYOUTS, Invariants, find_invariants
from gamecheck.solvers.ground.sampling import random_playouts
from gamecheck.solvers.ground.unroll import make_unrolling

DEFAULT_HORIZON = 300
LASTING_PLAYOUTS = 256
"""Random playouts that avoid ending the game while they can, beside the PLAYOUTS others."""
GROUNDING_SHARE = 0.95
"""Grounding still going with the rest of the time left stops there: what it built takes
seconds to free (millions of facts), and the command must end within its time limit."""
PLAYOUT_SHARE = 0.1
EXHAUSTIVE_SHARE = 0.15
INVARIANT_SHARE = 0.3
FUNCTIONAL_SHARE = 0.15
"""The shares of the time left that random playouts, the exhaustive search, invariants, then
functional dependencies may take (the last after the invariants: blokbox_simple's ranking
needs all of their share)."""


def verify_game(
    subject: Subject,
    *,
    backend: str = "cnf",
    horizon: int = DEFAULT_HORIZON,
    time_limit: float | None = None,
    budget: Budget | None = None,
    sat_solver: str | None = None,
    invariants: bool = True,
    exhaustive: bool = True,
    export: bool = False,
    progress: Callable[[str], None] = lambda _: None,
    snapshot: Snapshot | None = None,
) -> Verification:
    """Every answer of `gamecheck verify` for a game (a Game, a built-in game's name, a rule
    sheet's path or its text), within `time_limit` seconds (or the given budget). Without
    `exhaustive`, the solver answers even where every reachable state could be listed. With
    `export`, the result holds the solver input of every query (`Verification.exports`).
    A `snapshot`, if given, can tell at any time what is settled so far."""
    budget = budget or Budget(time_limit)
    snapshot = snapshot or Snapshot()
    progress("loading")
    game = load_game(subject)
    sheet = load_rule_sheet(game)
    checkers = [sheet] if game is sheet else [game, sheet]
    snapshot.take = partial(_unanswered, sheet.name, sheet.roles, backend, horizon, budget)
    try:
        sheet.prepare(budget)
    except (OutOfBudget, TooLarge) as stop:
        return _unanswered(sheet.name, sheet.roles, backend, horizon, budget, f"loading: {stop}")
    try:
        progress("grounding")
        grounding = budget.seconds
        system = ground(sheet.rules, sheet.name, budget=budget.part(share=GROUNDING_SHARE))
        grounding = budget.seconds - grounding
    except (OutOfBudget, TooLarge) as stop:
        return _unanswered(sheet.name, sheet.roles, backend, horizon, budget, f"grounding: {stop}")
    progress("random playouts")
    playouts = random_playouts(
        system,
        PLAYOUTS,
        max_steps=horizon,
        budget=budget.part(share=PLAYOUT_SHARE),
        lasting=LASTING_PLAYOUTS,
    )
    graph = None
    if exhaustive and not export and playouts.circuit is not None and worth_listing(playouts):
        progress("exhaustive search")
        graph = _state_graph(system, playouts, budget.part(share=EXHAUSTIVE_SHARE))
    found = Invariants()
    if invariants and graph is None:
        progress("invariants")
        found = find_invariants(
            system,
            playouts=playouts,
            sat_solver=sat_solver,
            budget=budget.part(share=INVARIANT_SHARE),
        )
        part = budget.part(share=FUNCTIONAL_SHARE)
        found.functional = find_functional(system, playouts, part, sat_solver)
        found.statistics["functional"] = len(found.functional)
    unrolling = make_unrolling(system, backend, sat_solver=sat_solver, record=export)
    unrolling.use_invariants(found)
    states = None
    proved = (found.state, found.counters, found.balances, found.functional, found.parities)
    if any(proved) or found.ranking:
        states = make_unrolling(system, backend, sat_solver=sat_solver, free_start=True)
        states.use_invariants(found)
    settings = {"horizon": horizon, "budget": budget, "progress": progress, "playouts": playouts}
    if graph is None:
        verifier = Verifier(unrolling, checkers, states=states, **settings)
    else:
        verifier = ExhaustiveVerifier(graph, unrolling, checkers, **settings)

    def sized(result: Verification) -> Verification:
        result.seconds = budget.seconds
        result.system_size = system.size() | {
            "ground_atoms": system.statistics.get("ground_atoms", 0),
            "ground_seconds": round(grounding, 3),
        }
        if graph is not None:
            result.system_size["reachable_states"] = graph.count
        result.invariant_statistics = found.statistics
        result.dead_rules = system.dead_rules
        return result

    snapshot.take = lambda reason: sized(verifier.settled(reason))
    result = sized(verifier.run())
    if export:
        result.exports = _exports(unrolling, sheet.name)
    return result


class Snapshot:
    """What a verification has settled so far, for a command that must end before it does:
    `verify_game` keeps `take` current; `take(reason)` is the verification with the
    questions not yet answered unknown for `reason`."""

    def __init__(self) -> None:
        self.take: Callable[[str], Verification] | None = None


def _state_graph(system, playouts, budget: Budget) -> StateGraph | None:
    """Every reachable state, or None if there are too many for the search or its share
    of the time ends first."""
    try:
        return explore(system, playouts.compiled(system, budget=budget), budget)
    except (TooManyStates, OutOfBudget):
        return None


def _exports(unrolling, name: str) -> dict[str, str]:
    """The solver input of every query of the run, with the variables named."""
    if unrolling.name == "cpsat":
        model, queries = unrolling.export()
        return {"cpsat model": model, "cpsat queries": queries}
    comment = (
        f"gamecheck verify {name}: every SAT query of the run, in order (incremental CNF:\n"
        "each 'a ... 0' line asks for a model of the clauses above it under those\n"
        "assumptions). Proved invariants are among the clauses. Lines of play found by\n"
        "random playouts and proofs by induction on a free-start unrolling are not\n"
        "queries of this formula, so some answers have no query here."
    )
    return {"icnf": unrolling.icnf(comment)}


def _unanswered(name, roles, backend, horizon, budget: Budget, reason: str) -> Verification:
    """A verification in which the budget ended before any question was asked."""
    unknown = Answer(UNKNOWN, detail=reason)
    return Verification(
        game=name,
        roles=roles,
        backend=backend,
        horizon=horizon,
        complete=False,
        termination=unknown,
        longest_game=unknown,
        shortest_game=unknown,
        playability=unknown,
        goal_definedness=unknown,
        outcomes=Outcomes((), (), False),
        earliest_win={role: unknown for role in roles},
        seconds=budget.seconds,
        interrupted=budget.interrupted is not None,
    )
