"""Cross-cutting protections (docs/configuration.md; docs/deploy.md, "The rate limit"): rate limiting
on ``/v1`` (``HANDFOOT_RATE_LIMIT``: per active API key, else per address; a seat's ``Seat-Token``
against its own ``HANDFOOT_SEAT_RATE_LIMIT``; past it a 429 with ``Retry-After``), CORS (off unless
``HANDFOOT_CORS_ORIGINS``), and ``Cache-Control: no-store`` on tables answers and on answers to a
request with an API key.
"""

from __future__ import annotations

import functools
import math
import time

import flask
from flask_cors import CORS
from limits import RateLimitItem, parse_many
from limits.storage import Storage, storage_from_string
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import TooManyRequests

from handfoot.server import ratelimit

EXTENSION_KEY = "handfoot.limiter"
#: The header a table's seat sends (``auth.seated``).
SEAT_HEADER = "Seat-Token"
#: A seat's allowance when ``HANDFOOT_SEAT_RATE_LIMIT`` is unset.
DEFAULT_SEAT_LIMIT = "6000/minute"

#: Headers a browser client may send and read (CORS).
CORS_ALLOW_HEADERS = [
    "Authorization",
    "Content-Type",
    "Idempotency-Key",
    "If-Match",
    "If-None-Match",
    "Accept",
    "X-Request-ID",
]
CORS_EXPOSE_HEADERS = [
    "ETag",
    "Location",
    "Link",
    "X-Pagination",
    "Retry-After",
    "Idempotent-Replayed",
    "X-Request-ID",
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
]


def parse_origins(raw: str | None) -> list[str]:
    """``HANDFOOT_CORS_ORIGINS`` → a list of origins (empty: CORS off)."""
    return [o.strip().rstrip("/") for o in (raw or "").split(",") if o.strip()]


def rate_limit_key() -> str:
    """The bucket of this request: ``key:<id>`` for an active API key, else ``addr:<address>``."""
    from handfoot.server.auth import bearer_token, key_owner

    token = bearer_token()
    if token:
        try:
            owner = key_owner(token)
        except SQLAlchemyError:  # the database is down: the route will say so; count the address
            owner = None
        if owner is not None:
            return f"key:{owner.key_id}"
    return f"addr:{flask.request.remote_addr or 'unknown'}"


def _parse_limit(limit: str, name: str) -> list[RateLimitItem]:
    """``limit`` in ``limits``' notation; a ``ValueError`` naming the setting ``name`` otherwise."""
    try:
        return parse_many(limit)
    except ValueError as err:
        raise ValueError(
            f"{name}: {limit!r} is not a rate limit (e.g. '600/minute' or '20/second;600/minute')"
        ) from err


def seat_key() -> str | None:
    """The bucket ``seat:<table>:<seat>`` of a request whose ``Seat-Token`` names a seat of the table
    in its path (``auth.seat_named``), else ``None`` (the database down included)."""
    from handfoot.server.auth import seat_named

    token = flask.request.headers.get(SEAT_HEADER)
    table_id = (flask.request.view_args or {}).get("table_id")
    if not token or not isinstance(table_id, int):
        return None
    try:
        seat = seat_named(table_id, token)
    except SQLAlchemyError:  # the route will say the store is down
        return None
    return None if seat is None else f"seat:{seat.table_id}:{seat.seat}"


