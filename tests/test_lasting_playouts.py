"""Lasting playouts (solvers/ground/sampling.py): random playouts that avoid ending the game
while some joint action keeps it going. Expected lengths are worked out by hand from the
rules below; the lines they play are replayed on the GDL reasoner."""

from pathlib import Path

import numpy as np

from gamecheck.analysis.replay import replay_line
from gamecheck.gdl.terms import term_text
from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.ground.explore import estimated_states
from gamecheck.solvers.ground.grounder import ground
from gamecheck.solvers.ground.sampling import MOBILE_PLAYOUTS, random_playouts

DATA = Path(__file__).parent / "data" / "gdl"

# Each step the player goes on (the count rises) or stops (the game ends at once); the game
# also ends at count 10. Going on is always legal, so a playout that avoids ending lasts 10
# steps; a uniformly random one stops at each step with probability 1/2 and lasts 10 steps
# only once in 2^9 = 512 playouts (going on at each of the first nine steps).
GO_OR_STOP = """
(role p)
(init (count 0))
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)
(succ 5 6) (succ 6 7) (succ 7 8) (succ 8 9) (succ 9 10)
(<= (legal p go) (true (count ?n)))
(<= (legal p stop) (true (count ?n)))
(<= (next (count ?m)) (does p go) (true (count ?n)) (succ ?n ?m))
(<= (next stopped) (does p stop))
(<= terminal (true stopped))
(<= terminal (true (count 10)))
(<= (goal p 100) (true (count 10)))
(<= (goal p 0) (not (true (count 10))))
"""


def test_lasting_playouts_go_on_while_the_game_can_and_random_ones_stop_early():
    game = GdlGame.from_text(GO_OR_STOP, "go_or_stop")
    system = ground(game.rules, game.name)
    playouts = random_playouts(system, 256, max_steps=50, seed=4, lasting=128)
    plain, lasting = playouts.lengths[:256], playouts.lengths[256:]
    assert len(lasting) == 128 + MOBILE_PLAYOUTS  # the mobile ones avoid ending too
    assert set(lasting) == {10}
    # random ones: mean length below 2 (it is 2 - 2^-9 in expectation), few at 10
    assert plain.mean() < 2.5
    assert np.count_nonzero(plain == 10) < 10


def test_a_lasting_playout_line_is_legal_on_the_reasoner_and_ends_as_the_system_says():
    game = GdlGame.from_text(GO_OR_STOP, "go_or_stop")
    system = ground(game.rules, game.name)
    playouts = random_playouts(system, 64, max_steps=50, seed=5, lasting=64)
    win = system.circuit.conj([system.terminal, system.goals[0][100]])
    line = playouts.find(system, win, range(0, 51))
    assert line is not None and line.depth == 10
    steps = [[term_text(system.actions[0][joint[0]])] for joint in line.steps]
    assert steps == [["go"]] * 10
    final = replay_line(game, steps).states[-1]
    assert game.is_terminal(final) and game.goals(final) == (100,)


def test_mobile_playouts_play_a_knights_tour_to_the_end_and_it_replays_on_the_reasoner():
    # 25 squares, each visited once: no line has more than 24 moves, and a tour from the
    # corner has 24 (Warnsdorff's rule, moving where the fewest moves go on, finds one)
    game = GdlGame.from_file(DATA / "knights_tour.kif")
    system = ground(game.rules, game.name)
    playouts = random_playouts(system, 64, max_steps=50, seed=1, lasting=64)
    assert len(playouts.lengths) == 128 + MOBILE_PLAYOUTS
    assert playouts.lengths.max() == 24
    assert playouts.lengths[-MOBILE_PLAYOUTS:].max() == 24
    tour = system.circuit.conj([system.terminal, system.goals[0][100]])
    line = playouts.find(system, tour, range(0, 51))
    assert line is not None and line.depth == 24
    steps = [[term_text(system.actions[0][joint[0]])] for joint in line.steps]
    final = replay_line(game, steps).states[-1]
    assert game.is_terminal(final) and game.goals(final) == (100,)


def test_the_estimate_of_reachable_states_ignores_lasting_playouts():
    # lasting playouts copy each other's lines, so their states are not independent
    # samples: the estimate is that of the random playouts alone (the same seed plays
    # the same random playouts first)
    game = GdlGame.from_text(GO_OR_STOP, "go_or_stop")
    system = ground(game.rules, game.name)
    alone = random_playouts(system, 64, max_steps=50, seed=6)
    both = random_playouts(system, 64, max_steps=50, seed=6, lasting=64)
    assert (both.lasting, len(both.lengths)) == (64 + MOBILE_PLAYOUTS, 128 + MOBILE_PLAYOUTS)
    assert np.array_equal(both.lengths[:64], alone.lengths)
    assert estimated_states(both) == estimated_states(alone)
