"""Who makes a request: an API key (made and revoked on the command line) or a seat of a table (its
Seat-Token). The view decorators :func:`authenticated`, :func:`seated` and :func:`seat_or_key` pass
the caller to the view as ``actor``, reading no game or table.

A key is ``hf_`` + 43 URL-safe characters (256 random bits), printed once by ``handfoot-server keys
create NAME``; the database keeps its SHA-256 (no salt needed at that entropy), compared with
:func:`hmac.compare_digest`. While no key is active the store is open (anonymous callers see the
keyless games); once one is, games routes need ``Authorization: Bearer <key>`` (401) and a key sees
only its own games (another's is a 404). ``keys create NAME --adopt-anonymous`` takes the keyless games.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NoReturn

import click
import flask
from flask.cli import AppGroup
from sqlalchemy import Table, bindparam, select, update

from handfoot.server import security
from handfoot.server.db import Database, get_db
from handfoot.server.models import ApiKey, Game
from handfoot.server.models import Table as TableRow
from handfoot.server.problems import NO_KEY, abort_problem, unauthorized_item
from handfoot.server.services.errors import TableNotFoundError

KEY_PREFIX = "hf_"


@dataclass(frozen=True, slots=True)
class Actor:
    """Who makes a request: an API key (``key_id``, ``name``) or anonymous (both ``None``). ``scope``,
    set from them: its Idempotency-Keys' scope, ``key:<id>`` or ``anonymous``."""

    key_id: int | None = None
    name: str | None = None
    scope: str = field(init=False, default="anonymous")

    def __post_init__(self) -> None:
        if self.key_id is not None:
            object.__setattr__(self, "scope", f"key:{self.key_id}")


ANONYMOUS = Actor()


@dataclass(frozen=True, slots=True)
class SeatActor(Actor):
    """A seat of a table, by its token: its Idempotency-Keys are its own (scope ``seat:<table>:<seat>``),
    so no seat can replay another's answer (which holds that seat's hand)."""

    table_id: int = 0
    seat: int = 0
    #: The API key the table belongs to (``None``: a table made without a key); whose waits these are.
    table_owner: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "scope", f"seat:{self.table_id}:{self.seat}")


def hash_key(token: str) -> str:
    """The stored form of an API key or a seat's token: SHA-256, hex (a token of 256 random bits
    needs no salt or slow hash)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def create_key(db: Database, name: str, *, adopt_anonymous: bool = False) -> tuple[ApiKey, str]:
    """Store a new key named ``name``; returns the row and the key (shown once, never stored)."""
    token = new_token()
    with db.write_session() as session:
        key = ApiKey(name=name, key_hash=hash_key(token))
        session.add(key)
        session.flush()
        if adopt_anonymous:
            session.execute(update(Game).where(Game.owner_id.is_(None)).values(owner_id=key.id))
    return key, token


#: Is any key active? Asked on every anonymous games request.
ANY_ACTIVE_KEY = select(ApiKey.id).where(ApiKey.revoked_at.is_(None)).limit(1)


def find_key(db: Database, token: str) -> ApiKey | None:
    """The active key whose hash matches ``token``, compared in constant time."""
    digest = hash_key(token)
    with db.session() as session:
        key = session.scalars(select(ApiKey).where(ApiKey.key_hash == digest)).first()
    if key is None or key.revoked_at is not None or not hmac.compare_digest(key.key_hash, digest):
        return None
    return key


def bearer_token() -> str | None:
    """The token of ``Authorization: Bearer <token>`` in the current request, else ``None``."""
    scheme, _, token = flask.request.headers.get("Authorization", "").strip().partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


_NOT_LOOKED_UP = object()


def key_owner(token: str) -> Actor | None:
    """The owner of the active API key ``token`` (:func:`find_key`), looked up once per request (the
    rate limiter and authentication both need it); ``None`` for no such key."""
    cache: dict[str, Actor | None] = flask.g.setdefault("handfoot_key_owners", {})
    found = cache.get(token, _NOT_LOOKED_UP)
    if found is _NOT_LOOKED_UP:
        key = find_key(get_db(), token)
        found = cache[token] = None if key is None else Actor(key.id, key.name)
    return found  # type: ignore[return-value]


def _unauthorized(detail: str) -> NoReturn:
    headers = {"WWW-Authenticate": 'Bearer realm="handfoot"'}
    abort_problem(401, "API key required", detail, errors=[unauthorized_item(detail)], headers=headers)


def authenticate() -> Actor:
    """The request's :class:`Actor`, or a 401 problem (``WWW-Authenticate: Bearer``): anonymous without a
    key while no key is active; a key sent must be valid even then (a misconfigured client learns it)."""
    if not flask.request.headers.get("Authorization", "").strip():
        with get_db().session() as session:
            if session.connection().execute(ANY_ACTIVE_KEY).first() is not None:
                _unauthorized(NO_KEY)
        return ANONYMOUS
    token = bearer_token()
    if token is None:
        _unauthorized("The Authorization header must be 'Bearer <key>'.")
    owner = key_owner(token)
    if owner is None:
        _unauthorized("The API key is unknown or revoked.")
    return owner


def authenticated(view: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a view: its caller (:func:`authenticate`) as ``actor``."""

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return view(*args, actor=authenticate(), **kwargs)

    return wrapper


