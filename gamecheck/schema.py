"""The JSON gamecheck prints and the API's `to_json()` return: one object per result,
stamped with its kind, the schema version and the tool version, so that scripts can tell
what they read. The schema version changes when a key changes meaning or goes away."""

from __future__ import annotations

SCHEMA_VERSION = 1


def stamped(kind: str, body: dict) -> dict:
    """`body` after the keys `kind`, `schema_version` and `gamecheck` (the tool version)."""
    from gamecheck import __version__

    return {"kind": kind, "schema_version": SCHEMA_VERSION, "gamecheck": __version__, **body}