class RateLimiter:
    """``HANDFOOT_RATE_LIMIT`` on ``/v1``: ``limits``' fixed windows over one synchronous storage.
    ``limit`` in ``limits``' notation (``"20/second;600/minute"``); ``storage_uri`` ``api/ratelimit.py``'s
    file, ``redis://...`` or ``memory://`` (a bad limit or an ``async+`` storage raises ``ValueError``).
    A busy key's requests are taken in leases (``ratelimit.Leases``), whose count gives the headers."""

    def __init__(
        self, limit: str, storage_uri: str, key_prefix: str = "", seat_limit: str = DEFAULT_SEAT_LIMIT
    ) -> None:
        self.items = _parse_limit(limit, "HANDFOOT_RATE_LIMIT")
        self.seat_items = _parse_limit(seat_limit, "HANDFOOT_SEAT_RATE_LIMIT")
        if not isinstance(storage_from_string(storage_uri), Storage):  # async+...: the app is synchronous
            raise ValueError(f"{storage_uri!r} is an asynchronous limits storage; give a synchronous one")
        self.storage_uri = storage_uri
        self.prefix = key_prefix or "handfoot"

    # The storage (a Redis client's pool) and the leases hold locks: made on first use, in the
    # worker that uses them. Made in gunicorn's master (preload_app), they held locks made before
    # the gevent worker patched threading, and a greenlet waiting on one blocked its whole worker.
    @functools.cached_property
    def storage(self) -> Storage:
        storage = storage_from_string(self.storage_uri)
        assert isinstance(storage, Storage)  # checked in __init__
        return storage

    @functools.cached_property
    def leases(self) -> ratelimit.Leases:
        return ratelimit.Leases()

    def check(self) -> None:
        """Count this request against its key; past a limit, 429 with
        ``Retry-After`` (seconds until that limit's window resets, at least 1)."""
        if not flask.request.path.startswith("/v1/"):
            return
        seat = seat_key()
        if seat is not None:
            key, items = seat, self.seat_items
            flask.g.rate_limit_seat = True
        else:
            key, items = rate_limit_key(), self.items
        shown: tuple[RateLimitItem, int, float] | None = None
        for item in items:
            # limits' FixedWindowRateLimiter.hit is an incr compared with the amount; here the incr
            # is a lease of several requests on a busy key (ratelimit.Leases), and its count gives
            # the headers too.
            count, reset = self.leases.take(
                self.storage, item.key_for(self.prefix, key), item.amount, item.get_expiry()
            )
            remaining = item.amount - count
            if shown is None or remaining < shown[1]:
                shown = (item, remaining, reset)
            if remaining < 0:
                flask.g.rate_limit_shown = shown
                raise TooManyRequests(description=str(item), retry_after=max(1, math.ceil(shown[2] - time.time())))
        flask.g.rate_limit_shown = shown

    @staticmethod
    def add_headers(response: flask.Response) -> flask.Response:
        """``X-RateLimit-Limit``/``-Remaining``/``-Reset`` (epoch seconds) of the
        limit closest to refusing, on every counted answer."""
        shown = flask.g.get("rate_limit_shown")
        if shown is not None:
            item, remaining, reset = shown
            response.headers["X-RateLimit-Limit"] = str(item.amount)
            response.headers["X-RateLimit-Remaining"] = str(max(0, remaining))
            response.headers["X-RateLimit-Reset"] = str(int(reset))
        return response


def init_app(app: flask.Flask) -> None:
    """Set up CORS, the rate limiter and the no-store rule from ``app.config``."""
    origins = parse_origins(app.config.get("CORS_ORIGINS"))
    if origins:
        CORS(
            app,
            resources={r"/v1/*": {"origins": "*" if origins == ["*"] else origins}},
            allow_headers=CORS_ALLOW_HEADERS,
            expose_headers=CORS_EXPOSE_HEADERS,
            max_age=600,
        )

    limit = (app.config.get("RATE_LIMIT") or "").strip()
    if not limit or limit.lower() in ("off", "none", "0"):
        return
    limiter = RateLimiter(
        limit,
        app.config.get("RATE_LIMIT_STORAGE") or ratelimit.default_uri(app.config["DATABASE_URL"]),
        # Several deployments may share one Redis: HANDFOOT_RATE_LIMIT_KEY_PREFIX keeps them apart.
        key_prefix=app.config.get("RATE_LIMIT_KEY_PREFIX") or "",
        seat_limit=(app.config.get("SEAT_RATE_LIMIT") or "").strip() or DEFAULT_SEAT_LIMIT,
    )
    app.extensions[EXTENSION_KEY] = limiter  # counted by lifecycle.begin and lifecycle.finish


def no_store(response: flask.Response) -> flask.Response:
    """``after_request`` of the tables blueprint: ``no-store`` on every answer."""
    response.headers["Cache-Control"] = "no-store"
    return response


def no_store_for_keys(response: flask.Response) -> flask.Response:
    """``after_request`` of the games blueprint: ``no-store`` when the request sent a key."""
    if flask.request.headers.get("Authorization"):
        no_store(response).vary.add("Authorization")
    return response


def limiter_of(app: flask.Flask) -> RateLimiter | None:
    """The app's :class:`RateLimiter`, or ``None`` when no limit is set."""
    limiter: RateLimiter | None = app.extensions.get(EXTENSION_KEY)
    return limiter
