"""Rounds of stored games: append, correct, delete the last, read, audit. Transactions here, rules in
the engine.

Each write is one unit of work (``store.write``) and writes the game row one way
(:func:`_write_state`): where its version is still the one read, moved on by one. An append reads
the game without a lock, scores the round and writes it, the same statements on both databases; a
version that moved meanwhile runs it again ``locked`` (``FOR UPDATE``). A correction and a deletion
are locked from the start and recompute the game's state from every stored round.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from operator import sub
from typing import Any

from sqlalchemy import Row, select
from sqlalchemy.orm import Session

from handfoot import engine
from handfoot.server.auth import Actor
from handfoot.server.db import Database
from handfoot.server.models import Game, Round, RoundDeletion, RoundRevision
from handfoot.server.schemas import MAX_ROUNDS_PER_GAME
from handfoot.server.services import store
from handfoot.server.services.errors import (
    GameFinishedError,
    GameNotFoundError,
    NotLastRoundError,
    RevisionLimitError,
    RoundLimitError,
    RoundNotFoundError,
    RoundNumberError,
    TableOpenError,
)
from handfoot.server.services.games import find_game, now, state_mapping
from handfoot.server.services.history import delete_round_sides, write_round_sides
from handfoot.server.services.round_scoring import score
from handfoot.server.services.round_statements import (
    INSERT_ROUND,
    PLAYING_TABLE,
    ROUND_TOTALS,
    game_row_stmt,
    state_update_stmt,
)

# --------------------------------------------------------------------------------------------
# Appending


@dataclass(frozen=True, slots=True)
class WrittenGame:
    """The game as a round's write left it: what the answer needs, without reading the row back."""

    id: int
    sides: list[str]
    state: dict[str, Any]


@dataclass(frozen=True, slots=True)
class AppendedRound:
    """The round an append stored (the members of a ``Round`` that its answer shows)."""

    number: int
    revision: int
    request: dict[str, Any]
    teams: list[dict[str, Any]]
    author: str | None
    created_at: datetime
    updated_at: datetime


Appended = tuple[WrittenGame, AppendedRound]


def _round_totals(session: Session, game_id: int) -> list[list[int]]:
    """Each stored round's totals, in round order, in the order of the game's sides."""
    stored = session.connection().execute(ROUND_TOTALS, {"game_id": game_id}).scalars()
    return [[b["total"] for b in breakdowns] for breakdowns in stored]


def _stored_round_totals(state: Mapping[str, Any], sides: int, rounds_played: int) -> list[list[int]] | None:
    """Each stored round's totals, from the running totals in ``games.state`` (differences of
    consecutive rows; ``None`` unless it holds one row per round played): an append reads them here,
    not from every round's row."""
    running = state.get("running")
    if not isinstance(running, list) or len(running) != rounds_played:
        return None
    totals: list[list[int]] = []
    previous = [0] * sides
    for row in running:
        if not isinstance(row, list) or len(row) != sides:
            return None
        totals.append(list(map(sub, row, previous)))  # same length: checked above
        previous = row
    return totals


@functools.lru_cache(maxsize=64)
def _rules_from_json(snapshot: str) -> engine.RuleSet:
    """A game's RuleSet from its snapshot's JSON text, parsed once per snapshot (never changed once stored)."""
    return engine.rules_from_mapping(json.loads(snapshot))


def _sides(row: Row[Any]) -> list[str]:
    return [str(team["name"]) for team in row.teams]


def _params(actor: Actor, **params: Any) -> dict[str, Any]:
    return params if actor.key_id is None else {**params, "owner": actor.key_id}


def _game_row(session: Session, actor: Actor, game_id: int, *, lock: bool = False) -> Row[Any]:
    """The actor's game ``game_id`` as a round's write reads it (:func:`game_row_stmt`); raises
    :class:`GameNotFoundError`."""
    row = session.connection().execute(game_row_stmt(actor.key_id is None, lock), _params(actor, game_id=game_id))
    found = row.first()
    if found is None:
        raise GameNotFoundError(game_id)
    return found


