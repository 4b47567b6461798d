"""Tables: seats playing a stored game's rounds, one action at a time (docs/tables.md). Transactions
here, rules in the play engine (``handfoot.engine.play``).

A table row holds the round in play (decoded into :class:`TableData`) and its ``version``, moved on
by every accepted action, which updates the row where its version is still the one read (else a 409
``version_moved``). An action that ends the round scores it, appends it to the game
(``rounds.append_scored_in``) and deals the next unless the game has ended. A round's seed is
derived from the table's (:func:`round_seed`) and shown once the round has ended. An unanswered
"May I go out?" is a yes after ``answer_timeout`` seconds: a read shows it (:func:`shown`), the
next action stores it.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import and_, bindparam, case, select
from sqlalchemy.orm import Session

from handfoot.engine import play
from handfoot.engine.errors import HandFootError, PlayError, Problem
from handfoot.engine.play import State as PlayState  # `play` in TableData is its column
from handfoot.server import wakeups
from handfoot.server.auth import Actor, SeatActor, hash_key
from handfoot.server.db import Database, insert_rows
from handfoot.server.models import ApiKey
from handfoot.server.schemas import MAX_ROUNDS_PER_GAME, breakdown_data
from handfoot.server.secret import sign
from handfoot.server.services import games as games_svc
from handfoot.server.services import rounds as rounds_svc
from handfoot.server.services import store
from handfoot.server.services import table_statements as sql
from handfoot.server.services.errors import (
    ActionRefusedError,
    GameFinishedError,
    RoundLimitError,
    TableFinishedError,
    TableNotFoundError,
    TableRoundError,
    TableVersionError,
)

SEAT_TOKEN_PREFIX = "hf_seat_"
#: Seconds an asked partner has to answer before the answer is a yes (``answer_timeout``'s default).
DEFAULT_ANSWER_TIMEOUT = 60
#: The largest seed a table takes (a BIGINT); a random one is drawn below it, at this width (63 bits).
MAX_SEED = 2**63 - 1
#: What the server's secret signs when it derives a round's seed (``secret.sign``'s purpose).
ROUND_SEED_PURPOSE = "handfoot-round-seed"


def now() -> datetime:
    return datetime.now(UTC)


def round_seed(table_seed: int, number: int, key: bytes | None = None) -> int:
    """The seed of round ``number`` of a table seeded ``table_seed``: the first 63 bits of the HMAC of
    ``"<seed>:<number>"`` with the server's secret ``key`` (purpose :data:`ROUND_SEED_PURPOSE`), or
    for a practice table (``key`` ``None``) the engine's ``play.practice_round_seed``. Public once the
    round has ended, it tells nothing of the table's seed nor, keyed, of another round's."""
    if key is None:
        return play.practice_round_seed(table_seed, number)
    digest = sign(key, ROUND_SEED_PURPOSE, f"{table_seed}:{number}".encode())
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True, slots=True)
class TableData:
    """A table as read (or as a write left it): the columns of :class:`~handfoot.server.models.Table`,
    its round ``state`` decoded once. As shown (:func:`shown`) a due answer is given: ``state`` and
    ``version`` are after it, ``due_answer`` the action the next write logs first, and
    ``row_version`` the stored version that write's update is guarded by."""

    id: int
    owner_id: int | None
    game_id: int
    status: str
    version: int
    round: int
    seed: int
    practice: bool
    answer_timeout: int
    answer_due_at: datetime | None
    play: dict[str, Any]
    state: PlayState
    seat_hashes: list[str]
    created_at: datetime
    updated_at: datetime
    last_round: dict[str, Any] | None = None
    row_version: int = -1
    due_answer: dict[str, Any] | None = None


_COLUMNS = [f.name for f in fields(TableData)][:-3]
_LAST = sql.ROUNDS_ENDED.alias("last_ended")
# The table and its last ended round, one statement: the round before the one in play (a finished
# table's round is its last, ended), found by the (table_id, round) key whatever the rounds played.
_SELECT = (
    select(
        *(sql.TABLES.c[name] for name in _COLUMNS), *(_LAST.c[name].label(f"last_{name}") for name in sql.ROUND_COLUMNS)
    )
    .select_from(
        sql.TABLES.outerjoin(
            _LAST,
            and_(
                _LAST.c.table_id == sql.TABLES.c.id,
                _LAST.c.round == sql.TABLES.c.round - case((sql.TABLES.c.status == "playing", 1), else_=0),
            ),
        )
    )
    .where(sql.TABLES.c.id == bindparam("table_id"))
)
_SELECT_LOCKED = _SELECT.with_for_update(of=sql.TABLES)


