"""Everything that turns a game into constraints and solves them: the ground transition
system and its unrollings (ground), forced-win search (forced_win), the sudoku models (sudoku)."""
