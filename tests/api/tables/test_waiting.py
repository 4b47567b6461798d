"""Tables on a real threaded server: two actions on one version (one wins, the other is a 409), a
long-poll answered by another thread's action or after its wait, server-sent events per change."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from flask import Flask

from tests.helpers.tables import TEAMS, assert_hides, create, play_round, seat_headers, true_state, true_table

pytestmark = pytest.mark.db


def make_table(base: str) -> dict[str, Any]:
    response = requests.post(
        f"{base}/v1/tables", json={"name": "Race", "preset": "pagat", "teams": TEAMS, "seed": 991199}, timeout=30
    )
    assert response.status_code == 201
    created: dict[str, Any] = response.json()
    return created


def post(base: str, created: dict[str, Any], seat: int, version: int, action: dict[str, Any]) -> requests.Response:
    return requests.post(
        f"{base}/v1/tables/{created['id']}/actions",
        headers=seat_headers(created, seat),
        json={"version": version, "action": action},
        timeout=60,
    )


def test_two_actions_on_one_version_one_wins(app: Flask, threaded_server: str) -> None:
    created = make_table(threaded_server)
    for version in (0, 1):
        if version == 0:
            action: dict[str, Any] = {"type": "draw"}
        else:
            action = {"type": "discard", "card": true_state(app, created["id"]).seats[0].hand[0].code}
        barrier = threading.Barrier(2)
        answers: list[requests.Response] = []

        def send(
            barrier: threading.Barrier, answers: list[requests.Response], action: dict[str, Any], version: int
        ) -> None:
            barrier.wait()
            answers.append(post(threaded_server, created, 0, version, action))

        threads = [threading.Thread(target=send, args=(barrier, answers, action, version)) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert sorted(a.status_code for a in answers) == [200, 409], [a.text for a in answers]
        lost = next(a for a in answers if a.status_code == 409).json()
        assert lost["errors"][0]["code"] == "version_moved" and lost["version"] == version + 1
        assert true_table(app, created["id"]).version == version + 1


def test_a_long_poll_returns_on_another_threads_change(app: Flask, threaded_server: str) -> None:
    created = make_table(threaded_server)
    url = f"{threaded_server}/v1/tables/{created['id']}/view"
    got: list[dict[str, Any]] = []
    waiter = threading.Thread(
        target=lambda: got.append(
            requests.get(url, params={"version": 0, "wait": 30}, headers=seat_headers(created, 1), timeout=60).json()
        )
    )
    waiter.start()
    time.sleep(0.5)  # the waiter is (most likely) polling by now; it returns on the change either way
    assert post(threaded_server, created, 0, 0, {"type": "draw"}).status_code == 200
    waiter.join(60)
    assert got and got[0]["version"] == 1 and got[0]["view"]["turn"] == 0
    assert_hides(got[0], true_state(app, created["id"]), 1, 991199)


def test_a_long_poll_without_a_change_answers_after_its_wait(threaded_server: str) -> None:
    created = make_table(threaded_server)
    response = requests.get(
        f"{threaded_server}/v1/tables/{created['id']}/view",
        params={"version": 0, "wait": 1},
        headers=seat_headers(created, 2),
        timeout=30,
    )
    assert response.status_code == 200 and response.json()["version"] == 0
    moved_on = requests.get(
        f"{threaded_server}/v1/tables/{created['id']}/view",
        params={"version": 7, "wait": 30},
        headers=seat_headers(created, 2),
        timeout=30,
    )  # another version: at once
    assert moved_on.status_code == 200 and moved_on.json()["version"] == 0


def events(response: requests.Response) -> Iterator[dict[str, Any]]:
    """The stream's events: ``id``, ``event``, ``data`` (parsed) of each; comments left out."""
    event: dict[str, Any] = {}
    for line in response.iter_lines(decode_unicode=True):
        if line == "":
            if event:
                yield event
            event = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(": ")
            event[name] = json.loads(value) if name == "data" else value


def test_server_sent_events_give_a_view_per_change(app: Flask, threaded_server: str) -> None:
    created = make_table(threaded_server)
    url = f"{threaded_server}/v1/tables/{created['id']}/events"
    # a short `wait`: the server notices a client gone only when it next writes, so a long stream would
    # outlive this test in the server's thread
    with requests.get(url, params={"wait": 5}, headers=seat_headers(created, 3), stream=True, timeout=60) as stream:
        assert stream.status_code == 200 and stream.headers["Content-Type"].startswith("text/event-stream")
        assert stream.headers["Cache-Control"] == "no-store"
        received = events(stream)
        first = next(received)
        assert first["id"] == "0" and first["event"] == "view" and first["data"]["version"] == 0
        assert_hides(first["data"], true_state(app, created["id"]), 3, 991199)
        assert post(threaded_server, created, 0, 0, {"type": "draw"}).status_code == 200
        second = next(received)
        assert second["id"] == "1" and second["data"]["version"] == 1 and second["data"]["view"]["phase"] == "play"
        assert_hides(second["data"], true_state(app, created["id"]), 3, 991199)
    # resumed at the version it has seen: no event until a change; the stream ends after `wait`
    with requests.get(
        url, params={"wait": 1}, headers={**seat_headers(created, 3), "Last-Event-ID": "1"}, stream=True, timeout=60
    ) as resumed:
        assert list(events(resumed)) == []


def test_the_stream_of_a_finished_table_ends_after_its_last_view(app: Flask, threaded_server: str) -> None:
    flask_client = app.test_client()
    created = create(flask_client, rules={"rounds": 1})
    final = play_round(flask_client, app, created, check=False)
    assert final["status"] == "finished"
    url = f"{threaded_server}/v1/tables/{created['id']}/events"
    with requests.get(
        url, params={"wait": 60}, headers={**seat_headers(created, 0), "Last-Event-ID": "3"}, stream=True, timeout=60
    ) as stream:
        received = list(events(stream))  # the stream ends by itself: the table is finished
    assert [e["id"] for e in received] == [str(final["version"])]
    assert received[0]["data"]["status"] == "finished" and received[0]["data"]["view"]["phase"] == "ended"


def test_the_stream_of_a_deleted_games_table_ends_cleanly(
    app: Flask, threaded_server: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Deleting the game deletes its table: the stream open on it ends (woken by the deletion) without
    an error logged or the connection cut mid-event; the seat's next request is the table's 404."""
    created = make_table(threaded_server)
    game = requests.get(f"{threaded_server}/v1/tables/{created['id']}", timeout=30).json()["game"]
    url = f"{threaded_server}/v1/tables/{created['id']}/events"
    with requests.get(url, params={"wait": 30}, headers=seat_headers(created, 0), stream=True, timeout=60) as stream:
        received = events(stream)
        assert next(received)["id"] == "0"
        started = time.monotonic()
        assert requests.delete(f"{threaded_server}/v1/games/{game}", timeout=30).status_code == 204
        assert list(received) == []  # the stream ends by itself, every event whole
        assert time.monotonic() - started < 10
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")], caplog.records
    again = requests.get(url, headers=seat_headers(created, 0), timeout=30)
    assert again.status_code == 404
