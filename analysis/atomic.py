"""Write output files whole or not at all: a temporary file beside the target, then a rename."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from models.errors import GamecheckError


def write_atomically(path: str, write: Callable[[TextIO], object]) -> None:
    """Call `write` on a temporary text file in `path`'s directory, then rename it to `path`."""
    target = Path(path)
    try:
        descriptor, temporary = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
        )
    except OSError as error:
        raise GamecheckError(f"cannot write {path}: {error.strerror or error}") from None
    try:
        with os.fdopen(descriptor, "w", newline="") as file:
            write(file)
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes the file private
        os.replace(temporary, target)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise GamecheckError(f"cannot write {path}: {error.strerror or error}") from None
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
