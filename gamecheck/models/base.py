"""The one game interface: every built-in game and the GDL reasoner implement `Game`.

States are immutable and hashable. Actions are the game's own immutable values; at the
boundary they become GDL text (`action_text`, `parse_action`), as states become sets of
GDL facts (`state_facts`, `state_from_facts`). Joint actions are tuples in role order.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from gamecheck.budget import Budget
from gamecheck.errors import IllegalActionError, UnknownRoleError

State = Hashable
Action = Hashable
Joint = tuple
NEVER = 1 << 40
"""What `steps_to_win` or `steps_to_loss` answer where the rules prove that no such terminal
state can be reached at all."""
Cell = tuple[str, str | None] | None
"""A cell of a drawn board: its text and its owner (a role, or a kind such as `given`; None
when empty), or None where the board has no cell."""


@dataclass(frozen=True)
class Board:
    """A state drawn for pictures: grids side by side, each a title and its rows of cells
    (top row first, all rows of a grid equally long), and a caption."""

    grids: tuple[tuple[str, tuple[tuple[Cell, ...], ...]], ...]
    caption: str = ""


class Game(ABC):
    """A GGP game: roles, initial state, legal actions, transitions, terminal test, goals."""

    name: str
    roles: tuple[str, ...]
    step_bound: int | None = None
    """An upper bound on the number of steps of any game, where the rules give one."""

    @abstractmethod
    def initial_state(self) -> State:
        """The state the game starts in."""

    @abstractmethod
    def legal(self, state: State, role: str) -> Sequence[Action]:
        """The actions `role` may take in `state` (empty in a terminal state)."""

    @abstractmethod
    def apply(self, state: State, joint: Joint) -> State:
        """The next state after a joint action, which the caller guarantees is legal."""

    @abstractmethod
    def is_terminal(self, state: State) -> bool:
        """Whether the game is over in `state`."""

    @abstractmethod
    def goals(self, state: State) -> tuple[int, ...]:
        """The goal value of every role in `state`, in role order."""

    @abstractmethod
    def state_facts(self, state: State) -> frozenset[str]:
        """The state as a set of canonical GDL facts, e.g. `(cell 1 4 red)`."""

    @abstractmethod
    def state_from_facts(self, facts: Iterable[str]) -> State:
        """The state a set of GDL facts describes; BadTermError if it describes none."""

    @abstractmethod
    def action_text(self, action: Action) -> str:
        """The canonical GDL term of an action, e.g. `(put 3 1 1)` or `noop`."""

    @abstractmethod
    def parse_action(self, role: str, text: str) -> Action:
        """The action of `role` written as GDL text; BadTermError if it is none."""

    def steps_to_win(self, state: State, team: Sequence[int]) -> int:
        """A lower bound on the steps from the non-terminal `state` to a terminal state where
        every role of `team` (indexes into `roles`) has goal 100 (0: nothing known; NEVER: there
        is none). A game overrides it only where its rules prove the bound."""
        return 0

    def steps_to_loss(self, state: State, team: Sequence[int]) -> int:
        """A lower bound on the steps from the non-terminal `state` to a terminal state where
        some role of `team` has a goal below 100 (0: nothing known); as `steps_to_win`."""
        return 0

    def steps_to_end(self, state: State) -> int | None:
        """The number of steps every line of play from `state` takes to a terminal state,
        where the rules fix it (None: they do not, or it is not known)."""
        return None

    def next(self, state: State, joint: Sequence[Action]) -> State:
        """The next state after a joint action; IllegalActionError if it is not legal."""
        joint = tuple(joint)
        self.check_joint(state, joint)
        return self.apply(state, joint)

    def check_joint(self, state: State, joint: Joint) -> None:
        """Raise IllegalActionError unless `joint` gives every role one legal action."""
        if len(joint) != len(self.roles):
            raise IllegalActionError(
                f"a joint action needs {len(self.roles)} actions (one per role), got {len(joint)}"
            )
        if self.is_terminal(state):
            raise IllegalActionError("the game is over: no action is legal in a terminal state")
        for role, action in zip(self.roles, joint, strict=True):
            if action not in self.legal(state, role):
                raise IllegalActionError(
                    f"{self.action_text(action)} is not a legal action of {role} here"
                )

    @contextmanager
    def within(self, budget: Budget | None) -> Iterator[None]:
        """Inside, a step or a state's evaluation that takes long stops when `budget` ends
        (OutOfBudget). A built-in game's steps are quick: here it does nothing."""
        yield

    def joint_actions(self, state: State) -> list[Joint]:
        """Every legal joint action in `state`, in a fixed order."""
        return list(itertools.product(*(self.legal(state, role) for role in self.roles)))

    def role_index(self, role: str) -> int:
        """The position of `role` in `roles`; UnknownRoleError if the game has no such role."""
        try:
            return self.roles.index(role)
        except ValueError:
            raise UnknownRoleError(
                f"{self.name} has no role {role!r}; its roles are {', '.join(self.roles)}"
            ) from None

    def picture(self, state: State) -> str:
        """A readable picture of the state; games with a board draw it."""
        return "\n".join(sorted(self.state_facts(state)))

    def board(self, state: State) -> Board | None:
        """The state as a Board to draw as an image, for games that have a board."""
        return None


def steps_for_moves(moves: int, role: int, control: int, roles: int) -> int:
    """The fewest steps after which `role` can have made `moves` moves, in a game where
    control passes to the next of `roles` roles every step (role `control` moves first)."""
    if moves == 0:
        return 0
    return (role - control) % roles + roles * (moves - 1) + 1
