"""verify by exhaustive search (solvers/ground/explore.py, analysis/verify/exhaustive.py):
every reachable state listed, every answer read off the list. Expected values are worked out
by hand; the solver's answers on the same sheets are the second method."""

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

import gamecheck.solvers.ground.explore
from gamecheck.analysis.loading import load_game
from gamecheck.analysis.replay import replay_line
from gamecheck.analysis.verify.exhaustive import EXHAUSTIVE
from gamecheck.analysis.verify.pipeline import verify_game
from gamecheck.analysis.verify.results import UNKNOWN
from gamecheck.cli import main
from gamecheck.solvers.ground.explore import estimated_states
from gamecheck.solvers.ground.sampling import Playouts, state_hashes

SHEETS = Path(__file__).parent / "data" / "gdl"
SMALL = [
    "broken_endless",
    "broken_goals",
    "broken_no_legal",
    "broken_stuck",
    "captures",
    "fill_or_stop",
    "first_step",
    "form_stratified",
    "hanoi",
    "hops",
    "pennies",
    "relay",
    "rounds",
    "tictactoe",
    "walker",
]


def listed(name: str, **options):
    return verify_game(str(SHEETS / f"{name}.kif"), horizon=40, **options)


def scores(rounds: int) -> set[tuple[int, int]]:
    """rounds.kif by hand: a rounds of left daring, right yielding (5, 3); b the other way
    round (3, 5); c both yielding (4, 4); the rest both daring (0, 0)."""
    return {
        (5 * a + 3 * b + 4 * c, 3 * a + 5 * b + 4 * c)
        for a, b, c in itertools.product(range(rounds + 1), repeat=3)
        if a + b + c <= rounds
    }


def test_tictactoe_has_5478_reachable_positions():
    # the count of tic-tac-toe positions reachable in play, from the empty board to the
    # finished games, is a well-known 5478
    result = listed("tictactoe")
    assert result.backend == EXHAUSTIVE
    assert result.system_size["reachable_states"] == 5478
    assert (result.longest_game.value, result.shortest_game.value) == (9, 5)
    # eight marks can still be play, nine fill the board
    assert "no non-terminal state is reachable at depth 9 " in result.longest_game.detail


def test_rounds_of_dare_or_yield_by_hand():
    # a state is the round and the two scores, so there are as many after r rounds as
    # score pairs r rounds can give; the game ends after round 3, never with a goal of 100
    result = listed("rounds")
    assert result.system_size["reachable_states"] == sum(len(scores(r)) for r in range(4))
    assert result.complete and result.outcomes.complete
    assert set(result.outcomes.vectors) == scores(3)
    answers = {question: (a.status, a.value) for question, a in result.answers().items()}
    assert answers == {
        "termination": ("proved", 3),
        "longest_game": ("proved", 3),
        "shortest_game": ("proved", 3),
        "playability": ("proved", None),
        "goal_definedness": ("proved", None),
        "earliest_win left": ("none", None),
        "earliest_win right": ("none", None),
        "teams": ("proved", []),
    }
    game = load_game(str(SHEETS / "rounds.kif"))
    for vector, witness in zip(result.outcomes.vectors, result.outcomes.witnesses, strict=True):
        assert len(witness) == 3
        assert game.goals(replay_line(game, witness).states[-1]) == vector


@pytest.mark.parametrize("name", SMALL)
def test_the_exhaustive_search_and_the_solver_agree(name):
    by_list = listed(name)
    by_solver = listed(name, exhaustive=False)
    assert (by_list.backend, by_solver.backend) == (EXHAUSTIVE, "cnf")
    assert by_list.complete and by_list.outcomes.complete
    assert UNKNOWN not in [answer.status for answer in by_list.answers().values()]
    answers = by_list.answers()
    for question, answer in by_solver.answers().items():
        if answer.status != UNKNOWN:
            assert (answers[question].status, answers[question].value) == (
                answer.status,
                answer.value,
            ), question
    if by_solver.outcomes.complete:
        assert set(by_list.outcomes.vectors) == set(by_solver.outcomes.vectors)


def test_the_longest_game_is_the_longest_path_not_the_shortest():
    # hops.kif: one cell a hop is 4 hops to the end, two a hop 2; five cells, five states
    result = listed("hops")
    assert result.system_size["reachable_states"] == 5
    assert (result.longest_game.value, result.shortest_game.value) == (4, 2)
    assert result.longest_game.witness == (("one",),) * 4
    assert (result.earliest_win["hopper"].status, result.earliest_win["hopper"].value) == (
        "found",
        2,
    )


