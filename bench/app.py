"""The bench-only app: the real ``create_app()`` plus the floor routes, never served in production.

Floors (``/bench/...``), served by the same gunicorn with the same settings as the real routes:

- ``GET|POST /bench/bare``: a constant small JSON; nothing read.
- ``POST /bench/plain?bytes=N``: ``request.get_json()`` on the body, then a JSON answer of exactly
  ``N`` bytes (the size of the real endpoint's answer); no validation.
- ``POST /bench/insert?bytes=N``: one row of ``N`` bytes inserted with SQLAlchemy Core into a
  bench-only table (created on first use) of the app's database, in one transaction.

Serve it with ``gunicorn -c python:handfoot.server.gunicorn_conf 'bench.app:create_bench_app()'``.
"""

from __future__ import annotations

import json
import threading
from functools import lru_cache
from typing import Any

from flask import Flask, Response, request
from sqlalchemy import Column, Integer, MetaData, Table, Text, insert

from handfoot.server import create_app
from handfoot.server.db import get_db

BENCH_METADATA = MetaData()
BENCH_ROWS = Table(
    "bench_rows",
    BENCH_METADATA,
    Column("id", Integer, primary_key=True),
    Column("game", Integer, nullable=False),
    Column("body", Text, nullable=False),
)

_BARE = b'{"ok":true}'
_created = threading.Lock()
_tables_ready = False


@lru_cache(maxsize=64)
def _padded(size: int) -> bytes:
    """A JSON object of exactly ``size`` bytes (at least 12)."""
    pad = max(0, size - len(b'{"pad":""}'))
    return json.dumps({"pad": "x" * pad}, separators=(",", ":")).encode()


def _size_arg() -> int:
    return min(max(int(request.args.get("bytes", "64")), 12), 1_000_000)


def _ensure_table() -> None:
    global _tables_ready
    if _tables_ready:
        return
    with _created:
        if not _tables_ready:
            BENCH_METADATA.create_all(get_db().engine, checkfirst=True)
            _tables_ready = True


def create_bench_app(config: dict[str, Any] | None = None) -> Flask:
    app = create_app(config)

    @app.route("/bench/bare", methods=["GET", "POST"])
    def bench_bare() -> Response:
        return Response(_BARE, mimetype="application/json")

    @app.post("/bench/plain")
    def bench_plain() -> Response:
        request.get_json()
        return Response(_padded(_size_arg()), mimetype="application/json")

    @app.post("/bench/insert")
    def bench_insert() -> Response:
        body = request.get_json()
        size = _size_arg()
        _ensure_table()
        game = int(body.get("game", 0)) if isinstance(body, dict) else 0
        with get_db().engine.begin() as connection:
            connection.execute(insert(BENCH_ROWS).values(game=game, body="x" * size))
        return Response(_BARE, status=201, mimetype="application/json")

    return app
