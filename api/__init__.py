"""The handfoot HTTP API: ``create_app()`` builds the Flask app (no database access here)."""

from __future__ import annotations

import io
import os
import re
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, abort, request
from flask.sessions import SessionInterface

from handfoot.server import db, secret, security
from handfoot.server.config import DEFAULT_SQLITE_PATH, load_config
from handfoot.server.docs import make_docs_blueprint
from handfoot.server.jsonio import JSONProvider
from handfoot.server.keeper import bp as keeper_blueprint
from handfoot.server.parsing import body_limit
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
    app.before_request(_reject_large_bodies)
    app.after_request(_send_request_id)
    security.init_app(app)  # CORS (off by default), rate limiting on /v1 (HANDFOOT_RATE_LIMIT)
    app.register_blueprint(make_docs_blueprint())
    app.register_blueprint(keeper_blueprint)  # the score keeper page at / (api/keeper.py)

    api = Api(app)
    register_blueprints(api)
    app.extensions["handfoot.api"] = api
    return app


#: What a client-sent ``X-Request-ID`` may be to be echoed (else the server makes one): short, and
#: safe to write in logs and headers as is.
REQUEST_ID_PATTERN = re.compile(r"[A-Za-z0-9._-]{1,64}")


class NoCookieSessions(SessionInterface):
    """No cookie sessions: nothing in the API keeps state in a cookie (its clients send API keys and
    Seat-Tokens), so no request opens, signs or saves one. ``flask.session`` is Flask's read-only
    ``NullSession``: writing to it raises ``RuntimeError``, where the default interface would have
    signed a cookie with the server's secret (``api/secret.py``, which signs cursors, not sessions)."""

    def open_session(self, app: Flask, request: Any) -> None:
        return None

    def save_session(self, app: Flask, session: Any, response: Response) -> None:
        return None  # Flask saves no null session; nothing to save in any case


def _send_request_id(response: Response) -> Response:
    """``X-Request-ID`` on every answer, errors included: the client's own when it sent one that
    matches :data:`REQUEST_ID_PATTERN`, else 128 fresh random bits as 32 hex digits. Quote it when
    reporting a problem."""
    sent = request.environ.get("HTTP_X_REQUEST_ID")  # the header, as request.headers would read it
    response.headers["X-Request-ID"] = sent if sent and REQUEST_ID_PATTERN.fullmatch(sent) else os.urandom(16).hex()
    return response


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
    data = _read_at_most(environ["wsgi.input"], limit + 1)
    if len(data) > limit:
        abort(413)
    environ["wsgi.input"] = io.BytesIO(data)
    environ["CONTENT_LENGTH"] = str(len(data))
    request.__dict__.pop("stream", None)  # werkzeug's cached stream, should anything have opened it


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
