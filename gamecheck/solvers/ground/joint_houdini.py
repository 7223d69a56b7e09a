"""State invariants proved one joint action at a time: Houdini's fixpoint over the cases
of joint_cases.py, for the families of candidates the whole step does not settle in their
share (invariants.py).

Checkers' "each square holds one thing" (64 candidates) is one query over the whole step
that a SAT solver takes 80 s to refute case by case on the actions (checkers-mustjump-torus).
With the joint action fixed, a step changes a few squares: a candidate about the others
holds after the step where it held before, unasked, and those about the changed squares
are one small query over the folded circuit. A query's model drops the candidates it
breaks, and the cases are gone through again until none drops one: what is left holds
initially and every step from a state where it holds (with the proved invariants) keeps
it, so it holds in every reachable state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gamecheck.budget import Budget
from gamecheck.solvers.ground.joint_cases import Cases, Folded, split_cases
from gamecheck.solvers.ground.transition import TransitionSystem
from gamecheck.solvers.sat import Lit, holds, negate


def houdini_by_cases(
    system: TransitionSystem, candidates: Sequence, proved: Iterable, budget: Budget
) -> list | None:
    """The largest subset of the candidates (state invariants that hold initially; those
    over more than MAX_CONE nodes left out: a goal's, rebuilt for each case, took 10-30 s
    a case) that every joint action keeps, from a state where it and the `proved`
    invariants hold and the joint action is legal; None where the joint actions are too
    many to split; OutOfBudget if the budget ends first."""
    with split_cases(system, list(proved), budget) as cases:
        if cases is None:
            return None
        switches = {}
        for candidate in filter(lambda c: cases.small(c.literal), candidates):
            literal = cases.state(candidate.literal)
            if literal is False:
                continue  # never holds, so not initially: no candidate (the caller's check)
            switches[candidate] = switch = cases.fresh()
            if literal is not True:
                cases.solver.add_clause([-switch, literal])
        active = list(switches)
        while True:
            kept = _kept_in_every_case(cases, active, switches, budget)
            if len(kept) == len(active):
                return kept
            active = kept


def _kept_in_every_case(cases: Cases, active: list, switches: dict, budget: Budget) -> list:
    """The active candidates left once each case has dropped those it breaks (assuming
    those left when it is asked)."""
    for index in range(len(cases.joints)):
        budget.check()
        case = Folded(cases, index)
        touched = [candidate for candidate in active if case.changes(candidate.literal)]
        if touched:
            broken = _broken(case, touched, [switches[c] for c in active])
            active = [candidate for candidate in active if candidate not in broken]
    return active


def _broken(case: Folded, touched: list, assumed: list[Lit]) -> set:
    """The candidates of `touched` (those whose fluents the case may change) that some
    state where the `assumed` hold breaks by the case's joint action, legal there: asked
    again without those a model breaks until none is broken."""
    broken: set = set()
    try:
        if not case.require(case.legal()):
            return broken
        after = {candidate: case.after_state(candidate.literal) for candidate in touched}
        while len(broken) < len(touched):
            case.add([negate(after[c]) for c in touched if c not in broken])
            model = case.model(assumed)
            if model is None:
                break
            broken |= {c for c in touched if not holds(after[c], model)}
    finally:
        case.retire()
    return broken
