"""tables.practice: a table whose seed its creator chose (a practice deal)

Revision ID: 50dcccd796c6
Revises: 45f3ec6b8e04
Create Date: 2026-12-02 07:00:00

A table made with a chosen ``seed`` is a practice deal: its rounds' seeds are derived from that seed
alone, as before. A table with a random seed derives each round's with the server's secret too
(issue 29). The tables made before this revision are not practice tables (false): their rounds still
in play keep the seeds they were dealt from, and their later rounds are dealt unpredictably.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "50dcccd796c6"
down_revision: str | Sequence[str] | None = "45f3ec6b8e04"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.add_column(sa.Column("practice", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.drop_column("practice")
