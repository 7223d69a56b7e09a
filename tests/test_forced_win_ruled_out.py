"""A found forced win rules out the forced win of every team it beats: where no reachable
outcome gives both teams 100, the other team has none at any depth."""

from dataclasses import replace
from pathlib import Path

from gamecheck.analysis.forced_wins import ruled_out, solve_forced_win
from gamecheck.analysis.verify.pipeline import verify_game
from gamecheck.analysis.verify.results import Outcomes
from gamecheck.solvers.forced_win.search import Status

TAKEAWAY = str(Path(__file__).parent / "data" / "gdl" / "takeaway.kif")
ROLES = ("first", "second")


def take_away_answers():
    """The first player's forced win from a heap of 7 (found: 7 is not a multiple of 3),
    the second's question left unknown by a search stopped at once, and verify's outcomes."""
    first = solve_forced_win(TAKEAWAY, team=["first"])
    second = solve_forced_win(TAKEAWAY, team=["second"], node_limit=1)
    outcomes = verify_game(TAKEAWAY, time_limit=60).outcomes
    return first, second, outcomes


def test_the_second_player_is_ruled_out_as_a_full_search_proves():
    first, second, outcomes = take_away_answers()
    assert (first.status, second.status) == (Status.FOUND, Status.UNKNOWN)
    # Whoever takes the last token wins and the other scores 0: outcomes (100 0) and (0 100).
    assert outcomes.complete and sorted(outcomes.vectors) == [(0, 100), (100, 0)]
    settled = ruled_out(second, first, ROLES, outcomes)
    searched = solve_forced_win(TAKEAWAY, team=["second"])
    assert (settled.status, settled.searched_depth) == (Status.NONE, second.max_depth)
    assert searched.status is Status.NONE
    assert "ruled out by the forced win of first" in settled.method


def test_nothing_is_ruled_out_without_a_complete_set_of_outcomes_that_excludes_both():
    first, second, outcomes = take_away_answers()
    both_win = replace(outcomes, vectors=(*outcomes.vectors, (100, 100)))
    unproved = replace(outcomes, complete=False)
    assert ruled_out(second, first, ROLES, both_win) == second
    assert ruled_out(second, first, ROLES, unproved) == second
    # A team is not ruled out by its own win, nor by an answer that is not found.
    assert ruled_out(second, replace(first, team=("second",)), ROLES, outcomes) == second
    assert ruled_out(second, replace(first, status=Status.UNKNOWN), ROLES, outcomes) == second
    assert ruled_out(first, second, ROLES, Outcomes((), (), True)) == first
