"""What `verify` answers, as values: one Answer per question, the Outcomes, and the whole
Verification, each with `to_json()` (the JSON the command prints is exactly that)."""

from __future__ import annotations

from dataclasses import dataclass, field

from gamecheck.schema import stamped

PROVED, REFUTED, FOUND, NONE, UNKNOWN = "proved", "refuted", "found", "none", "unknown"
WIN = 100


@dataclass(frozen=True)
class Answer:
    """One answer: its status, its value where there is one, and the line of play that
    witnesses it (GDL text, one list of actions in role order per step)."""

    status: str
    value: object = None
    witness: tuple[tuple[str, ...], ...] | None = None
    detail: str = ""
    seconds: float = 0.0
    at_least: int | None = None
    at_most: int | None = None
    """For an unknown longest game, shortest game or earliest win: the steps the answer is
    proved to be at least, and at most (a line of play replayed), where the searches got."""

    def to_json(self) -> dict:
        result = {"status": self.status, "seconds": round(self.seconds, 3)}
        if self.value is not None:
            result["value"] = self.value
        for name in ("at_least", "at_most"):
            if getattr(self, name) is not None:
                result[name] = getattr(self, name)
        if self.witness is not None:
            result["witness"] = [list(step) for step in self.witness]
        if self.detail:
            result["detail"] = self.detail
        return result


@dataclass(frozen=True)
class Outcomes:
    """The goal vectors (role order) of reachable terminal states, each with a line of play
    to one; `complete` when it is proved that no other vector occurs."""

    vectors: tuple[tuple, ...]
    witnesses: tuple[tuple[tuple[str, ...], ...], ...]
    complete: bool
    seconds: float = 0.0

    @property
    def status(self) -> str:
        return PROVED if self.complete else UNKNOWN

    def to_json(self) -> dict:
        return {
            "status": self.status,
            "value": [list(vector) for vector in self.vectors],
            "witnesses": [[list(step) for step in line] for line in self.witnesses],
            "seconds": round(self.seconds, 3),
        }


@dataclass
class Verification:
    """All answers of `gamecheck verify` for one game and backend."""

    game: str
    roles: tuple[str, ...]
    backend: str
    horizon: int
    complete: bool
    """Whether every answer covers every reachable state: a depth within the horizon with no
    non-terminal state is proved (the longest game's search reaches one even where its time
    runs out before the game's exact length), or every reachable state was listed (the
    exhaustive search)."""
    longest_game: Answer
    shortest_game: Answer
    playability: Answer
    goal_definedness: Answer
    outcomes: Outcomes
    earliest_win: dict[str, Answer]
    seconds: float
    encoding: dict[str, int] = field(default_factory=dict)
    system_size: dict[str, int] = field(default_factory=dict)
    invariant_statistics: dict[str, float] = field(default_factory=dict)
    interrupted: bool = False
    """The run was interrupted (Ctrl-C, SIGTERM): what is unknown was not reached."""
    exports: dict[str, str] = field(default_factory=dict, repr=False)
    """When asked for: the solver input of every query, by format (`icnf` for the CNF
    backend; `cpsat model` and `cpsat queries` for CP-SAT)."""
    termination: Answer = Answer(UNKNOWN, detail="not asked")
    """Whether every game ends: proved with the most steps any line of play can last (a
    bound, where the longest game's exact length is unknown), refuted with a loop."""
    teams: Answer = Answer(UNKNOWN, detail="not asked")
    """Roles whose goals are equal in every reachable terminal state: the value lists the
    teams of two or more roles (analysis/teams.py)."""
    dead_rules: tuple[str, ...] = ()
    """The sheet's rules ("position: rule") that fire in no reachable state where legal,
    next, terminal or goal ask for them: a misspelt constant, a relation that never holds
    (solvers/ground/grounder.py)."""
    last_states: dict[tuple, tuple] = field(default_factory=dict, repr=False)
    """Witness -> (game, state): the state each line of play ends in on the first game it
    was replayed on, so that drawing it does not replay it again after the time limit."""

    def answers(self) -> dict[str, Answer]:
        """Every answer but the outcome set, by question (`earliest_win red`, ...)."""
        answers = {
            "termination": self.termination,
            "longest_game": self.longest_game,
            "shortest_game": self.shortest_game,
            "playability": self.playability,
            "goal_definedness": self.goal_definedness,
        }
        answers.update({f"earliest_win {role}": a for role, a in self.earliest_win.items()})
        answers["teams"] = self.teams
        return answers

    @property
    def defects(self) -> list[str]:
        """The properties of well-formed GDL games shown not to hold: a refuted question
        (a game that need not end is one defect, termination, not also its longest game),
        or a role that can never win (weak winnability), proved for every reachable state."""
        found = [
            name
            for name, answer in self.answers().items()
            if answer.status == REFUTED and name != "longest_game"
        ]
        if self.complete:
            found += [
                f"earliest_win {role}"
                for role, answer in self.earliest_win.items()
                if answer.status == NONE
            ]
        return found

    @property
    def unknown(self) -> list[str]:
        """The questions the budget (or the horizon) left open."""
        found = [name for name, answer in self.answers().items() if answer.status == UNKNOWN]
        return found + ([] if self.outcomes.complete else ["outcomes"])

    def to_json(self) -> dict:
        return stamped(
            "verification",
            {
                "game": self.game,
                "roles": list(self.roles),
                "backend": self.backend,
                "horizon": self.horizon,
                "complete": self.complete,
                "interrupted": self.interrupted,
                "defects": self.defects,
                "unknown": self.unknown,
                "termination": self.termination.to_json(),
                "longest_game": self.longest_game.to_json(),
                "shortest_game": self.shortest_game.to_json(),
                "playability": self.playability.to_json(),
                "goal_definedness": self.goal_definedness.to_json(),
                "outcomes": self.outcomes.to_json(),
                "earliest_win": {role: a.to_json() for role, a in self.earliest_win.items()},
                "teams": self.teams.to_json(),
                "seconds": round(self.seconds, 3),
                "encoding": self.encoding,
                "system": self.system_size,
                "invariants": self.invariant_statistics,
                "dead_rules": list(self.dead_rules),
            },
        )
