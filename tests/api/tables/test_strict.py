"""Issue 29's defects at a table, each by its kind: a seat's odd input is a 4xx problem naming what is
wrong, never a 500, and never stored (strict actions, a validated ``Last-Event-ID``)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from handfoot.engine.play import ACTION_MEMBERS, ACTION_TYPES
from handfoot.server.db import get_db
from handfoot.server.models import TableAction
from tests.conftest import examples
from tests.helpers.tables import create, seat_headers, true_table

pytestmark = pytest.mark.db

PROBLEM = "application/problem+json"


def _act(flask_client: FlaskClient, created: dict[str, Any], body: Any, seat: int = 0) -> Any:
    return flask_client.post(f"/v1/tables/{created['id']}/actions", headers=seat_headers(created, seat), json=body)


def _errors(response: Any) -> list[tuple[str | None, str]]:
    assert response.content_type == PROBLEM, response.get_data(as_text=True)
    return [(e.get("pointer", e.get("parameter")), e["code"]) for e in response.get_json()["errors"]]


def _logged(app: Flask, table_id: int) -> int:
    with get_db(app).session() as session:
        return int(session.scalar(select(func.count()).where(TableAction.table_id == table_id)) or 0)


def test_a_member_an_action_type_does_not_have_is_a_422_naming_it_and_nothing_is_stored(
    app: Flask, flask_client: FlaskClient
) -> None:
    created = create(flask_client)
    padded = _act(flask_client, created, {"version": 0, "action": {"type": "draw", "padding": "x" * 20_000}})
    assert padded.status_code == 422 and _errors(padded) == [("/action/padding", "unknown_field")]
    other = _act(flask_client, created, {"version": 0, "action": {"type": "draw", "card": "7H", "melds": []}})
    assert sorted(_errors(other)) == [("/action/card", "unknown_field"), ("/action/melds", "unknown_field")]
    assert true_table(app, created["id"]).version == 0 and _logged(app, created["id"]) == 0
    assert _act(flask_client, created, {"version": 0, "action": {"type": "draw"}}).status_code == 200


def test_a_1_mb_action_is_a_413_before_it_is_read(app: Flask, flask_client: FlaskClient) -> None:
    created = create(flask_client)
    body = {"version": 0, "action": {"type": "draw", "padding": "x" * 1_000_000}}
    response = _act(flask_client, created, body)
    assert response.status_code == 413 and response.content_type == PROBLEM
    assert response.get_json()["type"].endswith("/body-too-large") and "32768 bytes" in response.get_json()["detail"]
    assert _logged(app, created["id"]) == 0


def test_a_seat_cannot_log_a_timed_out_answer(app: Flask, flask_client: FlaskClient) -> None:
    """``timed_out`` is the table's own mark (its clock's yes): a seat that sends it is refused."""
    created = create(flask_client)
    action = {"type": "answer", "yes": True, "timed_out": True}
    response = _act(flask_client, created, {"version": 0, "action": action})
    assert response.status_code == 422 and _errors(response) == [("/action/timed_out", "unknown_field")]
    assert _logged(app, created["id"]) == 0


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        ({"type": ["draw"]}, [("/action/type", "unknown_action")]),
        ({"type": {"draw": 1}}, [("/action/type", "unknown_action")]),
        ({"type": 7}, [("/action/type", "unknown_action")]),
        ({"type": "fly"}, [("/action/type", "unknown_action")]),
        ({}, [("/action/type", "required")]),
        (["draw"], [("/action", "invalid_type")]),
        ("draw", [("/action", "invalid_type")]),
        ({"type": "discard", "card": 7}, [("/action/card", "invalid_type")]),
        ({"type": "discard", "card": ["7H"]}, [("/action/card", "invalid_type")]),
        ({"type": "take_pile", "cards": "7S"}, [("/action/cards", "invalid_type")]),
        ({"type": "take_pile", "onto": "0"}, [("/action/onto", "invalid_type")]),
        ({"type": "meld", "melds": [["7S", 7]]}, [("/action/melds/0/1", "invalid_type")]),
        ({"type": "meld", "add": [{"to": 0}]}, [("/action/add/0/cards", "required")]),
        ({"type": "answer", "yes": "yes"}, [("/action/yes", "invalid_type")]),
        ({"type": "draw", "seat": "0"}, [("/action/seat", "invalid_type")]),
    ],
)
def test_an_odd_action_is_a_422_naming_where(flask_client: FlaskClient, action: Any, expected: list[Any]) -> None:
    created = create(flask_client)
    response = _act(flask_client, created, {"version": 0, "action": action})
    assert response.status_code == 422 and _errors(response) == expected


def test_a_go_out_is_an_unknown_action_that_says_what_to_send(flask_client: FlaskClient) -> None:
    """Going out is no action (D79): the 422 says to meld or discard the last cards, as the engine does."""
    created = create(flask_client)
    response = _act(flask_client, created, {"version": 0, "action": {"type": "go_out"}})
    assert response.status_code == 422 and _errors(response) == [("/action/type", "unknown_action")]
    (error,) = response.get_json()["errors"]
    assert "meld or discard the last cards" in error["detail"] and "going_out" in error["detail"]


def test_a_take_onto_null_is_a_new_meld_as_the_engine_and_its_bots_say(app: Flask, flask_client: FlaskClient) -> None:
    """The engine's bots send ``"onto": null`` for a take that makes a new meld (``view``'s ``onto``):
    the schema takes it as the engine does, so the answer is the engine's, never a schema error."""
    created = create(flask_client)
    response = _act(flask_client, created, {"version": 0, "action": {"type": "take_pile", "cards": [], "onto": None}})
    assert response.status_code in (200, 422)
    assert all(pointer != "/action/onto" for pointer, _ in (_errors(response) if response.status_code == 422 else []))


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
_MEMBER_NAMES = st.sampled_from(sorted({"type", "seat", *(m for ms in ACTION_MEMBERS.values() for m in ms)}))
ACTIONS = st.builds(
    lambda kind, members: {**members, "type": kind},
    st.sampled_from(ACTION_TYPES) | JSON,
    st.dictionaries(_MEMBER_NAMES | st.text(max_size=8), JSON, max_size=4),
)
#: Stands for the table's version when the body is sent: an action on a stale version is a 409 before
#: its shape reaches the engine, so most bodies carry the current one.
CURRENT = object()
BODIES = JSON | st.builds(
    lambda version, action: {"version": version, "action": action},
    st.just(CURRENT) | st.just(CURRENT) | JSON,
    ACTIONS,
)


