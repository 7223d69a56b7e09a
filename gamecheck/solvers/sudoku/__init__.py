"""The two sudoku models of the sudoku cube: CNF (python-sat) and CP-SAT (OR-Tools).

The names below are what the command line offers as choices; they live here, apart from the
solver modules, so that reading them loads no solver.
"""

BACKENDS = ("cnf", "cpsat")
ENCODINGS = ("minimal", "efficient", "extended")
DEFAULT_ENCODING = "extended"
MODELS = ("int", "bool")
DEFAULT_MODEL = "int"
