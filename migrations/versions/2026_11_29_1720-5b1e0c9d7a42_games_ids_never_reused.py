"""games: ids never reused on SQLite (AUTOINCREMENT)

Revision ID: 5b1e0c9d7a42
Revises: 176606ed4944
Create Date: 2026-11-29 17:20:00

SQLite gives a new row the largest rowid + 1, so once the newest game was deleted the next game took
its id, its ETag and its Idempotency-Keys. ``AUTOINCREMENT`` (``sqlite_autoincrement``) never gives
an id twice; SQLite cannot add it to a table, so the table is rebuilt (alembic's batch mode: a new
table, the rows copied with their ids, the old one dropped, the new one renamed), with foreign keys
off during the migration (migrations/env.py) so that dropping the old table cascades to no round.
Ids deleted before this migration are not known to SQLite and may be given once more. PostgreSQL's
sequences never reuse an id: nothing to do there.
"""

from collections.abc import Sequence

from alembic import op

# revision identifiers, used by Alembic.
revision: str = "5b1e0c9d7a42"
down_revision: str | Sequence[str] | None = "176606ed4944"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    with op.batch_alter_table("games", recreate="always", table_kwargs={"sqlite_autoincrement": True}):
        pass


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    with op.batch_alter_table("games", recreate="always", table_kwargs={"sqlite_autoincrement": False}):
        pass
