"""Lines of play to deep states as a playout's first steps and a solver's last ones
(solvers/ground/extension.py), checked by replaying them on the GDL reasoner."""

from __future__ import annotations

from pathlib import Path

from gamecheck.analysis.replay import replay_line
from gamecheck.budget import Budget
from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.ground.extension import extended_line
from gamecheck.solvers.ground.grounder import ground
from gamecheck.solvers.ground.sampling import random_playouts
from gamecheck.solvers.ground.unroll import make_unrolling

SHEETS = Path(__file__).parent / "data" / "gdl"


def tictactoe_parts():
    game = GdlGame.from_text((SHEETS / "tictactoe.kif").read_text(), "tictactoe.kif")
    system = ground(game.rules, "tictactoe")
    playouts = random_playouts(system, 64, max_steps=20, seed=3)
    return game, system, playouts, make_unrolling(system, "cnf", free_start=True)


def texts(system, line) -> list[list[str]]:
    return [[system.action_text(r, a) for r, a in enumerate(joint)] for joint in line.steps]


def test_a_playout_extended_to_a_full_board_replays_on_the_reasoner():
    # Tic-tac-toe's board is full after 9 steps: a line to a non-terminal state 8 steps
    # deep has 8 marks and no line of three, and x to mark the last blank cell. It begins
    # as a playout began (the solver adds its last 4 steps at least).
    game, system, playouts, states = tictactoe_parts()
    line = extended_line(playouts, states, -system.terminal, 8, Budget(30))
    assert line is not None and line.depth == 8
    last = replay_line(game, texts(system, line)).states[-1]
    assert not game.is_terminal(last)
    assert [len(game.legal(last, role)) for role in game.roles] == [1, 1]  # x's last cell
    starts = {playouts.line(p, 4).steps for p in range(len(playouts.lengths))}
    assert line.steps[:4] in starts


def test_no_line_is_made_up_past_the_end_of_every_game():
    # No tic-tac-toe game lasts 10 steps: nothing is non-terminal after 10 steps.
    _, system, playouts, states = tictactoe_parts()
    assert extended_line(playouts, states, -system.terminal, 10, Budget(30)) is None
