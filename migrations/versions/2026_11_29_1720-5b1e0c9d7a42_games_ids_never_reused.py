"""games: ids never reused on SQLite (AUTOINCREMENT)

Revision ID: 5b1e0c9d7a42
Revises: 176606ed4944
Create Date: 2026-11-29 17:20:00

SQLite gives a new row the largest rowid + 1, so once the newest game was deleted the next game took
its id, its ETag and its Idempotency-Keys. ``AUTOINCREMENT`` (``sqlite_autoincrement``) never gives
an id twice; SQLite cannot add it to a table, so the table is rebuilt (alembic's batch mode: a new
table, the rows copied with their ids, the old one dropped, the new one renamed), with foreign keys
off during the migration (migrations/env.py) so that dropping the old table cascades to no round.
Ids deleted before this migration are not known to SQLite and may be given once more. A rebuild
restarts SQLite's counter (``sqlite_sequence``) at the largest id left: a downgrade forgets it, and a
later migration that rebuilds ``games`` must carry it over. Stored Idempotency-Keys whose answer names a
game that is gone, or one created after the key (another game that took the id), are deleted: they
would replay another game's answer. PostgreSQL's sequences never reuse an id: nothing to do there.
"""

import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "5b1e0c9d7a42"
down_revision: str | Sequence[str] | None = "176606ed4944"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return
    with op.batch_alter_table("games", recreate="always", table_kwargs={"sqlite_autoincrement": True}):
        pass
    _forget_keys_of_other_games(bind)


_GAME_PATH = re.compile(r"/v1/games/(\d+)(/|$)")


def _instant(value: object) -> datetime:
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _forget_keys_of_other_games(bind: sa.Connection) -> None:
    created = {row.id: _instant(row.created_at) for row in bind.execute(sa.text("SELECT id, created_at FROM games"))}
    stale = []
    for row in bind.execute(
        sa.text(
            "SELECT id, created_at, response_headers, response_body FROM idempotency_keys "
            "WHERE response_headers IS NOT NULL"
        )
    ):
        headers = row.response_headers
        location = (json.loads(headers) if isinstance(headers, str) else headers or {}).get("Location", "")
        match = _GAME_PATH.search(location)
        if match is None:
            continue
        game = created.get(int(match.group(1)))
        if match.group(2):  # an append: its game was made before its key
            other = game is None or game > _instant(row.created_at)
        else:  # a game's creation: the answer is that game, with its created_at
            answer = json.loads(row.response_body or "{}")
            other = game is None or "created_at" not in answer or _instant(answer["created_at"]) != game
        if other:
            stale.append(row.id)
    for key_id in stale:
        bind.execute(sa.text("DELETE FROM idempotency_keys WHERE id = :id"), {"id": key_id})


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    with op.batch_alter_table("games", recreate="always", table_kwargs={"sqlite_autoincrement": False}):
        pass
