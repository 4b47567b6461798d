"""idempotency_keys drop token: a claim no longer names its process

Revision ID: 9a4d7e2c5b10
Revises: 3f0c2b9e1a47
Create Date: 2026-12-07 09:40:00

Claims share their write's transaction, so no claim is ever taken over and the column that named
the claiming process is unused; a row without an answer (claimed in a transaction of its own by an
earlier version) is deleted, as no claim is committed without its answer now. A downgrade adds the
column back, empty.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "9a4d7e2c5b10"
down_revision: str | Sequence[str] | None = "3f0c2b9e1a47"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("DELETE FROM idempotency_keys WHERE status IS NULL")
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.drop_column("token")


def downgrade() -> None:
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.add_column(sa.Column("token", sa.String(length=64), nullable=False, server_default=""))
