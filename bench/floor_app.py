"""The floors: a bare Flask app of their own, never the handfoot app, never served in production.

``Flask(__name__)`` with Flask's default JSON provider and nothing of handfoot's app: no rate
limiter, no body-size hook, no database teardown, no blueprints, no error handlers. Served by its
own gunicorn process under the production settings (``bench/server.py``):

    gunicorn -c python:handfoot.server.gunicorn_conf 'bench.floor_app:create_floor_app()'

- ``GET|POST /bench/bare``: a constant small JSON; nothing read.
- ``POST /bench/plain?bytes=N``: ``request.get_json()`` on the body, then a JSON answer of exactly
  ``N`` bytes (the size of the real endpoint's answer); no validation. "Plain JSON" is what
  ``bench/app.py`` meant by it before the floors moved here: the body parsed by Flask's
  ``get_json()``, which both apps decode with the standard library's ``json`` (the real app's
  provider, ``handfoot.server.jsonio``, changes only encoding, and this answer is bytes made once).
- ``POST /bench/insert?bytes=N``: one row of ``N`` bytes inserted with SQLAlchemy Core into a
  bench-only table (made before the load: :func:`bench.storage.create_bench_table`) of the
  database at ``DATABASE_URL``, in one transaction. The engine comes from
  ``handfoot.server.db.make_engine``, the function the real app builds its engine with (the same
  SQLite pragmas and busy timeout, the same psycopg driver): a floor on another connection setup
  would measure the setup, not the app. It is made on the first insert in each worker, after the
  fork.
"""

from __future__ import annotations

import json
import os
import threading
from functools import lru_cache
from typing import Any

from flask import Flask, Response, request
from sqlalchemy import Column, Engine, Integer, MetaData, Table, Text, insert

BENCH_METADATA = MetaData()
BENCH_ROWS = Table(
    "bench_rows",
    BENCH_METADATA,
    Column("id", Integer, primary_key=True),
    Column("game", Integer, nullable=False),
    Column("body", Text, nullable=False),
)

_BARE = b'{"ok":true}'


@lru_cache(maxsize=64)
def padded(size: int) -> bytes:
    """A JSON object of exactly ``size`` bytes (at least 10: ``{"pad":""}``)."""
    pad = max(0, size - len(b'{"pad":""}'))
    return json.dumps({"pad": "x" * pad}, separators=(",", ":")).encode()


def _size_arg() -> int:
    return min(max(int(request.args.get("bytes", "64")), 10), 1_000_000)


class _LazyEngine:
    """The worker's engine for ``url``, made on first use (gunicorn preloads the app in the master,
    and a pool must not cross a fork)."""

    def __init__(self, url: str | None) -> None:
        self.url = url
        self._engine: Engine | None = None
        self._lock = threading.Lock()

    def get(self) -> Engine:
        if self._engine is None:
            with self._lock:
                if self._engine is None:
                    if not self.url:
                        raise RuntimeError("the insert floor needs DATABASE_URL")
                    from handfoot.server.db import make_engine

                    self._engine = make_engine(self.url)
        return self._engine


def create_floor_app(config: dict[str, Any] | None = None) -> Flask:
    """The bare floor app; ``config["DATABASE_URL"]`` (else the environment's) is where inserts go."""
    app = Flask(__name__)
    if config:
        app.config.update(config)
    database = _LazyEngine(app.config.get("DATABASE_URL") or os.environ.get("DATABASE_URL"))

    @app.route("/bench/bare", methods=["GET", "POST"])
    def bench_bare() -> Response:
        return Response(_BARE, mimetype="application/json")

    @app.post("/bench/plain")
    def bench_plain() -> Response:
        request.get_json()
        return Response(padded(_size_arg()), mimetype="application/json")

    @app.post("/bench/insert")
    def bench_insert() -> Response:
        body = request.get_json()
        size = _size_arg()
        game = int(body.get("game", 0)) if isinstance(body, dict) else 0
        with database.get().begin() as connection:
            connection.execute(insert(BENCH_ROWS).values(game=game, body="x" * size))
        return Response(_BARE, status=201, mimetype="application/json")

    return app
