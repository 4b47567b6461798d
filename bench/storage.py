"""Round appends (``POST /v1/games/{id}/rounds``, docs/games-api.md) on SQLite and PostgreSQL.

Each database is a fresh one made for the run (a temporary SQLite file in WAL mode; a new
PostgreSQL database ``handfoot_bench_<pid>``, dropped afterwards), migrated to head. Before each
measured window 50 new games are created (``rounds`` null, ``target_score`` 1,000,000, so no game
ends during the window), and the load rotates over their ``/rounds`` paths.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from bench.rounds import PRESET, game_teams
from bench.server import Server, request

GAMES = 50
PG_ADMIN_URL = os.environ.get("BENCH_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


def games_served(server: Server) -> bool:
    """Whether this build serves the games API (``POST /v1/games`` is routed)."""
    status, _ = request(server.host, server.port, "GET", "/v1/games")
    return status not in (404, 405)


def create_games(server: Server, n: int = GAMES) -> list[int]:
    ids = []
    for k in range(n):
        body = {"name": f"bench {k}", "preset": PRESET, "rules": {"rounds": None, "target_score": 1_000_000},
                "teams": game_teams()}
        status, out = request(server.host, server.port, "POST", "/v1/games", json.dumps(body).encode())
        if status != 201:
            raise RuntimeError(f"POST /v1/games answered {status}: {out[:500]!r}")
        ids.append(int(json.loads(out)["id"]))
    return ids


@contextmanager
def postgres_database() -> Iterator[str]:
    """A fresh PostgreSQL database on 127.0.0.1 for the run; dropped afterwards. Yields its URL."""
    import psycopg

    name = f"handfoot_bench_{os.getpid()}"
    with psycopg.connect(PG_ADMIN_URL, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(PG_ADMIN_URL, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def migrate(url: str) -> None:
    from api.migrate import upgrade

    upgrade(url)


def create_bench_table(url: str) -> None:
    """The insert floor's table, made before the load (two workers racing to create it would fail)."""
    from api.db import make_engine
    from bench.app import BENCH_METADATA

    engine = make_engine(url)
    try:
        BENCH_METADATA.create_all(engine)
    finally:
        engine.dispose()


def row_bytes(append_body: dict[str, Any], score_answer: bytes) -> int:
    """What a stored round holds: the request as sent and the engine's result."""
    return len(json.dumps(append_body)) + len(score_answer)
