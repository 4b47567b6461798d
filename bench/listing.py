"""``make bench-listing``: what the games list and a game's reads cost, by size, on SQLite and PostgreSQL.

Issue 18 ("the next scale"): the first and the last keyset page of 50,000 games must each cost
within 2x of the list of 100 games, and a game's reads must cost what they show (a 50-round game
against a 1-round game). Everything is measured in one process, in one run, against the real app
(``create_app``) through Flask's test client: no HTTP server, so the figures are the app's and the
database's own time per request.

Per database two fresh databases are made and migrated to head (SQLite: temporary files in WAL
mode; PostgreSQL: two schemas of their own in ``--pg-url``, dropped afterwards): one with 100 games,
one with ``--games`` (50,000). A template game is created through the API; the rest are copies of
its row inserted in bulk (one ``created_at`` a millisecond apart), as the list reads only the game
rows. The cases are then requested in turn, ``--requests`` times each (interleaved, so a load
change on the machine hits every case alike); each figure is the median, with the 10th and 90th
percentiles.

    python -m bench.listing                              # both databases, 50,000 games
    python -m bench.listing --databases sqlite --games 20000 --requests 100
    python -m bench.listing --only reads                 # the game reads alone (runs on older code too)
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import insert, make_url, select, text

from handfoot.server import create_app, migrate
from handfoot.server.db import get_db, make_engine
from handfoot.server.models import Game

PAGE_SIZE = 20
TEAMS = [{"name": "Team 1", "players": ["North", "South"]}, {"name": "Team 2", "players": ["East", "West"]}]
ROUND = {
    "teams": [
        {
            "name": "Team 1",
            "went_out": True,
            "tally": {
                "clean_books": 2,
                "dirty_books": 2,
                "wild_books": 1,
                "red_threes_on_table": 1,
                "red_threes_caught": 0,
                "table_points": 465,
                "points_left": 25,
            },
        },
        {
            "name": "Team 2",
            "went_out": False,
            "tally": {
                "clean_books": 1,
                "dirty_books": 2,
                "wild_books": 0,
                "red_threes_on_table": 0,
                "red_threes_caught": 1,
                "table_points": 260,
                "points_left": 185,
            },
        },
    ]
}
DEFAULT_PG_URL = (
    os.environ.get("BENCH_PG_URL")
    or os.environ.get("TEST_DATABASE_URL")
    or "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)


# --------------------------------------------------------------------------------------------
# Databases


@contextmanager
def database(backend: str, pg_url: str, workdir: Path) -> Iterator[str]:
    """A fresh database migrated to head: its URL (dropped at the end on PostgreSQL)."""
    if backend == "sqlite":
        url = f"sqlite:///{workdir / f'{uuid.uuid4().hex[:8]}.sqlite3'}"
        migrate.upgrade(url)
        yield url
        return
    schema = f"bench_listing_{uuid.uuid4().hex[:10]}"
    admin = make_engine(pg_url)
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = (
        make_url(pg_url).update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
    )
    try:
        migrate.upgrade(url)
        yield url
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def make_app(url: str) -> Flask:
    return create_app({"DATABASE_URL": url, "RATE_LIMIT": "off"})


def new_game(app: Flask, rounds: int = 0) -> int:
    client = app.test_client()
    response = client.post(
        "/v1/games", json={"name": "bench", "preset": "pagat", "rules": {"rounds": 50}, "teams": TEAMS}
    )
    assert response.status_code == 201, response.get_json()
    game_id = int(response.get_json()["id"])
    for _ in range(rounds):
        answer = client.post(f"/v1/games/{game_id}/rounds", json=ROUND)
        assert answer.status_code == 201, answer.get_json()
    return game_id


def fill(app: Flask, games: int) -> None:
    """``games`` games in all: one through the API, the rest copies of its row, newest last."""
    template_id = new_game(app)
    with app.app_context(), get_db().write_session() as session:
        row = session.execute(select(Game.__table__).where(Game.id == template_id)).mappings().one()
        base = dict(row)
        base.pop("id")
        start: datetime = base["created_at"] if base["created_at"].tzinfo else base["created_at"].replace(tzinfo=UTC)
        batch = []
        for k in range(1, games):
            moment = start + timedelta(milliseconds=k)
            batch.append({**base, "name": f"bench {k}", "created_at": moment, "updated_at": moment})
            if len(batch) == 5000:
                session.execute(insert(Game.__table__), batch)
                batch = []
        if batch:
            session.execute(insert(Game.__table__), batch)
    with app.app_context(), get_db().write_session() as session:
        if get_db().is_sqlite:
            session.execute(text("ANALYZE"))
        else:
            session.execute(text("ANALYZE games"))


# --------------------------------------------------------------------------------------------
# Measuring


def measure(cases: dict[str, Callable[[], Any]], requests: int) -> dict[str, dict[str, float]]:
    """Each case ``requests`` times, interleaved, after two warm-up rounds: milliseconds per request."""
    times: dict[str, list[float]] = {name: [] for name in cases}
    for rep in range(requests + 2):
        for name, call in cases.items():
            started = time.perf_counter()
            response = call()
            elapsed = (time.perf_counter() - started) * 1000
            assert response.status_code == 200, (name, response.status_code, response.get_data()[:300])
            if rep >= 2:
                times[name].append(elapsed)
    out = {}
    for name, values in times.items():
        deciles = statistics.quantiles(values, n=10)
        out[name] = {"median": statistics.median(values), "p10": deciles[0], "p90": deciles[-1]}
    return out


def last_page_cursor(app: Flask) -> str:
    """The cursor of the last keyset page: after the game ``PAGE_SIZE + 1`` from the oldest."""
    from handfoot.server.pagination import encode_cursor  # keyset code: not in older checkouts
    from handfoot.server.secret import secret_key  # signed cursors: not in older checkouts

    with app.app_context(), get_db().session() as session:
        created_at, game_id = session.execute(
            select(Game.created_at, Game.id).order_by(Game.created_at.asc(), Game.id.asc()).offset(PAGE_SIZE).limit(1)
        ).one()
    return encode_cursor(created_at, game_id, secret_key(app))


def listing(backend: str, pg_url: str, workdir: Path, games: int, requests: int) -> list[tuple[str, str]]:
    with database(backend, pg_url, workdir) as small_url, database(backend, pg_url, workdir) as large_url:
        small, large = make_app(small_url), make_app(large_url)
        started = time.perf_counter()
        fill(small, 100)
        fill(large, games)
        print(f"[{backend}] filled 100 and {games:,} games in {time.perf_counter() - started:.1f} s", flush=True)
        cursor = last_page_cursor(large)
        small_client, large_client = small.test_client(), large.test_client()
        last = large_client.get(f"/v1/games?page_size={PAGE_SIZE}&cursor={cursor}")
        assert len(last.get_json()) == PAGE_SIZE and 'rel="next"' not in last.headers.get("Link", "")
        last_number = -(-games // PAGE_SIZE)
        cases = {
            "100 games, first page": lambda: small_client.get(f"/v1/games?page_size={PAGE_SIZE}"),
            f"{games:,} games, first page": lambda: large_client.get(f"/v1/games?page_size={PAGE_SIZE}"),
            f"{games:,} games, last page (cursor)": lambda: large_client.get(
                f"/v1/games?page_size={PAGE_SIZE}&cursor={cursor}"
            ),
            f"{games:,} games, last page (deprecated page={last_number})": lambda: large_client.get(
                f"/v1/games?page_size={PAGE_SIZE}&page={last_number}"
            ),
        }
        figures = measure(cases, requests)
    floor = figures["100 games, first page"]["median"]
    return [
        (
            f"{backend}: {name}",
            f"{f['median']:.2f} ms (p10 {f['p10']:.2f}, p90 {f['p90']:.2f}); "
            f"{f['median'] / floor:.2f}x the 100-game list",
        )
        for name, f in figures.items()
    ]


def reads(backend: str, pg_url: str, workdir: Path, requests: int) -> list[tuple[str, str]]:
    with database(backend, pg_url, workdir) as url:
        app = make_app(url)
        one, fifty = new_game(app, 1), new_game(app, 50)
        client = app.test_client()
        cases = {
            f"{label}, {what}": (lambda path=f"/v1/games/{game_id}{suffix}": client.get(path))
            for label, game_id in (("1-round game", one), ("50-round game", fifty))
            for what, suffix in (("GET /v1/games/{id}", ""), ("score sheet", "/scoresheet"))
        }
        sizes = {name: len(call().get_data()) for name, call in cases.items()}
        figures = measure(cases, requests)
    rows = []
    for name, f in figures.items():
        base = figures[name.replace("50-round", "1-round")]["median"]
        rows.append(
            (
                f"{backend}: {name}",
                f"{f['median']:.2f} ms (p10 {f['p10']:.2f}, p90 {f['p90']:.2f}); "
                f"{f['median'] / base:.2f}x the 1-round game; {sizes[name]:,} bytes",
            )
        )
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--only", default="listing,reads", help="listing, reads or both (comma-separated)")
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--requests", type=int, default=200, help="requests per case")
    parser.add_argument("--pg-url", default=DEFAULT_PG_URL, help="a PostgreSQL database to make schemas in")
    args = parser.parse_args(argv)
    sections = args.only.split(",")
    print(f"load before: {os.getloadavg()[0]:.2f}", flush=True)
    rows: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory(prefix="bench-listing-") as tmp:
        for backend in args.databases.split(","):
            if "listing" in sections:
                rows += listing(backend, args.pg_url, Path(tmp), args.games, args.requests)
            if "reads" in sections:
                rows += reads(backend, args.pg_url, Path(tmp), args.requests)
    print(f"load after: {os.getloadavg()[0]:.2f}\n")
    print("| case | median per request |\n|---|---|")
    for name, figure in rows:
        print(f"| {name} | {figure} |")


if __name__ == "__main__":
    main()
