"""Games: create, list, read, delete; append and correct rounds. Transactions here, rules in the engine.

Every write is one transaction (:func:`_write`): on SQLite it begins with ``BEGIN IMMEDIATE`` (the
write lock first, so writers queue), on PostgreSQL it locks the game row (``SELECT ... FOR UPDATE``)
before it computes the next round number. An append, the hot path, scores its round before that
lock and stores it only if the game row's version has not moved since it was read (else it takes
the lock and does it all again): see :func:`append_round`. A unique-violation race (two appends computing the same
round number) or a PostgreSQL serialization failure or deadlock retries the whole transaction a
few times, then gives up with :class:`WriteConflictError` (409). A database that is unreachable or
locked too long raises :class:`StoreUnavailableError` (503). No HTTP here: the routes map these
errors to problems.
"""

from __future__ import annotations

import functools
import json
import random
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from operator import sub
from typing import Any, TypeVar

from sqlalchemy import (
    ColumnElement,
    Connection,
    Insert,
    Row,
    Select,
    Table,
    Text,
    Update,
    bindparam,
    cast,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError
from sqlalchemy.orm import Session, selectinload
from sqlalchemy.orm.exc import StaleDataError

from handfoot import engine
from handfoot.server.auth import ANONYMOUS, ANY_ACTIVE_KEY, Actor
from handfoot.server.db import Database
from handfoot.server.models import Game, GamePlayer, Round, RoundRevision
from handfoot.server.schemas import breakdown_data

#: Hard limits (documented in the schemas).
MAX_ROUNDS_PER_GAME = 50
#: Attempts of a write transaction that lost a race before a 409.
WRITE_ATTEMPTS = 5

T = TypeVar("T")
S = TypeVar("S")


# --------------------------------------------------------------------------------------------
# Errors (mapped to problems by api/resources/games/routes.py)


class GameServiceError(Exception):
    """Base of the errors of this module."""


class GameNotFoundError(GameServiceError):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game {game_id}")
        self.game_id = game_id


class RoundNotFoundError(GameServiceError):
    def __init__(self, game_id: int, number: int) -> None:
        super().__init__(f"game {game_id} has no round {number}")
        self.game_id, self.number = game_id, number


class GameFinishedError(GameServiceError):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class RoundNumberError(GameServiceError):
    def __init__(self, expected: int, given: int) -> None:
        super().__init__(f"the next round is {expected}, not {given}")
        self.expected, self.given = expected, given


class RoundLimitError(GameServiceError):
    pass


@dataclass(frozen=True, slots=True)
class FieldProblem:
    """A problem at ``path`` in the request body (a JSON Pointer is built from it by the route)."""

    path: tuple[str | int, ...]
    code: str
    detail: str


class InvalidRequestError(GameServiceError):
    """The body is well-formed but does not fit the game (sides, players): a 422."""

    def __init__(self, problems: Sequence[FieldProblem]) -> None:
        super().__init__("; ".join(p.detail for p in problems))
        self.problems = tuple(problems)


class WriteConflictError(GameServiceError):
    """The write lost a race every time it was tried: a 409 (try again)."""


class StoreUnavailableError(GameServiceError):
    """The database is unreachable, or locked for longer than the busy timeout: a 503."""


#: Codes of :class:`FieldProblem` (stable; in the schemas' descriptions).
GAME_PROBLEM_CODES = {
    "duplicate_player": "A player name appears twice in a game (compared ignoring case and Unicode composition).",
    "unknown_side": "A round names a side the game does not have.",
    "missing_side": "A round leaves out a side of the game (every side appears exactly once).",
    "team_count": "The number of sides or players per side is outside what the rule set allows.",
    "game_finished": "The game is over (409 game-finished; `end_reason` says why).",
    "round_number": "The `round` sent is not the game's next round (409 round-number).",
    "round_limit": "The game already has the most rounds a game may have (409 conflict).",
}


# --------------------------------------------------------------------------------------------
# Transactions


def _retryable(err: DBAPIError) -> bool:
    """A lost race: our unique constraints, or PostgreSQL serialization failure / deadlock."""
    orig = err.orig
    sqlstate = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
    if sqlstate in ("40001", "40P01"):
        return True
    if isinstance(err, IntegrityError):
        text = str(orig)
        constraint = getattr(getattr(orig, "diag", None), "constraint_name", None)
        return constraint in ("uq_rounds_game_id_number", "uq_round_revisions_round_id_revision") or (
            "rounds.game_id, rounds.number" in text or "round_revisions.round_id, round_revisions.revision" in text
        )
    return False


def _write(db: Database, fn: Callable[[Session], T]) -> T:
    """Run ``fn`` in one write transaction, retrying lost races (see the module docstring)."""
    return _retrying(db.write_session, fn)


def _write_core(db: Database, fn: Callable[[Connection], T]) -> T:
    """:func:`_write` on a Core connection (no ORM session), for writes made of Core statements."""
    return _retrying(db.write_connection, fn)


def _retrying(begin: Callable[[], AbstractContextManager[S]], fn: Callable[[S], T]) -> T:
    for attempt in range(WRITE_ATTEMPTS):
        try:
            with begin() as transaction:
                return fn(transaction)
        except StaleDataError:
            pass  # the game's version moved under us: run again
        except DBAPIError as err:
            if not _retryable(err):
                if isinstance(err, OperationalError | InterfaceError):
                    raise StoreUnavailableError(str(err.orig)) from err
                raise
        time.sleep(random.uniform(0.005, 0.02) * (attempt + 1))
    raise WriteConflictError("the game changed under this request too often; try again")


def _read(db: Database, fn: Callable[[Session], T]) -> T:
    try:
        with db.session() as session:
            return fn(session)
    except (OperationalError, InterfaceError) as err:
        raise StoreUnavailableError(str(err.orig)) from err


def _now() -> datetime:
    return datetime.now(UTC)


def _owned(stmt: Select[Any], actor: Actor) -> Select[Any]:
    if actor.key_id is None:
        return stmt.where(Game.owner_id.is_(None))
    return stmt.where(Game.owner_id == actor.key_id)


def _game(session: Session, actor: Actor, game_id: int, *, lock: bool = False, rounds: bool = False) -> Game:
    stmt = _owned(select(Game).where(Game.id == game_id), actor)
    if lock:
        stmt = stmt.with_for_update()
    if rounds:
        stmt = stmt.options(selectinload(Game.rounds))
    game = session.scalars(stmt).first()
    if game is None:
        raise GameNotFoundError(game_id)
    return game


# --------------------------------------------------------------------------------------------
# State


def side_names(game: Game) -> list[str]:
    return [str(team["name"]) for team in game.teams]


def rules_of(game: Game) -> engine.RuleSet:
    return engine.rules_from_mapping(game.rules_snapshot)


def state_mapping(state: engine.GameState) -> dict[str, Any]:
    """The engine's GameState as plain data (stored in ``games.state``)."""
    return {
        "status": state.status,
        "rounds_played": state.rounds_played,
        "totals": [{"name": t.name, "total": t.total} for t in state.totals],
        "running": [list(r) for r in state.running],
        "leaders": list(state.leaders),
        "winner": state.winner,
        "tie": state.tie,
        "next_round": state.next_round,
        "next_opening_minimum": state.next_opening_minimum,
        "next_opening_minimums": None if state.next_opening_minimums is None
        else [{"name": m.name, "minimum": m.total} for m in state.next_opening_minimums],
        "next_contract": None if state.next_contract is None else state.next_contract.as_dict(),
        "end_reason": state.end_reason,
        "regular_end_round": state.regular_end_round,
        "tiebreaker_rounds": state.tiebreaker_rounds,
    }


def _recompute(session: Session, game: Game, rules: engine.RuleSet | None = None) -> engine.GameState:
    """The game's state from every stored round's totals (after a correction: any round may have changed)."""
    state = engine.game_state(rules or rules_of(game), side_names(game), _round_totals(session, game.id))
    _set_state(game, state)
    return state


def _set_state(game: Game, state: engine.GameState) -> None:
    game.state = state_mapping(state)
    game.status = state.status
    game.rounds_played = state.rounds_played
    game.updated_at = _now()


def _stored_round_totals(state: Mapping[str, Any], sides: int, rounds_played: int) -> list[list[int]] | None:
    """Each stored round's totals, from the running totals kept in ``games.state`` (the differences
    of consecutive rows), or ``None`` when the stored state does not hold one row per round played.

    Appending changes no earlier round, so an append reads the earlier rounds' totals from here, not
    from every round's row (that re-read was a third of an append, growing with the game:
    docs/performance.md); same engine call, same result as :func:`_recompute`."""
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


def current_state(game: Game) -> engine.GameState:
    """The state from the stored rounds (for callers holding a game with its rounds loaded)."""
    return engine.game_state(rules_of(game), side_names(game), [[b["total"] for b in r.teams] for r in game.rounds])


# --------------------------------------------------------------------------------------------
# Games


def _check_sides(teams: Sequence[Mapping[str, Any]], rules: engine.RuleSet) -> None:
    """Sides and players against the rules (the engine's), and no player twice in one game."""
    problems = [FieldProblem(p.path, p.code, p.detail) for p in engine.sides_problems(
        rules, [t["name"] for t in teams], [len(t["players"]) for t in teams])]
    players: set[str] = set()
    for i, team in enumerate(teams):
        for j, player in enumerate(team["players"]):
            key = engine.name_key(player)
            if key in players:
                problems.append(FieldProblem(("teams", i, "players", j), "duplicate_player",
                                             f"player {player!r} already plays in this game"))
            players.add(key)
    if problems:
        raise InvalidRequestError(problems)


def create_game(db: Database, actor: Actor, body: Mapping[str, Any],
                finalize: Callable[[Session, Game], None] | None = None) -> Game:
    """Store a new game: the preset resolved with the house rules, and its sides checked against them.

    Raises engine errors (unknown preset, bad house rules) and :class:`InvalidRequestError`.
    """
    resolved = engine.resolve_rules(body["preset"], body.get("rules") or {})
    teams = [{"name": t["name"], "players": list(t["players"])} for t in body["teams"]]
    _check_sides(teams, resolved.rules)
    state = engine.game_state(resolved.rules, [t["name"] for t in teams], [])

    def run(session: Session) -> Game:
        now = _now()
        game = Game(
            owner_id=actor.key_id, name=body["name"], preset=resolved.preset.id,
            house_rules=dict(body.get("rules") or {}), rules_overridden=list(resolved.overridden),
            rules_snapshot=resolved.rules.to_mapping(), teams=teams, status=state.status,
            rounds_played=0, state=state_mapping(state), created_at=now, updated_at=now,
        )
        game.players = [GamePlayer(side=i, name=p, name_key=engine.name_key(p))
                        for i, t in enumerate(teams) for p in t["players"]]
        session.add(game)
        session.flush()
        game.rounds = []
        if finalize is not None:
            finalize(session, game)
        return game

    return _write(db, run)


def list_games(db: Database, actor: Actor, *, status: str | None = None, player: str | None = None,
               preset: str | None = None, offset: int = 0, limit: int = 20) -> tuple[list[Game], int]:
    """One page of the actor's games, newest first, and how many match in all."""
    stmt = _owned(select(Game), actor)
    if status is not None:
        stmt = stmt.where(Game.status == status)
    if preset is not None:
        stmt = stmt.where(Game.preset == preset)
    if player is not None:
        stmt = stmt.where(Game.id.in_(select(GamePlayer.game_id).where(GamePlayer.name_key == engine.name_key(player))))

    def run(session: Session) -> tuple[list[Game], int]:
        count = session.scalar(select(func.count()).select_from(stmt.order_by(None).subquery())) or 0
        page = session.scalars(stmt.order_by(Game.created_at.desc(), Game.id.desc()).offset(offset).limit(limit))
        return list(page.all()), count

    return _read(db, run)


def require_game(db: Database, actor: Actor, game_id: int) -> None:
    """Raise :class:`GameNotFoundError` unless ``actor`` can see game ``game_id``."""
    _read(db, lambda session: _game(session, actor, game_id))


def get_game(db: Database, actor: Actor, game_id: int) -> Game:
    """A game with its rounds."""
    return _read(db, lambda session: _game(session, actor, game_id, rounds=True))


def delete_game(db: Database, actor: Actor, game_id: int, check: Callable[[Game], None] | None = None) -> None:
    """Delete a game, its rounds and their revisions. ``check`` (If-Match) runs on the locked game."""

    def run(session: Session) -> None:
        game = _game(session, actor, game_id, lock=True)
        if check is not None:
            check(game)
        session.delete(game)

    _write(db, run)


# --------------------------------------------------------------------------------------------
# Rounds


def _match_sides(names: Sequence[str], teams: Sequence[Mapping[str, Any]]) -> list[int]:
    """For each team of a round body, the index of its game side (every side exactly once)."""
    index = {name: i for i, name in enumerate(names)}
    problems: list[FieldProblem] = []
    seen: dict[str, int] = {}
    order: list[int] = []
    for i, team in enumerate(teams):
        name = team["name"]
        if name not in index:
            problems.append(FieldProblem(("teams", i, "name"), "unknown_side",
                                         f"{name!r} is not a side of this game ({', '.join(map(repr, names))})"))
        elif name in seen:
            problems.append(FieldProblem(("teams", i, "name"), "duplicate_side",
                                         f"side {name!r} is already teams[{seen[name]}]"))
        else:
            seen[name] = i
            order.append(index[name])
    missing = [n for n in names if n not in seen]
    if missing:
        problems.append(FieldProblem(("teams",), "missing_side",
                                     f"every side of the game appears once; missing: {', '.join(map(repr, missing))}"))
    if problems:
        raise InvalidRequestError(problems)
    return order


def _score(names: Sequence[str], body: Mapping[str, Any], number: int,
           rules: engine.RuleSet) -> list[dict[str, Any]]:
    """The engine's Breakdowns of a round body, in the order of the game's sides ``names`` (engine
    errors raise)."""
    order = _match_sides(names, body["teams"])
    score = engine.score_round_body({**body, "round": number}, rules)
    breakdowns: list[dict[str, Any]] = [{}] * len(order)
    for side, b in zip(order, score.teams, strict=True):
        breakdowns[side] = breakdown_data(b)
    return breakdowns


@dataclass(frozen=True, slots=True)
class AppendedGame:
    """The game as an append left it: what the answer needs, without reading the row back."""

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


GAMES: Table = Game.__table__  # type: ignore[assignment]
ROUNDS: Table = Round.__table__  # type: ignore[assignment]

# An append's statements, built once (building them was ~100 µs of an append) and run with
# parameters; one of each for games without an owner (anonymous) and with one.


def _owner_is(anonymous: bool) -> ColumnElement[bool]:
    return GAMES.c.owner_id.is_(None) if anonymous else GAMES.c.owner_id == bindparam("owner")


@functools.cache
def _game_row_stmt(anonymous: bool, lock: bool) -> Select[Any]:
    """What an append reads of the game row: not its name, house rules or timestamps, and the rules
    snapshot as its JSON text (the key of :func:`_rules_from_json`)."""
    stmt = (select(GAMES.c.id, GAMES.c.teams, cast(GAMES.c.rules_snapshot, Text).label("rules_json"), GAMES.c.state,
                   GAMES.c.rounds_played, GAMES.c.version)
            .where(GAMES.c.id == bindparam("game_id"), _owner_is(anonymous)))
    return stmt.with_for_update() if lock else stmt


@functools.cache
def _anonymous_append_stmt() -> Select[Any]:
    """:func:`_game_row_stmt` of an anonymous append, and whether any API key is active
    (``any_key``): the request's key check and its read of the game in one statement."""
    return _game_row_stmt(True, False).add_columns(ANY_ACTIVE_KEY.exists().label("any_key"))


@functools.cache
def _state_update_stmt(anonymous: bool) -> Update:
    """The game's new state, if the row is still at the version the round was scored against."""
    return (update(GAMES)
            .where(GAMES.c.id == bindparam("game_id"), GAMES.c.version == bindparam("old_version"),
                   _owner_is(anonymous))
            .values(state=bindparam("new_state"), status=bindparam("new_status"),
                    rounds_played=bindparam("new_rounds_played"), updated_at=bindparam("new_updated_at"),
                    version=bindparam("new_version")))


#: The columns of a round's INSERT, in order.
_ROUND_COLUMNS = ("game_id", "number", "revision", "request", "teams", "author", "created_at", "updated_at")


@functools.cache
def _append_at_once_stmt(anonymous: bool) -> Insert:
    """PostgreSQL: :func:`_state_update_stmt` and the round's INSERT as one statement (the UPDATE a
    data-modifying CTE whose RETURNING feeds the INSERT), atomic on its own: an append with no
    transaction around it (autocommit) is one round trip, not BEGIN, UPDATE, INSERT and COMMIT.
    Inserts no row, and returns none, when the UPDATE matched none (the version moved, or the game
    is gone)."""
    moved = _state_update_stmt(anonymous).returning(GAMES.c.id).cte("moved")
    values = [bindparam(f"round_{name}", type_=ROUNDS.c[name].type) for name in _ROUND_COLUMNS[1:]]
    return insert(ROUNDS).from_select(list(_ROUND_COLUMNS), select(moved.c.id, *values)).returning(ROUNDS.c.id)


_ROUND_TOTALS = select(ROUNDS.c.teams).where(ROUNDS.c.game_id == bindparam("game_id")).order_by(ROUNDS.c.number)
_INSERT_ROUND = insert(ROUNDS)


def _round_totals(executor: Session | Connection, game_id: int) -> list[list[int]]:
    """Each stored round's totals, in round order, in the order of the game's sides."""
    stored = executor.execute(_ROUND_TOTALS, {"game_id": game_id}).scalars()
    return [[b["total"] for b in breakdowns] for breakdowns in stored]


@functools.lru_cache(maxsize=64)
def _rules_from_json(snapshot: str) -> engine.RuleSet:
    """A game's RuleSet from its snapshot's JSON text. A snapshot never changes once stored, and
    RuleSets are frozen: parsing it on every append (~40 µs) is done once per snapshot instead."""
    return engine.rules_from_mapping(json.loads(snapshot))


def _params(actor: Actor, **params: Any) -> dict[str, Any]:
    return params if actor.key_id is None else {**params, "owner": actor.key_id}


def _game_row(connection: Connection, actor: Actor, game_id: int, *, lock: bool) -> Row[Any] | None:
    stmt = _game_row_stmt(actor.key_id is None, lock)
    return connection.execute(stmt, _params(actor, game_id=game_id)).first()


@dataclass(frozen=True, slots=True)
class _Append:
    """A round scored against the game row at ``version``, and the game's state after it."""

    game_id: int
    version: int
    number: int
    sides: list[str]
    teams: list[dict[str, Any]]
    state: dict[str, Any]


def _prepare_append(row: Row[Any], body: Mapping[str, Any], connection: Connection | None) -> _Append:
    """Check the round against the game ``row`` and score it. The database is read only when the
    row's state lacks the running totals, on ``connection`` (``None``: raise :class:`LookupError`).
    Raises the errors :func:`append_round` lists, in its order."""
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
    sides = [str(team["name"]) for team in row.teams]
    teams = _score(sides, body, number, rules)
    totals = _stored_round_totals(state, len(sides), int(row.rounds_played))
    if totals is None:
        if connection is None:
            raise LookupError("the game's stored state lacks its running totals")
        totals = _round_totals(connection, row.id)
    after = engine.game_state(rules, sides, [*totals, [b["total"] for b in teams]])
    return _Append(row.id, row.version, number, sides, teams, state_mapping(after))


@dataclass(frozen=True, slots=True)
class AppendRead:
    """An anonymous append's first read (:func:`read_anonymous_append`): the game row, unlocked."""

    game_id: int
    row: Row[Any] | None

    @property
    def any_key(self) -> bool | None:
        """Whether any API key is active; ``None`` (not known) when no game row came back."""
        return None if self.row is None else bool(self.row.any_key)


def read_anonymous_append(db: Database, game_id: int) -> AppendRead:
    """For an anonymous ``POST /v1/games/{id}/rounds``: the API-key check and the append's unlocked
    read of the game row as one statement on the request's :meth:`Database.reader` (on PostgreSQL
    one round trip instead of two). Pass the result to :func:`append_round` (``read``) once the
    request is known to be anonymous (``any_key`` false). When no game row comes back, ``any_key``
    is ``None``: ask :func:`handfoot.server.auth.any_active_key`. Raises what a read raises."""
    with db.reader() as connection:
        return AppendRead(game_id, connection.execute(_anonymous_append_stmt(), {"game_id": game_id}).first())


def _planned_append(connection: Connection, actor: Actor, game_id: int, body: Mapping[str, Any],
                    read: AppendRead | None = None) -> _Append | None:
    """The round scored against the game row as read now (or as ``read`` read it, for an anonymous
    actor), without a lock; ``None`` when anything is off (no such game, finished, a round that
    breaks the rules...): the locked path checks again and raises."""
    if read is not None and actor == ANONYMOUS and read.game_id == game_id:
        row = read.row
    else:
        row = _game_row(connection, actor, game_id, lock=False)
    if row is None:
        return None
    try:
        return _prepare_append(row, body, None)
    except (GameServiceError, engine.HandFootError, LookupError):
        return None


def _store_state(connection: Connection, actor: Actor, append: _Append, now: datetime) -> bool:
    """Write the game's state after the round, if the row is still at ``append.version`` (and
    still the actor's); ``False`` otherwise."""
    state = append.state
    result = connection.execute(_state_update_stmt(actor.key_id is None), _params(
        actor, game_id=append.game_id, old_version=append.version, new_state=state, new_status=state["status"],
        new_rounds_played=state["rounds_played"], new_updated_at=now, new_version=append.version + 1))
    return result.rowcount == 1


def _new_round(actor: Actor, append: _Append, request: Mapping[str, Any], now: datetime) -> AppendedRound:
    return AppendedRound(number=append.number, revision=1, request={**request, "round": append.number},
                         teams=append.teams, author=actor.name, created_at=now, updated_at=now)


def _append_at_once(connection: Connection, actor: Actor, append: _Append,
                    request: Mapping[str, Any]) -> tuple[AppendedGame, AppendedRound] | None:
    """PostgreSQL, on a connection in autocommit: store ``append`` by :func:`_append_at_once_stmt`;
    ``None`` when it stored nothing (the game row moved since it was read, or a lost race): the
    caller then takes the transaction's path, which checks again under the row's lock."""
    now = _now()
    rnd = _new_round(actor, append, request, now)
    state = append.state
    try:
        result = connection.execute(_append_at_once_stmt(actor.key_id is None), _params(
            actor, game_id=append.game_id, old_version=append.version, new_state=state, new_status=state["status"],
            new_rounds_played=state["rounds_played"], new_updated_at=now, new_version=append.version + 1,
            round_number=rnd.number, round_revision=rnd.revision, round_request=rnd.request,
            round_teams=rnd.teams, round_author=rnd.author, round_created_at=now, round_updated_at=now))
    except DBAPIError as err:
        if _retryable(err):
            return None
        raise
    if result.first() is None:  # RETURNING: a row is stored exactly when one comes back
        return None
    return AppendedGame(append.game_id, append.sides, state), rnd


def append_round(db: Database, actor: Actor, game_id: int, body: Mapping[str, Any], request: Mapping[str, Any],
                 finalize: Callable[[Connection, AppendedGame, AppendedRound], None] | None = None,
                 read: AppendRead | None = None) -> tuple[AppendedGame, AppendedRound]:
    """Score and store the next round. ``request`` is the body as sent (stored with its number).
    ``read``: the request's :func:`read_anonymous_append`, if it made one (the game row is then not
    read again).

    The round is scored against the game row as read without a lock, then stored by two Core
    statements (no ORM unit of work): an UPDATE of the game row *where its version is still the one
    read* (every change moves it), then the round's INSERT. Scoring thus never holds a lock:
    on SQLite it runs before the transaction (whose ``BEGIN IMMEDIATE`` takes the whole database's
    write lock, and writers waiting for it sleep), on PostgreSQL before the row is locked. When the
    version moved (a concurrent write), or anything was off, the row is read again ``FOR UPDATE``
    and checked and scored under the lock, as every append once was.

    The game row is read on the request's shared connection (:meth:`Database.reader`, which the
    API-key check used). On PostgreSQL, when there is nothing to ``finalize`` (no Idempotency-Key),
    the UPDATE and the INSERT are one statement on that connection in autocommit
    (:func:`_append_at_once_stmt`): an append is then a ping, the key check, the read and that
    statement, the round trips of the insert floor (a ping, BEGIN, INSERT, COMMIT).

    Raises :class:`GameNotFoundError`, :class:`GameFinishedError`, :class:`RoundNumberError`,
    :class:`RoundLimitError`, :class:`InvalidRequestError` and engine errors (rules broken).
    """
    planned = None
    if db.is_sqlite or finalize is None:
        try:
            with db.reader() as connection:
                planned = _planned_append(connection, actor, game_id, body, read)
                if planned is not None and not db.is_sqlite and finalize is None:
                    stored = _append_at_once(connection, actor, planned, request)
                    if stored is not None:
                        return stored
        except (OperationalError, InterfaceError) as err:
            raise StoreUnavailableError(str(err.orig)) from err

    def run(connection: Connection) -> tuple[AppendedGame, AppendedRound]:
        now = _now()
        append = planned if db.is_sqlite else _planned_append(connection, actor, game_id, body)
        if append is None or not _store_state(connection, actor, append, now):
            row = _game_row(connection, actor, game_id, lock=True)
            if row is None:
                raise GameNotFoundError(game_id)
            append = _prepare_append(row, body, connection)
            if not _store_state(connection, actor, append, now):
                raise StaleDataError("the game row changed under its lock")
        rnd = _new_round(actor, append, request, now)
        connection.execute(_INSERT_ROUND, {"game_id": append.game_id, "number": rnd.number,
                                           "revision": rnd.revision, "request": rnd.request, "teams": rnd.teams,
                                           "author": rnd.author, "created_at": now, "updated_at": now})
        game = AppendedGame(append.game_id, append.sides, append.state)
        if finalize is not None:
            finalize(connection, game, rnd)
        return game, rnd

    return _write_core(db, run)


def get_round(db: Database, actor: Actor, game_id: int, number: int) -> tuple[Game, Round]:
    def run(session: Session) -> tuple[Game, Round]:
        game = _game(session, actor, game_id)
        rnd = session.scalars(select(Round).where(Round.game_id == game.id, Round.number == number)
                              .options(selectinload(Round.revisions))).first()
        if rnd is None:
            raise RoundNotFoundError(game_id, number)
        return game, rnd

    return _read(db, run)


def correct_round(db: Database, actor: Actor, game_id: int, number: int, body: Mapping[str, Any],
                  request: Mapping[str, Any], check: Callable[[Round], None] | None = None) -> tuple[Game, Round]:
    """Re-score round ``number`` from a new body; the current version becomes a revision.

    ``check`` (If-Match) runs on the round once the game is locked. Later running totals and the
    game's status are recomputed.
    """

    def run(session: Session) -> tuple[Game, Round]:
        game = _game(session, actor, game_id, lock=True)
        rnd = session.scalars(select(Round).where(Round.game_id == game.id, Round.number == number)).first()
        if rnd is None:
            raise RoundNotFoundError(game_id, number)
        if check is not None:
            check(rnd)
        rules = rules_of(game)
        teams = _score(side_names(game), body, number, rules)
        now = _now()
        session.add(RoundRevision(round_id=rnd.id, revision=rnd.revision, request=rnd.request, teams=rnd.teams,
                                  author=rnd.author, created_at=rnd.updated_at, replaced_at=now,
                                  replaced_by=actor.name))
        rnd.revision += 1
        rnd.request = {**request, "round": number}
        rnd.teams = teams
        rnd.author = actor.name
        rnd.updated_at = now
        session.flush()
        _recompute(session, game, rules)
        session.flush()
        return game, rnd

    return _write(db, run)


def round_revisions(db: Database, actor: Actor, game_id: int, number: int) -> tuple[Round, list[RoundRevision]]:
    def run(session: Session) -> tuple[Round, list[RoundRevision]]:
        game = _game(session, actor, game_id)
        rnd = session.scalars(select(Round).where(Round.game_id == game.id, Round.number == number)).first()
        if rnd is None:
            raise RoundNotFoundError(game_id, number)
        revisions = session.scalars(select(RoundRevision).where(RoundRevision.round_id == rnd.id)
                                    .order_by(RoundRevision.revision)).all()
        return rnd, list(revisions)

    return _read(db, run)
