"""Cross-cutting protections: rate limiting (Flask-Limiter), CORS (flask-cors), no-store caching.

- **Rate limiting** (``HANDFOOT_RATE_LIMIT``, e.g. ``"600/minute"`` or ``"20/second;600/minute"``;
  unset or ``off``: no limit): every ``/v1`` request counts against its API key when it carries a
  valid one, else against the client address (``request.remote_addr``; put ``ProxyFix`` in front
  behind a proxy). A token that is not an active key counts against the address, so sending made-up
  keys never buys a fresh allowance. Past the limit: 429 ``too-many-requests`` problem+json with
  ``Retry-After`` (seconds). The limit is what a key gets from the whole server: by default the
  counters are in a SQLite file every worker of the host shares (``api/ratelimit.py``, one per
  database URL); ``HANDFOOT_RATE_LIMIT_STORAGE`` chooses another ``limits`` storage, e.g.
  ``redis://host:6379`` to share them across hosts (``memory://`` counts per process, so ``N``
  workers grant ``N`` times the limit). ``/health``, the docs and the keeper page are not limited.
- **CORS** is off by default (no ``Access-Control-Allow-Origin`` on any answer).
  ``HANDFOOT_CORS_ORIGINS`` (comma-separated origins, or ``*``) allows browsers on those origins to
  call ``/v1``, sending ``Authorization``, ``Idempotency-Key`` and ``If-Match`` and reading ``ETag``,
  ``Location``, ``Link``, ``X-Pagination`` and ``Retry-After``.
- **Caching**: the games routes answer ``Cache-Control: no-store`` (and ``Vary: Authorization``) to a
  request made with an API key, so no shared cache keeps one key's games.
"""

from __future__ import annotations

from typing import Any

import flask
from flask_cors import CORS
from flask_limiter import Limiter
from sqlalchemy.exc import SQLAlchemyError

from handfoot.server import ratelimit

EXTENSION_KEY = "handfoot.limiter"

#: Headers a browser client may send and read (CORS).
CORS_ALLOW_HEADERS = ["Authorization", "Content-Type", "Idempotency-Key", "If-Match", "If-None-Match", "Accept"]
CORS_EXPOSE_HEADERS = ["ETag", "Location", "Link", "X-Pagination", "Retry-After", "Idempotent-Replayed",
                       "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]


def parse_origins(raw: str | None) -> list[str]:
    """``HANDFOOT_CORS_ORIGINS`` → a list of origins (empty: CORS off)."""
    return [o.strip().rstrip("/") for o in (raw or "").split(",") if o.strip()]


def rate_limit_key() -> str:
    """The bucket of this request: ``key:<id>`` for an active API key, else ``addr:<address>``."""
    from handfoot.server.auth import bearer_token, cached_find_key

    token = bearer_token()
    if token:
        try:
            key = cached_find_key(token)
        except SQLAlchemyError:  # the database is down: the route will say so; count the address
            key = None
        if key is not None:
            return f"key:{key.id}"
    return f"addr:{flask.request.remote_addr or 'unknown'}"


def _not_limited() -> bool:
    return not flask.request.path.startswith("/v1/")


def init_app(app: flask.Flask) -> None:
    """Set up CORS, the rate limiter and the no-store rule from ``app.config``."""
    origins = parse_origins(app.config.get("CORS_ORIGINS"))
    if origins:
        CORS(app, resources={r"/v1/*": {"origins": "*" if origins == ["*"] else origins}},
             allow_headers=CORS_ALLOW_HEADERS, expose_headers=CORS_EXPOSE_HEADERS, max_age=600)

    # Registered before the limiter's own after_request, so it runs after it (Flask runs them in
    # reverse): Retry-After only where waiting helps.
    app.after_request(_retry_after_only_when_refused)
    limit = (app.config.get("RATE_LIMIT") or "").strip()
    enabled = bool(limit) and limit.lower() not in ("off", "none", "0")
    limiter = Limiter(
        rate_limit_key,
        app=app,
        # One allowance per key across every /v1 route (default_limits would count each route apart).
        application_limits=[limit] if enabled else [],
        application_limits_exempt_when=_not_limited,
        storage_uri=app.config.get("RATE_LIMIT_STORAGE") or ratelimit.default_uri(app.config["DATABASE_URL"]),
        # Several deployments may share one Redis: HANDFOOT_RATE_LIMIT_KEY_PREFIX keeps them apart.
        key_prefix=app.config.get("RATE_LIMIT_KEY_PREFIX") or "",
        headers_enabled=True,
        strategy="fixed-window",
        enabled=enabled,
    )
    app.extensions[EXTENSION_KEY] = limiter
    # Registered after the limiter's own after_request, so it runs before it: remember the
    # Retry-After the app itself set (a 503, a 409 in flight) before the limiter writes its own.
    app.after_request(_remember_own_retry_after)


def _remember_own_retry_after(response: flask.Response) -> flask.Response:
    flask.g.own_retry_after = response.headers.get("Retry-After")
    return response


def _retry_after_only_when_refused(response: flask.Response) -> flask.Response:
    """The limiter writes Retry-After on every answer once a limit is set: keep it on its 429 only,
    put back the app's own value where the app set one, and drop it everywhere else."""
    if response.status_code == 429:
        return response
    own = flask.g.get("own_retry_after")
    if own is not None:
        response.headers["Retry-After"] = own
    else:
        response.headers.pop("Retry-After", None)
    return response


def no_store_for_keys(response: flask.Response) -> flask.Response:
    """``after_request`` of the games blueprint: ``no-store`` when the request sent a key."""
    if flask.request.headers.get("Authorization"):
        response.headers["Cache-Control"] = "no-store"
        response.vary.add("Authorization")
    return response


def limiter_of(app: flask.Flask) -> Any:
    return app.extensions[EXTENSION_KEY]
