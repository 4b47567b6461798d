"""A seat found once is known to the process (``auth.seat_named``): its later requests read no seat
hashes, and a table deleted with its game is still a 404 on every seat route (the route's own read
finds no table), whatever the process knows of the seat."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.helpers.counting import counted
from tests.helpers.tables import create, seat_headers

pytestmark = pytest.mark.db

SEAT_HASHES = "SELECT tables.seat_hashes"


def _seat_routes(created: dict[str, Any]) -> list[tuple[str, str, dict[str, Any] | None]]:
    table = f"/v1/tables/{created['id']}"
    return [
        ("GET", f"{table}/view", None),
        ("GET", f"{table}/view?version=0&wait=0", None),
        ("GET", f"{table}/events?wait=1", None),
        ("POST", f"{table}/actions", {"version": 0, "action": {"type": "draw"}}),
    ]


def test_a_known_seat_reads_no_seat_hashes_again(app: Flask, flask_client: FlaskClient) -> None:
    created = create(flask_client)
    view = f"/v1/tables/{created['id']}/view"
    with counted(app) as first:
        assert flask_client.get(view, headers=seat_headers(created, 1)).status_code == 200
    with counted(app) as again:
        assert flask_client.get(view, headers=seat_headers(created, 1)).status_code == 200
    assert [s for s in first.statements if s.startswith(SEAT_HASHES)], first.statements
    assert not [s for s in again.statements if s.startswith(SEAT_HASHES)], again.statements


def test_a_made_up_token_is_looked_up_every_time(app: Flask, flask_client: FlaskClient) -> None:
    created = create(flask_client)
    view = f"/v1/tables/{created['id']}/view"
    for _ in range(2):
        with counted(app) as seen:
            assert flask_client.get(view, headers={"Seat-Token": "made-up"}).status_code == 404
        assert [s for s in seen.statements if s.startswith(SEAT_HASHES)], seen.statements


def test_a_known_seat_of_a_deleted_table_is_a_404_on_every_seat_route(flask_client: FlaskClient) -> None:
    created = create(flask_client)
    headers = seat_headers(created, 0)
    for method, path, body in _seat_routes(created):  # every route, the seat known to the process
        assert flask_client.open(path, method=method, json=body, headers=headers).status_code < 500
    game = flask_client.get(f"/v1/tables/{created['id']}").get_json()["game"]
    assert flask_client.delete(f"/v1/games/{game}").status_code == 204
    for method, path, body in _seat_routes(created):
        answer = flask_client.open(path, method=method, json=body, headers=headers)
        assert answer.status_code == 404, (method, path, answer.get_data(as_text=True))
