"""Database models. JSON columns (TEXT on SQLite, ``json`` on PostgreSQL) hold plain builtins only
(the request as sent, the engine's Breakdowns, the RuleSet snapshot); every write goes through a
service's unit of work (``api/services/store.py``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    false,
    func,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from handfoot.server.db import Base


class UTCDateTime(TypeDecorator[datetime]):
    """``DateTime(timezone=True)``, read back aware in UTC on every backend (SQLite keeps no offset)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_result_value(self, value: datetime | None, _: Any) -> datetime | None:
        return value if value is None or value.tzinfo is not None else value.replace(tzinfo=UTC)


def _utcnow() -> datetime:
    return datetime.now(UTC)


class ApiKey(Base):
    """An API key allowed to write games. Only a hash of the key is stored, never the key."""

    __tablename__ = "api_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    key_hash: Mapped[str] = mapped_column(String(128), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_utcnow, server_default=func.now())
    #: Set by ``flask keys revoke``: the key no longer authenticates; its games stay.
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)


class Game(Base):
    """A stored game: its sides, a snapshot of its resolved rules, and its state (the engine's
    ``GameState`` as plain data, recomputed on every change; ``status`` and ``rounds_played`` copied
    for filtering). ``version`` moves on every change: the ETag, the ORM's ``version_id_col`` and the
    guard of a round's write of the row (``services/rounds.py``, ``_write_state``)."""

    __tablename__ = "games"
    #: SQLite reuses the largest rowid once its row is deleted; a game's id names it in every URL, its
    #: ETag and its Idempotency-Keys, so a deleted game's id is never given again (PostgreSQL's
    #: sequences never reuse one).
    #: ``ix_games_owner_created_id``: the games list (an owner's games, newest first) reads its pages
    #: along it, a keyset page at the same cost wherever it starts.
    __table_args__ = (
        Index("ix_games_owner_created_id", "owner_id", "created_at", "id"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("api_keys.id", ondelete="RESTRICT"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    preset: Mapped[str] = mapped_column(String(40), index=True)
    house_rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    rules_overridden: Mapped[list[str]] = mapped_column(JSON)
    rules_snapshot: Mapped[dict[str, Any]] = mapped_column(JSON)
    teams: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(20), index=True)
    rounds_played: Mapped[int] = mapped_column(Integer, default=0)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_utcnow, index=True)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_utcnow)
    version: Mapped[int] = mapped_column(Integer, nullable=False)

    rounds: Mapped[list[Round]] = relationship(
        back_populates="game",
        order_by="Round.number",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )
    players: Mapped[list[GamePlayer]] = relationship(
        cascade="all, delete-orphan", passive_deletes=True, order_by="GamePlayer.id"
    )

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012 - SQLAlchemy types it an instance variable


class GamePlayer(Base):
    """One player of a game's side: lets ``GET /v1/games?player=`` filter with an index."""

    __tablename__ = "game_players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    side: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(100))
    #: ``name.casefold()``: the filter matches player names without regard to case.
    name_key: Mapped[str] = mapped_column(String(100), index=True)


class Round(Base):
    """A round as it stands: the request as sent and one Breakdown per side (``teams``, the game's side
    order). ``revision`` starts at 1, one more per correction; earlier ones are :class:`RoundRevision`."""

    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("game_id", "number", name="uq_rounds_game_id_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    revision: Mapped[int] = mapped_column(Integer, default=1)
    request: Mapped[dict[str, Any]] = mapped_column(JSON)
    teams: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    author: Mapped[str | None] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_utcnow)

    game: Mapped[Game] = relationship(back_populates="rounds")
    revisions: Mapped[list[RoundRevision]] = relationship(
        back_populates="round",
        order_by="RoundRevision.revision",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )


class RoundSide(Base):
    """One side's facts of a stored round (``side_round_facts`` of its Breakdown: ``score``, ``went_out``,
    books by kind), written with the round, so statistics are sums the database takes."""

    __tablename__ = "round_sides"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    side: Mapped[int] = mapped_column(Integer, primary_key=True)
    score: Mapped[int] = mapped_column(Integer)
    went_out: Mapped[bool] = mapped_column(Boolean)
    clean_books: Mapped[int] = mapped_column(Integer)
    dirty_books: Mapped[int] = mapped_column(Integer)
    wild_books: Mapped[int] = mapped_column(Integer)