def refuse_open_table(session: Session, game_id: int) -> None:
    """:class:`TableOpenError` if a table is playing game ``game_id``: its rounds are the table's to
    store (D51). Run with the game row locked or updated, so a table made meanwhile is seen."""
    playing = session.connection().execute(PLAYING_TABLE, {"game_id": game_id}).scalar()
    if playing is not None:
        raise TableOpenError(game_id, playing)


def _write_state(
    session: Session,
    actor: Actor,
    game_id: int,
    version: int,
    state: dict[str, Any],
    stamp: datetime,
    *,
    refuse_table: bool,
) -> None:
    """The one write of a game row by a round's write (an append, a correction, a deletion): its
    ``state`` (``status`` and ``rounds_played`` copied), where the row is still at ``version``, the
    version moved on by one. A row that moved raises ``store.VersionMovedError`` (the unit runs
    again); with ``refuse_table``, a game a table plays raises :class:`TableOpenError` (asked in the
    UPDATE itself, so a table made meanwhile is seen)."""
    params = _params(
        actor,
        game_id=game_id,
        old_version=version,
        new_state=state,
        new_status=state["status"],
        new_rounds_played=state["rounds_played"],
        new_updated_at=stamp,
        new_version=version + 1,
    )
    if session.connection().execute(state_update_stmt(actor.key_id is None, refuse_table), params).rowcount != 1:
        if refuse_table:
            refuse_open_table(session, game_id)
        raise store.VersionMovedError("the game row changed since it was read")


@dataclass(frozen=True, slots=True)
class _Append:
    """A round scored against the game row at ``version``, and the game's state after it."""

    game_id: int
    version: int
    number: int
    sides: list[str]
    teams: list[dict[str, Any]]
    state: dict[str, Any]


def _prepare(
    session: Session, row: Row[Any], body: Mapping[str, Any], scored: list[dict[str, Any]] | None = None
) -> _Append:
    """Check the round against the game ``row`` and score it (raises the errors
    :func:`append_round` lists, in its order); ``scored``: its Breakdowns already made (plain data,
    in the order of the game's sides), which are stored as they are."""
    state = row.state
    if state["status"] == "finished":
        raise GameFinishedError(state["end_reason"] or "the game is over")
    number = int(row.rounds_played) + 1
    given = body.get("round")
    if given is not None and given != number:
        raise RoundNumberError(number, int(given))
    if number > MAX_ROUNDS_PER_GAME:
        raise RoundLimitError(f"a game holds at most {MAX_ROUNDS_PER_GAME} rounds")
    rules = _rules_from_json(row.rules_json)
    sides = _sides(row)
    teams = score(sides, body, number, rules) if scored is None else scored
    totals = _stored_round_totals(state, len(sides), int(row.rounds_played))
    if totals is None:
        totals = _round_totals(session, row.id)
    after = engine.game_state(rules, sides, [*totals, [b["total"] for b in teams]])
    return _Append(row.id, row.version, number, sides, teams, state_mapping(after))


def _store_append(
    session: Session, actor: Actor, append: _Append, request: Mapping[str, Any], *, by_table: bool = False
) -> Appended:
    """Write a prepared append in the caller's write transaction: the game row where its version is
    still the one scored against (:func:`_write_state`), then the round and its sides' facts. Unless
    ``by_table`` (a table storing its own round), a game a table is playing is refused."""
    stamp = now()
    state = append.state
    values: dict[str, Any] = {
        "number": append.number,
        "revision": 1,
        "request": {**request, "round": append.number},
        "teams": append.teams,
        "author": actor.name,
        "created_at": stamp,
        "updated_at": stamp,
    }
    rnd = AppendedRound(**values)
    _write_state(session, actor, append.game_id, append.version, state, stamp, refuse_table=not by_table)
    session.connection().execute(INSERT_ROUND, {"game_id": append.game_id, **values})
    write_round_sides(session, append.game_id, rnd.number, rnd.teams)
    return WrittenGame(append.game_id, append.sides, state), rnd


