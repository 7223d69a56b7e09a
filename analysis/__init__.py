"""The questions asked of games, the cross-checks of solver answers, reports and the CLI."""
