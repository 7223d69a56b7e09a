"""Invariant candidates and random playouts under a budget: the candidate clauses are
compared a block of atoms at a time (checked here against a pair-by-pair count), and a phase
whose budget is over returns what it settled instead of running on."""

import contextlib
import random
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from gamecheck import budget as budget_module
from gamecheck.analysis import replay
from gamecheck.budget import Budget, OutOfBudget
from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.ground import invariants, sampling, state_candidates
from gamecheck.solvers.ground.circuit import Circuit, value
from gamecheck.solvers.ground.grounder import ground
from gamecheck.solvers.ground.sampling import random_playouts

SHEETS = Path(__file__).parent / "data" / "gdl"


def correlated_rows(atoms: int, samples: int, seed: int) -> list[list[bool]]:
    """Random rows, half of them made from the others (negations and ORs), so that many
    pairs never fail together."""
    rng = random.Random(seed)
    rows = [[rng.random() < 0.5 for _ in range(samples)] for _ in range(atoms // 2)]
    while len(rows) < atoms:
        a, b = rng.sample(range(atoms // 2), 2)
        if rng.random() < 0.5:
            rows.append([not x for x in rows[a]])
        else:
            rows.append([x or y for x, y in zip(rows[a], rows[b], strict=True)])
    return rows


def clauses_by_counting(rows, signs_a, signs_b, samples: int) -> set[tuple[int, bool, int, bool]]:
    """(a, sign, b, sign) of every clause `a or b` no sample falsifies, though independent
    literals would falsify it MIN_EXPECTED times: pair by pair, with Python sets."""
    false_when = {
        (atom, sign): {s for s, x in enumerate(row) if x != sign}
        for atom, row in enumerate(rows)
        for sign in (True, False)
    }
    found = set()
    for sign_a in signs_a:
        for sign_b in signs_b:
            for a in range(len(rows)):
                for b in range(len(rows)):
                    if a == b or (sign_a == sign_b and a > b):
                        continue
                    fa, fb = false_when[a, sign_a], false_when[b, sign_b]
                    expected = len(fa) * len(fb) / samples
                    if not fa & fb and expected >= state_candidates.MIN_EXPECTED:
                        found.add((a, sign_a, b, sign_b))
    return found


def test_candidate_clauses_in_blocks_match_a_pair_by_pair_count(monkeypatch):
    monkeypatch.setattr(state_candidates, "PAIR_BLOCK", 16)  # several blocks of 70 atoms
    atoms, samples = 70, 48
    rows = correlated_rows(atoms, samples, seed=3)
    circuit = Circuit()
    nodes = [circuit.input(("x", i)) for i in range(atoms)]
    values = np.zeros((len(circuit.children), samples), dtype=bool)
    for node, row in zip(nodes, rows, strict=True):
        values[node] = row
    labelled = [(node, str(i)) for i, node in enumerate(nodes)]
    for signs in [((True, False), (True, False)), ((False,), (True,)), ((False,), (False,))]:
        found = state_candidates.binary_clauses(circuit, labelled, values, Budget(), *signs)
        texts = {clause.description for clause in found}
        expected = clauses_by_counting(rows, *signs, samples)
        assert expected, "the rows should imply some clauses"
        assert texts == {
            f"{'' if sa else 'not '}{a} or {'' if sb else 'not '}{b}" for a, sa, b, sb in expected
        }


def tictactoe():
    return ground(GdlGame.from_file(SHEETS / "tictactoe.kif").rules, "tictactoe")


def test_invariants_with_an_expired_budget_return_nothing_proved():
    system = tictactoe()
    playouts = random_playouts(system, 64, max_steps=9)
    found = invariants.find_invariants(system, playouts=playouts, budget=Budget(0))
    assert (found.state, found.counters) == ([], [])


def test_playouts_with_an_expired_budget_stay_in_the_initial_state():
    system = tictactoe()
    playouts = random_playouts(system, 64, max_steps=9, budget=Budget(0))
    assert playouts.states.shape[0] == 1
    assert not playouts.lengths.any()
    assert set(np.flatnonzero(playouts.states[0, 0])) == set(system.initial)


def test_playouts_without_a_time_limit_are_as_many_as_asked_and_all_end():
    system = tictactoe()
    playouts = random_playouts(system, 1024, max_steps=9, budget=Budget())
    assert len(playouts.lengths) == 1024
    # a tic-tac-toe game ends within 9 moves: every playout's last state is terminal
    last = playouts.states[playouts.lengths, np.arange(1024)]
    assert all(value(system.evaluate(np.flatnonzero(state)), system.terminal) for state in last)


def test_playouts_are_as_many_as_the_pace_of_the_first_ones_fits_in_the_budget(monkeypatch):
    system = tictactoe()
    clock = iter(range(1000))  # each look at the clock: one second later
    monkeypatch.setattr(sampling, "time", SimpleNamespace(monotonic=lambda: next(clock)))
    playouts = random_playouts(system, 1024, max_steps=9, budget=Budget(10.5))
    # the first 64 took one (fake) second: 10.5 s left fit 672, 640 in whole words of 64
    assert len(playouts.lengths) == 64 + 640


def test_a_playout_line_search_with_an_expired_budget_stops():
    system = tictactoe()
    playouts = random_playouts(system, 64, max_steps=9, seed=1)
    # every tictactoe playout ends within 9 steps: a line to a terminal state exists
    assert playouts.find(system, system.terminal, range(10)) is not None
    with pytest.raises(OutOfBudget):
        playouts.find(system, system.terminal, range(10), Budget(0))


def test_a_rule_sheet_evaluation_stops_when_its_budget_ends_and_leaves_no_trace():
    # A state the reasoner has not evaluated yet, asked about inside an ended budget: the
    # evaluation stops (a big sheet's take seconds: merrills'); outside, the same question
    # gets the answer the rules give (this connect four's initial state is not terminal, and
    # each of its 5 columns takes red's first disc).
    game = GdlGame.from_file(SHEETS / "connect4_small.kif")
    start = game.initial_state()
    with pytest.raises(OutOfBudget), game.within(Budget(0.0)):
        game.is_terminal(start)
    assert not game.is_terminal(start)
    assert len(game.legal(start, game.roles[0])) == 5


def test_a_playout_search_does_not_begin_a_chunk_the_time_left_cannot_finish(monkeypatch):
    # Chunks of one state, each taking one (fake) second, with 2.5 s: by hand, chunks 0 and 1
    # begin with 2.5 s and 1.5 s left; chunk 2 would begin with 0.5 s, less than a chunk
    # took, so the search stops there (merrills' chunks take 0.7 s and ran past the limit).
    now = [0.0]
    clock = SimpleNamespace(monotonic=lambda: now[0])
    monkeypatch.setattr(sampling, "time", clock)
    monkeypatch.setattr(budget_module, "time", clock)
    monkeypatch.setattr(sampling, "FIND_CHUNK", 1)
    begun = []
    with pytest.raises(OutOfBudget):
        for chunk in sampling._chunks(5, Budget(2.5)):
            begun.append(chunk.start)
            now[0] += 1.0
    assert begun == [0, 1]


def test_a_replay_does_not_begin_a_step_the_time_left_cannot_finish(monkeypatch):
    # A game whose every step takes one (fake) second, replayed with 2.5 s: by hand, steps 1
    # and 2 begin with 2.5 s and 1.5 s left, at least the one second a step took; step 3
    # would begin with 0.5 s left, so the replay stops there rather than end past the limit.
    now = [0.0]
    clock = SimpleNamespace(monotonic=lambda: now[0])
    monkeypatch.setattr(replay, "time", clock)
    monkeypatch.setattr(budget_module, "time", clock)

    class SlowCounter:
        roles = ("player",)

        def initial_state(self):
            return 0

        def parse_action(self, role, text):
            return text

        def next(self, state, joint):
            now[0] += 1.0
            return state + 1

        def is_terminal(self, state):
            return False

        def within(self, budget):
            return contextlib.nullcontext()

    with pytest.raises(OutOfBudget):
        replay.replay_line(SlowCounter(), [("tick",)] * 5, budget=Budget(2.5))
    assert now[0] == 2.0
    done = replay.replay_line(SlowCounter(), [("tick",)] * 3, budget=Budget(3.0))
    assert done.states[-1] == 3 and done.slowest_step == 1.0
    # A replay told that an earlier one's step took a second does not begin one with 0.5 s.
    with pytest.raises(OutOfBudget):
        replay.replay_line(SlowCounter(), [("tick",)], budget=Budget(0.5), slowest=1.0)
    assert now[0] == 5.0


def test_clauses_between_relations_that_take_too_long_cost_only_their_share(monkeypatch):
    # captures.kif has a balance that fails, so clauses between relations are asked for;
    # a search for them that would never end (as on a board with tens of thousands of
    # candidates) stops at LINK_SECONDS, and what comes after it (the candidates that the
    # proved balances make inductive) is proved as if there had been no such clauses.
    system = ground(GdlGame.from_file(SHEETS / "captures.kif").rules, "captures")
    monkeypatch.setattr(invariants, "link_candidates", lambda *args: [])
    without = invariants.find_invariants(system, seed=0, budget=Budget(60))

    def endless(system, groups, occupied, values, budget):
        while True:
            budget.check()

    monkeypatch.setattr(invariants, "link_candidates", endless)
    monkeypatch.setattr(invariants, "LINK_SECONDS", 0.5)
    cut = invariants.find_invariants(system, seed=0, budget=Budget(60))
    assert _described(cut.state) == _described(without.state)
    assert len(cut.balances) == len(without.balances) > 0


def _described(invariants_proved) -> list[str]:
    return sorted(invariant.description for invariant in invariants_proved)
