"""A key whose request died is free at once (issue 18, defect 8).

A request killed mid-flight (its process SIGKILLed after it claimed its Idempotency-Key, before it
answered) once left the key answering 409 "in flight" for 120 s. Here a child process claims a key
and stalls inside the append (the service call is replaced by a wait, so the kill lands at a known
point); while it lives, its claim is not seen by others (it is written in the request's one
transaction, with the round and the answer); once it is killed, its transaction is gone, and the
retry, sent at once from another process, runs and stores the round exactly once. Runs on SQLite
and, marked ``db``, on PostgreSQL; the same with the child on another host (its host id replaced, as
a second API host on one PostgreSQL has its own).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from handfoot.server.db import get_db
from handfoot.server.models import IdempotencyKey
from tests.helpers.games import TEAMS, create_game, out_round

pytestmark = pytest.mark.db

CHILD = textwrap.dedent("""
    import json, sys, time
    from handfoot.server import create_app
    from handfoot.server.services import rounds

    def stalled(*args, **kwargs):
        print("claimed", flush=True)  # the key is claimed: the request is mid-flight
        time.sleep(300)

    rounds.append_round = stalled
    if len(sys.argv) > 4:  # another host: its own host id in every claim's marker
        from handfoot.server import claim_holders
        claim_holders._host_id = lambda: sys.argv[4]
    app = create_app({"TESTING": True, "DATABASE_URL": sys.argv[1]})
    body = json.loads(sys.argv[3])
    app.test_client().post(sys.argv[2], json=body, headers={"Idempotency-Key": '"crash-1"'})
""")


def _stall_then_kill(flask_client: FlaskClient, db_url: str, path: str, body: dict[str, object], *host: str) -> None:
    """Start a child that claims ``"crash-1"`` on ``path`` and stalls; check its key is in flight
    while it lives; SIGKILL it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANDFOOT_IDEMPOTENCY")}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, db_url, path, json.dumps(body), *host], env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "claimed"
        with get_db(flask_client.application).session() as session:  # its claim is not committed
            assert session.scalars(select(IdempotencyKey)).all() == []
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)


def test_a_killed_requests_key_on_another_host(flask_client: FlaskClient, db_url: str, db_backend: str) -> None:
    game_id = create_game(flask_client)["id"]
    path = f"/v1/games/{game_id}/rounds"
    body = {"teams": out_round(*[t["name"] for t in TEAMS])}
    _stall_then_kill(flask_client, db_url, path, body, "otherhost000")
    retried = flask_client.post(path, json=body, headers={"Idempotency-Key": '"crash-1"'})
    assert retried.status_code == 201, retried.get_json()
    assert retried.headers.get("Idempotent-Replayed") is None
    assert flask_client.get(f"/v1/games/{game_id}").get_json()["rounds_played"] == 1


def test_a_killed_requests_key_is_free_at_once(flask_client: FlaskClient, db_url: str, db_backend: str) -> None:
    game_id = create_game(flask_client)["id"]
    path = f"/v1/games/{game_id}/rounds"
    body = {"teams": out_round(*[t["name"] for t in TEAMS])}
    _stall_then_kill(flask_client, db_url, path, body)
    headers = {"Idempotency-Key": '"crash-1"'}
    retried = flask_client.post(path, json=body, headers=headers)
    assert retried.status_code == 201, retried.get_json()
    assert retried.headers.get("Idempotent-Replayed") is None
    replay = flask_client.post(path, json=body, headers=headers)
    assert replay.status_code == 201 and replay.headers["Idempotent-Replayed"] == "true"
    assert flask_client.get(f"/v1/games/{game_id}").get_json()["rounds_played"] == 1


def test_holder_alive_reads_the_marker() -> None:
    from handfoot.server import claim_holders

    assert claim_holders.holder_alive(claim_holders.new_token()) is True  # this process
    assert claim_holders.holder_alive("0" * 32) is None  # a token from before markers: the timeout decides
    assert claim_holders.holder_alive(f"otherhost123-{os.getpid()}-1.abcd") is None  # another host's
    host = claim_holders.process_marker().split("-")[0]
    done = subprocess.Popen([sys.executable, "-c", "pass"])
    done.wait()
    assert claim_holders.holder_alive(f"{host}-{done.pid}-1.abcd") is False  # gone
    assert claim_holders.holder_alive(f"{host}-{os.getpid()}-1.abcd") is False  # the pid reused by another process
    assert len(claim_holders.new_token()) <= 64
