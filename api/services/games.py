"""Games: create, list, read, delete. Transactions here (``api/services/store.py``), rules in the
engine; rounds are ``api/services/rounds.py``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, TypeVar

from sqlalchemy import Select, bindparam, func, select, tuple_
from sqlalchemy.orm import Session, defer, selectinload

from handfoot import engine
from handfoot.server import wakeups
from handfoot.server.auth import Actor
from handfoot.server.db import Database
from handfoot.server.models import Game, GamePlayer, Round, Table
from handfoot.server.services import store
from handfoot.server.services.errors import GameNotFoundError, InvalidRequestError

if TYPE_CHECKING:
    from handfoot.server.services.history import StoredGame


def now() -> datetime:
    return datetime.now(UTC)


_S = TypeVar("_S", bound=Select[Any])


def owned(stmt: _S, actor: Actor) -> _S:
    """``stmt`` narrowed to the games ``actor`` owns (anonymous: the games made without a key)."""
    if actor.key_id is None:
        return stmt.where(Game.owner_id.is_(None))
    return stmt.where(Game.owner_id == actor.key_id)


#: What a read of a game loads of its rounds: every column, each round's number and revision, or
#: nothing (the game row holds the running totals).
RoundsLoaded = Literal["full", "numbers", "none"]


def find_game(
    session: Session, actor: Actor, game_id: int, *, lock: bool = False, rounds: bool | RoundsLoaded = False
) -> Game:
    """The actor's game ``game_id``, as stored now (``lock``: ``FOR UPDATE``; ``rounds``: what is
    loaded of its rounds, ``True`` meaning ``"full"``). Raises :class:`GameNotFoundError`."""
    # populate_existing: the request's one session may hold the game from an earlier read
    stmt = owned(select(Game).where(Game.id == game_id), actor).execution_options(populate_existing=True)
    if lock:
        stmt = stmt.with_for_update()
    if rounds is True or rounds == "full":
        stmt = stmt.options(selectinload(Game.rounds))
    elif rounds == "numbers":
        stmt = stmt.options(selectinload(Game.rounds).load_only(Round.number, Round.revision))
    game = session.scalars(stmt).first()
    if game is None:
        raise GameNotFoundError(game_id)
    return game


# --------------------------------------------------------------------------------------------
# State


#: What a game's documents read of it: a mapped game, or its columns as plain data.
GameColumns: TypeAlias = "Game | StoredGame"


def side_names(game: GameColumns) -> list[str]:
    return [str(team["name"]) for team in game.teams]


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
        "next_opening_minimums": None
        if state.next_opening_minimums is None
        else [{"name": m.name, "minimum": m.total} for m in state.next_opening_minimums],
        "next_contract": None if state.next_contract is None else state.next_contract.as_dict(),
        "end_reason": state.end_reason,
        "regular_end_round": state.regular_end_round,
        "tiebreaker_rounds": state.tiebreaker_rounds,
    }


# --------------------------------------------------------------------------------------------
# Games


@store.write()
def create_game(session: Session, _locked: bool, actor: Actor, body: Mapping[str, Any]) -> Game:
    """Store a new game (:func:`new_game`), one unit of work."""
    return new_game(session, actor, body)


def new_game(session: Session, actor: Actor, body: Mapping[str, Any]) -> Game:
    """Store a new game in the caller's transaction: the preset resolved with the house rules, its sides
    checked against them. Raises engine errors and :class:`InvalidRequestError`."""
    resolved = engine.resolve_rules(body["preset"], body.get("rules") or {})
    teams = [{"name": t["name"], "players": list(t["players"])} for t in body["teams"]]
    problems = engine.sides_problems(resolved.rules, [t["name"] for t in teams], [t["players"] for t in teams])
    if problems:  # the engine's one rule of sides and players
        raise InvalidRequestError(problems)
    state = engine.game_state(resolved.rules, [t["name"] for t in teams], [])
    created = now()
    game = Game(
        owner_id=actor.key_id,
        name=body["name"],
        preset=resolved.preset.id,
        house_rules=dict(body.get("rules") or {}),
        rules_overridden=list(resolved.overridden),
        rules_snapshot=resolved.rules.to_mapping(),
        teams=teams,
        status=state.status,
        rounds_played=0,
        state=state_mapping(state),
        created_at=created,
        updated_at=created,
    )
    game.players = [
        GamePlayer(side=i, name=p, name_key=engine.name_key(p)) for i, t in enumerate(teams) for p in t["players"]
    ]
    session.add(game)
    session.flush()
    game.rounds = []
    return game


@dataclass(frozen=True)
class GamesPage:
    """One page of the games list: ``games`` newest first; ``more``: games follow it; ``total``: how
    many match in all, counted only for the numbered (offset) pages, else ``None``."""

    games: list[Game]
    more: bool
    total: int | None = None


def list_games(
    db: Database,
    actor: Actor,
    *,
    status: str | None = None,
    player: str | None = None,
    preset: str | None = None,
    after: tuple[datetime, int] | None = None,
    offset: int | None = None,
    limit: int = 20,
) -> GamesPage:
    """One page of the actor's games, newest first (``created_at``, ``id``): the ``limit`` games after
    ``after`` (a cursor's ``(created_at, id)``; ``None``: from the newest), along
    ``ix_games_owner_created_id``; or, for the deprecated numbered pages, ``offset`` skipped and
    every match counted (``total``)."""
    stmt = owned(select(Game), actor)
    if status is not None:
        stmt = stmt.where(Game.status == status)
    if preset is not None:
        stmt = stmt.where(Game.preset == preset)
    if player is not None:
        stmt = stmt.where(Game.id.in_(select(GamePlayer.game_id).where(GamePlayer.name_key == engine.name_key(player))))
    # a list shows no rules: their snapshot (about 60 values a game) stays unread
    ordered = stmt.options(defer(Game.rules_snapshot), defer(Game.house_rules), defer(Game.rules_overridden)).order_by(
        Game.created_at.desc(), Game.id.desc()
    )

    def run(session: Session) -> GamesPage:
        if offset is not None:
            count = session.scalar(select(func.count()).select_from(stmt.order_by(None).subquery())) or 0
            games = list(session.scalars(ordered.offset(offset).limit(limit)).all())
            return GamesPage(games, offset + len(games) < count, count)
        page = ordered
        if after is not None:
            moment = bindparam("after_created_at", after[0], type_=Game.created_at.type)
            page = page.where(tuple_(Game.created_at, Game.id) < tuple_(moment, bindparam("after_id", after[1])))
        games = list(session.scalars(page.limit(limit + 1)).all())  # one more: does a next page exist?
        return GamesPage(games[:limit], len(games) > limit)

    return store.read(db, run)


def require_game(db: Database, actor: Actor, game_id: int) -> None:
    """Raise :class:`GameNotFoundError` unless ``actor`` can see game ``game_id``."""
    store.read(db, lambda session: find_game(session, actor, game_id))


def get_game(db: Database, actor: Actor, game_id: int, *, rounds: RoundsLoaded = "full") -> Game:
    """A game with what ``rounds`` says of its rounds (:data:`RoundsLoaded`; the default: all of them)."""
    return store.read(db, lambda session: find_game(session, actor, game_id, rounds=rounds))


#: The round numbers and revisions of a game, in order: all a game read shows of its round rows.
_ROUND_NUMBERS = (
    select(Round.number, Round.revision).where(Round.game_id == bindparam("game_id")).order_by(Round.number)
)


def read_game(db: Database, actor: Actor, game_id: int) -> tuple[Game, list[tuple[int, int]]]:
    """A game and each of its rounds' ``(number, revision)`` (plain rows, no round objects)."""

    def run(session: Session) -> tuple[Game, list[tuple[int, int]]]:
        game = find_game(session, actor, game_id)
        rows = session.connection().execute(_ROUND_NUMBERS, {"game_id": game.id}).all()
        return game, [(number, revision) for number, revision in rows]

    return store.read(db, run)


def tables_of(session: Session, game_id: int) -> list[int]:
    """The ids of the tables that have played game ``game_id``."""
    return list(session.scalars(select(Table.id).where(Table.game_id == game_id)))


@store.write(locked=True)
def delete_game(
    session: Session, _locked: bool, actor: Actor, game_id: int, if_match: Callable[[Game], None] | None = None
) -> None:
    """Delete a game, its rounds and their revisions (called as ``delete_game(db, ...)``:
    :func:`store.write`). ``if_match(game)`` (the If-Match check, which raises) runs on the
    locked game."""
    game = find_game(session, actor, game_id, lock=True)
    if if_match is not None:
        if_match(game)
    tables = tables_of(session, game.id)
    session.delete(game)
    wakeups.announce(session, tables)  # their seats' waits end (the table is gone)
