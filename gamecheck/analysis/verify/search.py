"""The questions of `gamecheck verify`, asked of one unrolled transition system.

Every question is a reachability query on the unrolled system (solvers/ground/unroll.py):
"is there a line of play to a layer where ... holds?". UNSAT proves the answer for every
reachable state up to the depth asked; SAT gives a line of play, which is replayed on the
plain move generator and on the GDL reasoner before it is reported. The longest game comes
first: once no non-terminal state is reachable at some depth, every other question covers
all reachable states and its answer is complete. The longest game and termination are
longest.py's, the outcomes outcomes.py's: parts of the one Verifier.

The time budget is shared out: each question in turn gets an equal share of what is left,
and what the first round leaves unknown is asked again, each in turn with an equal share of
what remains. Searches share what they prove: the depths below which no such state exists,
and the shortest game, which an earliest win asks for first where it is still unknown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from functools import partial

from gamecheck.analysis.teams import goals_differ, partition
from gamecheck.analysis.verify.conditions import (
    Conditions,
    ends_terminal,
    ends_with_different_goals,
    ends_with_goal,
    goals_undefined,
    some_role_stuck,
)
from gamecheck.analysis.verify.longest import LongestGameQuestion
from gamecheck.analysis.verify.outcomes import OutcomeQuestion
from gamecheck.analysis.verify.replays import Replays
from gamecheck.analysis.verify.results import (
    FOUND,
    NONE,
    PROVED,
    REFUTED,
    UNKNOWN,
    WIN,
    Answer,
    Outcomes,
    Verification,
)
from gamecheck.budget import Budget, OutOfBudget
from gamecheck.models.base import Game
from gamecheck.solvers.ground.circuit import TRUE, value
from gamecheck.solvers.ground.count_distance import CountDistance
from gamecheck.solvers.ground.distance import steps_needed
from gamecheck.solvers.ground.extension import extended_line
from gamecheck.solvers.ground.sampling import BatchCircuit, Playouts
from gamecheck.solvers.ground.transition import TransitionSystem
from gamecheck.solvers.ground.unroll import Line, Unrolling

INDUCTION_DEPTHS = (1, 2, 4, 8)
"""A search for a state tries k-induction with these k, each once lines of play of k steps
are searched; it settles "no such state" without unrolling to the end of the game."""
INDUCTION_SECONDS = 20.0
DEEP_INDUCTION = 4
DEEP_INDUCTION_SHARE = 0.25
"""Each try takes INDUCTION_SECONDS at most; one with k above DEEP_INDUCTION (rarely the k
that proves, and most often refuted by a counterexample) no more than DEEP_INDUCTION_SHARE
of the question's time left as well (a game that counts six opening steps in a register
needs k >= 6: gomoku_swap2)."""
WINDOW_SHARE = 0.25
"""The share of a question's time left that a search over several depths at once may take
(`Verifier._shortest`)."""
DISTANCE_SHARE = 0.2
DISTANCE_SECONDS = 1.0
"""The share of a question's time, and the most seconds, that the search for a lower bound
on the steps to the state it asks for may take (solvers/ground/distance.py): where it
finds none (most games: a step counter or a ranking tells the depth already, or the state
is more than a count), the time is lost to the question."""
COUNT_SHARE = 0.5
COUNT_SECONDS = 10.0
"""The same for a lower bound by counts (solvers/ground/count_distance.py), sought first:
gomoku's (a colour gets a stone in two steps at most) takes 6 s."""
ENDING_SHARE = 0.5
"""Where the shortest game is still unknown, the share of an earliest win's time that goes on
its search first: every win is at least as deep, and the depths just below the shortest game
are often the hard ones (checkers), which the questions then search once for all."""
SAME_START_ENDING_SHARE = 0.6
"""The share of the rest that the shortest game's search then gets where no count proves the
win deeper than it has reached (0.8 of the win's time in all): the win's search would start
there, asking the same hard depth for fewer states (checkersSmall/v1: 23 s of its 120 s went
on refuting a win at depth 12 while the shortest game's query there, which refutes both, was
still unfinished). The win keeps the rest, for a game whose terminal states are hard to find
there but its wins not. The win's count is sought after the first share: sought before it
(e7f46fe), it took half of the time cubicup's shortest game needed for its count bound."""
BOUNDS_SHARE = 0.1
"""The share of the time left that replaying the shortest line found behind an unknown
shortest game or earliest win may take (it tells how deep the answer is at most)."""
EVERY_STATE = "(all reachable states)"
"""How far an answer reaches that holds of every reachable state, not only up to the horizon."""
EXTENSION_SHARE = 0.25
EXTENSION_SECONDS = 5.0
"""The share of a question's time left, and the most seconds, that extending the playouts'
lines to a depth may take (solvers/ground/extension.py) before the solver searches from the
initial state. Where it fails once for a condition, it is not tried again for it (atariGo's
probes of the longest game: 26 s lost to failing extensions, and the answer with them)."""
TEAMS = " teams"
"""The teams question's key among the questions (no role can have this name)."""


