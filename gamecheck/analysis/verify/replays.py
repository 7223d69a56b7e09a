"""Every line of play a solver finds is replayed on the checking games (the GDL reasoner's
game, and a built-in game's own moves) before an answer stands: its states must be what the
question claims. A line that starts as one replayed before is replayed from where they part."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gamecheck.analysis.replay import ReplayError, replay_line
from gamecheck.budget import Budget
from gamecheck.models.base import Game
from gamecheck.solvers.ground.transition import TransitionSystem
from gamecheck.solvers.ground.unroll import Line


class Replays:
    """The lines of play replayed on the checking games, and what they visited."""

    def __init__(
        self, system: TransitionSystem, checkers: Sequence[Game], method: str, budget: Budget
    ):
        self.system = system
        self.checkers = checkers
        self.method = method
        """What found the lines (the backend's name), as a failed replay reports it."""
        self.budget = budget
        """The budget of the question being asked."""
        self.lines: dict[Line, None] = {}
        """Every line of play replayed so far (any question's), in order."""
        self.longest: Line | None = None
        """The longest of them: every state on it before its last is non-terminal."""
        self.last_states: dict[tuple, tuple] = {}
        """Witness -> (game, the state it ends in there): from the first checking game."""
        self._states: dict[int, dict[tuple, tuple]] = {}
        """Checking game (its number) -> witness replayed on it -> the states it visits."""
        self._slowest_steps: dict[int, float] = {}
        """Checking game (its number) -> the most seconds one step of a replay on it took:
        a replay does not begin a step that the time left cannot finish."""

    def checked(self, line: Line, claim: Callable[[Game, object], bool]) -> tuple:
        """The line as GDL text, after replaying it on every checking game and confirming
        the claim about its last state; ReplayError if any check fails."""

        def ends_as_claimed(game: Game, states) -> bool:
            return claim(game, states[-1])

        return self._replayed(line, ends_as_claimed, "does not end as the solver claims")

    def checked_loop(self, line: Line, start: int) -> tuple:
        """The line as GDL text, after replaying it on every checking game and confirming
        that no state on it is terminal and that its last state is the one after step
        `start`; ReplayError if any check fails."""

        def comes_back(game: Game, states) -> bool:
            return not any(map(game.is_terminal, states)) and states[start] == states[-1]

        return self._replayed(
            line, comes_back, f"does not come back to the state after step {start}"
        )

    def texts(self, line: Line) -> tuple[tuple[str, ...], ...]:
        """The line's joint actions as GDL text."""
        system = self.system
        return tuple(
            tuple(system.action_text(role, action) for role, action in enumerate(joint))
            for joint in line.steps
        )

    def _replayed(self, line: Line, holds_on: Callable[[Game, tuple], bool], failure: str):
        """The line as GDL text, replayed on every checking game, whose states must satisfy
        `holds_on`; ReplayError saying `failure` if they do not."""
        witness = self.texts(line)
        for number, game in enumerate(self.checkers):
            replayed = self._states.setdefault(number, {})
            known = _longest_prefix(replayed, witness)
            shared = max(len(known) - 1, 0)  # steps
            replay = replay_line(
                game,
                witness[shared:],
                start=known[-1] if known else None,
                budget=self.budget,
                slowest=self._slowest_steps.get(number, 0.0),
            )
            self._slowest_steps[number] = replay.slowest_step
            states = known[:shared] + replay.states
            replayed[witness] = states
            if not holds_on(game, states):
                raise ReplayError(
                    f"{game.name}: the line of play found by {self.method} "
                    f"({line.depth} steps) {failure}"
                )
            self.last_states.setdefault(witness, (game, states[-1]))
        if self.longest is None or line.depth > self.longest.depth:
            self.longest = line
        self.lines[line] = None
        return witness


def _longest_prefix(replayed: dict[tuple, tuple], witness: tuple) -> tuple:
    """The states of the longest start that `witness` shares with a witness replayed
    before, from the initial state to where they part (none if no step is shared)."""
    best: tuple = ()
    for steps, states in replayed.items():
        shared = next(
            (n for n, pair in enumerate(zip(witness, steps, strict=False)) if pair[0] != pair[1]),
            min(len(witness), len(steps)),
        )
        if shared and shared + 1 > len(best):
            best = states[: shared + 1]
    return best
