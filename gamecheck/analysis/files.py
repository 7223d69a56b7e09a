"""Reading user files with one-sentence errors, and writing output files atomically."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from gamecheck.errors import GamecheckError


def read_text(path: str | Path) -> str:
    """The text of a file; GamecheckError naming the file if it cannot be read."""
    try:
        return Path(path).read_text()
    except OSError as error:
        raise GamecheckError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise GamecheckError(f"cannot read {path}: it is not UTF-8 text") from None


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
