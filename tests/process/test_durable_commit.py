"""An acknowledged append is on stable storage before its 201 is written (README, Reliability).

A gunicorn worker runs under ``strace`` (file syncs and socket calls, each with its fd's path or
TCP endpoints) while one round is appended; the trace is then read in the worker's own order, from
the append's request arriving on the client socket to its ``201`` leaving on it:

- SQLite, ``synchronous=FULL`` (the default): an ``fdatasync``/``fsync`` of the database's WAL file
  lies in that window, so the commit was synced before the answer. The same trace with the
  ``NORMAL`` opt-in shows no WAL sync there: the test tells the two apart.
- PostgreSQL: the WAL is synced by the server process, not the worker. What the worker shows is the
  client-side order: ``COMMIT`` sent, its ``CommandComplete`` received, then the 201 written; with
  ``synchronous_commit=on`` (checked, as is ``fsync=on``) PostgreSQL acknowledges a ``COMMIT`` only
  once its WAL record is flushed to disk (PostgreSQL docs, "synchronous_commit").
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import requests
from sqlalchemy import create_engine, make_url, text

from bench.live import LiveServer
from tests.conftest import TEST_DATABASE_URL

STRACE = shutil.which("strace")
pytestmark = pytest.mark.skipif(STRACE is None, reason="strace not installed (apt-get install -y strace)")

TEAMS = [{"name": "Team 1", "players": ["N", "S"]}, {"name": "Team 2", "players": ["E", "W"]}]
ROUND = {
    "teams": [
        {
            "name": "Team 1",
            "went_out": True,
            "tally": {
                "clean_books": 2,
                "dirty_books": 2,
                "wild_books": 1,
                "red_threes_on_table": 0,
                "red_threes_caught": 0,
                "table_points": 500,
                "points_left": 0,
            },
        },
        {
            "name": "Team 2",
            "went_out": False,
            "tally": {
                "clean_books": 1,
                "dirty_books": 0,
                "wild_books": 0,
                "red_threes_on_table": 0,
                "red_threes_caught": 0,
                "table_points": 200,
                "points_left": 50,
            },
        },
    ]
}

#: One traced call: ``PID name(FD<path or TCP:[a->b]>, ...``.
CALL = re.compile(r"^(\d+)\s+(?:<\.\.\. )?(\w+)(?:\(| resumed>)\s*(?:(\d+)<(TCP:\[[^\]]*\]|[^>]*)>)?")


def traced_append(db_url: str, tmp_path: Path, env: dict[str, str] | None = None) -> list[tuple[str, str, str]]:
    """Append one round to a new game under a traced single-worker gunicorn; returns the append's
    window of the worker's trace as ``(call, fd description, line)``, from its request's arrival to
    its 201's first write."""
    trace = tmp_path / "strace.log"
    prefix = [
        str(STRACE),
        "-f",
        "-qq",
        "-yy",
        "-s",
        "200",
        "-o",
        str(trace),
        "-e",
        "trace=fsync,fdatasync,sendto,recvfrom,sendmsg,recvmsg,write,writev",
    ]
    with LiveServer(db_url, tmp_path / "gunicorn.log", workers=1, env=env, prefix=prefix) as server:
        game = requests.post(
            server.base + "/v1/games", timeout=30, json={"name": "durable", "preset": "pagat", "teams": TEAMS}
        )
        assert game.status_code == 201, game.text
        path = f"/v1/games/{game.json()['id']}/rounds"
        answer = requests.post(server.base + path, json=ROUND, timeout=30)
        assert answer.status_code == 201, answer.text
    calls = []
    for line in trace.read_text(errors="replace").splitlines():
        match = CALL.match(line)
        if match:
            calls.append((match.group(1), match.group(2), match.group(4) or "", line))
    arrived = next(i for i, c in enumerate(calls) if c[1] in ("recvfrom", "recvmsg") and f"POST {path} " in c[3])
    worker = calls[arrived][0]
    mine = [c for c in calls[arrived:] if c[0] == worker]
    client_fd = mine[0][2]
    answered = next(
        i
        for i, c in enumerate(mine)
        if c[2] == client_fd and c[1] in ("sendto", "sendmsg", "write", "writev") and "HTTP/1.1 201" in c[3]
    )
    return [(call, fd, line) for _, call, fd, line in mine[: answered + 1]]


def wal_syncs(window: list[tuple[str, str, str]]) -> list[str]:
    return [line for call, fd, line in window if call in ("fsync", "fdatasync") and fd.endswith("-wal")]


def test_sqlite_full_syncs_the_wal_before_the_201(tmp_path: Path) -> None:
    from handfoot.server import migrate

    url = f"sqlite:///{tmp_path / 'durable.sqlite3'}"
    migrate.upgrade(url)
    window = traced_append(url, tmp_path, {"HANDFOOT_SQLITE_SYNCHRONOUS": ""})  # the default
    assert wal_syncs(window), "no fsync/fdatasync of the WAL between the append's request and its 201"
    assert "HTTP/1.1 201" in window[-1][2]


def test_sqlite_normal_opt_in_answers_before_any_wal_sync(tmp_path: Path) -> None:
    """The contrast that shows the trace can fail: NORMAL answers with the commit not yet synced."""
    from handfoot.server import migrate

    url = f"sqlite:///{tmp_path / 'fast.sqlite3'}"
    migrate.upgrade(url)
    window = traced_append(url, tmp_path, {"HANDFOOT_SQLITE_SYNCHRONOUS": "NORMAL"})
    assert not wal_syncs(window)


@pytest.mark.skipif(TEST_DATABASE_URL is None, reason="TEST_DATABASE_URL not set: PostgreSQL not tested")
@pytest.mark.parametrize("db_backend", ["postgresql"], indirect=True)
def test_postgresql_commit_acknowledged_before_the_201(db_url: str, tmp_path: Path) -> None:
    engine = create_engine(make_url(db_url))
    with engine.connect() as connection:
        assert connection.execute(text("SHOW synchronous_commit")).scalar() == "on"
        assert connection.execute(text("SHOW fsync")).scalar() == "on"
    engine.dispose()
    window = traced_append(db_url, tmp_path)
    port = make_url(db_url).port or 5432
    pg = [(call, line) for call, fd, line in window if fd.startswith("TCP:") and fd.endswith(f":{port}]")]
    sent = [i for i, (call, line) in enumerate(pg) if call in ("sendto", "sendmsg", "write") and "COMMIT" in line]
    assert sent, "no COMMIT sent to PostgreSQL during the append"
    acknowledged = [
        i
        for i, (call, line) in enumerate(pg)
        if call in ("recvfrom", "recvmsg") and "COMMIT\\0" in line and i > sent[-1]
    ]
    assert acknowledged, "the 201 was written before PostgreSQL acknowledged the COMMIT"
