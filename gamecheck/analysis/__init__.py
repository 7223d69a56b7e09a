"""The questions asked of games, the cross-checks of solver answers, and the reports."""