def test_no_action_body_is_a_server_error(flask_client: FlaskClient) -> None:
    """Odd JSON of every shape, as a whole body and as an action of each type with odd members, from
    any seat: a 4xx problem or a 200, never a 500."""
    created = create(flask_client)

    @settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(body=BODIES, seat=st.integers(0, 3))
    def run(body: Any, seat: int) -> None:
        if isinstance(body, dict) and body.get("version") is CURRENT:
            view = flask_client.get(f"/v1/tables/{created['id']}/view", headers=seat_headers(created, seat))
            body = {**body, "version": view.get_json()["version"]}
        response = _act(flask_client, created, body, seat)
        assert response.status_code < 500, (body, response.get_data(as_text=True))
        if response.status_code >= 400:
            assert response.content_type == PROBLEM

    run()


def _events(flask_client: FlaskClient, created: dict[str, Any], last_event_id: str) -> Any:
    return flask_client.get(
        f"/v1/tables/{created['id']}/events?wait=1",
        headers={**seat_headers(created, 0), "Last-Event-ID": last_event_id},
    )


@pytest.mark.parametrize("last_event_id", ["9" * 5000, "-1", "abc", "1.5", "0x10", "1e3", "2147483648"])
def test_a_last_event_id_that_is_no_table_version_is_a_422_naming_the_header(
    flask_client: FlaskClient, last_event_id: str
) -> None:
    created = create(flask_client)
    response = _events(flask_client, created, last_event_id)
    assert response.status_code == 422 and response.content_type == PROBLEM
    assert [(e.get("parameter"), e["code"]) for e in response.get_json()["errors"]] == [
        ("Last-Event-ID", "invalid_value")
    ]


@pytest.mark.parametrize("last_event_id", ["0", "7", ""])
def test_a_table_version_or_an_empty_last_event_id_opens_the_stream(
    flask_client: FlaskClient, last_event_id: str
) -> None:
    created = create(flask_client)
    response = _events(flask_client, created, last_event_id)
    assert response.status_code == 200
    response.close()
