"""Errors: bad input (GamecheckError, one sentence for the user; the CLI exits with status 2)
and failed cross-checks (CrossCheckFailure: a bug in gamecheck; status 3)."""


class GamecheckError(Exception):
    """Bad input from the user (file, argument, rule sheet); its message is one clear sentence."""


class UnknownGameError(GamecheckError):
    """A game name that is neither built in nor a readable rule sheet."""


class UnknownRoleError(GamecheckError):
    """A role name the game does not have."""


class IllegalActionError(GamecheckError):
    """A joint action that is not legal in the state it is applied to."""


class BadTermError(GamecheckError):
    """Text that is not a well-formed GDL term, or not a fact or action of the game."""


class BadPuzzleError(GamecheckError):
    """A sudoku puzzle string or file that cannot be a puzzle."""


class CrossCheckFailure(Exception):
    """A solver answer that fails its cross-check: a bug in gamecheck, not bad input."""
