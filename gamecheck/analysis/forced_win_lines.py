"""The forced-win question by method `lines`: tictactoe3d's threat-space proof at the level of
marks (solvers/forced_win/lines), for a team of one whole side, from a mark boundary with its
side to move.

The strategy found is checked at the level of marks against every reply of the other side
(solvers/forced_win/lines/checker.py), then a seeded sample of its lines is played step by
step, selects and noops, on the built-in move generator and on the GDL reasoner of our rule
sheet: the other side marks a random blank cell each turn through its three selects, the team
marks the strategy's cell through its own, and every line must end with goal 100 for the
team. The depth reported is the most steps any line of the strategy takes (3 per mark): a
strategy's length, not proved to be the fewest.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from gamecheck.analysis.loading import load_rule_sheet
from gamecheck.analysis.replay import replay_line
from gamecheck.budget import Budget, OutOfBudget
from gamecheck.errors import CrossCheckFailure, GamecheckError
from gamecheck.models.base import Game
from gamecheck.models.tictactoe3d import (
    KINDS,
    NOOP,
    SELECTS,
    Tictactoe3dGame,
    Tictactoe3dState,
    cell_coordinates,
)
from gamecheck.solvers.forced_win.lines.cube import cells_of, win_cells
from gamecheck.solvers.forced_win.lines.extraction import strategy_move
from gamecheck.solvers.forced_win.lines.prover import MarkProof, prove_mark_win
from gamecheck.solvers.forced_win.search import ForcedWin, Status
from gamecheck.solvers.forced_win.sides import Sides, make_sides

METHOD = "lines"
REPLAY_LINES = 200
REPLAY_SEED = 0
WIN = 100


class LineReplayFailure(CrossCheckFailure):
    """A sampled line of a checked strategy that the move generator or the rule sheet does not
    end with the team's win: a bug in gamecheck."""


def lines_forced_win(
    sides: Sides,
    state: Tictactoe3dState,
    *,
    max_depth: int,
    budget: Budget,
    progress: bool = False,
    replay_lines: int = REPLAY_LINES,
    seed: int = REPLAY_SEED,
) -> ForcedWin:
    """The team's forced win found by threat-space search, checked and replayed: `found`
    within the steps of the strategy's longest line, or `unknown` (the budget ended, the search
    found no proof, or the strategy is longer than `max_depth`). GamecheckError where the
    method does not apply."""
    side = applicable_side(sides, state)
    mine, theirs = (state.x_marks, state.o_marks) if side == 0 else (state.o_marks, state.x_marks)
    answer = _Answer(sides, max_depth)
    try:
        proof = prove_mark_win(mine, theirs, side, budget, progress=progress)
        if proof is None:
            return answer.unknown(0)
        depth = len(KINDS) * proof.check.longest
        if depth > max_depth:
            return answer.unknown(proof.expansions)
        replay_sample(sides, state, proof.strategy, replay_lines, seed, budget)
    except OutOfBudget:
        return answer.unknown(0)
    return answer.found(depth, _first_action(sides, state, proof.strategy), proof)


def lines_game(game: Game) -> Tictactoe3dGame:
    """The game, if it is the built-in tictactoe3d; GamecheckError otherwise."""
    if not isinstance(game, Tictactoe3dGame):
        raise GamecheckError(
            f"method lines applies to the built-in game tictactoe3d only, not {game.name}"
        )
    return game


def lines_apply(game: Game, team: Sequence[str]) -> bool:
    """Whether the method applies to `team` from the initial state of `game`."""
    try:
        applicable_side(make_sides(game, team), game.initial_state())
    except GamecheckError:
        return False
    return True


def applicable_side(sides: Sides, state: Tictactoe3dState) -> int:
    """The side (0: x, 1: o) of a team the method applies to; GamecheckError otherwise."""
    game = lines_game(sides.game)
    members = set(sides.team)
    if members not in ({0, 1, 2}, {3, 4, 5}):
        raise GamecheckError(
            "method lines needs a team of one whole side: xrow,xcolumn,xlevel or "
            "orow,ocolumn,olevel"
        )
    side = min(members) // 3
    if game.is_terminal(state):
        raise GamecheckError("method lines needs a state where the game is not over")
    if any(state.selected):
        raise GamecheckError(
            "method lines needs a state at a mark boundary, where no coordinate is selected"
        )
    if state.control // 3 != side:
        raise GamecheckError(
            f"method lines needs the team's side to move, not {game.roles[state.control]}"
        )
    return side


