"""The export's memory and time against the number of games: ``python -m bench.export_memory``.

Stores N copies of one four-round game (rows inserted directly, as the API stores them: the game,
its rounds, their sides' facts, its players), then reads
``GET /v1/games/export`` (NDJSON and CSV) and ``GET /v1/games/stats`` through the WSGI app, chunk by
chunk, as a client would, under ``tracemalloc``: the peak of Python allocations while answering,
and the wall time. A peak that stops growing once N passes two batches (the one being
written out and the next being read) is what batching (``api/services/history.py``) promises.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import tracemalloc
from pathlib import Path

from sqlalchemy import insert, select

from handfoot.server import create_app, migrate
from handfoot.server.db import get_db
from handfoot.server.models import Game, GamePlayer, Round, RoundSide
from handfoot.server.services import history

ROUND = [
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


def store(app, games: int) -> None:  # type: ignore[no-untyped-def]
    client = app.test_client()
    teams = [{"name": "Team 1", "players": ["North", "South"]}, {"name": "Team 2", "players": ["East", "West"]}]
    first = client.post("/v1/games", json={"name": "Friday", "preset": "pagat", "teams": teams}).get_json()["id"]
    for _ in range(4):
        assert client.post(f"/v1/games/{first}/rounds", json={"teams": ROUND}).status_code == 201
    db = get_db(app)
    with db.write_session() as session:
        game = session.scalars(select(Game).where(Game.id == first)).one()
        columns = {c.key: getattr(game, c.key) for c in Game.__table__.columns if c.key != "id"}
        rounds = [
            {c.key: getattr(r, c.key) for c in Round.__table__.columns if c.key not in ("id", "game_id")}
            for r in game.rounds
        ]
        sides = [
            {c.key: getattr(r, c.key) for c in RoundSide.__table__.columns if c.key != "game_id"}
            for r in session.scalars(select(RoundSide).where(RoundSide.game_id == first))
        ]
        for _ in range(games - 1):
            new_id = session.execute(insert(Game).values(**columns).returning(Game.id)).scalar_one()
            session.execute(insert(Round), [{**r, "game_id": new_id} for r in rounds])
            session.execute(insert(RoundSide), [{**r, "game_id": new_id} for r in sides])
            session.execute(
                insert(GamePlayer),
                [
                    {"game_id": new_id, "side": s, "name": p, "name_key": p.lower()}
                    for s, t in enumerate(teams)
                    for p in t["players"]
                ],
            )


def measure(app, path: str, traced: bool = True) -> tuple[float, float, int]:  # type: ignore[no-untyped-def]
    """(peak MiB, seconds, bytes) of one answer read chunk by chunk; ``traced=False``: the time
    without ``tracemalloc``'s cost (which slows the reading several times), peak 0."""
    client = app.test_client()
    if not traced:
        started = time.perf_counter()
        response = client.get(path, buffered=False)
        size = sum(len(chunk) for chunk in response.response)
        response.close()
        return 0.0, time.perf_counter() - started, size
    tracemalloc.start()
    started = time.perf_counter()
    response = client.get(path, buffered=False)
    size = sum(len(chunk) for chunk in response.response)
    response.close()
    elapsed = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20, elapsed, size


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, nargs="+", default=[250, 1000, 4000])
    parser.add_argument("--batch", type=int, default=history.BATCH_SIZE, help="games read per query")
    parser.add_argument(
        "--answers",
        nargs="+",
        choices=["ndjson", "csv", "stats"],
        default=["ndjson", "csv", "stats"],
        help="which to read",
    )
    parser.add_argument("--untraced", action="store_true", help="time without tracemalloc (no peak)")
    args = parser.parse_args()
    history.BATCH_SIZE = args.batch
    print(f"batches of {args.batch} games")
    print("games  answer          peak MiB  seconds  bytes")
    for n in args.games:
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite:///{Path(folder) / 'export.sqlite3'}"
            migrate.upgrade(url)
            app = create_app({"DATABASE_URL": url, "HANDFOOT_RATE_LIMIT": "0"})
            store(app, n)
            answers = {
                "ndjson": ("export ndjson", "/v1/games/export"),
                "csv": ("export csv", "/v1/games/export?format=csv"),
                "stats": ("stats", "/v1/games/stats"),
            }
            for label, path in (answers[a] for a in args.answers):
                peak, seconds, size = measure(app, path, traced=not args.untraced)
                print(f"{n:5d}  {label:14s}  {peak:8.1f}  {seconds:7.2f}  {size}")
            get_db(app).dispose()


if __name__ == "__main__":
    main()
