"""Forced wins: AND/OR search on a move generator, SAT on the ground rules, strategy checks."""
