"""Who may wait: one wait per seat at a time (a second replaces the first, which answers at once),
and a 503 ``waits-full`` with ``Retry-After`` past a client address's or the process's waits."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from handfoot.server import wakeups
from handfoot.server.problems import ProblemHTTPException
from handfoot.server.resources.tables import routes, waits
from handfoot.server.resources.tables.schemas import MAX_WAIT
from tests.helpers.tables import create, seat_headers

PATIENCE = 30  # seconds; every wait ended here has a deadline of MAX_WAIT (60 s)


@pytest.fixture(autouse=True)
def no_safety_reread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wakeups, "SAFETY_SECONDS", 3600.0)


def test_caps_count_each_address_and_the_process() -> None:
    registry = waits.Waits(per_address=2, per_process=3)
    with registry.admit(1, 0, "a"), registry.admit(1, 1, "a"):
        with pytest.raises(ProblemHTTPException) as refused:
            registry.admit(1, 2, "a").__enter__()
        assert refused.value.code == 503 and refused.value.problem["type"].endswith("/waits-full")
        assert refused.value.extra_headers["Retry-After"] == str(waits.RETRY_AFTER)
        with registry.admit(2, 0, "b", owner=7), pytest.raises(ProblemHTTPException):
            registry.admit(3, 0, "c", owner=8).__enter__()  # the process's third: its cap
    with registry.admit(2, 0, "a"), registry.admit(2, 1, "a"), registry.admit(3, 0, "b", owner=7):
        pass  # every wait above was counted out again


def test_a_seats_second_wait_supersedes_its_first() -> None:
    registry = waits.Waits(per_address=4, per_process=6)
    with registry.admit(1, 0, "a") as first:
        with registry.admit(1, 0, "b") as second:
            assert first.superseded.is_set() and second.replaced
            assert not second.superseded.is_set()
        with registry.admit(1, 1, "a") as other_seat:
            assert not other_seat.replaced


def _long_poll(app: Flask, created: dict[str, Any], seat: int, answers: list[Any]) -> Callable[[], None]:
    def run() -> None:
        answers.append(
            app.test_client().get(
                f"/v1/tables/{created['id']}/view",
                query_string={"version": 0, "wait": MAX_WAIT},
                headers=seat_headers(created, seat),
            )
        )

    return run


def test_a_second_long_poll_of_a_seat_answers_the_first_at_once(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    client = app.test_client()
    created = create(client)
    polled = threading.Semaphore(0)
    poll = routes.svc.poll

    def counted_poll(db: Any, table: int) -> tuple[Any, ...]:
        answer = poll(db, table)
        polled.release()
        return answer

    monkeypatch.setattr(routes.svc, "poll", counted_poll)
    first_answers: list[Any] = []
    second_answers: list[Any] = []
    first = threading.Thread(target=_long_poll(app, created, 1, first_answers))
    first.start()
    assert polled.acquire(timeout=PATIENCE)  # the first is waiting
    second = threading.Thread(target=_long_poll(app, created, 1, second_answers))
    second.start()
    first.join(PATIENCE)  # superseded: it answers long before its 60 s
    assert not first.is_alive() and second.is_alive()
    assert first_answers[0].status_code == 200 and first_answers[0].get_json()["version"] == 0
    taken = client.post(
        f"/v1/tables/{created['id']}/actions",
        json={"version": 0, "action": {"type": "draw"}},
        headers=seat_headers(created, 0),
    )
    assert taken.status_code == 200
    second.join(PATIENCE)
    assert not second.is_alive() and second_answers[0].get_json()["version"] == 1


@pytest.mark.parametrize("path", ["view", "events"])
def test_a_wait_past_the_addresss_cap_is_a_503_with_retry_after(make_app: Callable[..., Flask], path: str) -> None:
    app = make_app(WAITS_PER_ADDRESS=1)
    client = app.test_client()
    created = create(client)
    with waits.of_app(app).admit(created["id"], 2, "127.0.0.1"):  # this address's one wait
        refused = client.get(
            f"/v1/tables/{created['id']}/{path}",
            query_string={"version": 0, "wait": MAX_WAIT},
            headers=seat_headers(created, 1),
        )
        assert refused.status_code == 503 and refused.headers["Retry-After"] == str(waits.RETRY_AFTER)
        assert refused.get_json()["type"].endswith("/waits-full")
        at_once = client.get(f"/v1/tables/{created['id']}/view", headers=seat_headers(created, 1))
        assert at_once.status_code == 200  # a read that does not wait is not counted