def _load(session: Session, table_id: int, *, lock: bool = False) -> TableData:
    """Table ``table_id`` as stored (its round decoded, its last ended round's summary; ``lock``: its
    row read ``FOR UPDATE``); :class:`TableNotFoundError` if there is none."""
    row = session.connection().execute(_SELECT_LOCKED if lock else _SELECT, {"table_id": table_id}).first()
    if row is None:
        raise TableNotFoundError(table_id)
    values = dict(row._mapping)
    last = {name: values.pop(f"last_{name}") for name in sql.ROUND_COLUMNS}
    values["last_round"] = None if last["round"] is None else last
    values["state"] = play.state_from_mapping(values["state"])
    return TableData(**values, row_version=values["version"])


def shown(data: TableData) -> TableData:
    """``data`` as every request sees it: an asked partner's answer due (``answer_timeout`` passed)
    given as a yes, at the version it makes; the next write stores it (an ``answer`` action with
    ``timed_out: true``, logged like any other) before its own action."""
    state, due = data.state, data.answer_due_at
    if (
        data.status != "playing"
        or due is None
        or due > datetime.now(UTC)  # not due yet (answer_is_due)
        or state.phase != "answer"
        or state.answerer is None
        or data.due_answer is not None
    ):
        return data
    answer = {"type": "answer", "yes": True, "seat": state.answerer, "timed_out": True}
    return replace(
        data, state=play.step(state, answer), version=data.version + 1, answer_due_at=None, due_answer=answer
    )


@dataclass(frozen=True, slots=True)
class CreatedTable:
    """A new table and its seats' tokens, in seat order (shown once, never stored)."""

    table: TableData
    tokens: list[str]


@store.write(locked=True)
def create_table(
    session: Session, _locked: bool, actor: Actor, body: Mapping[str, Any], *, secret: bytes
) -> CreatedTable:
    """A new table dealing the next round of a new game (``games.new_game``) or of the stored game
    ``game``; ``seed`` (a practice deal), ``play``, ``answer_timeout`` (seconds); ``secret``: the
    server's (:func:`round_seed`). Raises :class:`GameNotFoundError`, :class:`GameFinishedError`,
    :class:`RoundLimitError`, :class:`TableOpenError`, :class:`InvalidRequestError` and engine errors
    (a :class:`PlayError` ``inconsistent_rules`` when the decks cannot deal one of the game's rounds)."""
    seed = body.get("seed")
    practice = seed is not None
    if seed is None:
        seed = secrets.randbelow(MAX_SEED + 1)
    options = dict(body.get("play") or {})
    timeout = body.get("answer_timeout") or DEFAULT_ANSWER_TIMEOUT
    if body.get("game") is not None:
        game = games_svc.find_game(session, actor, int(body["game"]), lock=True)
        if game.status == "finished":
            raise GameFinishedError(game.state.get("end_reason") or "the game is over")
        if game.rounds_played >= MAX_ROUNDS_PER_GAME:  # its next round could not be stored
            raise RoundLimitError(
                f"a game holds at most {MAX_ROUNDS_PER_GAME} rounds, and this one holds them all", pointer="/game"
            )
        rounds_svc.refuse_open_table(session, game.id)  # one table plays a game at a time
        # the game is the table's from here: its version moves on, so a write that read it before
        # (an append scoring with no lock held) runs again and finds the table
        game.updated_at = now()
    else:
        game = games_svc.new_game(session, actor, body)
    number = int(game.rounds_played) + 1
    sides = [(str(t["name"]), list(t["players"])) for t in game.teams]
    scores = [int(t["total"]) for t in game.state["totals"]]
    dealt_with = None if practice else secret
    state = play.new_round(
        game.preset, sides, round_seed(seed, number, dealt_with), number, game.house_rules, options, scores
    )
    # every later round is dealt by the table too: refuse now rules whose decks cannot deal one
    # (a round-ending action would be refused then, and the table stuck)
    for later in play.rounds_from(state.rules, number + 1):
        problems = play.deal_problems(state.rules, len(state.seats), later)
        if problems:
            raise PlayError(problems)
    tokens = [SEAT_TOKEN_PREFIX + secrets.token_urlsafe(32) for _ in state.seats]
    stamp = now()
    values: dict[str, Any] = {
        "owner_id": actor.key_id,
        "game_id": game.id,
        "status": "playing",
        "version": 0,
        "round": number,
        "seed": seed,
        "practice": practice,
        "answer_timeout": timeout,
        "answer_due_at": None,
        "play": options,
        "state": play.to_mapping(state),
        "seat_hashes": [hash_key(t) for t in tokens],
        "created_at": stamp,
        "updated_at": stamp,
    }
    table_id = session.connection().execute(sql.INSERT_TABLE, values).scalar_one()
    data = TableData(id=int(table_id), **{**values, "state": state}, row_version=0)
    if state.phase == "ended":  # a deal can end its round (a red three wanting a card the stock lacks)
        data = _store_change(session, data, state, stamp, secret)
    return CreatedTable(data, tokens)


