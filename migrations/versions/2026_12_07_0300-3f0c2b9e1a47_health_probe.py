"""health_probe: the row a readiness check rewrites to show the database takes writes

Revision ID: 3f0c2b9e1a47
Revises: 70d1d0a75d83
Create Date: 2026-12-07 03:00:00

``GET /health/ready`` (and ``GET /health``) commits one write to this one-row table, so a database
that is full, read-only or locked past the check's wait is reported not ready, with the reason. A
downgrade drops the table. Constraint names from the naming convention.
"""

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "3f0c2b9e1a47"
down_revision: str | Sequence[str] | None = "70d1d0a75d83"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    probe = op.create_table(
        "health_probe",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("checked_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_health_probe")),
    )
    op.bulk_insert(probe, [{"id": 1, "checked_at": datetime.now(UTC)}])  # the one row each check rewrites


def downgrade() -> None:
    op.drop_table("health_probe")