class RoundRevision(Base):
    """An earlier version of a corrected round: what it was, who wrote it, when, and when replaced."""

    __tablename__ = "round_revisions"
    __table_args__ = (UniqueConstraint("round_id", "revision", name="uq_round_revisions_round_id_revision"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"))
    revision: Mapped[int] = mapped_column(Integer)
    request: Mapped[dict[str, Any]] = mapped_column(JSON)
    teams: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    author: Mapped[str | None] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    replaced_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_utcnow)
    #: The key name that made the correction which replaced this revision.
    replaced_by: Mapped[str | None] = mapped_column(String(100))

    round: Mapped[Round] = relationship(back_populates="revisions")

    def as_data(self) -> dict[str, Any]:
        """This revision as plain data (kept in ``round_deletions.revisions``)."""
        return {
            "revision": self.revision,
            "request": self.request,
            "teams": self.teams,
            "author": self.author,
            "created_at": self.created_at.isoformat(),
            "replaced_at": self.replaced_at.isoformat(),
            "replaced_by": self.replaced_by,
        }


class RoundDeletion(Base):
    """A round taken back (the last one): the round as it stood, its revisions (plain data), who and when.
    ``game_version`` is the version the deletion left: a repeat of the DELETE is answered as done while
    it still is. Deleted with the game."""

    __tablename__ = "round_deletions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    revision: Mapped[int] = mapped_column(Integer)
    request: Mapped[dict[str, Any]] = mapped_column(JSON)
    teams: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    author: Mapped[str | None] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    revisions: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    deleted_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_utcnow)
    #: The key name that deleted the round.
    deleted_by: Mapped[str | None] = mapped_column(String(100))
    game_version: Mapped[int] = mapped_column(Integer)


class IdempotencyKey(Base):
    """An ``Idempotency-Key`` and its stored answer, per ``scope`` (``Actor.scope``); committed with its
    answer in the write's transaction (``token``, which named a claim's process, is unused)."""

    __tablename__ = "idempotency_keys"
    __table_args__ = (
        UniqueConstraint("scope", "key", name="uq_idempotency_keys_scope_key"),
        Index("ix_idempotency_keys_expires_at", "expires_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    scope: Mapped[str] = mapped_column(String(40))
    key: Mapped[str] = mapped_column(String(255))
    fingerprint: Mapped[str] = mapped_column(String(64))
    token: Mapped[str] = mapped_column(String(64))
    status: Mapped[int | None] = mapped_column(Integer)
    response_headers: Mapped[dict[str, str] | None] = mapped_column(JSON)
    response_body: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)


class Table(Base):
    """A table (docs/tables.md): ``state`` the engine's round in play (every card: a seat sees only its
    view); ``version`` counts the actions accepted; ``seat_hashes`` the SHA-256 of each seat's token;
    ``seed`` secret unless chosen (``practice``); ``answer_due_at``: when an unanswered "May I go
    out?" counts as a yes. Ended rounds are :class:`TableRound` rows."""

    __tablename__ = "tables"
    __table_args__ = ({"sqlite_autoincrement": True},)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("api_keys.id", ondelete="RESTRICT"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    status: Mapped[str] = mapped_column(String(20))
    version: Mapped[int] = mapped_column(Integer)
    round: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    practice: Mapped[bool] = mapped_column(Boolean, server_default=false())
    answer_timeout: Mapped[int] = mapped_column(Integer)
    answer_due_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    play: Mapped[dict[str, Any]] = mapped_column(JSON)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    seat_hashes: Mapped[list[str]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_utcnow)


class TableAction(Base):
    """One action a table accepted: its round, its place in the round (``index``, from 0), the seat,
    the action as the engine took it (``seat`` included) and the table ``version`` it made.
    A round's log is public once the round has ended (its seed and these replay it)."""

    __tablename__ = "table_actions"
    __table_args__ = (
        UniqueConstraint("table_id", "version", name="uq_table_actions_table_id_version"),
        Index("ix_table_actions_table_id_round", "table_id", "round", "index"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)
    index: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_utcnow)


class TableRound(Base):
    """A round ended at a table: its number, seed, why it ended (``went_out``, ``stock_out``), the
    side out, and each side's score (name, total, lines: the Breakdowns the game's round stored).
    Its log is the round's :class:`TableAction` rows."""

    __tablename__ = "table_rounds"
    __table_args__ = (UniqueConstraint("table_id", "round", name="uq_table_rounds_table_id_round"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    ended: Mapped[str] = mapped_column(String(20))
    out_side: Mapped[int | None] = mapped_column(Integer)
    score: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_utcnow)


class HealthProbe(Base):
    """One row, rewritten by each readiness check (``GET /health/ready``): a commit shows the database
    takes writes."""

    __tablename__ = "health_probe"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    checked_at: Mapped[datetime] = mapped_column(UTCDateTime)