@store.write()
def append_round(
    session: Session, locked: bool, actor: Actor, game_id: int, body: Mapping[str, Any], request: Mapping[str, Any]
) -> Appended:
    """Score and store the next round (module docstring); ``request`` is the body as sent.
    Raises :class:`GameNotFoundError`, :class:`GameFinishedError`, :class:`RoundNumberError`,
    :class:`RoundLimitError`, :class:`InvalidRequestError`, engine errors and :class:`TableOpenError`."""
    append = _prepare(session, _game_row(session, actor, game_id, lock=locked), body)
    return _store_append(session, actor, append, request)


def append_scored_in(
    session: Session, actor: Actor, game_id: int, number: int, teams: list[dict[str, Any]], request: Mapping[str, Any]
) -> Appended:
    """Append round ``number``, scored already (``teams``: its Breakdowns as plain data, in the
    order of the game's sides), in the caller's write transaction ``session``: a table's round end
    stores the round it scored with the table's own change (the caller retries a lost race).
    Raises what :func:`append_round` raises but the scoring's errors."""
    append = _prepare(session, _game_row(session, actor, game_id), {"round": number}, teams)
    return _store_append(session, actor, append, request, by_table=True)


# --------------------------------------------------------------------------------------------
# Reading and correcting


#: The most revisions a round may have (the first and 99 corrections): past it a correction is a
#: :class:`RevisionLimitError` (409 ``revision_limit``; README "Reliability"), so a trail is bounded.
MAX_REVISIONS_PER_ROUND = 100


def _find_round(session: Session, game_id: int, number: int) -> Round:
    """The round as it stands: its revisions are never loaded with it (a read costs the same
    whatever the round's history; :func:`round_revisions` reads them a page at a time)."""
    stmt = select(Round).where(Round.game_id == game_id, Round.number == number)
    stmt = stmt.execution_options(populate_existing=True)
    rnd = session.scalars(stmt).first()
    if rnd is None:
        raise RoundNotFoundError(game_id, number)
    return rnd


def get_round(db: Database, actor: Actor, game_id: int, number: int) -> tuple[Game, Round]:
    def run(session: Session) -> tuple[Game, Round]:
        game = find_game(session, actor, game_id)
        return game, _find_round(session, game.id, number)

    return store.read(db, run)


@store.write(locked=True)
def correct_round(
    session: Session,
    _locked: bool,
    actor: Actor,
    game_id: int,
    number: int,
    body: Mapping[str, Any],
    request: Mapping[str, Any],
    if_match: Callable[[Round], None] | None = None,
    sent: Callable[[int], bool] | None = None,
) -> tuple[WrittenGame, Round]:
    """Re-score round ``number`` from a new body, the current version kept as a revision, later totals
    and the game's status recomputed; a locked unit. ``if_match(round)`` (raises) runs on the locked
    round. A repeat of the round's last correction (the same ``request`` by the same caller,
    ``sent(revision)`` true of the revision before) returns the round as it stands, storing nothing.
    Raises :class:`RevisionLimitError` (at :data:`MAX_REVISIONS_PER_ROUND`) and :class:`TableOpenError`."""
    row = _game_row(session, actor, game_id, lock=True)
    refuse_open_table(session, row.id)
    rnd = _find_round(session, row.id, number)
    repeat = rnd.revision > 1 and rnd.author == actor.name and rnd.request == {**request, "round": number}
    if repeat and sent is not None and sent(rnd.revision - 1):
        return WrittenGame(row.id, _sides(row), row.state), rnd
    if if_match is not None:
        if_match(rnd)
    if rnd.revision >= MAX_REVISIONS_PER_ROUND:
        raise RevisionLimitError(
            f"round {number} has {rnd.revision} revisions, the most a round may have "
            f"({MAX_REVISIONS_PER_ROUND}): it cannot be corrected again"
        )
    rules = _rules_from_json(row.rules_json)
    sides = _sides(row)
    teams = score(sides, body, number, rules)
    stamp = now()
    session.add(
        RoundRevision(
            round_id=rnd.id,
            revision=rnd.revision,
            request=rnd.request,
            teams=rnd.teams,
            author=rnd.author,
            created_at=rnd.updated_at,
            replaced_at=stamp,
            replaced_by=actor.name,
        )
    )
    rnd.revision += 1
    rnd.request = {**request, "round": number}
    rnd.teams = teams
    rnd.author = actor.name
    write_round_sides(session, row.id, number, teams, replace=True)
    rnd.updated_at = stamp
    session.flush()
    state = state_mapping(engine.game_state(rules, sides, _round_totals(session, row.id)))
    _write_state(session, actor, row.id, row.version, state, stamp, refuse_table=False)  # refused above
    return WrittenGame(row.id, sides, state), rnd


