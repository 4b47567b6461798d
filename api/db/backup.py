"""A running SQLite database copied to a file (``handfoot-server backup``): sqlite3's online backup
API, the embedded database's own way; PostgreSQL is backed up by ``pg_dump`` (docs/deploy.md)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

#: Pages copied a step: writers get the database's lock between steps.
PAGES_PER_STEP = 256


def copy_sqlite(source: Path, target: Path) -> str:
    """Copy the SQLite file ``source`` to ``target`` (a new file) while others write it: one
    consistent snapshot, a self-contained file (no ``-wal`` beside it). Returns the copy's
    ``PRAGMA integrity_check`` (``"ok"`` when sound); raises ``sqlite3.Error``."""
    # Read-only URI: a backup never creates or changes the source.
    reader = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, timeout=15)
    writer = sqlite3.connect(target)
    try:
        reader.backup(writer, pages=PAGES_PER_STEP)
        writer.execute("PRAGMA journal_mode=DELETE")
        check: str = writer.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        writer.close()
        reader.close()
    return check
