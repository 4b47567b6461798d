"""round_sides: each side's facts of a stored round, for statistics the database sums

Revision ID: 70d1d0a75d83
Revises: 58da2dd199e4
Create Date: 2026-12-03 07:43:08

One row per side of every stored round (the game, the round's number, the side's index): its score,
whether it went out and its books by kind, read from the round's stored Breakdowns by the engine
(``handfoot.engine.history.side_round_facts``, the reading the exports use). Existing rounds are
filled in here; from now on the round's writes keep the rows. A downgrade drops the table.
Constraint names from the naming convention.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from handfoot.engine.history import side_round_facts

# revision identifiers, used by Alembic.
revision: str = "70d1d0a75d83"
down_revision: str | Sequence[str] | None = "58da2dd199e4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 1000


def upgrade() -> None:
    round_sides = op.create_table(
        "round_sides",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("side", sa.Integer(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("went_out", sa.Boolean(), nullable=False),
        sa.Column("clean_books", sa.Integer(), nullable=False),
        sa.Column("dirty_books", sa.Integer(), nullable=False),
        sa.Column("wild_books", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_round_sides_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "number", "side", name=op.f("pk_round_sides")),
    )
    rounds = sa.table(
        "rounds",
        sa.column("id", sa.Integer()),
        sa.column("game_id", sa.Integer()),
        sa.column("number", sa.Integer()),
        sa.column("teams", sa.JSON()),
    )
    connection = op.get_bind()
    after = 0
    while True:  # in batches by id: a big history is not read whole
        batch = connection.execute(
            sa.select(rounds.c.id, rounds.c.game_id, rounds.c.number, rounds.c.teams)
            .where(rounds.c.id > after)
            .order_by(rounds.c.id)
            .limit(BATCH)
        ).all()
        if not batch:
            break
        rows = []
        for _id, game_id, number, teams in batch:
            for side, breakdown in enumerate(teams):
                facts = side_round_facts(breakdown)
                rows.append(
                    {
                        "game_id": game_id,
                        "number": number,
                        "side": side,
                        "score": facts.score,
                        "went_out": facts.went_out,
                        **{f"{kind}_books": facts.books[kind] for kind in ("clean", "dirty", "wild")},
                    }
                )
        op.bulk_insert(round_sides, rows)
        after = batch[-1].id


def downgrade() -> None:
    op.drop_table("round_sides")