def get_table(db: Database, actor: Actor, table_id: int, *, fresh: bool = False) -> TableData:
    """Table ``table_id`` as shown (:func:`shown`) to ``actor``, its owner's key or one of its seats
    (:class:`TableNotFoundError` for anyone else); ``fresh``: on a new read transaction (a long wait
    sees what was committed since it began)."""
    if fresh:
        db.end_session()
    data = store.read(db, lambda session: shown(_load(session, table_id)))
    if not isinstance(actor, SeatActor) and data.owner_id != actor.key_id:
        raise TableNotFoundError(table_id)
    return data


def poll(db: Database, table_id: int) -> tuple[int, str, datetime | None]:
    """The table's ``(version, status, answer_due_at)`` as shown (a due answer counted), read on a
    connection of its own: a cheap read a wait repeats, seeing every commit."""
    with db.engine.connect() as connection:
        row = connection.execute(sql.POLL, {"table_id": table_id}).first()
    if row is None:
        raise TableNotFoundError(table_id)
    status, due = str(row.status), row.answer_due_at
    version = int(row.version) + (status == "playing" and answer_is_due(due))
    return version, status, None if version != row.version else due


def answer_is_due(due: datetime | None) -> bool:
    return due is not None and due <= now()


@store.write()
def act(
    session: Session, locked: bool, table_id: int, seat: int, version: int, action: Mapping[str, Any], *, secret: bytes
) -> TableData:
    """Seat ``seat``'s ``action`` (without ``seat``, or with its own) on the table at ``version`` (as
    shown); the table as the action left it (``secret``: the server's, for the next round's seed).
    The action is logged (after the due answer the table shows, if any) and the table's next version
    stored (:func:`_store_change`); its waiters, on every host, wake on commit. Raises
    :class:`TableFinishedError`, :class:`TableVersionError`, :class:`ActionRefusedError` and the
    errors of a round's append (:func:`rounds.append_scored_in`)."""
    if "seat" in action and action["seat"] != seat:
        detail = "seat: the Seat-Token names the seat; leave seat out or send the token's own seat"
        raise ActionRefusedError(PlayError([Problem("unknown_action", detail, ("seat",))]))
    data = shown(_load(session, table_id, lock=locked))
    if data.status != "playing":
        raise TableFinishedError(table_id)
    if data.version != version:
        raise TableVersionError(version, data.version)
    taken = {**action, "seat": seat}
    before, answer = data.state, data.due_answer
    try:
        after = play.step(before, taken)
    except HandFootError as err:
        raise ActionRefusedError(err) from err
    stamp = datetime.now(UTC)
    line = {"table_id": data.id, "round": before.round, "created_at": stamp}
    rows = [{**line, "index": before.step, "seat": seat, "action": taken, "version": data.version + 1}]
    if answer is not None:  # logged first; its index: the asked round's step, one before the shown one
        due = {"index": before.step - 1, "seat": answer["seat"], "action": answer, "version": data.row_version + 1}
        rows.insert(0, {**line, **due})
    # logged first: the round's log, read when this action ends it, holds it
    insert_rows(session.connection(), sql.ACTIONS, rows)
    stored = _store_change(session, data, after, stamp, secret)
    wakeups.announce(session, [data.id])
    return stored


