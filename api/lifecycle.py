"""A request's life around its view: one hook before it (:func:`begin`) and one after it, or after
the problem answered instead (:func:`finish`), each reading the request once (a hook per concern
paid Flask's dispatch again: docs/performance.md).

``begin``: the request's start time and id in its WSGI environ (the id is the client's
``X-Request-ID`` when it matches ``logs.REQUEST_ID_PATTERN``, else 32 random hex digits), a body
over its operation's limit refused (413: a ``Content-Length`` over ``parsing.body_limit`` before
anything is read, a chunked body by :func:`_read_chunked_body`), the rate limit counted (429,
``security.RateLimiter.check``). ``finish``: the database session ended (``Database.end_session``:
a 503 when the database died since), the rate limit's headers, the metrics (``metrics.count``),
``X-Request-ID`` on every answer, errors included, and the request's line on
``logs.requests_log`` at INFO (method, path, status, milliseconds).
"""

from __future__ import annotations

import io
import logging
import os
import time
from typing import Any

import flask
from gunicorn.http.errors import ParseException  # type: ignore[import-untyped]
from werkzeug.exceptions import BadRequest

from handfoot.server import db, logs, metrics, problems, security
from handfoot.server.parsing import body_limit

__all__ = ["BODY_FRAMING_ERRORS", "init_app"]


def init_app(app: flask.Flask) -> None:
    """Register :func:`begin` and :func:`finish` with what ``app.config`` turns on (after
    ``security.init_app`` and ``metrics.init_app``)."""
    limiter = security.limiter_of(app)
    counting = metrics.enabled(app)
    database = db.get_db(app)

    def begin() -> None:
        request = flask.request._get_current_object()  # type: ignore[attr-defined]
        environ = request.environ
        environ[logs.STARTED_KEY] = time.perf_counter()
        sent = environ.get("HTTP_X_REQUEST_ID")  # the header, as request.headers would read it
        ok = sent and logs.REQUEST_ID_PATTERN.fullmatch(sent)
        environ[logs.REQUEST_ID_KEY] = sent if ok else os.urandom(16).hex()
        length = request.content_length
        if length is not None or environ.get("wsgi.input_terminated"):
            limit = body_limit()
            if limit is not None:
                if length is None:
                    _read_chunked_body(request, limit)
                elif length > limit:
                    flask.abort(413)
        if limiter is not None:
            limiter.check()

    def finish(response: flask.Response) -> flask.Response:
        request = flask.request._get_current_object()  # type: ignore[attr-defined]
        try:  # before the answer goes: a database that died since is a 503, not a teardown's 500
            database.end_session()
        except db.DATABASE_DOWN as err:
            if response.status_code == 503:
                db.log_failure(err)  # once: a 503 of the same failure has logged it already
            else:
                response = problems.database_down(err)
        if limiter is not None:
            limiter.add_headers(response)
        if counting:
            metrics.count(request, response)
        environ = request.environ
        response.headers["X-Request-ID"] = environ[logs.REQUEST_ID_KEY]
        if logs.requests_log.isEnabledFor(logging.INFO):
            elapsed = round((time.perf_counter() - environ[logs.STARTED_KEY]) * 1000, 1)
            method, path, status = request.method, request.path, response.status_code
            logs.requests_log.info(
                "%s %s -> %d in %.1f ms",
                method,
                path,
                status,
                elapsed,
                extra={"method": method, "path": path, "status": status, "ms": elapsed},
            )
        return response

    app.before_request(begin)
    app.after_request(finish)


def _read_chunked_body(request: flask.Request, limit: int) -> None:
    """A chunked body (no ``Content-Length``) on a server that terminates the input (gunicorn,
    werkzeug), read up to one byte past ``limit`` (werkzeug would cut it silently): over it, a 413;
    else kept as the request's input with its length. Broken chunked framing is a 400."""
    environ = request.environ
    try:
        data = _read_at_most(environ["wsgi.input"], limit + 1)
    except BODY_FRAMING_ERRORS:  # a chunk size that is not hex, a body cut off before its last chunk
        problems.abort_problem(
            400,
            "Malformed body",
            "The request body's chunked framing is malformed or cut off before its last chunk.",
            type_slug="bad-request",
        )
    if len(data) > limit:
        flask.abort(413)
    environ["wsgi.input"] = io.BytesIO(data)
    environ["CONTENT_LENGTH"] = str(len(data))
    request.__dict__.pop("stream", None)  # werkzeug's cached stream, should anything have opened it


#: What a server's body reader raises on broken framing: gunicorn's parse errors and NoMoreData (an
#: IOError), werkzeug's ClientDisconnected (a ValueError's kin), a socket's reset.
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
