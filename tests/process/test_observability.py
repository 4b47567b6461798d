"""What an operator watches, on the server people start (``handfoot-server serve``, 2 gunicorn
workers): every log line of a request carries its id (text and JSON), so the id an SDK error shows
finds the server's line; ``/metrics`` adds up both workers' counts."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests

from bench.live import free_port, stop_process, wait_healthy
from handfoot.client import Client, NotFoundError
from handfoot.client.params import side, tally


@contextmanager
def serve(folder: Path, **env: str) -> Iterator[tuple[str, Path]]:
    """``handfoot-server serve -w 2`` on a free port and a new SQLite file; its URL and log file."""
    url = f"http://127.0.0.1:{free_port()}"
    log = folder / "server.log"
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("HANDFOOT_", "PROMETHEUS_"))}
    environ.update(DATABASE_URL=f"sqlite:///{folder / 'handfoot.sqlite3'}", PYTHONUNBUFFERED="1", **env)
    command = [sys.executable, "-m", "handfoot.server.cli", "serve", "-w", "2", "-b", url.removeprefix("http://")]
    with open(log, "wb") as out:
        process = subprocess.Popen(command, env=environ, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_healthy(url, lambda: process.poll() is None, 60, lambda: log.read_text(errors="replace"))
        yield url, log
    finally:
        stop_process(process, 10)


def line_with(log: Path, request_id: str, seconds: float = 5) -> str:
    """The log's line naming ``request_id`` (the server writes it as the answer goes out)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = [line for line in log.read_text(errors="replace").splitlines() if request_id in line]
        if found:
            return found[0]
        time.sleep(0.05)
    raise AssertionError(f"no log line with {request_id}:\n{log.read_text(errors='replace')[-2000:]}")


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_an_sdk_errors_request_id_is_in_the_servers_log(tmp_path: Path, log_format: str) -> None:
    with serve(tmp_path, HANDFOOT_LOG_FORMAT=log_format) as (url, log), Client(url) as hf:
        with pytest.raises(NotFoundError) as error:
            hf.game(424242)
        request_id = error.value.request_id
        assert request_id
        line = line_with(log, request_id)
    if log_format == "json":
        record = json.loads(line)
        assert record["request_id"] == request_id
        assert (record["method"], record["path"], record["status"]) == ("GET", "/v1/games/424242", 404)
        assert record["logger"] == "handfoot.server.requests" and record["level"] == "INFO"
        assert all(json.loads(other) for other in log.read_text().splitlines() if other.startswith("{"))
    else:
        assert f"[{request_id}] GET /v1/games/424242 -> 404 in " in line


def metric(url: str, name: str) -> float:
    """One sample's value from ``/metrics`` (each request on a new connection: any worker answers)."""
    text = requests.get(f"{url}/metrics", timeout=10, headers={"Connection": "close"}).text
    [value] = [float(line.split()[-1]) for line in text.splitlines() if line.split(" ")[0] == name]
    return value


#: A text log line's process id (api/logs.py's ``TEXT_FORMAT``: ``time [pid] LEVEL ...``).
PID = re.compile(r"^\S+ \S+ \[(\d+)\] ")


def score_until_both_workers_answer(url: str, log: Path, body: object) -> int:
    """POST ``body`` to the score endpoint in concurrent batches, each on a new connection, until
    the request lines of the log show two worker processes among those that answered; how many
    were sent. Without both, a single worker's own count would pass for the sum."""
    sent, pids = 0, set()
    with ThreadPoolExecutor(max_workers=8) as pool:
        while len(pids) < 2:
            assert sent < 400, f"one worker answered all {sent} requests: {pids}"
            ids = [f"metrics-score-{sent + i}" for i in range(8)]

            def score(request_id: str) -> int:
                headers = {"Connection": "close", "X-Request-ID": request_id}
                return requests.post(f"{url}/v1/rounds/score", json=body, timeout=10, headers=headers).status_code

            assert list(pool.map(score, ids)) == [200] * len(ids)
            sent += len(ids)
            pids |= {match.group(1) for rid in ids if (match := PID.match(line_with(log, rid)))}
    return sent


def test_metrics_add_up_every_workers_counts(tmp_path: Path) -> None:
    """Both workers score some rounds (seen in the log); every scrape, whichever worker answers it,
    counts them all. gthread: a gevent worker may take every connection alone."""
    with serve(tmp_path, HANDFOOT_WORKER_CLASS="gthread") as (url, log), Client(url) as hf:
        worked = json.loads((Path(__file__).parents[2] / "examples" / "worked_round.json").read_text())
        scored = score_until_both_workers_answer(url, log, worked)
        game = hf.create_game(
            name="Metrics",
            preset="pagat",
            teams=[{"name": "Us", "players": ["A", "C"]}, {"name": "Them", "players": ["B", "D"]}],
        )
        key = "metrics-append-1"
        teams = [side("Us", tally(clean_books=1, table_points=200)), side("Them", tally(points_left=40))]
        hf.add_round(game.id, teams=teams, idempotency_key=key)
        hf.add_round(game.id, teams=teams, idempotency_key=key)  # replayed: not a second round
        scrapes = [(metric(url, "handfoot_rounds_scored_total"), metric(url, "handfoot_rounds_stored_total"))]
        scrapes += [(metric(url, "handfoot_rounds_scored_total"), metric(url, "handfoot_rounds_stored_total"))]
        assert scrapes == [(float(scored), 1.0), (float(scored), 1.0)]
        routes = requests.get(f"{url}/metrics", timeout=10).text
        assert f'handfoot_requests_total{{method="POST",route="/v1/rounds/score",status="200"}} {scored}.0' in routes
        assert "handfoot_tables_playing 0.0" in routes and "handfoot_seats_waiting 0.0" in routes
