"""table_rounds: the rounds ended at a table, outside the row every action rewrites

Revision ID: 45f3ec6b8e04
Revises: 8d2b6f1c0e93
Create Date: 2026-12-02 03:51:32

``tables.rounds_ended`` (a JSON list of every ended round's summary, which grew every round and
was rewritten by every action) becomes one ``table_rounds`` row per round ended, unique by (table,
round). The summaries are copied over, then the column dropped; a downgrade copies them back.
Constraint names from the naming convention.
"""

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "45f3ec6b8e04"
down_revision: str | Sequence[str] | None = "8d2b6f1c0e93"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ROUND_COLUMNS = ("round", "seed", "ended", "out_side", "score")


def upgrade() -> None:
    table_rounds = op.create_table(
        "table_rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("ended", sa.String(length=20), nullable=False),
        sa.Column("out_side", sa.Integer(), nullable=True),
        sa.Column("score", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name=op.f("fk_table_rounds_table_id_tables"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_table_rounds")),
        sa.UniqueConstraint("table_id", "round", name="uq_table_rounds_table_id_round"),
    )
    tables = sa.table(
        "tables",
        sa.column("id", sa.Integer()),
        sa.column("rounds_ended", sa.JSON()),
        sa.column("updated_at", sa.DateTime(timezone=True)),
    )
    connection = op.get_bind()
    rows = [
        {
            "table_id": table_id,
            **{name: summary[name] for name in ROUND_COLUMNS},
            "created_at": updated_at or datetime.now(UTC),
        }
        for table_id, ended, updated_at in connection.execute(
            sa.select(tables.c.id, tables.c.rounds_ended, tables.c.updated_at)
        )
        for summary in ended or []
    ]
    if rows:
        op.bulk_insert(table_rounds, rows)
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.drop_column("rounds_ended")


def downgrade() -> None:
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.add_column(sa.Column("rounds_ended", sa.JSON(), nullable=False, server_default="[]"))
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.alter_column("rounds_ended", server_default=None)
    table_rounds = sa.table(
        "table_rounds",
        sa.column("table_id", sa.Integer()),
        sa.column("round", sa.Integer()),
        sa.column("seed", sa.BigInteger()),
        sa.column("ended", sa.String()),
        sa.column("out_side", sa.Integer()),
        sa.column("score", sa.JSON()),
    )
    tables = sa.table("tables", sa.column("id", sa.Integer()), sa.column("rounds_ended", sa.JSON()))
    connection = op.get_bind()
    ended: dict[int, list[dict[str, object]]] = {}
    for row in connection.execute(sa.select(table_rounds).order_by(table_rounds.c.table_id, table_rounds.c.round)):
        ended.setdefault(row.table_id, []).append({name: row._mapping[name] for name in ROUND_COLUMNS})
    for table_id, summaries in ended.items():
        connection.execute(sa.update(tables).where(tables.c.id == table_id).values(rounds_ended=summaries))
    op.drop_table("table_rounds")
