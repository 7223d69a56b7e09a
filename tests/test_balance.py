"""Win shares with Wilson intervals (analysis/balance.py), against published values of the
95% Wilson score interval (e.g. Newcombe 1998, Table I: 0/10 gives 0-0.2775, 5/10 gives
0.2366-0.7634)."""

import pytest

from gamecheck.analysis.balance import share_text, wilson_interval, win_rates


@pytest.mark.parametrize(
    ("wins", "playouts", "low", "high"),
    [
        (0, 10, 0.0, 0.2775),
        (5, 10, 0.2366, 0.7634),
        (10, 10, 0.7225, 1.0),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_wilson_interval_matches_published_values(wins, playouts, low, high):
    assert wilson_interval(wins, playouts) == pytest.approx((low, high), abs=1e-4)


def test_win_rates_per_role_of_three_player_outcomes():
    outcomes = [(100, 0, 0), (100, 0, 0), (0, 100, 0), (50, 50, 50)]
    table = win_rates(("red", "yellow", "blue"), outcomes).set_index("role")
    assert table["wins"].to_dict() == {"red": 2, "yellow": 1, "blue": 0}
    assert table["mean goal"].to_dict() == {"red": 62.5, "yellow": 37.5, "blue": 12.5}
    assert share_text(table.loc["red"]) == "50% (15-85%)"
