"""Everything that turns a game into constraints and solves them."""