def _store_change(session: Session, data: TableData, after: play.State, stamp: datetime, secret: bytes) -> TableData:
    """Write the table's next version: the round ``after`` (scored, stored and the next dealt when
    it has ended; an answer asked for due ``answer_timeout`` seconds after ``stamp``), guarded by the
    row's version read."""
    status, last = data.status, data.last_round
    while after.phase == "ended" and status == "playing":
        status, last, after = _end_round(session, data, after, None if data.practice else secret)
    due = stamp + timedelta(seconds=data.answer_timeout) if after.phase == "answer" else None
    version = data.version + 1
    values = {
        "table_id": data.id,
        "row_version": data.row_version,
        "new_version": version,
        "new_status": status,
        "new_round": after.round,
        "new_state": play.to_mapping(after),
        "new_answer_due_at": due,
        "new_updated_at": stamp,
    }
    if session.connection().execute(sql.UPDATE, values).rowcount != 1:
        raise store.VersionMovedError("the table row changed since it was read")  # run again: then a 409
    return replace(
        data,
        version=version,
        row_version=version,
        status=status,
        round=after.round,
        state=after,
        answer_due_at=due,
        last_round=last,
        updated_at=stamp,
        due_answer=None,
    )


def _owner(session: Session, owner_id: int | None) -> Actor:
    if owner_id is None:
        return Actor()
    key = session.get(ApiKey, owner_id)
    return Actor(owner_id, None if key is None else key.name)


def _end_round(
    session: Session, data: TableData, ended: play.State, key: bytes | None
) -> tuple[str, dict[str, Any], play.State]:
    """Score the ended round (``play.score``), append it to the game and store its summary (a
    ``table_rounds`` row); deal the next unless the game is over or full. Returns the table's status,
    the round's summary and the round now at the table (``key``: :func:`round_seed`'s)."""
    teams = [breakdown_data(b) for b in play.score(ended).teams]  # in the state's side order: the game's
    request = {"play": {"table": data.id, "seed": ended.seed, "ended": ended.ended, "out_side": ended.out_side}}
    game, _rnd = rounds_svc.append_scored_in(
        session, _owner(session, data.owner_id), data.game_id, ended.round, teams, request
    )
    summary = {
        "round": ended.round,
        "seed": ended.seed,
        "ended": ended.ended,
        "out_side": ended.out_side,
        "score": [{k: team[k] for k in ("name", "total", "lines")} for team in teams],
    }
    session.connection().execute(sql.INSERT_ROUND, {"table_id": data.id, **summary, "created_at": now()})
    if game.state["status"] == "finished" or game.state["rounds_played"] >= MAX_ROUNDS_PER_GAME:
        return "finished", summary, ended  # no next round: the game is over, or could not store it
    number = ended.round + 1
    sides = [(side.name, [ended.seats[i].name for i in ended.seats_of(j)]) for j, side in enumerate(ended.sides)]
    scores = [int(t["total"]) for t in game.state["totals"]]
    dealt = play.new_round(
        ended.preset, sides, round_seed(data.seed, number, key), number, ended.overrides, data.play, scores
    )
    return "playing", summary, dealt


def round_log(db: Database, table: TableData, number: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """An ended round of ``table``: its summary (round, seed, ended, out_side, score) and its
    actions in order. :class:`TableRoundError`: the round is in play (``in_play``) or was not
    played at this table."""

    def run(session: Session) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        connection = session.connection()
        summary = connection.execute(sql.SELECT_ROUND, {"table_id": table.id, "number": number}).first()
        if summary is None:
            raise TableRoundError(table.id, number, in_play=table.status == "playing" and number == table.round)
        return dict(summary._mapping), list(
            connection.execute(sql.SELECT_LOG, {"table_id": table.id, "number": number}).scalars()
        )

    return store.read(db, run)
