"""The action `noop`, shared by the games in which roles out of control pass."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Noop:
    """The GDL action `noop`: the role does nothing this step."""

    def __str__(self) -> str:
        return "noop"


NOOP = Noop()
NOOP_ONLY = (NOOP,)
"""The legal actions of a role that may only pass."""
