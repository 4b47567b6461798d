"""Commits and statements a request runs, counted with SQLAlchemy's engine events (``commit``,
``before_cursor_execute``) on the app's engine."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from flask import Flask
from sqlalchemy import event

from handfoot.server.db import get_db


@dataclass
class Counted:
    """What the engine ran inside a :func:`counted` block: ``commits``, each SQL statement,
    ``many``: those the driver ran as an executemany (a round trip a row on PostgreSQL; the ORM's
    inserts of many rows are one statement, SQLAlchemy's "insertmanyvalues"), and ``committed``:
    the statements of each committed transaction, in order."""

    commits: int = 0
    statements: list[str] = field(default_factory=list)
    many: list[str] = field(default_factory=list)
    committed: list[list[str]] = field(default_factory=list)
    _open: list[str] = field(default_factory=list)

    def writes(self) -> list[str]:
        """The statements that change rows (INSERT, UPDATE, DELETE, or a ``WITH`` whose CTEs do)."""
        return [
            s
            for s in self.statements
            if s.split(" ", 1)[0].upper() in ("INSERT", "UPDATE", "DELETE")
            or (s.startswith("WITH ") and _DML_CTE.search(s) is not None)
        ]


_DML_CTE = re.compile(r"AS\s*\((INSERT|UPDATE|DELETE)\b")


@contextmanager
def counted(app: Flask) -> Iterator[Counted]:
    """The commits and the SQL statements of ``app``'s engine inside the block."""
    seen = Counted()

    def on_commit(_conn: Any) -> None:
        seen.commits += 1
        seen.committed.append(seen._open)
        seen._open = []

    def on_rollback(_conn: Any) -> None:
        seen._open = []

    def on_statement(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.statements.append(" ".join(statement.split()))
        seen._open.append(seen.statements[-1])

    def on_executemany(_cursor: Any, statement: str, *_args: Any) -> None:
        seen.many.append(" ".join(statement.split()))  # the driver's executemany (not insertmanyvalues)

    engine = get_db(app).engine
    listeners = {
        "commit": on_commit,
        "rollback": on_rollback,
        "before_cursor_execute": on_statement,
        "do_executemany": on_executemany,
    }
    for name, listener in listeners.items():
        event.listen(engine, name, listener)
    try:
        yield seen
    finally:
        for name, listener in listeners.items():
            event.remove(engine, name, listener)
