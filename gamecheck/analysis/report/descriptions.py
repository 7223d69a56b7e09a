"""What the reports say about each game's rules: a brief summary, and where the short prose
descriptions the games come from disagree with the rules (/work/shared/RULES.md, the
specification). Facts only, keyed by built-in game name."""

from __future__ import annotations

RULES_IN_BRIEF = {
    "cubicup": (
        "Three players (yellow, red, green) take turns placing cubes of their colour on a "
        "pyramid: positions (x y z) with z <= y <= x <= 7, level 0 filled with neutral ground "
        "cubes and 84 empty positions above it, 28 cubes per player. A cube may go only on a "
        "position whose three supporting positions below are filled. When the three supporters "
        "of an empty position all belong to one player, it is that player's open cubicup: the "
        "player in control must fill an opponent's open cubicup if there is one, and keeps "
        "control while filling opponents' cubicups (unless down to their last cube). The game "
        "ends when the top position (7 7 7) is filled, always after exactly 84 steps. Its "
        "owner scores 100 and the others 0, unless the top is a cubicup of another player, in "
        "which case everyone scores 50."
    ),
    "ttcc4": (
        "Tic-Tac-Chess-Checkers-Four: three players (red, yellow, blue) on a 7x7 board whose "
        "inner 5x5 square is the playing area and whose border holds waiting pieces. Each "
        "player has a pawn, a checker and a knight, and an unlimited supply of discs. On its "
        "turn a player may drop a disc into column 3, 4 or 5 (it falls down the column), move "
        "its pawn (orthogonally, or diagonally to capture), its knight (chess knight jump, "
        "capturing) or its checker (diagonally, or jumping over an enemy piece), or pass with "
        "noop. Captured pieces return to their start cells; captured discs are gone. The first "
        "player(s) with three pieces in a line in the central 3x3 square score 100; after 30 "
        "steps the game ends with 0 for everyone without a line."
    ),
    "tictactoe3d": (
        "Team tic-tac-toe on a 4x4x4 cube: team X (xrow, xcolumn, xlevel) against team O "
        "(orow, ocolumn, olevel). A team places one mark per team turn, its three roles "
        "choosing the row, column and level of a blank cell one after the other; the teams "
        "alternate whole marks, X first, and the role that opens a team's turn rotates from "
        "one mark to the next. The game ends when a team has four marks on one of the 76 lines "
        "of the cube (that team's roles score 100, the others 0) or the cube is full (everyone "
        "scores 50)."
    ),
    "sudoku": (
        "A standard 9x9 sudoku for one role (robot), written with four coordinates (i j k l): "
        "each step the robot writes a digit into a blank cell where it does not repeat a digit "
        "of the cell's row, column or 3x3 box. The game ends when no such move is left: with "
        "100 if the grid is full (solved), 0 at a dead end. The built-in instance is grade1; "
        "seven instances are built in."
    ),
    "tictacchess": (
        "Three-player Tic-Tac-Chess (red, yellow, blue) on the 7x7 board of ttcc4 (playing "
        "area 5x5). Each player starts with one piece on its spawn cell and, on its turn, moves "
        "one of its pieces either a knight's jump to an empty cell or one king step onto a "
        "cell holding another player's piece (capturing it); with no such move it passes. "
        "After every step each player gets a new piece on its spawn cell, so pieces "
        "accumulate. Three pieces of one player in a line in the central 3x3 square win (100 "
        "for that player, 0 for the others); after 30 steps the game ends with 0 for everyone."
    ),
}

DESCRIPTION_VS_RULES = {
    "cubicup": (
        "The prose says only the owner of the top scores 50 when the top is another player's "
        "cubicup; the rules give all three roles 50.",
        'The prose says noop "passes their turn"; the player in control can never play noop.',
        "The prose does not say that filling an opponent's cubicup keeps control.",
    ),
    "ttcc4": (
        "The prose says captured pieces are removed; in the rules pawns, checkers and knights "
        "return to their start cells (only captured discs are gone).",
        "The prose does not say that discs fall from the top of their column.",
    ),
    "tictactoe3d": ("The prose omits that the opening role of each team's turn rotates.",),
    "sudoku": (
        'The prose speaks of "27 cells in a 3x3x3 cube"; the game is a standard 9x9 sudoku '
        "written with four coordinates.",
    ),
    "tictacchess": (
        "The prose has no spawning: with one piece each nobody could ever make a line.",
        "The prose allows king steps onto empty cells; the rules allow king steps only to capture.",
    ),
}
