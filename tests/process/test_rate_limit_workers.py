"""The documented rate limit is the enforced total: shared by a host's gunicorn workers by default
(``api/ratelimit.py``'s SQLite file), and by hosts through Redis (``HANDFOOT_RATE_LIMIT_STORAGE``).

Each case serves the app with two sync workers (one request at a time each) and sends requests
from 8 threads at once (so both workers answer), counting the 200s: exactly the limit, whatever worker answered. With ``memory://``
counters (the old default) the same run grants more than the limit, since each worker counts
alone: the contrast shows the test can fail.
"""

from __future__ import annotations

import os
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from bench.live import LiveServer
from handfoot.server import migrate
from handfoot.server.ratelimit import SQLiteStorage, default_uri
from tests.conftest import ON_CI

LIMIT = 12
REQUESTS = 60
REDIS_URL = os.environ.get("HANDFOOT_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def redis_up() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except Exception:  # noqa: BLE001 - any failure means "no Redis here"
        return False


def granted(tmp_path: Path, storage: str | None, db_url: str | None = None, prefix: str = "") -> int:
    """200s out of :data:`REQUESTS` concurrent ``GET /v1/presets`` under ``LIMIT/minute``; every other
    answer must be a 429."""
    url = db_url or f"sqlite:///{tmp_path / f'{uuid.uuid4().hex}.sqlite3'}"
    migrate.upgrade(url)
    env = {
        "HANDFOOT_RATE_LIMIT": f"{LIMIT}/minute",
        "HANDFOOT_RATE_LIMIT_STORAGE": storage or "",
        "HANDFOOT_RATE_LIMIT_KEY_PREFIX": prefix,
        # sync workers answer one request at a time, so that both answer some of the concurrent
        # requests (a gevent or gthread worker may take every connection alone on a busy machine,
        # and per-worker counters would then look shared)
        "HANDFOOT_WORKER_CLASS": "sync",
        "HANDFOOT_THREADS": "1",
    }
    with LiveServer(url, tmp_path / "gunicorn.log", workers=2, env=env) as server:

        def one(_: int) -> int:
            return requests.get(server.base + "/v1/presets", timeout=30).status_code  # a new connection each

        with ThreadPoolExecutor(8) as pool:
            statuses = list(pool.map(one, range(REQUESTS)))
    assert set(statuses) <= {200, 429}, statuses
    return statuses.count(200)


def test_two_workers_share_the_default_counters(tmp_path: Path) -> None:
    assert granted(tmp_path, None) == LIMIT


def test_memory_counters_grant_the_limit_per_worker(tmp_path: Path) -> None:
    assert granted(tmp_path, "memory://") > LIMIT


@pytest.mark.skipif(not redis_up() and not ON_CI, reason=f"no Redis at {REDIS_URL}")
def test_two_workers_share_redis_counters(tmp_path: Path) -> None:
    # Under CI=true this never skips: no Redis is a failure. A prefix of its own: counters of an
    # earlier run (or another checkout's) in the same window are not this run's.
    assert granted(tmp_path, REDIS_URL, prefix=f"test-{uuid.uuid4().hex}") == LIMIT


def test_sqlite_storage_counts_windows(tmp_path: Path) -> None:
    storage = SQLiteStorage(f"handfoot+sqlite://{tmp_path / 'limits.sqlite3'}")
    assert [storage.incr("k", 60) for _ in range(3)] == [1, 2, 3]
    assert storage.get("k") == 3 and storage.get("other") == 0
    assert storage.get_expiry("k") > 0
    assert storage.incr("short", -1) == 1 and storage.incr("short", 60) == 1  # an expired window restarts
    storage.clear("k")
    assert storage.get("k") == 0 and storage.check()
    with pytest.raises(ValueError, match="absolute path"):
        SQLiteStorage("handfoot+sqlite://relative/path")


def test_default_file_is_per_database() -> None:
    assert default_uri("sqlite:///a") == default_uri("sqlite:///a") != default_uri("sqlite:///b")
