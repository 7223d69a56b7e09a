"""Teams: roles whose goal values are equal in every reachable terminal state.

Such roles win and lose together, so a forced-win question asks about them together: they
choose their actions together and every other role opposes them (tictactoe3d's xrow, xcolumn
and xlevel). Equality is proved, never guessed from names: two roles are a team when no
reachable terminal state gives them different goal values, which the ground rules show

- at once, when the circuit folds "terminal and their goals differ" to false (both goals are
  defined by the same rule);
- or by SAT, when no state that satisfies the proved invariants is terminal with differing
  goals (solvers/ground/invariants.py), or no line of play reaches one within the proved
  length of the game (verify, analysis/verify/search.py).

Two roles are shown to differ by a witness: a terminal state reached in play where their
goals differ. Equality is transitive, so each role is compared with one member per team.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gamecheck.analysis.loading import Subject, load_game, load_rule_sheet
from gamecheck.analysis.playouts import random_playout
from gamecheck.budget import Budget, OutOfBudget
from gamecheck.models.base import Game
from gamecheck.solvers.ground.circuit import FALSE
from gamecheck.solvers.ground.grounder import ground
from gamecheck.solvers.ground.invariants import find_invariants
from gamecheck.solvers.ground.transition import TransitionSystem
from gamecheck.solvers.ground.unroll import make_unrolling

PLAYOUTS = 30
"""Random playouts that look for a terminal state where two roles' goals differ."""
INVARIANT_SHARE = 0.5
"""The share of the budget the invariants may take when folding and playouts leave a pair."""


@dataclass(frozen=True)
class Teams:
    """Every role in one group (role order); `settled` when every pair of roles is proved
    equal or shown to differ (otherwise a role whose equality is unproved stands alone)."""

    groups: tuple[tuple[str, ...], ...]
    settled: bool

    def team_of(self, role: str) -> tuple[str, ...]:
        return next(group for group in self.groups if role in group)

    @property
    def teams(self) -> list[list[str]]:
        """The groups of two or more roles."""
        return [list(group) for group in self.groups if len(group) > 1]


def goals_differ(system: TransitionSystem, a: int, b: int) -> int:
    """A circuit literal: terminal, and some goal value is held by exactly one of roles a, b."""
    circuit = system.circuit
    first, second = system.goals[a], system.goals[b]
    parts = []
    for value in set(first) | set(second):
        x, y = first.get(value, FALSE), second.get(value, FALSE)
        parts.append(circuit.disj([circuit.conj([x, -y]), circuit.conj([-x, y])]))
    return circuit.conj([system.terminal, circuit.disj(parts)])


def partition(roles: Sequence[str], equal: Callable[[int, int], bool | None]) -> Teams:
    """Group the roles by `equal(a, b)` (True: proved equal, False: differ, None: unknown),
    comparing each role with the first member of each group so far."""
    groups: list[list[int]] = []
    settled = True
    for role in range(len(roles)):
        for group in groups:
            answer = equal(group[0], role)
            if answer is None:
                settled = False
            if answer:
                group.append(role)
                break
        else:
            groups.append([role])
    return Teams(tuple(tuple(roles[i] for i in group) for group in groups), settled)


def find_teams(subject: Subject, budget: Budget | None = None) -> Teams:
    """The teams of a game, for a forced-win question: random playouts show pairs that
    differ (a witness), the circuit or SAT on the states the proved invariants allow shows
    pairs equal, within `budget`; what is left unproved stands alone. The rules are ground
    only when the playouts leave a pair."""
    budget = budget or Budget()
    game = load_game(subject)
    differing = _differing_in_playouts(game)
    pairs = len(game.roles) * (len(game.roles) - 1) // 2
    if len(differing) == pairs:
        return Teams(tuple((role,) for role in game.roles), True)
    sheet = load_rule_sheet(game)
    try:
        system = ground(sheet.rules, sheet.name, budget=budget)
    except OutOfBudget:
        return Teams(tuple((role,) for role in game.roles), False)
    prover = _InvariantProver(system, budget)

    def equal(a: int, b: int) -> bool | None:
        if (a, b) in differing:
            return False
        condition = goals_differ(system, a, b)
        if condition == FALSE:
            return True
        return prover.impossible(condition)

    return partition(game.roles, equal)


def _differing_in_playouts(game: Game) -> set[tuple[int, int]]:
    """The pairs of roles (a < b) whose goals differ at the end of some random playout."""
    pairs = set()
    for seed in range(PLAYOUTS):
        goals = random_playout(game, seed).goals
        if goals is None:  # stuck or undefined goals: the forced-win search reports it
            break
        roles = range(len(goals))
        pairs.update((a, b) for a in roles for b in roles if a < b and goals[a] != goals[b])
    return pairs


class _InvariantProver:
    """Proves conditions impossible in every state the invariants allow; the invariants are
    found the first time they are needed, within a share of the budget."""

    def __init__(self, system: TransitionSystem, budget: Budget):
        self.system = system
        self.budget = budget
        self.unrolling = None

    def impossible(self, condition: int) -> bool | None:
        """True if no state that satisfies the invariants satisfies `condition`, None if
        that is not proved."""
        try:
            if self.unrolling is None:
                invariants = find_invariants(
                    self.system, budget=self.budget.part(share=INVARIANT_SHARE)
                )
                self.unrolling = make_unrolling(self.system, "cnf", free_start=True)
                self.unrolling.use_invariants(invariants)
            if not self.unrolling.state_possible(condition, self.budget):
                return True
        except OutOfBudget:
            pass
        return None
