"""Waiting seats are woken by the change, never by polling: in process (the hub), across processes
on one SQLite file (the datagram broadcast) and across hosts on PostgreSQL (``NOTIFY``). A wait
here has a deadline far past the test's own patience and no safety re-read: only a wake-up ends it."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import text

from handfoot.server import wakeups
from handfoot.server.db import channels, get_db, sqlite_file
from handfoot.server.resources.tables import routes
from handfoot.server.resources.tables.schemas import MAX_WAIT
from tests.helpers.tables import create, seat_headers

pytestmark = pytest.mark.db

#: Seconds a test waits for a wake-up before failing; every wait it ends has a longer deadline.
PATIENCE = 30


@pytest.fixture(autouse=True)
def no_safety_reread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wakeups, "SAFETY_SECONDS", 3600.0)


def test_the_hub_wakes_only_the_changed_tables_waiters() -> None:
    hub = wakeups.Hub()
    with hub.watch(1) as one, hub.watch(2) as two:
        assert hub.waiting() == 2
        hub.notify([1, 3])  # 3 has no waiter: nothing is kept for it
        assert one.wait(PATIENCE) is True
        assert two.wait(0) is False
        assert one.wait(0) is False  # heard once
    assert hub.waiting() == 0


def test_a_change_between_the_watch_and_the_wait_is_not_lost() -> None:
    hub = wakeups.Hub()
    with hub.watch(7) as waiter:
        hub.notify([7])  # as a commit landing after the waiter's read, before it waits
        assert waiter.wait(PATIENCE) is True


def test_a_long_poll_is_woken_by_another_threads_action(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    client = app.test_client()
    created = create(client)
    table_id = created["id"]
    polls: list[int] = []
    reading = threading.Event()
    poll = routes.svc.poll

    def watched_poll(db: Any, table: int) -> tuple[Any, ...]:
        answer = poll(db, table)
        polls.append(answer[0])
        reading.set()  # the waiter is registered (its watch came before this read)
        return answer

    monkeypatch.setattr(routes.svc, "poll", watched_poll)
    answers: list[Any] = []

    def wait() -> None:
        answers.append(
            app.test_client().get(
                f"/v1/tables/{table_id}/view",
                query_string={"version": 0, "wait": MAX_WAIT},
                headers=seat_headers(created, 1),
            )
        )
        reading.set()  # an answer without a wait (a failure) must not keep the test waiting

    waiter = threading.Thread(target=wait)
    waiter.start()
    assert reading.wait(PATIENCE) and not answers
    taken = client.post(
        f"/v1/tables/{table_id}/actions",
        json={"version": 0, "action": {"type": "draw"}},
        headers=seat_headers(created, 0),
    )
    assert taken.status_code == 200
    waiter.join(PATIENCE)  # its deadline is MAX_WAIT (60 s) away and it re-reads only when woken
    assert not waiter.is_alive()
    assert answers[0].status_code == 200 and answers[0].get_json()["version"] == 1
    assert polls == [0, 1]  # one read before the wait, one after the wake-up: no poll between


def test_a_waiter_in_another_process_is_woken(make_app: Callable[..., Flask]) -> None:
    """Two apps on one database stand for two worker processes (or hosts): each has its own hub and
    listener; the acting one's commit reaches the other by datagram (SQLite) or NOTIFY (PostgreSQL)."""
    waiting, acting = make_app(), make_app()
    client = acting.test_client()
    created = create(client)
    with wakeups.watch(get_db(waiting), created["id"]) as waiter:
        taken = client.post(
            f"/v1/tables/{created['id']}/actions",
            json={"version": 0, "action": {"type": "draw"}},
            headers=seat_headers(created, 0),
        )
        assert taken.status_code == 200
        assert waiter.wait(PATIENCE) is True
    assert wakeups.of(get_db(acting)).hub.waiting() == 0


def test_a_refused_action_wakes_nobody(app: Flask) -> None:
    client = app.test_client()
    created = create(client)
    with wakeups.watch(get_db(app), created["id"]) as waiter:
        refused = client.post(
            f"/v1/tables/{created['id']}/actions",
            json={"version": 0, "action": {"type": "meld", "melds": []}},
            headers=seat_headers(created, 0),
        )
        assert refused.status_code == 422
        assert waiter.wait(0) is False


def test_a_deleted_games_table_wakes_its_waiters(app: Flask) -> None:
    client = app.test_client()
    created = create(client)
    game = client.get(f"/v1/tables/{created['id']}").get_json()["game"]
    with wakeups.watch(get_db(app), created["id"]) as waiter:
        assert client.delete(f"/v1/games/{game}").status_code == 204
        assert waiter.wait(PATIENCE) is True


def test_a_notification_from_outside_the_process_wakes_the_hub(app: Flask, db_backend: str) -> None:
    """What another process sends, by hand: PostgreSQL's NOTIFY from another connection, or on
    SQLite a datagram to every listener's socket beside the database."""
    db = get_db(app)
    with wakeups.watch(db, 424242) as waiter:
        if db_backend == "postgresql":
            with db.engine.connect() as connection:
                connection.execute(text("SELECT pg_notify(:c, '424242')"), {"c": channels.CHANNEL})
                connection.commit()
        else:
            file = sqlite_file(db.url)
            assert file is not None
            folder = channels.socket_folder(file)
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sender:
                for listener in folder.iterdir():
                    sender.sendto(b"424242", str(listener))
        assert waiter.wait(PATIENCE) is True


def test_a_listener_closed_before_its_thread_runs_ends_quietly(tmp_path: Path) -> None:
    """The receiver of a socket closed under it (the database disposed right after the first wait, as
    a test's app is) ends without an exception in its thread."""
    listener = channels.SocketChannel(tmp_path)
    closed = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    closed.close()
    seen: list[BaseException | None] = []
    thread = threading.Thread(target=lambda: seen.append(_run(listener, closed)))
    thread.start()
    thread.join(5)
    assert seen == [None]


def _run(listener: channels.SocketChannel, sock: socket.socket) -> BaseException | None:
    try:
        listener.receive(sock, wakeups.Hub())
    except BaseException as error:  # noqa: BLE001 - what the thread would have died of
        return error
    return None
