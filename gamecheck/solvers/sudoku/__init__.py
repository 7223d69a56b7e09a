"""The two sudoku models of the sudoku cube: CNF (python-sat) and CP-SAT (OR-Tools)."""
