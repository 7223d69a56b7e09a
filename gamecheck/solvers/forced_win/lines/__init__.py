"""Forced wins of tictactoe3d at the level of marks (method `lines`): threat-space search.

The search plays whole marks, not selections. That is faithful to the rules (RULES.md 3):
at a mark boundary the team to move can complete any blank cell through its three legal
selects, whichever role opens its turn (each select is legal when some blank cell agrees with
the coordinates chosen so far, so the cell's own coordinates always are), and it can complete
no other cell; the mark goes to its side, lines and goals depend on the marks only. So a
side's win at the level of marks is its team's win in the game, 3 steps per mark.

Modules: cube (lines, symmetries, canonical form), threats (VCF search), proof_numbers (df-pn),
extraction (the strategy), checker (an independent check sharing no code with the others),
prover (the three in order).
"""
