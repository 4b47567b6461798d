"""idempotency_keys unanswered: the keys an earlier version left without an answer go

Revision ID: 9a4d7e2c5b10
Revises: 3f0c2b9e1a47
Create Date: 2026-12-07 09:40:00

A claim now shares its write's transaction, so no key is committed without its answer; a row
without one was claimed in a transaction of its own by an earlier version, and its request never
finished. Such rows are deleted (the key is free again, as that version treated it), so a claim
meets only answered keys. The ``token`` column that named the claiming process stays, unused. A
downgrade has nothing to restore.
"""

from collections.abc import Sequence

from alembic import op

# revision identifiers, used by Alembic.
revision: str = "9a4d7e2c5b10"
down_revision: str | Sequence[str] | None = "3f0c2b9e1a47"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("DELETE FROM idempotency_keys WHERE status IS NULL")


def downgrade() -> None:
    pass
