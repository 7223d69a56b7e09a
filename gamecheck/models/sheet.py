"""A GDL rule sheet as a Game (models/base.py), played by the reasoner.

States are frozensets of ground fact terms, actions are ground terms (gdl/terms.py), so
`state_facts` and `action_text` are just their canonical text. A sheet with any static-check
error (gdl/checks.py) is refused with the first error (a GDL-II sheet with the error that
says so, wherever it is); warnings are ignored here (`gamecheck lint` shows them). The
reasoner's static model, which may take long for a big sheet, is evaluated on first use, or
within a budget by `prepare`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from gamecheck.budget import Budget
from gamecheck.errors import BadTermError, GamecheckError
from gamecheck.gdl.checks import Lint, is_gdl_ii, lint_file, lint_text
from gamecheck.gdl.reasoner import Reasoner, role_names
from gamecheck.gdl.syntax import GdlError, Rule, is_ground
from gamecheck.gdl.terms import Term, parse_term, term_text
from gamecheck.models.base import Game

State = frozenset


class GdlGame(Game):
    """The game a rule sheet describes. Build it with `from_file` or `from_text`, which run the
    static checks; the constructor trusts that `rules` passed them."""

    step_bound = None

    def __init__(self, rules: Sequence[Rule], name: str):
        self.name = name
        self.rules = tuple(rules)
        self.roles = role_names(self.rules)
        self._reasoner: Reasoner | None = None

    @property
    def reasoner(self) -> Reasoner:
        """The reasoner of the rules (built on first use, without a time limit)."""
        self.prepare()
        return self._reasoner

    def prepare(self, budget: Budget | None = None) -> None:
        """Build the reasoner now, within `budget`: OutOfBudget if it ends first, TooLarge
        if the static relations are too big to hold (the game is then not playable here)."""
        if self._reasoner is None:
            self._reasoner = Reasoner(self.rules, budget=budget)

    @contextmanager
    def within(self, budget: Budget | None) -> Iterator[None]:
        """Inside, the reasoner's evaluations stop when `budget` ends (OutOfBudget)."""
        reasoner = self.reasoner
        kept, reasoner.budget = reasoner.budget, budget
        try:
            yield
        finally:
            reasoner.budget = kept

    @classmethod
    def from_file(cls, path: str | Path) -> GdlGame:
        """The game of the rule sheet at `path`; GdlError naming file:line:col if it is bad."""
        return cls(_checked_rules(lint_file(str(path))), Path(path).stem)

    @classmethod
    def from_text(cls, text: str, name: str) -> GdlGame:
        """The game of a rule sheet given as text; positions name it `name`."""
        return cls(_checked_rules(lint_text(text, name)), name)

    def initial_state(self) -> State:
        return self.reasoner.initial_state()

    def legal(self, state: State, role: str) -> list[Term]:
        """The legal actions of `role`, sorted by their text; none in a terminal state (as the
        Game interface says, even where the rules still derive legal facts there)."""
        self.role_index(role)
        if self.reasoner.is_terminal(state):
            return []
        return list(self.reasoner.legal(state, role))

    def apply(self, state: State, joint: tuple) -> State:
        return self.reasoner.next_state(state, joint)

    def is_terminal(self, state: State) -> bool:
        return self.reasoner.is_terminal(state)

    def goal_values(self, state: State) -> dict[str, frozenset[int]]:
        """Every goal value the rules give each role in `state` (any number, even none)."""
        values = self.reasoner.goal_values(state)
        return {role: frozenset(values[role]) for role in self.roles}

    def goals(self, state: State) -> tuple[int, ...]:
        """The goal of every role; GamecheckError if a role has no goal value or several."""
        result = []
        for role, values in self.goal_values(state).items():
            if len(values) != 1:
                found = ", ".join(map(str, sorted(values))) or "none"
                raise GamecheckError(
                    f"{self.name}: role {role} must have exactly one goal value in this state, "
                    f"but has {found}"
                )
            result.extend(values)
        return tuple(result)

    def state_facts(self, state: State) -> frozenset[str]:
        return frozenset(term_text(fact) for fact in state)

    def state_from_facts(self, facts: Iterable[str]) -> State:
        state = frozenset(self._ground_term(text, "fact") for text in facts)
        base = self._declared("base")
        if base is not None:
            for fact in state:
                if (fact,) not in base:
                    raise BadTermError(f"{term_text(fact)} is not a base fact of {self.name}")
        return state

    def action_text(self, action: Term) -> str:
        return term_text(action)

    def parse_action(self, role: str, text: str) -> Term:
        self.role_index(role)
        action = self._ground_term(text, "action")
        declared = self._declared("input")
        if declared is not None and (role, action) not in declared:
            raise BadTermError(f"{term_text(action)} is not an input of {role} in {self.name}")
        return action

    def _declared(self, relation: str) -> set[tuple] | None:
        """The facts of `base` or `input`, or None where the sheet does not declare them."""
        static = self.reasoner.static_model
        return static[relation].known if relation in static else None

    @staticmethod
    def _ground_term(text: str, what: str) -> Term:
        term = parse_term(text)
        if not is_ground(term):
            raise BadTermError(f"{text} has a variable, so it is not a ground {what}")
        return term


def _checked_rules(lint: Lint) -> tuple[Rule, ...]:
    """The rules of a sheet without errors; GdlError with the first error otherwise (the
    GDL-II one, if any: the others may only follow from it)."""
    errors = lint.errors
    if errors:
        first = next(filter(is_gdl_ii, errors), errors[0])
        more = len(errors) - 1
        note = f" (and {more} more error{'s' * (more > 1)}; see gamecheck lint)" if more else ""
        raise GdlError(first.message + note, first.position)
    return lint.rules
