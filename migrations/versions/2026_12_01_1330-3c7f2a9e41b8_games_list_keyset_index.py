"""games: an index for the keyset pages of the games list

Revision ID: 3c7f2a9e41b8
Revises: 3c9e2f6a1d47
Create Date: 2026-12-01 13:30:00

``GET /v1/games`` lists an owner's games newest first (``created_at`` then ``id``, descending) and
pages by keyset: each page starts after the last game of the one before. ``(owner_id, created_at,
id)`` lets both databases read a page as one range of the index, whatever its position, with no
sort and no count. Creating an index does not rebuild ``games`` (SQLite's ``sqlite_sequence`` is
untouched).
"""

from collections.abc import Sequence

from alembic import op

# revision identifiers, used by Alembic.
revision: str = "3c7f2a9e41b8"
down_revision: str | Sequence[str] | None = "3c9e2f6a1d47"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_games_owner_created_id", "games", ["owner_id", "created_at", "id"])


def downgrade() -> None:
    op.drop_index("ix_games_owner_created_id", table_name="games")