def replay_sample(
    sides: Sides,
    state: Tictactoe3dState,
    strategy: dict[int, int],
    count: int,
    seed: int,
    budget: Budget,
) -> None:
    """Play `count` seeded lines of the strategy on the move generator and the rule sheet;
    LineReplayFailure unless each ends with goal 100 for every team role on both."""
    game = sides.game
    sheet = load_rule_sheet(game)
    sheet_start = sheet.state_from_facts(game.state_facts(state))
    rng = random.Random(seed)
    for number in range(count):
        steps = sampled_line(sides, state, strategy, rng, budget)
        for checked, start in ((game, state), (sheet, sheet_start)):
            end = replay_line(checked, steps, start, budget)
            goals = end.goals
            if goals is None or any(goals[role] != WIN for role in sides.team):
                raise LineReplayFailure(
                    f"{checked.name}: sampled line {number} (seed {seed}) of the strategy "
                    f"ends with goals {goals} after {len(steps)} steps"
                )


def sampled_line(
    sides: Sides,
    state: Tictactoe3dState,
    strategy: dict[int, int],
    rng: random.Random,
    budget: Budget,
) -> list[tuple[str, ...]]:
    """One line of joint actions (GDL text, role order) on the move generator: the team marks
    the strategy's cell (a line's last cell when it can complete one), the other side a random
    blank cell, each through the legal selects of its roles in turn."""
    game = sides.game
    side = min(sides.team) // 3
    steps = []
    cell = None
    while not game.is_terminal(state):
        budget.check()
        if not any(state.selected):
            cell = _next_mark(state, side, strategy, rng)
        coordinates = cell_coordinates(cell)
        kind = state.control % 3
        joint = tuple(
            SELECTS[kind][coordinates[kind]] if role == state.control else NOOP
            for role in range(len(game.roles))
        )
        steps.append(tuple(game.action_text(action) for action in joint))
        state = game.next(state, joint)
    return steps


def _next_mark(state: Tictactoe3dState, side: int, strategy: dict[int, int], rng) -> int:
    if state.control // 3 != side:
        return rng.choice(list(cells_of(state.blanks)))
    return _team_mark(state, side, strategy)


def _team_mark(state: Tictactoe3dState, side: int, strategy: dict[int, int]) -> int:
    """The cell the team marks: a line's last cell if it can complete one, else the
    strategy's."""
    mine, theirs = (state.x_marks, state.o_marks) if side == 0 else (state.o_marks, state.x_marks)
    wins = win_cells(mine, theirs)
    if wins:
        return wins.bit_length() - 1
    cell = strategy_move(strategy, mine, theirs)
    if cell is None:
        raise LineReplayFailure(f"the strategy has no mark for marks {mine:#x} against {theirs:#x}")
    return cell


def _first_action(sides: Sides, state: Tictactoe3dState, strategy: dict[int, int]) -> str:
    """The team's first action as text: its role in control selects its coordinate of the
    team's first mark, the others noop."""
    cell = _team_mark(state, min(sides.team) // 3, strategy)
    kind = state.control % 3
    value = cell_coordinates(cell)[kind]
    action = tuple(SELECTS[kind][value] if role == state.control else NOOP for role in sides.team)
    return sides.action_text(action)


class _Answer:
    """What every ForcedWin of one question shares."""

    def __init__(self, sides: Sides, max_depth: int):
        self.sides = sides
        self.max_depth = max_depth

    def unknown(self, nodes: int) -> ForcedWin:
        return self._result(Status.UNKNOWN, nodes=nodes)

    def found(self, depth: int, first_action: str, proof: MarkProof) -> ForcedWin:
        return self._result(
            Status.FOUND,
            depth=depth,
            first_action=first_action,
            strategy_size=len(proof.strategy),
            nodes=proof.expansions,
        )

    def _result(self, status: Status, **found) -> ForcedWin:
        return ForcedWin(
            game=self.sides.game.name,
            role=self.sides.team_roles[0],
            team=self.sides.team_roles,
            max_depth=self.max_depth,
            status=status,
            depth=found.get("depth"),
            searched_depth=-1,
            first_action=found.get("first_action"),
            strategy_size=found.get("strategy_size"),
            nodes=found["nodes"],
            seconds=0.0,
            method=METHOD,
            fewest=False,
        )