class Verifier(LongestGameQuestion, OutcomeQuestion):
    """Asks the questions of `gamecheck verify` of one unrolled transition system."""

    def __init__(
        self,
        unrolling: Unrolling,
        checkers: Sequence[Game],
        *,
        horizon: int,
        budget: Budget | None = None,
        progress: Callable[[str], None] = lambda _: None,
        states: Unrolling | None = None,
        playouts: Playouts | None = None,
    ):
        self.unrolling = unrolling
        self.states = states
        """A free-start unrolling under the proved invariants: a condition no state there
        satisfies holds in no reachable state, which settles a question without search."""
        self.playouts = playouts
        """Random playouts: a line one of them plays answers a question that asks for a
        line without a solver (it is replayed like any other)."""
        self.system: TransitionSystem = unrolling.system
        self.horizon = horizon
        self.whole_budget = budget or Budget()
        self.budget = self.whole_budget
        """The budget of the question being asked."""
        self.replays = Replays(self.system, checkers, unrolling.name, self.budget)
        self.progress = progress
        self.conditions = Conditions(self.system)
        self._start_outcomes()
        self._start_longest()
        self.shortest_depth = 0
        """No terminal state is reachable in fewer steps (once the shortest game is known)."""
        self._ending: Line | None = None
        self._ending_searched = False
        """Whether the search for the shortest game ended (`_ending` is its line, or None if
        no terminal state is reachable)."""
        self.answers: dict[str, Answer | Outcomes] = {}
        """The answers given so far, by question (a role's name: its earliest win)."""
        self._not_extended: set[int] = set()
        """Conditions for which extending the playouts' lines failed (not tried again)."""
        self._nowhere: set[int] = set()
        """Conditions no reachable state satisfies, by the invariants or by k-induction."""
        self._steps_needed: dict[int, int] = {}
        """Condition -> no state satisfying it is reachable in fewer steps (proved by a
        count or a weighted sum of fluents: `_needed`)."""
        self._counts = None if states is None else CountDistance(states)
        """Lower bounds by counts, with the rates they proved."""
        self._shortest_found: dict[int, Line] = {}
        """Condition -> the shortest line of play to a state satisfying it found so far (a
        search that runs out of time keeps it: the next round, or a refutation, goes on from
        it)."""
        self._bound_lines: dict[int, tuple[Line, tuple]] = {}
        """Condition -> the shortest line found to a state satisfying it, replayed, with its
        witness: the upper bound of an unknown answer (kept for the next round, which may
        have no time left to replay one)."""
        self._stepper: BatchCircuit | None = None
        """The compiled cone of the next literals, once a line's last state is asked for."""
        self._none_before: dict[int, int] = {}
        """Condition -> no state satisfying it is reachable in fewer steps (proved by the
        searches so far: a search asked again, in the next round or by another question,
        goes on from there)."""

    @property
    def method(self) -> str:
        """What answers the questions (the backend's name), as the verification reports it."""
        return self.replays.method

    def run(self) -> Verification:
        """Every answer; each question first gets an equal share of the time left, then
        those left unknown, in turn, an equal share of what remains, and again while some
        use up their shares."""
        roles = self.system.roles
        questions: dict[str, Callable[[], Answer | Outcomes]] = {
            "longest_game": self.longest_game,
            "shortest_game": self.shortest_game,
            "playability": self.playability,
            "goal_definedness": self.goal_definedness,
            "outcomes": self.outcomes,
        }
        for index, role in enumerate(roles):
            questions[role] = lambda index=index: self.earliest_win(index)
        answers = self.answers
        questions[TEAMS] = lambda: self.teams(answers["outcomes"])
        for number, (name, ask) in enumerate(questions.items()):
            share = 1 / (len(questions) - number)
            answers[name] = self._timed(name, ask, self.whole_budget.part(share=share))
        unknown = [name for name in questions if answers[name].status == UNKNOWN]
        while unknown and not self.whole_budget.expired:
            unknown = self._again(unknown, questions, answers)
        return self.settled()

    def settled(self, reason: str = "not asked") -> Verification:
        """The answers given so far, the questions not yet answered unknown for `reason`:
        at the end of `run`, every answer; before, what a run that cannot finish reports."""
        unknown = Answer(UNKNOWN, detail=reason)
        answers = self.answers
        longest = answers.get("longest_game", unknown)
        return Verification(
            game=self.system.name,
            roles=self.system.roles,
            backend=self.method,
            horizon=self.horizon,
            complete=self._complete(),
            longest_game=longest,
            shortest_game=answers.get("shortest_game", unknown),
            playability=answers.get("playability", unknown),
            goal_definedness=answers.get("goal_definedness", unknown),
            outcomes=answers.get("outcomes", Outcomes((), (), False)),
            earliest_win={role: answers.get(role, unknown) for role in self.system.roles},
            seconds=self.whole_budget.seconds,
            encoding=self.unrolling.size(),
            interrupted=self.whole_budget.interrupted is not None,
            teams=answers.get(TEAMS, unknown),
            termination=self._termination(longest),
            last_states=self.replays.last_states,
        )

    def _again(self, unknown: list[str], questions: dict, answers: dict) -> list[str]:
        """Ask the `unknown` questions again, each an equal share of the time left; those
        whose share ran out before an answer (the others would only answer unknown again,
        and the time some left over is worth another round to them)."""
        cut_short = []
        for number, name in enumerate(unknown):
            if self.whole_budget.expired:
                break
            share = self.whole_budget.part(share=1 / (len(unknown) - number))
            answers[name] = self._timed(name, questions[name], share)
            if answers[name].status == UNKNOWN and share.expired:
                cut_short.append(name)
        return cut_short

    # -- the questions -------------------------------------------------------------------
    def shortest_game(self) -> Answer:
        self.progress("shortest game")
        line = self._shortest_ending()
        if line is None:
            bound = self._bound(self.system.terminal)
            return Answer(NONE, detail=f"no terminal state is reachable {bound}")
        return Answer(PROVED, line.depth, self.replays.checked(line, ends_terminal))

    def _shortest_ending(self) -> Line | None:
        """The shortest line of play to a terminal state, or None if there is none; searched
        until it is found, then kept (it bounds the earliest wins and the outcomes)."""
        if not self._ending_searched:
            self._ending = self._shortest(self.system.terminal, counted=True)
            self._ending_searched = True
            ending = self._ending
            self.shortest_depth = self._depths().stop if ending is None else ending.depth
        return self._ending

    def playability(self) -> Answer:
        self.progress("playability")
        condition = self.system.circuit.conj([-self.system.terminal, self.conditions.stuck()])
        found = self._refutation(condition, some_role_stuck)
        if found is None:
            return Answer(
                PROVED,
                detail=f"every role has a legal action in every reachable "
                f"non-terminal state {self._bound(condition)}",
            )
        line, witness = found
        return Answer(
            REFUTED,
            line.depth,
            witness,
            f"after {line.depth} steps {self._stuck_roles(line)} has no legal action",
        )

    def goal_definedness(self) -> Answer:
        self.progress("goal definedness")
        condition = self.system.circuit.conj([self.system.terminal, self.conditions.bad_goals()])
        found = self._refutation(condition, goals_undefined)
        if found is None:
            return Answer(
                PROVED,
                detail=f"every role has exactly one goal value in 0..100 in "
                f"every reachable terminal state {self._bound(condition)}",
            )
        line, witness = found
        return Answer(
            REFUTED,
            line.depth,
            witness,
            f"after {line.depth} steps the goal values are {self._goal_sets(line)}",
        )

    def earliest_win(self, role: int) -> Answer:
        name = self.system.roles[role]
        self.progress(f"earliest win of {name}")
        win = self.system.goals[role].get(WIN)
        if win is None:
            return Answer(NONE, detail=f"the rules never give {name} {WIN}")
        outcomes = self.answers.get("outcomes")
        if (
            isinstance(outcomes, Outcomes)
            and outcomes.complete
            and WIN not in {vector[role] for vector in outcomes.vectors}
        ):
            return Answer(
                NONE,
                detail=f"no reachable terminal state gives {name} {WIN} {EVERY_STATE}: no "
                "scoring of the complete outcome set does",
            )
        condition = self._win_condition(role)
        ending = self._shortest_ending_first(condition)
        won = ending is not None and value(self.system.evaluate(self._final_state(ending)), win)
        best = ending if won else None
        line = self._shortest(condition, lower=self.shortest_depth, best=best, counted=True)
        if line is None:
            return Answer(
                NONE,
                detail=f"no reachable terminal state gives {name} {WIN} {self._bound(condition)}",
            )
        return Answer(FOUND, line.depth, self.replays.checked(line, ends_with_goal(role, WIN)))

    def _win_condition(self, role: int) -> int:
        """A terminal state that gives the role WIN (the role has WIN among its goals)."""
        return self.system.circuit.conj([self.system.terminal, self.system.goals[role][WIN]])

    def teams(self, outcomes: Outcomes) -> Answer:
        """Roles whose goals are equal in every reachable terminal state (analysis/teams.py):
        the goal vectors found show which differ; equality is proved by the circuit, the
        invariants, or a search to the proved end of the game (a complete outcome set)."""
        self.progress("teams")
        system = self.system

        def equal(a: int, b: int) -> bool | None:
            if any(vector[a] != vector[b] for vector in outcomes.vectors):
                return False
            condition = goals_differ(system, a, b)
            if condition == -TRUE or outcomes.complete or self._impossible(condition):
                return True
            line = self._find(condition, self._depths())
            if line is not None:
                self.replays.checked(line, ends_with_different_goals(a, b))
                return False
            return True if self._complete() else None

        found = partition(system.roles, equal)
        status = PROVED if found.settled else UNKNOWN
        detail = "roles with equal goals in every reachable terminal state"
        if not found.settled:
            detail += " (a role whose equality is unproved stands alone)"
        return Answer(status, found.teams, detail=detail)

    def _shortest_ending_first(self, win: int) -> Line | None:
        """The shortest game's line, searched for where it is still unknown, before the
        search for `win` (a condition that implies a terminal state): in ENDING_SHARE of the
        time left; then, if no count proves `win` deeper than that search has reached, in
        SAME_START_ENDING_SHARE of the rest (None if that runs out, or there is none)."""
        self._ending_within(ENDING_SHARE)
        if not self._ending_searched:
            reached = self._none_known(self.system.terminal)
            if self._needed(win, reached, self._playout_line(win, reached)) <= reached:
                self._ending_within(SAME_START_ENDING_SHARE)
        return self._ending

    def _ending_within(self, share: float) -> None:
        """Search for the shortest game's line in `share` of the time left, where it is
        still unknown. Found after the shortest game's own question ran out of time, it
        answers that question too."""
        if self._ending_searched:
            return
        try:
            with self._within(self.budget.part(share=share)):
                self._shortest_ending()
                asked = self.answers.get("shortest_game")
                if asked is not None and asked.status == UNKNOWN:  # its own time kept
                    self.answers["shortest_game"] = replace(
                        self.shortest_game(), seconds=asked.seconds
                    )
        except OutOfBudget:
            self.budget.check()  # only the share ran out

    # -- helpers -------------------------------------------------------------------------
    @contextmanager
    def _within(self, budget: Budget) -> Iterator[None]:
        """Every search in the block keeps to `budget`."""
        kept = self.budget
        self._use(budget)
        try:
            yield
        finally:
            self._use(kept)

    def _use(self, budget: Budget) -> None:
        self.budget = self.unrolling.budget = self.replays.budget = budget
        if self.states is not None:
            self.states.budget = budget

    def _timed(self, name: str, question: Callable[[], Answer | Outcomes], budget: Budget):
        """The question's answer within `budget` (unknown if it ends first), with its time."""
        self._use(budget)
        known = name in (
            "longest_game",
            "shortest_game",
            "playability",
            "goal_definedness",
            "outcomes",
            TEAMS,
        )
        self.unrolling.question = name.replace("_", " ") if known else f"earliest win {name}"
        try:
            answer = question()
        except OutOfBudget:
            answer = self._unsettled(name, budget.stop_reason())
        return replace(answer, seconds=budget.seconds)

    def _unsettled(self, name: str, reason: str) -> Answer:
        """The answer of a question whose time ran out (`reason`): unknown, with the bounds
        the searches reached for the shortest game and the earliest wins: the depth below
        which none is proved to end (as asked), and the shortest line found that does,
        replayed within BOUNDS_SHARE of the time left (if that runs out, the line an
        earlier round replayed; else none). Where the two meet, the answer is that
        line's."""
        terminal, roles = self.system.terminal, self.system.roles
        if name == "shortest_game":
            condition, claim, none, some = terminal, ends_terminal, "no game ends", "one ends"
        elif name in roles and WIN in self.system.goals[roles.index(name)]:
            role = roles.index(name)
            condition, claim = self._win_condition(role), ends_with_goal(role, WIN)
            none, some = f"no terminal state gives {name} {WIN}", "one does"
        else:
            return Answer(UNKNOWN, detail=reason)
        least = self._none_known(condition)
        try:
            with self._within(self.whole_budget.part(share=BOUNDS_SHARE)):
                line = _shorter(self._playout_line(condition, least), self._found(condition))
                kept = self._bound_lines.get(condition)
                if line is not None and (kept is None or line.depth < kept[0].depth):
                    self._bound_lines[condition] = (line, self.replays.checked(line, claim))
        except OutOfBudget:
            pass  # the line replayed before (in the first round), if any, bounds it still
        line, witness = self._bound_lines.get(condition, (None, None))
        if line is not None and line.depth <= least:
            return Answer(PROVED if condition == terminal else FOUND, line.depth, witness)
        bounds = [f"{none} in fewer than {least} steps"] if least else []
        if line is not None:
            bounds.append(f"{some} after {line.depth} (a line of play replayed)")
        known = {"at_least": least or None, "at_most": None if line is None else line.depth}
        if len(bounds) == 2:
            detail = f"{reason} between bounds: {bounds[0]}, and {bounds[1]}"
            return Answer(UNKNOWN, detail=detail, **known)
        return Answer(UNKNOWN, detail=": ".join([reason, *bounds]), **known)

    def _impossible(self, condition: int) -> bool:
        """Whether no state satisfying the invariants satisfies `condition`."""
        if self.states is None or self._possible(condition, 0):
            return False
        self._nowhere.add(condition)
        return True

    def _find(self, condition: int, depths) -> Line | None:
        """A line of play to a state satisfying `condition` after a number of steps in
        `depths`, or None if there is none: a random playout's, else one that extends a
        playout's first steps (at a single depth), else the solver's."""
        if self.playouts is not None:
            line = self.playouts.find(self.system, condition, depths, self.budget)
            if line is None and len(depths) == 1:
                line = self._extended(condition, depths[0])
            if line is not None:
                return line
        return self.unrolling.find(condition, depths, self.budget)

    def _extended(self, condition: int, depth: int) -> Line | None:
        """A line of play to a state satisfying `condition` after `depth` steps that
        extends a playout's first steps (None if none is found in EXTENSION_SECONDS, or
        if extending failed for the condition before)."""
        if self.states is None or self.playouts is None or condition in self._not_extended:
            return None
        share = self.budget.remaining() * EXTENSION_SHARE
        part = self.budget.part(min(share, EXTENSION_SECONDS))
        line = extended_line(self.playouts, self.states, condition, depth, part)
        if line is None:
            self._not_extended.add(condition)
        return line

    def _depths(self) -> range:
        last = self.horizon if self.deepest is None else self.deepest
        return range(0, last + 1)

    def _shortest(
        self, condition: int, lower: int = 0, best: Line | None = None, *, counted: bool = False
    ) -> Line | None:
        """The shortest line of play to a state satisfying `condition` (none shorter than
        `lower` steps is asked for, nor than an earlier search of it proved), or None. The
        shallowest line a random playout plays (or `best`, a line found before) bounds the
        search from above; below it, windows of depths twice as wide each time, from
        `lower` up (or, if `counted`, from a lower bound by a count or a weighted sum of
        fluents that steps change slowly: `_needed`), until one holds such a state (short
        queries are cheap, and most answers are short); then a binary search below the
        line found. A window wider than one depth gets WINDOW_SHARE of the time
        left: if that runs out, the search goes on one depth at a time (one depth of a
        window is often far harder than the rest: each one proved empty, or the hard one
        found, is then kept)."""
        best = _shorter(best or self._playout_line(condition, lower), self._found(condition))
        if best is None and self._impossible(condition):
            return None
        stop = self._depths().stop
        width, widest = 1, stop
        low = self._none_until(condition, lower)
        if counted:
            low = self._none_until(condition, self._needed(condition, low, best))
        untried = list(INDUCTION_DEPTHS)
        while best is None or low < best.depth:
            high = min(low + width, stop if best is None else best.depth)
            if low >= high:
                return None
            part = self.budget.part(share=WINDOW_SHARE) if high - low > 1 else self.budget
            try:
                shorter = self.unrolling.find(condition, range(low, high), part)
            except OutOfBudget:
                self.budget.check()  # only the window's share ran out
                width = widest = 1
                continue
            if shorter is not None:
                best = self._keep(condition, shorter)
                break
            low = self._none_until(condition, high)
            width = min(2 * width, widest)
            if best is None and self._inductive(condition, low, untried):
                return None
        while low < best.depth:  # proved: no such state at a depth below `low`
            middle = (low + best.depth) // 2
            shorter = self.unrolling.find(condition, range(low, middle + 1), self.budget)
            if shorter is None:
                low = self._none_until(condition, middle + 1)
            else:
                best = self._keep(condition, shorter)
        return best

    def _found(self, condition: int) -> Line | None:
        return self._shortest_found.get(condition)

    def _keep(self, condition: int, line: Line) -> Line:
        """`line`, kept as the shortest found to a state satisfying `condition`, and as one
        to a terminal state where it ends in one (a win: it bounds the shortest game)."""
        self._shortest_found[condition] = _shorter(line, self._found(condition))
        terminal = self.system.terminal
        if condition != terminal and self._ends_terminal(line):
            self._shortest_found[terminal] = _shorter(line, self._found(terminal))
        return line

    def _ends_terminal(self, line: Line) -> bool:
        """Whether the line ends in a terminal state (False if the budget ends first)."""
        try:
            return value(self.system.evaluate(self._final_state(line)), self.system.terminal)
        except OutOfBudget:
            return False

    def _none_until(self, condition: int, depth: int) -> int:
        """The most steps before which no state satisfying `condition` is reachable, as
        proved so far, once `depth` (proved too) is recorded."""
        depth = max(depth, self._none_known(condition))
        self._none_before[condition] = depth
        return depth

    def _none_known(self, condition: int) -> int:
        """The most steps before which no state satisfying `condition` is proved reachable:
        none satisfies an AND sooner than one of its parts (a terminal state with bad goals
        is no sooner than the shortest game)."""
        parts = self.system.circuit.children[condition] if condition > 0 else ()
        return max(self._none_before.get(literal, 0) for literal in (condition, *parts))

    def _refutation(self, condition: int, claim: Callable[[Game, object], bool]):
        """(line, witness): the shortest line of play to a state satisfying `condition`,
        checked to end as `claim` says; None if no such state is reachable. A line a random
        playout plays is checked first; it, or a shorter line the search found, stands if
        the search for the shortest runs out of time: it refutes as well as the shortest
        (replayed, and described by the question, within the whole budget left)."""
        known = self._playout_line(condition)
        witness = None if known is None else self.replays.checked(known, claim)
        try:
            line = self._shortest(condition, best=known)
        except OutOfBudget:
            line = _shorter(known, self._found(condition))
            if line is None:
                raise
            self._use(self.whole_budget)  # the question's share is spent: replay the line
        if line is None:
            return None
        return line, witness if line is known else self.replays.checked(line, claim)

    def _needed(self, condition: int, lower: int, best: Line | None) -> int:
        """`lower`, or more where a count (solvers/ground/count_distance.py), else a weighted
        sum of fluents (distance.py), proves that no state satisfying `condition` is
        reachable sooner: sought once per condition, each in its share of the question's
        time, no further than `best`."""
        if condition not in self._steps_needed and self.states is not None:
            most = None if best is None else best.depth
            by_counts = self._counts.steps_needed
            counted = self._bounded(by_counts, COUNT_SHARE, COUNT_SECONDS, condition, lower, most)
            found = counted or 0
            if self.playouts is not None and (most is None or found < most):
                by_sums = partial(steps_needed, self.states, self.playouts)
                summed = self._bounded(
                    by_sums, DISTANCE_SHARE, DISTANCE_SECONDS, condition, max(lower, found), most
                )
                found = max(found, summed or 0)
            if counted is not None:  # else asked again, in the next round
                self._steps_needed[condition] = found
            return max(lower, found)
        return max(lower, self._steps_needed.get(condition, 0))

    def _bounded(self, bound, share: float, seconds: float, condition: int, above: int, most):
        """`bound(condition, above, budget, most=most)` within `share` of the time left and
        `seconds` at most: 0 where it finds no bound above `above`, None where its time
        ends first."""
        part = self.budget.part(min(self.budget.remaining() * share, seconds))
        try:
            return bound(condition, above, part, most=most) or 0
        except OutOfBudget:
            self.budget.check()  # only the bound's share ran out
            return None

    def _playout_line(self, condition: int, lower: int = 0) -> Line | None:
        """The shallowest line a random playout plays to a state satisfying `condition`,
        not shorter than `lower` steps (None if none does)."""
        if self.playouts is None:
            return None
        depths = range(lower, self._depths().stop)
        return self.playouts.find(self.system, condition, depths, self.budget)

    def _inductive(self, condition: int, searched: int, untried: list[int] | None = None) -> bool:
        """Whether k-induction proves that no reachable state satisfies `condition`, for
        the k of `untried` (INDUCTION_DEPTHS if not given; each taken out once tried) that
        the lines of play searched so far, all shorter than `searched` steps, cover."""
        untried = list(INDUCTION_DEPTHS) if untried is None else untried
        while self.states is not None and untried and untried[0] <= searched:
            k = untried.pop(0)
            seconds = INDUCTION_SECONDS
            if k > DEEP_INDUCTION:
                seconds = min(seconds, DEEP_INDUCTION_SHARE * self.budget.remaining())
            try:
                if self.states.inductive(condition, k, self.budget.part(seconds)):
                    self._nowhere.add(condition)
                    return True
            except OutOfBudget:
                self.budget.check()  # only the induction's share ran out
        return False

    def _bound(self, condition: int) -> str:
        """How far an answer that no state satisfies `condition` reaches."""
        if self._complete() or condition in self._nowhere:
            return EVERY_STATE
        return f"(up to depth {self.horizon}, the horizon)"

    def _final_state(self, line: Line) -> frozenset[int]:
        """The state the line ends in, stepped on the compiled cone of the next literals
        (cut once from the playouts' compiled circuit where there is one); OutOfBudget if
        the budget ends first."""
        if self._stepper is None:
            roots = list(self.system.next)
            if self.playouts is None:
                self._stepper = BatchCircuit(self.system, roots, self.budget)
            else:
                self._stepper = self.playouts.compiled(self.system, roots, self.budget)
        return self._stepper.run(self.system, line.steps, self.budget)

    def _goal_vector(self, line: Line) -> tuple:
        return self.conditions.vector_at(self.system.evaluate(self._final_state(line)))

    def _goal_sets(self, line: Line) -> str:
        vector = self._goal_vector(line)
        return ", ".join(
            f"{role} {goal}" for role, goal in zip(self.system.roles, vector, strict=True)
        )

    def _stuck_roles(self, line: Line) -> str:
        legal = self.system.legal_actions(self._final_state(line))
        return " and ".join(
            role for role, acts in zip(self.system.roles, legal, strict=True) if not acts
        )


def _shorter(line: Line | None, other: Line | None) -> Line | None:
    """The shorter of two lines of play (the first on a tie), either of which may be None."""
    if line is None or (other is not None and other.depth < line.depth):
        return other
    return line
