"""Tables: seats playing a stored game's rounds, one action at a time (docs/tables.md). Transactions
here, rules in the play engine (``handfoot.engine.play``).

A table row holds the round in play (the engine's state as JSON) and the table's ``version``, which
every accepted action moves on by one, over all rounds. An action is one write transaction: the row
is read, the engine's ``step`` applied, and the row updated *where its version is still the one
read* (two actions on one version: one is stored, the other is a 409 ``version_moved``), with the
action appended to ``table_actions``. When the action ends the round, the same transaction scores
it by the one path (``play.score_body`` -> ``rounds.append_round_in``, what ``POST
/v1/games/{id}/rounds`` runs), stores it in the game's history with its seed and action log, and
deals the next round (its seed derived from the table's, :func:`round_seed`; the game's totals as
the scores before it), unless the game has ended: then the table is finished.

An unanswered "May I go out?" is a yes once ``answer_timeout`` seconds have passed: applied, as an
``answer`` action logged like any other, when the table is next read or acted on
(:func:`apply_due_answer`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import Table as SqlTable
from sqlalchemy import insert, select, update
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.orm import Session

from handfoot.engine import play
from handfoot.engine.errors import HandFootError, PlayError, Problem
from handfoot.engine.play import State as PlayState  # `play` in TableData is its column
from handfoot.server.auth import Actor
from handfoot.server.db import Database
from handfoot.server.idempotency import Completion
from handfoot.server.models import ApiKey, Table, TableAction
from handfoot.server.services import games as games_svc
from handfoot.server.services import rounds as rounds_svc
from handfoot.server.services import store
from handfoot.server.services.errors import (
    ActionRefusedError,
    GameFinishedError,
    StoreUnavailableError,
    TableFinishedError,
    TableNotFoundError,
    TableOpenError,
    TableRoundError,
    TableVersionError,
)

SEAT_TOKEN_PREFIX = "hf_seat_"
#: Seconds an asked partner has to answer before the answer is a yes (``answer_timeout``'s default).
DEFAULT_ANSWER_TIMEOUT = 60
#: The largest seed a table takes (a BIGINT).
MAX_SEED = 2**63 - 1

TABLES: SqlTable = Table.__table__  # type: ignore[assignment]
ACTIONS: SqlTable = TableAction.__table__  # type: ignore[assignment]

T = TypeVar("T")


def now() -> datetime:
    return datetime.now(UTC)


def _aware(value: datetime | None) -> datetime | None:
    """A stored timestamp as an aware UTC datetime (SQLite gives it back naive)."""
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)


def round_seed(table_seed: int, number: int) -> int:
    """The seed of round ``number`` at a table seeded ``table_seed``: the first 63 bits of
    SHA-256("handfoot-table:<seed>:<number>"). A round's seed is public once it has ended; being a
    hash, it tells nothing of the table's seed or of any other round's."""
    digest = hashlib.sha256(f"handfoot-table:{table_seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def hash_token(token: str) -> str:
    """The stored form of a seat token: SHA-256, hex (a token of 256 random bits needs no salt)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class TableData:
    """A table row as read or as a write left it (the columns of :class:`~handfoot.server.models.Table`)."""

    id: int
    owner_id: int | None
    game_id: int
    status: str
    version: int
    round: int
    seed: int
    answer_timeout: int
    answer_due_at: datetime | None
    play: dict[str, Any]
    state: dict[str, Any]
    seat_hashes: list[str]
    rounds_ended: list[dict[str, Any]]
    created_at: datetime
    updated_at: datetime

    def engine_state(self) -> PlayState:
        return play.state_from_mapping(self.state)


_COLUMNS = [f.name for f in fields(TableData)]


def _load(session: Session, table_id: int, *, lock: bool = False) -> TableData:
    stmt = select(*(TABLES.c[name] for name in _COLUMNS)).where(TABLES.c.id == table_id)
    if lock:
        stmt = stmt.with_for_update()
    row = session.connection().execute(stmt).first()
    if row is None:
        raise TableNotFoundError(table_id)
    values = dict(row._mapping)
    for name in ("created_at", "updated_at", "answer_due_at"):
        values[name] = _aware(values[name])
    return TableData(**values)


