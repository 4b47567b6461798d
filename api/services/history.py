"""Histories in bulk: an owner's games with their rounds (the export, read :data:`BATCH_SIZE` games
at a time as Core rows in one snapshot) and statistics across them (sums over the ``round_sides``
rows: the engine's ``side_round_facts``, written with each round by :func:`write_round_sides`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any, Protocol, TypeVar

from sqlalchemy import (
    Integer,
    Select,
    Table,
    bindparam,
    func,
    select,
)
from sqlalchemy.orm import Session

from handfoot.engine.history import BOOK_KINDS, player_key, side_key, side_round_facts
from handfoot.server.auth import Actor
from handfoot.server.db import Database, close_quietly, insert_rows
from handfoot.server.models import Game, Round, RoundSide
from handfoot.server.services.games import owned

__all__ = ["BATCH_SIZE", "Figures", "HistoryFilter", "StoredGame", "StoredRound", "game_batches", "statistics"]

#: Games read per query (each with its rounds) while exporting or counting.
BATCH_SIZE = 200


@dataclass(frozen=True, slots=True)
class HistoryFilter:
    """Which games: created at or after ``since`` and before ``until`` (aware datetimes, either
    may be ``None``), under ``preset`` (``None``: any)."""

    since: datetime | None = None
    until: datetime | None = None
    preset: str | None = None


@dataclass(slots=True)
class StoredRound:
    """A stored round as a history reads it: its ``number``, ``revision`` and ``teams`` (one
    Breakdown per side, plain data, in the game's side order)."""

    number: int
    revision: int
    teams: list[dict[str, Any]]


@dataclass(slots=True)
class StoredGame:
    """A stored game's columns as plain data (:class:`~handfoot.server.models.Game`'s, read by
    SQLAlchemy Core) with its rounds, oldest first. No back-references: freed when unreferenced."""

    id: int
    name: str
    preset: str
    house_rules: dict[str, Any]
    rules_overridden: list[str]
    rules_snapshot: dict[str, Any]
    teams: list[dict[str, Any]]
    state: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    version: int
    rounds: list[StoredRound] = field(default_factory=list)


class _HasId(Protocol):
    @property
    def id(self) -> int: ...


#: The columns of :class:`StoredGame`, read by name.
_GAME_COLUMNS = tuple(getattr(Game, f.name) for f in fields(StoredGame) if f.name != "rounds")


def _games(actor: Actor, flt: HistoryFilter, after: int, size: int, *columns: Any) -> Select[Any]:
    """The select of ``columns`` of the next ``size`` games of ``actor`` matching ``flt`` after id ``after``."""
    stmt = owned(select(*columns), actor).where(Game.id > after)
    if flt.since is not None:
        stmt = stmt.where(Game.created_at >= flt.since)
    if flt.until is not None:
        stmt = stmt.where(Game.created_at < flt.until)
    if flt.preset is not None:
        stmt = stmt.where(Game.preset == flt.preset)
    return stmt.order_by(Game.id).limit(size)


def _batch(session: Session, actor: Actor, flt: HistoryFilter, after: int, size: int) -> list[StoredGame]:
    games = [StoredGame(*row) for row in session.execute(_games(actor, flt, after, size, *_GAME_COLUMNS))]
    if games:
        by_id = {g.id: g for g in games}
        rounds = (
            select(Round.game_id, Round.number, Round.revision, Round.teams)
            .where(Round.game_id.in_(list(by_id)))
            .order_by(Round.game_id, Round.number)
        )
        for game_id, number, revision, teams in session.execute(rounds):
            by_id[game_id].rounds.append(StoredRound(number, revision, teams))
    return games


_T = TypeVar("_T", bound=_HasId)


def _batches(db: Database, size: int | None, read: Callable[[Session, int, int], list[_T]]) -> Iterator[list[_T]]:
    """Batches of ``read(session, after, size)`` (keyset on ``id``) in one session and transaction."""
    per = size or BATCH_SIZE
    db.end_session()  # the request's snapshot ends here: a dead database is the answer (503)
    session = db.sessionmaker()
    try:
        first = read(session, 0, per)
    except BaseException:
        session.close()
        raise

    pending = [first]  # held by the iterator only until it starts: no batch outlives its turn
    del first

    def walk() -> Iterator[list[_T]]:
        try:
            batch = pending.pop()
            while batch:
                yield batch
                if len(batch) < per:
                    return
                last = batch[-1].id
                del batch  # freed now (plain data, no cycles), before the next is read
                batch = read(session, last, per)
        finally:
            close_quietly(session)  # after the last batch: the answer is sent, a dead database only logged

    return walk()


def game_batches(db: Database, actor: Actor, flt: HistoryFilter, size: int | None = None) -> Iterator[list[StoredGame]]:
    """The actor's games matching ``flt``, oldest id first, ``size`` at a time with their rounds, in one
    transaction of their own; the first batch read at once (a database down raises before the answer)."""
    return _batches(db, size, lambda session, after, per: _batch(session, actor, flt, after, per))


# --------------------------------------------------------------------------------------------
# Each side's facts of a round, as stored

ROUND_SIDES: Table = RoundSide.__table__  # type: ignore[assignment]
_DELETE_SIDES = ROUND_SIDES.delete().where(
    ROUND_SIDES.c.game_id == bindparam("game_id"), ROUND_SIDES.c.number == bindparam("number")
)
_BOOK_COLUMNS = tuple(f"{kind}_books" for kind in BOOK_KINDS)


def round_side_facts(teams: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each side's facts of a round whose Breakdowns are ``teams`` (in side order): a ``round_sides``
    row's values but its key."""
    rows = []
    for breakdown in teams:
        facts = side_round_facts(breakdown)
        rows.append(
            {
                "score": facts.score,
                "went_out": facts.went_out,
                **{column: facts.books[kind] for kind, column in zip(BOOK_KINDS, _BOOK_COLUMNS, strict=True)},
            }
        )
    return rows


def write_round_sides(
    session: Session, game_id: int, number: int, teams: list[dict[str, Any]], *, replace: bool = False
) -> None:
    """Store each side's facts of round ``number`` (a :class:`RoundSide` per Breakdown of ``teams``) in
    the caller's transaction; ``replace``: a correction, whose earlier rows go first."""
    if replace:
        delete_round_sides(session, game_id, number)
    rows = [
        {"game_id": game_id, "number": number, "side": side, **facts}
        for side, facts in enumerate(round_side_facts(teams))
    ]
    insert_rows(session.connection(), ROUND_SIDES, rows)


def delete_round_sides(session: Session, game_id: int, number: int) -> None:
    """Remove round ``number``'s facts (the round taken back), in the caller's write transaction."""
    session.connection().execute(_DELETE_SIDES, {"game_id": game_id, "number": number})


# --------------------------------------------------------------------------------------------
# Statistics


@dataclass(slots=True)
class Figures:
    """One player's or side's figures across games (points unless said otherwise)."""

    names: list[str] = field(default_factory=list)  # as written, most recent game last
    players: list[str] = field(default_factory=list)  # sides: the players as written
    games: int = 0
    finished: int = 0
    wins: int = 0
    rounds: int = 0
    points: int = 0
    best_round: int | None = None
    went_out: int = 0
    books: dict[str, int] = field(default_factory=lambda: dict.fromkeys(BOOK_KINDS, 0))

    def add_game(self, name: str, finished: bool, won: bool) -> None:
        if name in self.names:
            self.names.remove(name)
        self.names.append(name)
        self.games += 1
        self.finished += finished
        self.wins += won

    def add_rounds(self, sums: SideSums) -> None:
        """Adds one side's rounds of one game (``sums``, of at least one round)."""
        self.rounds += sums.rounds
        self.points += sums.points
        self.best_round = sums.best if self.best_round is None else max(self.best_round, sums.best)
        self.went_out += sums.went_out
        for kind, count in zip(BOOK_KINDS, sums.books, strict=True):
            self.books[kind] += count

    @property
    def average_round(self) -> float | None:
        """The mean round score (points, to one decimal), ``None`` before any round."""
        return None if not self.rounds else round(self.points / self.rounds, 1)


@dataclass(slots=True)
class Statistics:
    games: int = 0
    rounds: int = 0
    players: dict[str, Figures] = field(default_factory=dict)
    sides: dict[tuple[str, ...], Figures] = field(default_factory=dict)


@dataclass(slots=True)
class SideSums:
    """One side's rounds of one game, summed by the database: ``rounds``, ``points``, the ``best``
    round's score, how often it ``went_out`` and its ``books`` (counts in :data:`BOOK_KINDS` order)."""

    rounds: int
    points: int
    best: int
    went_out: int
    books: tuple[int, ...]


@dataclass(slots=True)
class _Counted:
    """What the statistics read of a game: its sides (``teams``), whether it is finished, its
    winner's name (``None``: unfinished or a tie) and each side's :class:`SideSums` (by side index;
    a game with no round has none)."""

    id: int
    teams: list[dict[str, Any]]
    finished: bool
    winner: str | None
    sides: dict[int, SideSums] = field(default_factory=dict)


_SIDE_SUMS = (
    select(
        ROUND_SIDES.c.game_id,
        ROUND_SIDES.c.side,
        func.count(),
        func.sum(ROUND_SIDES.c.score),
        func.max(ROUND_SIDES.c.score),
        func.sum(ROUND_SIDES.c.went_out.cast(Integer)),
        *(func.sum(ROUND_SIDES.c[column]) for column in _BOOK_COLUMNS),
    )
    .where(ROUND_SIDES.c.game_id.in_(bindparam("game_ids", expanding=True)))
    .group_by(ROUND_SIDES.c.game_id, ROUND_SIDES.c.side)
)


def _counted(session: Session, actor: Actor, flt: HistoryFilter, after: int, size: int) -> list[_Counted]:
    winner = Game.state["winner"].as_string()  # one member of the stored state, not all of it decoded
    stmt = _games(actor, flt, after, size, Game.id, Game.teams, Game.status, winner)
    games = [
        _Counted(i, teams, status == "finished", w if status == "finished" else None)
        for i, teams, status, w in session.execute(stmt)
    ]
    if games:
        by_id = {g.id: g for g in games}
        for game_id, side, rounds, points, best, went_out, *books in session.execute(
            _SIDE_SUMS, {"game_ids": list(by_id)}
        ):
            by_id[game_id].sides[side] = SideSums(rounds, int(points), best, int(went_out), tuple(map(int, books)))
    return games


def _count_game(stats: Statistics, game: _Counted) -> None:
    stats.games += 1
    stats.rounds += game.sides[0].rounds if game.sides else 0  # every round holds every side
    finished, winner = game.finished, game.winner
    for i, team in enumerate(game.teams):
        won = winner is not None and winner == team["name"]
        key = side_key(team["players"])
        side = stats.sides.setdefault(key, Figures())
        side.players = list(team["players"])
        targets = [side]
        side.add_game(str(team["name"]), finished, won)
        for player in team["players"]:
            tally = stats.players.setdefault(player_key(player), Figures())
            tally.add_game(str(player), finished, won)
            targets.append(tally)
        sums = game.sides.get(i)
        if sums is not None:
            for target in targets:
                target.add_rounds(sums)


def statistics(db: Database, actor: Actor, flt: HistoryFilter) -> Statistics:
    """Figures per player (``player_key``) and per side (its players) across the actor's games matching
    ``flt``; a win is a finished game the side won (a tie is none)."""
    stats = Statistics()
    for batch in _batches(db, None, lambda session, after, per: _counted(session, actor, flt, after, per)):
        for game in batch:
            _count_game(stats, game)
    return stats