def round_revisions(
    db: Database, actor: Actor, game_id: int, number: int, *, offset: int, limit: int
) -> tuple[Round, list[RoundRevision], int]:
    """A page of the round's audit trail, oldest first: the round, its earlier revisions on the page (at
    most ``limit`` from ``offset``) and the trail's length (the round's revision number)."""

    def run(session: Session) -> tuple[Round, list[RoundRevision], int]:
        rnd = _find_round(session, find_game(session, actor, game_id).id, number)
        revisions = session.scalars(
            select(RoundRevision)
            .where(RoundRevision.round_id == rnd.id)
            .order_by(RoundRevision.revision)
            .offset(offset)
            .limit(limit)
        ).all()
        return rnd, list(revisions), rnd.revision

    return store.read(db, run)


# --------------------------------------------------------------------------------------------
# Deleting the last round


@store.write(locked=True)
def delete_round(
    session: Session,
    _locked: bool,
    actor: Actor,
    game_id: int,
    number: int,
    if_match: Callable[[int], None],
    sent: Callable[[int], bool],
) -> None:
    """Take back round ``number``, the game's last: its row and revisions go (kept as a
    :class:`RoundDeletion`) and the game's state is recomputed; a locked unit. ``if_match(version)``
    (raises) runs on the locked game; a repeat of a deletion still the game's last change (If-Match
    naming the version before it: ``sent(version)``) changes nothing. Raises :class:`GameNotFoundError`,
    :class:`RoundNotFoundError`, :class:`NotLastRoundError` and :class:`TableOpenError`."""
    row = _game_row(session, actor, game_id, lock=True)
    refuse_open_table(session, row.id)
    rnd = session.scalars(
        select(Round).where(Round.game_id == row.id, Round.number == number).execution_options(populate_existing=True)
    ).first()
    if rnd is None:
        last = session.scalars(
            select(RoundDeletion).where(RoundDeletion.game_id == row.id).order_by(RoundDeletion.id.desc()).limit(1)
        ).first()
        if last is None or last.number != number or last.game_version != row.version or not sent(last.game_version - 1):
            raise RoundNotFoundError(row.id, number)
        if_match(last.game_version - 1)  # passes (``sent`` said so): the check is on record
        return
    if_match(row.version)
    if number != row.rounds_played:
        raise NotLastRoundError(number, row.rounds_played)
    revisions = session.scalars(
        select(RoundRevision).where(RoundRevision.round_id == rnd.id).order_by(RoundRevision.revision)
    ).all()
    stamp = now()
    session.add(
        RoundDeletion(
            game_id=row.id,
            number=rnd.number,
            revision=rnd.revision,
            request=rnd.request,
            teams=rnd.teams,
            author=rnd.author,
            created_at=rnd.created_at,
            updated_at=rnd.updated_at,
            revisions=[r.as_data() for r in revisions],
            deleted_at=stamp,
            deleted_by=actor.name,
            game_version=row.version + 1,
        )
    )
    session.delete(rnd)
    delete_round_sides(session, row.id, number)
    session.flush()
    sides = _sides(row)
    state = engine.game_state(_rules_from_json(row.rules_json), sides, _round_totals(session, row.id))
    _write_state(session, actor, row.id, row.version, state_mapping(state), stamp, refuse_table=False)