def _owned(data: TableData, actor: Actor) -> TableData:
    """``data`` if ``actor`` owns it (anonymous: a table made without a key), else a 404."""
    if data.owner_id != actor.key_id:
        raise TableNotFoundError(data.id)
    return data


@dataclass(frozen=True, slots=True)
class CreatedTable:
    """A new table and its seats' tokens, in seat order (shown once, never stored)."""

    table: TableData
    tokens: list[str]


def create_table(db: Database, actor: Actor, body: Mapping[str, Any],
                 completion: Completion[CreatedTable] | None = None) -> CreatedTable:
    """A new table dealing the next round of a game: a new game (``preset``, ``rules``, ``name``,
    ``teams``: created by ``games.create_game`` in the same transaction) or the stored game
    ``game`` (in progress, with no table playing it). ``seed`` (default: random), ``play``
    (PlayOptions overrides), ``answer_timeout`` (seconds). ``completion``: the request's
    Idempotency-Key, stored with the table.

    Raises :class:`GameNotFoundError`, :class:`GameFinishedError`, :class:`TableOpenError`,
    :class:`InvalidRequestError` and engine errors (preset, house rules, play options, sides; a
    :class:`PlayError` ``inconsistent_rules`` when the decks cannot deal one of the game's rounds,
    ``play.deal_problems``: nothing is stored).
    """
    seed = body.get("seed")
    if seed is None:
        seed = secrets.randbelow(2**53)
    options = dict(body.get("play") or {})
    timeout = body.get("answer_timeout") or DEFAULT_ANSWER_TIMEOUT

    def run(session: Session) -> CreatedTable:
        if body.get("game") is not None:
            game = games_svc.find_game(session, actor, int(body["game"]), lock=True)
            if game.status == "finished":
                raise GameFinishedError(game.state.get("end_reason") or "the game is over")
            playing = session.scalar(select(Table.id).where(Table.game_id == game.id, Table.status == "playing"))
            if playing is not None:
                raise TableOpenError(game.id, playing)
        else:
            game = games_svc.create_game(db, actor, body)  # part of this write transaction
        number = int(game.rounds_played) + 1
        sides = [(str(t["name"]), list(t["players"])) for t in game.teams]
        scores = [int(t["total"]) for t in game.state["totals"]]
        state = play.new_round(game.preset, sides, round_seed(seed, number), number, game.house_rules, options,
                               scores)
        # every later round is dealt by the table too: refuse now rules whose decks cannot deal one
        # (a round-ending action would be refused then, and the table stuck)
        for later in play.rounds_from(state.rules, number + 1):
            problems = play.deal_problems(state.rules, len(state.seats), later)
            if problems:
                raise PlayError(problems)
        tokens = [SEAT_TOKEN_PREFIX + secrets.token_urlsafe(32) for _ in state.seats]
        stamp = now()
        values: dict[str, Any] = {
                  "owner_id": actor.key_id, "game_id": game.id, "status": "playing", "version": 0, "round": number,
                  "seed": seed, "answer_timeout": timeout, "answer_due_at": None, "play": options,
                  "state": play.to_mapping(state), "seat_hashes": [hash_token(t) for t in tokens],
                  "rounds_ended": [], "created_at": stamp, "updated_at": stamp}
        table_id = session.connection().execute(insert(TABLES).values(**values).returning(TABLES.c.id)).scalar_one()
        data = TableData(id=int(table_id), **values)
        if state.phase == "ended":  # a deal can end its round (a red three wanting a card the stock lacks)
            data = _store_change(session, data, state, stamp)
        created = CreatedTable(data, tokens)
        if completion is not None:
            completion.store(session, created)
        return created

    return store.write(db, run)


def seat_of(db: Database, table_id: int, token: str | None) -> int:
    """The seat whose token is ``token`` at table ``table_id``; :class:`TableNotFoundError` for an
    unknown table, a missing token or one of no seat there (the same error: a wrong token learns
    nothing)."""
    if not token:
        raise TableNotFoundError(table_id)
    digest = hash_token(token)
    hashes = store.read(db, lambda session: session.connection().execute(
        select(TABLES.c.seat_hashes).where(TABLES.c.id == table_id)).scalar())
    seat = None
    for i, stored in enumerate(hashes or []):
        if hmac.compare_digest(stored, digest):  # every hash compared: the time says nothing of the seat
            seat = i
    if seat is None:
        raise TableNotFoundError(table_id)
    return seat


