"""Reading user files with one-sentence errors, and writing output files atomically."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from models.errors import GamecheckError


def read_text(path: str | Path) -> str:
    """The text of a file; GamecheckError naming the file if it cannot be read."""
    try:
        return Path(path).read_text()
    except OSError as error:
        raise GamecheckError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise GamecheckError(f"cannot read {path}: it is not UTF-8 text") from None


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write a whole file or nothing: write a temporary file beside it, then rename."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        with os.fdopen(handle, "wb") as file:
            file.write(data.encode() if isinstance(data, str) else data)
        os.replace(temporary, path)
    except OSError as error:
        raise GamecheckError(f"cannot write {path}: {error.strerror or error}") from None
