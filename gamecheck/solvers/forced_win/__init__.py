"""Forced wins: AND/OR search on a move generator, SAT on the ground rules, strategy checks."""

TABLE_MEGABYTES = 2048
"""The memory of one question's search tables, by default (`forced-win --memory`)."""
