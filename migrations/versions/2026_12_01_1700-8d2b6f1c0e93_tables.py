"""tables and table_actions: seats playing a stored game's rounds over HTTP

Revision ID: 8d2b6f1c0e93
Revises: 3c7f2a9e41b8
Create Date: 2026-12-01 17:00:00

A table holds the round in play (the engine's state as JSON, hidden cards included), its version
(every action accepted, over all rounds), the seat tokens' hashes and the table's seed; each action
accepted is a ``table_actions`` row, unique by (table, version): two writes on one version cannot
both be stored. Deleted with their game. Constraint names from the naming convention.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "8d2b6f1c0e93"
down_revision: str | Sequence[str] | None = "3c7f2a9e41b8"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("answer_timeout", sa.Integer(), nullable=False),
        sa.Column("answer_due_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("play", sa.JSON(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("seat_hashes", sa.JSON(), nullable=False),
        sa.Column("rounds_ended", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_tables_game_id_games"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["owner_id"], ["api_keys.id"], name=op.f("fk_tables_owner_id_api_keys"), ondelete="RESTRICT"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tables")),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tables_game_id"), ["game_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_tables_owner_id"), ["owner_id"], unique=False)
    op.create_table(
        "table_actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name=op.f("fk_table_actions_table_id_tables"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_table_actions")),
        sa.UniqueConstraint("table_id", "version", name="uq_table_actions_table_id_version"),
    )
    with op.batch_alter_table("table_actions", schema=None) as batch_op:
        batch_op.create_index("ix_table_actions_table_id_round", ["table_id", "round", "index"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("table_actions", schema=None) as batch_op:
        batch_op.drop_index("ix_table_actions_table_id_round")
    op.drop_table("table_actions")
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tables_owner_id"))
        batch_op.drop_index(batch_op.f("ix_tables_game_id"))
    op.drop_table("tables")
