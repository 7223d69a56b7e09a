"""One step of an induction proof asked case by case on the actions taken (invariants.py).

A step that a SAT solver does not settle quickly often falls apart once the actions are
fixed: they fix which fluents change, which a solver that must also count the changes may
take long to work out alone (a balance of checkers' pieces: 15 s whole, 5 s by cases). A
role's actions are split by the atoms their terms start with: amazons' 1521 actions a role
fall into (fire ...) and (move ...), these into (move x ...), then (move x y ...), and last
single actions, so that one quick answer settles a group of alike cases (its invariants:
more than 120 s one action at a time, 44 s by groups). Where a group is as hard as its
cases, its time is lost (checkers: 10-20% more than one action at a time).
"""

from __future__ import annotations

from gamecheck.budget import Budget, OutOfBudget
from gamecheck.gdl.terms import Term
from gamecheck.solvers.ground.unroll import Unrolling
from gamecheck.solvers.sat import Lit

CASE_SECONDS = 0.5
"""A case (or the whole step) still open after this long is split further."""


class ActionCases:
    """Asks steps of one unrolling case by case, remembering the literal of each group."""

    def __init__(self, unrolling: Unrolling):
        self.unrolling = unrolling
        self.system = unrolling.system
        self._atoms = [[_atoms(term) for term in terms] for terms in self.system.actions]
        self._some: dict[tuple, Lit] = {}

    def satisfiable(self, assumptions: list[Lit], t: int, budget: Budget, role: int = 0):
        """A model of `assumptions` or False (as `Unrolling.satisfiable`), with every role's
        action at step t from `role` on left free: asked whole for CASE_SECONDS, then, if
        still open, case by case on the role's actions, each case asked the same way with
        the next role's action left free."""
        if role == len(self.system.roles):
            return self.unrolling.satisfiable(assumptions, budget)
        try:
            return self.unrolling.satisfiable(assumptions, budget.part(CASE_SECONDS))
        except OutOfBudget:
            budget.check()  # only the case's share ran out
        return self._split(assumptions, t, budget, role, range(len(self._atoms[role])), 1)

    def _split(self, assumptions, t: int, budget: Budget, role: int, members, length: int):
        """`satisfiable` with the role's action one of `members`, asked per group of
        members whose terms start alike (the first `length` atoms, or more where that does
        not split them): a group still open after CASE_SECONDS is split further, and one of more
        than half of the members is split without asking it whole."""
        groups, length = self._groups(role, members, length)
        for group in groups:
            if len(group) == 1:
                does = self.unrolling.does(role, group[0], t)
                if does is False:
                    continue
                model = self.satisfiable([*assumptions, does], t, budget, role + 1)
            elif 2 * len(group) > len(members):  # as hard as the whole: split at once
                model = self._split(assumptions, t, budget, role, group, length + 1)
            else:
                some = [*assumptions, self._some_of(role, group, t)]
                try:
                    model = self.unrolling.satisfiable(some, budget.part(CASE_SECONDS))
                except OutOfBudget:
                    budget.check()  # only the group's share ran out
                    model = self._split(assumptions, t, budget, role, group, length + 1)
            if model is not False:
                return model
        return False

    def _groups(self, role: int, members, length: int) -> tuple[list[list[int]], int]:
        """The members by the first `length` atoms of their terms, the length grown until
        they fall into more than one group (single members, past the longest term); and
        that length."""
        atoms = self._atoms[role]
        longest = max(len(atoms[member]) for member in members)
        while length <= longest:
            groups: dict[tuple, list[int]] = {}
            for member in members:
                groups.setdefault(atoms[member][:length], []).append(member)
            if len(groups) > 1:
                return list(groups.values()), length
            length += 1
        return [[member] for member in members], length

    def _some_of(self, role: int, group: list[int], t: int) -> Lit:
        """A literal that holds only if the role takes one of the `group`'s actions at t."""
        key = (role, t, tuple(group))
        if key not in self._some:
            some = self.unrolling.new_variable()
            self.unrolling.add_clause([-some, *(self.unrolling.does(role, a, t) for a in group)])
            self._some[key] = some
        return self._some[key]


def _atoms(term: Term) -> tuple[str, ...]:
    """The names and constants of a term, in the order written."""
    if isinstance(term, str):
        return (term,)
    return tuple(atom for part in term for atom in _atoms(part))