_SEATS: Table = TableRow.__table__  # type: ignore[assignment]
_SEAT_HASHES = select(_SEATS.c.seat_hashes, _SEATS.c.owner_id).where(_SEATS.c.id == bindparam("table_id"))


#: Seats found, per app (a table's seat hashes and owner never change, and table ids are never used
#: again); a token of no seat is looked up every time. Cleared when it reaches this size.
KNOWN_SEATS_MAX = 10_000
_KNOWN_SEATS = "handfoot.known_seats"  # its dict in app.extensions


def seat_named(table_id: int, token: str) -> SeatActor | None:
    """The seat of table ``table_id`` whose token is ``token``, or ``None``: read from the table's seat
    hashes, then known to the process (:data:`KNOWN_SEATS_MAX`, per app: one database each). Raises
    one of ``db.DATABASE_DOWN``."""
    digest = hashlib.sha256(token.encode("utf-8")).hexdigest()  # hash_key's
    known: dict[tuple[int, str], SeatActor] = flask.current_app.extensions.setdefault(_KNOWN_SEATS, {})
    found = known.get((table_id, digest))
    if found is not None:
        return found
    with get_db().session() as session:
        row = session.connection().execute(_SEAT_HASHES, {"table_id": table_id}).first()
    hashes, owner = row or ((), None)
    seat = None
    for i, stored in enumerate(hashes or ()):
        if hmac.compare_digest(stored, digest):  # every hash compared: the time says nothing of the seat
            seat = i
    if seat is None:
        return None
    if len(known) >= KNOWN_SEATS_MAX:
        known.clear()
    found = known[(table_id, digest)] = SeatActor(table_id=table_id, seat=seat, table_owner=owner)
    return found


def seated(view: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a view of table ``table_id``: the seat its ``Seat-Token`` names (:func:`seat_named`) as
    ``actor``, else :class:`TableNotFoundError` (the same for every case: a wrong token learns nothing)."""

    @functools.wraps(view)
    def wrapper(*args: Any, table_id: int, **kwargs: Any) -> Any:
        token = flask.request.headers.get(security.SEAT_HEADER)
        actor = seat_named(table_id, token) if token else None
        if actor is None:
            raise TableNotFoundError(table_id)
        return view(*args, table_id=table_id, actor=actor, **kwargs)

    return wrapper


def seat_or_key(view: Callable[..., Any]) -> Callable[..., Any]:
    """:func:`seated` when the request sends a ``Seat-Token``, else :func:`authenticated`."""
    by_seat, by_key = seated(view), authenticated(view)

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return (by_seat if security.SEAT_HEADER in flask.request.headers else by_key)(*args, **kwargs)

    return wrapper


# --------------------------------------------------------------------------------------------
# flask keys ...

keys_cli = AppGroup("keys", help="Manage API keys (game writes need one once any exists).")


@keys_cli.command("create")
@click.argument("name")
@click.option("--adopt-anonymous", is_flag=True, help="Give the games made without a key to this key.")
def create_command(name: str, adopt_anonymous: bool) -> None:
    """Create a key named NAME and print it (once: only its hash is stored)."""
    name = name.strip()
    if not 1 <= len(name) <= 100:
        raise click.BadParameter("NAME must be 1 to 100 characters", param_hint="NAME")
    key, token = create_key(get_db(), name, adopt_anonymous=adopt_anonymous)
    click.echo(f"created key {key.id} ({key.name}); it is shown only now:", err=True)
    click.echo(token)


@keys_cli.command("list")
def list_command() -> None:
    """List keys: id, name, created, revoked (never the keys themselves)."""
    with get_db().session() as session:
        keys = session.scalars(select(ApiKey).order_by(ApiKey.id)).all()
    for key in keys:
        revoked = f"revoked {key.revoked_at:%Y-%m-%d %H:%M}" if key.revoked_at else "active"
        click.echo(f"{key.id}\t{key.name}\tcreated {key.created_at:%Y-%m-%d %H:%M}\t{revoked}")


@keys_cli.command("revoke")
@click.argument("key_id", type=int)
def revoke_command(key_id: int) -> None:
    """Revoke key KEY_ID (see `keys list`): it stops working; its games stay."""
    with get_db().write_session() as session:
        key = session.get(ApiKey, key_id)
        if key is None:
            raise click.ClickException(f"no key {key_id}")
        if key.revoked_at is None:
            key.revoked_at = datetime.now(UTC)
    click.echo(f"revoked key {key_id}")
