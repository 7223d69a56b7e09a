"""`gamecheck verify`: results (the answers as values), search (the questions asked of an
unrolled system), pipeline (from a game to every answer, within a budget), text (rendering)."""
