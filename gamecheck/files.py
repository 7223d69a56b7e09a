"""Reading user files with one-sentence errors, and writing output files atomically: into a
temporary file beside the target, renamed over it only once complete, so that a failure (a
full disk, an interruption) never leaves a half-written file under the target's name."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from gamecheck.errors import GamecheckError

MAX_INPUT_BYTES = 64 * 2**20
"""The most a user file may hold (the largest puzzle set in the repository has 4 MB); more,
or an endless device such as /dev/zero, is refused rather than read into memory."""


STDIN = "-"
"""The file name that stands for the standard input."""


def input_name(path: str | Path) -> str:
    """How messages name an input: its path, or `<stdin>` for `-`."""
    return "<stdin>" if str(path) == STDIN else str(path)


def read_text(path: str | Path) -> str:
    """The text of a file (`-`: the standard input); GamecheckError naming the file if it
    cannot be read."""
    path = input_name(path)
    try:
        if path == "<stdin>":
            data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        else:
            with open(path, "rb") as file:
                data = file.read(MAX_INPUT_BYTES + 1)
    except OSError as error:
        raise GamecheckError(f"cannot read {path}: {error.strerror or error}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise GamecheckError(f"cannot read {path}: it holds more than {MAX_INPUT_BYTES >> 20} MiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise GamecheckError(f"cannot read {path}: it is not UTF-8 text") from None


@contextmanager
def atomic_path(path: str | Path, *, suffix: str = ".tmp") -> Iterator[Path]:
    """A new temporary file beside `path` (its name `.NAME.XXXX` + `suffix`) to be written
    inside the block; renamed to `path` when the block ends, removed if it raises.
    GamecheckError naming `path` if it cannot be written."""
    target = Path(path)
    try:
        descriptor, name = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", suffix=suffix
        )
        os.close(descriptor)
    except OSError as error:
        raise GamecheckError(f"cannot write {path}: {error.strerror or error}") from None
    temporary = Path(name)
    try:
        yield temporary
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes the file private
        os.replace(temporary, target)
    except BaseException as error:
        temporary.unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise GamecheckError(f"cannot write {path}: {error.strerror or error}") from None
        raise


def write_atomically(path: str | Path, write: Callable[[TextIO], object]) -> None:
    """Call `write` on a temporary text file beside `path`, then rename it to `path`."""
    with atomic_path(path) as temporary, open(temporary, "w", newline="") as file:
        write(file)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