def _fresh(db: Database, fn: Callable[[Session], T]) -> T:
    """``fn`` on a new read transaction: a long request (a long-poll, a stream) sees what other
    requests (other hosts) have committed since it began, not its first snapshot."""
    db.close_session()
    return store.read(db, fn)


def get_table(db: Database, actor: Actor, table_id: int) -> TableData:
    """The actor's table ``table_id`` (as it stands now, a due answer applied first)."""
    _fresh(db, lambda session: _owned(_load(session, table_id), actor))
    apply_due_answer(db, table_id)
    return _fresh(db, lambda session: _load(session, table_id))


def read_table(db: Database, table_id: int) -> TableData:
    """Table ``table_id`` for one of its seats (whose token was checked): a due answer applied first."""
    apply_due_answer(db, table_id)
    return _fresh(db, lambda session: _load(session, table_id))


def poll(db: Database, table_id: int) -> tuple[int, str, datetime | None]:
    """The table's ``(version, status, answer_due_at)``, read on a connection of its own (a cheap
    read a long-poll repeats; it sees every commit, whichever host made it)."""
    stmt = select(TABLES.c.version, TABLES.c.status, TABLES.c.answer_due_at).where(TABLES.c.id == table_id)
    try:
        with db.engine.connect() as connection:
            row = connection.execute(stmt).first()
    except (OperationalError, InterfaceError) as err:
        raise StoreUnavailableError(str(err.orig)) from err
    if row is None:
        raise TableNotFoundError(table_id)
    return int(row.version), str(row.status), _aware(row.answer_due_at)


def answer_is_due(due: datetime | None) -> bool:
    return due is not None and due <= now()


def apply_due_answer(db: Database, table_id: int) -> bool:
    """Answer yes for the asked partner once ``answer_timeout`` has passed (an ``answer`` action
    with ``timed_out: true``, logged like any other). Whether it did."""
    _version, status, due = poll(db, table_id)
    if status != "playing" or not answer_is_due(due):
        return False

    def run(session: Session) -> bool:
        data = _load(session, table_id, lock=True)
        state = data.engine_state()
        if data.status != "playing" or not answer_is_due(data.answer_due_at) or state.phase != "answer" \
                or state.answerer is None:
            return False  # answered (or moved on) meanwhile
        _advance(session, data, state, {"type": "answer", "yes": True, "seat": state.answerer, "timed_out": True})
        return True

    return store.write(db, run)


def act(db: Database, table_id: int, seat: int, version: int, action: Mapping[str, Any],
        completion: Completion[TableData] | None = None) -> TableData:
    """Apply seat ``seat``'s ``action`` (the engine's, without ``seat``, or with the seat's own) if
    the table is still at ``version``; the table as the action left it. ``completion``: the
    request's Idempotency-Key, stored with the action.

    Raises :class:`TableFinishedError`, :class:`TableVersionError` (with the current version),
    :class:`ActionRefusedError` (the engine's refusal: nothing is stored) and the errors of a
    round's append (:func:`rounds.append_round_in`)."""
    apply_due_answer(db, table_id)
    if "seat" in action and action["seat"] != seat:
        raise ActionRefusedError(PlayError([Problem(
            "unknown_action", "seat: the Seat-Token names the seat; leave seat out or send the token's own seat",
            ("seat",))]))

    def run(session: Session) -> TableData:
        data = _load(session, table_id, lock=True)
        if data.status != "playing":
            raise TableFinishedError(table_id)
        if data.version != version:
            raise TableVersionError(version, data.version)
        data = _advance(session, data, data.engine_state(), {**action, "seat": seat})
        if completion is not None:
            completion.store(session, data)
        return data

    return store.write(db, run)


