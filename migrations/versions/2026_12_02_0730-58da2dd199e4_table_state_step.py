"""tables.state: the round's step count is ``step``, not ``version``

Revision ID: 58da2dd199e4
Revises: 50dcccd796c6
Create Date: 2026-12-02 07:30:00

The engine's round in play (``tables.state``, ``handfoot.engine.play.to_mapping``) counted its
actions under ``version``, the name the table's own version (every action over all rounds) has on
the wire. The engine now calls it ``step``; the stored states are renamed to match, and back on a
downgrade. No column changes.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "58da2dd199e4"
down_revision: str | Sequence[str] | None = "50dcccd796c6"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = sa.table("tables", sa.column("id", sa.Integer()), sa.column("state", sa.JSON()))


def _rename(old: str, new: str) -> None:
    connection = op.get_bind()
    for row_id, state in connection.execute(sa.select(TABLES.c.id, TABLES.c.state)).all():
        if isinstance(state, dict) and old in state:
            state = {(new if key == old else key): value for key, value in state.items()}
            connection.execute(sa.update(TABLES).where(TABLES.c.id == row_id).values(state=state))


def upgrade() -> None:
    _rename("version", "step")


def downgrade() -> None:
    _rename("step", "version")