def test_a_dial_turned_round_and_round_is_an_endless_game():
    # broken_endless.kif: without the flag, three turns bring the dial back; with it, the
    # dial at 2 ends the game. The only cycle is the three turns without the flag, so the
    # line is a shortest way to a state on it (at most 2 steps) and then once round.
    result = listed("broken_endless")
    assert result.longest_game.status == "refuted"
    witness = result.longest_game.witness
    assert 3 <= len(witness) <= 5 and witness[-3:] == (("turn",),) * 3
    game = load_game(str(SHEETS / "broken_endless.kif"))
    states = replay_line(game, witness).states
    assert states[-4] == states[-1] and not any(map(game.is_terminal, states))
    assert "the game need not end" in result.longest_game.detail


def test_a_stuck_role_is_found_at_its_depth():
    # broken_stuck.kif: tick is legal at counts 0 and 1 only, and the game ends at 3
    result = listed("broken_stuck")
    assert (result.playability.status, result.playability.value) == ("refuted", 2)
    assert result.longest_game.status == "none"  # no terminal state is reachable


@pytest.mark.parametrize(
    ("cap", "value"), [("MAX_STATES", 100), ("MAX_EDGES", 100), ("STATE_BYTES", 400)]
)
def test_too_many_states_leave_the_questions_to_the_solver(monkeypatch, cap, value):
    # tictactoe: 5478 states of 4 bytes (29 fluents), thousands of moves: far past each cap
    monkeypatch.setattr(gamecheck.solvers.ground.explore, cap, value)
    result = listed("tictactoe")
    assert result.backend == "cnf" and "reachable_states" not in result.system_size
    assert (result.longest_game.value, result.shortest_game.value) == (9, 5)


def test_the_command_can_ask_the_solver_instead(capsys):
    sheet = str(SHEETS / "rounds.kif")  # defective (exit 1): no role can ever win
    assert main(["verify", sheet, "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["backend"] == EXHAUSTIVE
    assert main(["verify", sheet, "--json", "--no-exhaustive", "--backend", "cpsat"]) == 1
    assert json.loads(capsys.readouterr().out)["backend"] == "cpsat"


def test_the_estimate_of_the_states_by_hand():
    # four playouts of one step: all start in A; then B, B, C and D. Distinct: 4; seen
    # once: C and D; twice: B. Chao1: 4 + 2 * 1 / (2 * (1 + 1)) = 4.5
    a, b, c, d = ([1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1])
    states = np.array([[a, a, a, a], [b, b, c, d]], dtype=bool)
    playouts = Playouts(states, np.ones(4, dtype=int), np.zeros((2, 4, 1), dtype=int))
    assert estimated_states(playouts) == 4.5


def test_a_game_the_playouts_show_big_is_not_listed(monkeypatch):
    # connect4_small.kif (5 x 4 board) has far more than MAX_STATES reachable states; its
    # random playouts say so, and no time goes into listing them
    def no_listing(*args):
        raise AssertionError("the states were listed")

    monkeypatch.setattr("gamecheck.analysis.verify.pipeline.explore", no_listing)
    result = listed("connect4_small")
    assert result.backend == "cnf"


def test_states_that_differ_in_high_bits_of_two_words_hash_apart():
    # wargame01's states came in pairs like these (bit 60 of the second and the fourth
    # word set in one, bit 61 of both in the other), and a weighted sum of the words
    # gave each pair one hash
    first = np.zeros((1, 341), dtype=bool)
    first[0, [124, 252]] = True
    second = np.zeros((1, 341), dtype=bool)
    second[0, [125, 253]] = True
    assert state_hashes(first)[0] != state_hashes(second)[0]


def test_the_states_are_listed_exactly_when_every_hash_collides(monkeypatch):
    # a hash that tells no state apart: the rows are compared whole, and tic-tac-toe
    # still has its 5478 positions
    def one_hash(rows):
        return np.zeros(len(rows), dtype=np.uint64)

    monkeypatch.setattr(gamecheck.solvers.ground.explore, "state_hashes", one_hash)
    assert listed("tictactoe").system_size["reachable_states"] == 5478