def _advance(session: Session, data: TableData, state: play.State, action: Mapping[str, Any]) -> TableData:
    """``action`` applied to ``state`` (the table's round) and stored: its log line, then the table
    row where its version is still ``data.version``."""
    try:
        after = play.step(state, action)
    except HandFootError as err:
        raise ActionRefusedError(err) from err
    stamp = now()
    # logged first: the round's log, read when this action ends it, holds it
    session.connection().execute(insert(ACTIONS).values(
        table_id=data.id, round=state.round, index=state.version, seat=action["seat"], action=dict(action),
        version=data.version + 1, created_at=stamp))
    return _store_change(session, data, after, stamp)


def _store_change(session: Session, data: TableData, after: play.State, stamp: datetime) -> TableData:
    """Write the table's next version: the round ``after`` (scored, stored and the next dealt when
    it has ended), guarded by the version read."""
    status, rounds_ended = data.status, data.rounds_ended
    while after.phase == "ended" and status == "playing":
        status, rounds_ended, after = _end_round(session, data, after, rounds_ended)
    due = stamp + timedelta(seconds=data.answer_timeout) if after.phase == "answer" else None
    values = {"version": data.version + 1, "status": status, "round": after.round, "state": play.to_mapping(after),
              "answer_due_at": due, "rounds_ended": rounds_ended, "updated_at": stamp}
    moved = session.connection().execute(update(TABLES).where(TABLES.c.id == data.id,
                                                              TABLES.c.version == data.version).values(**values))
    if moved.rowcount != 1:
        raise store.VersionMovedError("the table row changed since it was read")  # run again: then a 409
    return TableData(**{**{name: getattr(data, name) for name in _COLUMNS}, **values})


def _owner(session: Session, owner_id: int | None) -> Actor:
    if owner_id is None:
        return Actor()
    key = session.get(ApiKey, owner_id)
    return Actor(owner_id, None if key is None else key.name)


def _end_round(session: Session, data: TableData, ended: play.State,
               rounds_ended: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]], play.State]:
    """Score the ended round by the one path and append it to the game with its seed and log; then
    deal the next round, unless the game has ended. Returns the table's status, its rounds' summaries
    and the round now at the table."""
    log = list(session.connection().execute(
        select(ACTIONS.c.action).where(ACTIONS.c.table_id == data.id, ACTIONS.c.round == ended.round)
        .order_by(ACTIONS.c.index)).scalars())
    body = play.score_body(ended)
    request = {"teams": body["teams"], "play": {
        "table": data.id, "seed": ended.seed, "ended": ended.ended, "out_side": ended.out_side,
        "actions": log}}
    game, rnd = rounds_svc.append_round_in(session, _owner(session, data.owner_id), data.game_id,
                                           {"round": ended.round, "teams": body["teams"]}, request)
    # the summary's scores are the Breakdowns the append stored: the round is scored once
    summary = {"round": ended.round, "seed": ended.seed, "ended": ended.ended, "out_side": ended.out_side,
               "score": [{k: team[k] for k in ("name", "total", "lines")} for team in rnd.teams]}
    rounds_ended = [*rounds_ended, summary]
    if game.state["status"] == "finished":
        return "finished", rounds_ended, ended
    number = ended.round + 1
    sides = [(side.name, [ended.seats[i].name for i in ended.seats_of(j)]) for j, side in enumerate(ended.sides)]
    scores = [int(t["total"]) for t in game.state["totals"]]
    dealt = play.new_round(ended.preset, sides, round_seed(data.seed, number), number, ended.overrides, data.play,
                           scores)
    return "playing", rounds_ended, dealt


def round_log(db: Database, table: TableData, number: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """An ended round of ``table``: its summary (round, seed, ended, out_side, score) and its
    actions in order. :class:`TableRoundError`: the round is in play (``in_play``) or was not
    played at this table."""
    summary = next((r for r in table.rounds_ended if r["round"] == number), None)
    if summary is None:
        raise TableRoundError(table.id, number, in_play=table.status == "playing" and number == table.round)
    actions = store.read(db, lambda session: list(session.connection().execute(
        select(ACTIONS.c.action).where(ACTIONS.c.table_id == table.id, ACTIONS.c.round == number)
        .order_by(ACTIONS.c.index)).scalars()))
    return summary, actions
