"""The statements a table's requests run (``services.tables``), each built once and run with
parameters on the session's connection, as ``round_statements`` does for a game's rounds."""

from __future__ import annotations

from sqlalchemy import Table, bindparam, insert, select, update

from handfoot.server.models import Table as TableRow
from handfoot.server.models import TableAction, TableRound

TABLES: Table = TableRow.__table__  # type: ignore[assignment]
ACTIONS: Table = TableAction.__table__  # type: ignore[assignment]
ROUNDS_ENDED: Table = TableRound.__table__  # type: ignore[assignment]

#: An ended round's summary: the columns of ``table_rounds`` a table's answers show.
ROUND_COLUMNS = ("round", "seed", "ended", "out_side", "score")

INSERT_TABLE = insert(TABLES).returning(TABLES.c.id)
INSERT_ROUND = insert(ROUNDS_ENDED)
SELECT_ROUND = select(*(ROUNDS_ENDED.c[name] for name in ROUND_COLUMNS)).where(
    ROUNDS_ENDED.c.table_id == bindparam("table_id"), ROUNDS_ENDED.c.round == bindparam("number")
)
SELECT_LOG = (
    select(ACTIONS.c.action)
    .where(ACTIONS.c.table_id == bindparam("table_id"), ACTIONS.c.round == bindparam("number"))
    .order_by(ACTIONS.c.index)
)
#: The table's next version, where the row is still at the version read (``row_version``); the new
#: values as ``new_<column>`` (a parameter named as a column would join the SET clause).
UPDATE = (
    update(TABLES)
    .where(TABLES.c.id == bindparam("table_id"), TABLES.c.version == bindparam("row_version"))
    .values(
        version=bindparam("new_version"),
        status=bindparam("new_status"),
        round=bindparam("new_round"),
        state=bindparam("new_state"),
        answer_due_at=bindparam("new_answer_due_at"),
        updated_at=bindparam("new_updated_at"),
    )
)
POLL = select(TABLES.c.version, TABLES.c.status, TABLES.c.answer_due_at).where(TABLES.c.id == bindparam("table_id"))
