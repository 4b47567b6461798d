"""round_deletions: the rounds taken back with DELETE /v1/games/{id}/rounds/{n}

Revision ID: 3c9e2f6a1d47
Revises: 5b1e0c9d7a42
Create Date: 2026-12-01 13:20:00

A deleted round's row goes (so its number can be played again, and the unique constraint on
``rounds (game_id, number)`` keeps holding); what it was, its earlier revisions, who deleted it and
when are kept here, deleted with the game. Constraint names from the naming convention.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "3c9e2f6a1d47"
down_revision: str | Sequence[str] | None = "5b1e0c9d7a42"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "round_deletions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("request", sa.JSON(), nullable=False),
        sa.Column("teams", sa.JSON(), nullable=False),
        sa.Column("author", sa.String(length=100), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revisions", sa.JSON(), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted_by", sa.String(length=100), nullable=True),
        sa.Column("game_version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_round_deletions_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_round_deletions")),
    )
    with op.batch_alter_table("round_deletions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_round_deletions_game_id"), ["game_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("round_deletions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_round_deletions_game_id"))
    op.drop_table("round_deletions")
