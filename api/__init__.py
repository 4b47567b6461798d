"""The handfoot HTTP API: ``create_app()`` builds the Flask app (no database access here)."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, abort, request
from flask.sessions import SessionInterface
from gunicorn.http.errors import ParseException  # type: ignore[import-untyped]
from werkzeug.exceptions import BadRequest

from handfoot.server import db, logs, metrics, secret, security
from handfoot.server.config import DEFAULT_SQLITE_PATH, load_config
from handfoot.server.docs import make_docs_blueprint
from handfoot.server.jsonio import JSONProvider
from handfoot.server.keeper import bp as keeper_blueprint
from handfoot.server.parsing import body_limit
from handfoot.server.problems import abort_problem
from handfoot.server.resources import register_blueprints
from handfoot.server.rest_api import Api

__all__ = ["create_app"]


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: config from the environment, overridden by ``config``.

    Touches no database: the engine is created on first use (``handfoot.server.db.get_db().engine``), so
    ``flask openapi write`` works with no database, and each gunicorn worker gets its own pool.
    """
    # The instance folder is named, not found: Flask's search for it does not follow a namespace
    # package (handfoot) laid out by an editable install. Nothing is written there.
    app = Flask(__name__, instance_path=str(DEFAULT_SQLITE_PATH.parent))
    app.json = JSONProvider(app)  # orjson, members in insertion order (api/jsonio.py)
    app.session_interface = NoCookieSessions()
    app.config.update(load_config())
    if config:
        app.config.update(config)

    secret.init_app(app)  # a random key when HANDFOOT_SECRET_KEY is unset (api/secret.py)
    db.init_app(app)
    app.before_request(logs.start_request)
    app.before_request(_reject_large_bodies)
    app.after_request(logs.send_request_id)
    app.after_request(logs.log_request)
    security.init_app(app)  # CORS (off by default), rate limiting on /v1 (HANDFOOT_RATE_LIMIT)
    metrics.init_app(app)  # Prometheus metrics at /metrics (HANDFOOT_METRICS, HANDFOOT_METRICS_TOKEN)
    app.register_blueprint(make_docs_blueprint())
    app.register_blueprint(keeper_blueprint)  # the score keeper page at / (api/keeper.py)

    api = Api(app)
    register_blueprints(api)
    app.extensions["handfoot.api"] = api
    return app


class NoCookieSessions(SessionInterface):
    """No cookie sessions: nothing in the API keeps state in a cookie (its clients send API keys and
    Seat-Tokens), so no request opens, signs or saves one. ``flask.session`` is Flask's read-only
    ``NullSession``: writing to it raises ``RuntimeError``, where the default interface would have
    signed a cookie with the server's secret (``api/secret.py``, which signs cursors, not sessions)."""

    def open_session(self, app: Flask, request: Any) -> None:
        return None

    def save_session(self, app: Flask, session: Any, response: Response) -> None:
        return None  # Flask saves no null session; nothing to save in any case


def _reject_large_bodies() -> None:
    """413 ``body-too-large`` for every body over the limit (the operation's: :func:`body_limit`),
    whatever the route and however framed.

    - A declared ``Content-Length`` over the limit: refused before anything is read.
    - No ``Content-Length`` (chunked) on a server that terminates the input (``wsgi.input_terminated``:
      gunicorn, werkzeug's server): the body is read here, up to one byte past the limit, and
      refused past it. Werkzeug's own guard would cut it at the limit without a word (a 3 MiB body
      whose first MiB is JSON answered 200). A body within the limit becomes the request's input
      with its length declared, so every later read sees it whole.
    """
    limit = body_limit()
    if limit is None:
        return
    length = request.content_length
    if length is not None:
        if length > limit:
            abort(413)
        return
    environ = request.environ
    if not environ.get("wsgi.input_terminated"):
        return  # werkzeug reads no body without a length from such a server (an empty stream)
    try:
        data = _read_at_most(environ["wsgi.input"], limit + 1)
    except BODY_FRAMING_ERRORS:  # a chunk size that is not hex, a body cut off before its last chunk
        abort_problem(
            400,
            "Malformed body",
            "The request body's chunked framing is malformed or cut off before its last chunk.",
            type_slug="bad-request",
        )
    if len(data) > limit:
        abort(413)
    environ["wsgi.input"] = io.BytesIO(data)
    environ["CONTENT_LENGTH"] = str(len(data))
    request.__dict__.pop("stream", None)  # werkzeug's cached stream, should anything have opened it


#: What a server's body reader raises on broken framing: gunicorn's parse errors (InvalidChunkSize,
#: ChunkMissingTerminator...) and NoMoreData (an IOError), werkzeug's ClientDisconnected (a
#: ValueError's kin, and already a 400 of its own), a socket's reset.
BODY_FRAMING_ERRORS: tuple[type[BaseException], ...] = (OSError, ValueError, ParseException, BadRequest)


def _read_at_most(stream: Any, size: int) -> bytes:
    """Up to ``size`` bytes of ``stream``: fewer only at its end (servers return short reads)."""
    parts: list[bytes] = []
    left = size
    while left > 0:
        part = stream.read(min(left, 64 * 1024))
        if not part:
            break
        parts.append(part)
        left -= len(part)
    return b"".join(parts)
