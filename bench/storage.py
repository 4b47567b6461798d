"""Round appends (``POST /v1/games/{id}/rounds``, docs/games-api.md) on SQLite and PostgreSQL.

Each database is a fresh one made for the run (a temporary SQLite file in WAL mode; a new
PostgreSQL database ``handfoot_bench_<pid>``, dropped afterwards), migrated to head. Before each
measured window new games are created (``rounds`` null, ``target_score`` 1,000,000, so no game
ends by its score) and the load walks their ``/rounds`` paths 50 games at a time: round-robin over
50 games until each holds ``ROUNDS_PER_GAME`` rounds, then over the next 50 (:func:`append_paths`).
A game holds at most 50 rounds (``MAX_ROUNDS_PER_GAME``); a path list that let games fill would
time cheap 4xx answers as appends, so enough games are made for ``APPEND_RATE_CEILING`` appends a
second over the whole window, and the run reports any 4xx (there must be none).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from bench.rounds import PRESET, game_teams
from bench.server import Server, request

#: Games written to at a time (issue 7: appends "across 50 games").
GAMES = 50
#: Rounds each game receives before the load moves to the next 50 (under the API's limit of 50).
ROUNDS_PER_GAME = 40
#: More appends a second than this machine serves: the path list never wraps within a window.
APPEND_RATE_CEILING = 4000
PG_ADMIN_URL = os.environ.get("BENCH_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


def games_needed(seconds: float) -> int:
    """Games to create for a window of ``seconds``: whole batches of ``GAMES``, enough for
    ``APPEND_RATE_CEILING`` appends a second at ``ROUNDS_PER_GAME`` rounds a game."""
    appends = APPEND_RATE_CEILING * seconds
    batches = max(1, math.ceil(appends / (GAMES * ROUNDS_PER_GAME)))
    return batches * GAMES


def append_paths(ids: list[int]) -> list[str]:
    """The order of the appends: round-robin over the first ``GAMES`` games, ``ROUNDS_PER_GAME``
    times, then over the next ``GAMES``, and so on. No game gets more than ``ROUNDS_PER_GAME``."""
    paths: list[str] = []
    for start in range(0, len(ids), GAMES):
        batch = [f"/v1/games/{i}/rounds" for i in ids[start : start + GAMES]]
        paths.extend(batch * ROUNDS_PER_GAME)
    return paths


def create_games(server: Server, n: int = GAMES) -> list[int]:
    ids = []
    for k in range(n):
        body = {
            "name": f"bench {k}",
            "preset": PRESET,
            "rules": {"rounds": None, "target_score": 1_000_000},
            "teams": game_teams(),
        }
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
    from handfoot.server.migrate import upgrade

    upgrade(url)


def create_bench_table(url: str) -> None:
    """The insert floor's table (bench/floor_app.py), made before the load (two workers racing to
    create it would fail)."""
    from bench.floor_app import BENCH_METADATA
    from handfoot.server.db import make_engine

    engine = make_engine(url)
    try:
        BENCH_METADATA.create_all(engine)
    finally:
        engine.dispose()


def row_bytes(append_body: dict[str, Any], score_answer: bytes) -> int:
    """What a stored round holds: the request as sent and the engine's result."""
    return len(json.dumps(append_body)) + len(score_answer)
