"""Who may wait: one wait per seat at a time (a second replaces the first, which answers at once),
and a 503 ``waits-full`` with ``Retry-After`` past a client address's or the process's waits."""

from __future__ import annotations

import contextlib
import sys
import threading
import types
from collections.abc import Callable, Iterator
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
    admitted = threading.Semaphore(0)
    admit = waits.admit

    @contextlib.contextmanager
    def signalled_admit(actor: Any) -> Iterator[waits.Ticket]:
        with admit(actor) as ticket:
            admitted.release()
            yield ticket

    monkeypatch.setattr(waits, "admit", signalled_admit)
    first_answers: list[Any] = []
    second_answers: list[Any] = []
    first = threading.Thread(target=_long_poll(app, created, 1, first_answers))
    first.start()
    assert admitted.acquire(timeout=PATIENCE)  # the first is waiting
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


@pytest.mark.db
@pytest.mark.parametrize("path", ["view", "events"])
def test_a_refused_wait_reads_no_tables_state(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    """A wait past a cap is refused before the table is read and decoded (only the seat's token
    and the table's version are looked up): refused seats coming back every ``Retry-After`` cost
    the server little. A long-poll whose version is behind still gets its view, caps or not."""
    app = make_app(WAITS_PER_ADDRESS=1)
    client = app.test_client()
    created = create(client)
    loads: list[int] = []
    load = routes.svc._load

    def counted_load(session: Any, table_id: int, **kw: Any) -> Any:
        loads.append(table_id)
        return load(session, table_id, **kw)

    monkeypatch.setattr(routes.svc, "_load", counted_load)
    with waits.of_app(app).admit(created["id"], 2, "127.0.0.1"):  # this address's one wait
        refused = client.get(
            f"/v1/tables/{created['id']}/{path}",
            query_string={"version": 0, "wait": MAX_WAIT},
            headers=seat_headers(created, 1),
        )
        assert refused.status_code == 503 and refused.get_json()["type"].endswith("/waits-full")
        assert loads == []
        behind = client.get(
            f"/v1/tables/{created['id']}/view",
            query_string={"version": 7, "wait": MAX_WAIT},
            headers=seat_headers(created, 1),
        )
        assert behind.status_code == 200 and behind.get_json()["version"] == 0


@pytest.mark.parametrize("gevent", [True, False])
def test_the_default_caps_fit_the_worker_class(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch, gevent: bool
) -> None:
    """Under gevent (a wait is a sleeping greenlet) the default caps admit the 200 seats of
    ``make bench-waiting`` from one address (keyless tables: one owner) in one worker; under gthread
    (a wait holds one of 8 threads) an address's fifth wait is still refused."""
    monkeypatch.setattr(waits, "green", lambda: gevent)
    registry = waits.of_app(make_app())
    with contextlib.ExitStack() as held:
        for i in range(200 if gevent else 4):
            held.enter_context(registry.admit(i // 4, i % 4, "127.0.0.1", owner=waits.KEYLESS))
        if not gevent:
            with pytest.raises(ProblemHTTPException) as refused:
                registry.admit(1, 0, "127.0.0.1").__enter__()
            assert refused.value.code == 503


def test_green_is_gevents_patched_threading(monkeypatch: pytest.MonkeyPatch) -> None:
    """``green()`` reads gevent's monkey-patching (gunicorn's gevent worker patches before the app
    serves); a process that imported gevent without patching is not green."""
    patched = {"threading"}
    monkey = types.SimpleNamespace(is_module_patched=lambda name: name in patched)
    monkeypatch.setitem(sys.modules, "gevent.monkey", monkey)
    assert waits.green()
    patched.clear()
    assert not waits.green()
    monkeypatch.delitem(sys.modules, "gevent.monkey")
    assert not waits.green()


def _refused_after(registry: waits.Waits, table_id: int, seat: int) -> int:
    """The ``Retry-After`` (seconds) of seat ``seat``'s refused wait (address ``a``, held full)."""
    with pytest.raises(ProblemHTTPException) as refused:
        registry.admit(table_id, seat, "a").__enter__()
    return int(refused.value.extra_headers["Retry-After"])


def test_retry_after_spreads_a_crowd_of_refused_seats() -> None:
    """A few refused seats come back after ``RETRY_AFTER``; past ``REFUSALS_PER_SECOND`` of them in
    that time, each is told to come back later (from ``RETRY_AFTER_CROWDED``, growing, at most
    ``RETRY_AFTER_MAX``), so the refused seats of a worker ask again about ``REFUSALS_PER_SECOND``
    times a second however many they are. A seat counts once, until it is admitted or stays away
    ``RETRY_AFTER_MAX`` seconds."""
    now = [0.0]
    registry = waits.Waits(per_address=1, per_process=10, clock=lambda: now[0])
    few = waits.REFUSALS_PER_SECOND * waits.RETRY_AFTER
    with registry.admit(0, 0, "a"):
        afters = [_refused_after(registry, 1 + i // 4, i % 4) for i in range(1000)]
        assert set(afters[:few]) == {waits.RETRY_AFTER}
        assert afters[few] >= waits.RETRY_AFTER_CROWDED and afters == sorted(afters)
        assert afters[-1] == waits.RETRY_AFTER_MAX and afters[299] <= 1 + 300 / waits.REFUSALS_PER_SECOND
        assert _refused_after(registry, 1, 0) == waits.RETRY_AFTER_MAX  # seen again: still 1,000 seats
        now[0] = waits.RETRY_AFTER_MAX + 1  # every seat but one stayed away
        assert _refused_after(registry, 1, 0) == waits.RETRY_AFTER
    with registry.admit(1, 0, "a"):  # admitted: no longer counted
        pass
    assert len(registry._refused) == 0
