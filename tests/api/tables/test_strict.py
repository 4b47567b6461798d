"""Issue 29's defects at a table, each by its kind: a seat's odd input is a 4xx problem naming what is
wrong, never a 500, and never stored (strict actions, a validated ``Last-Event-ID``)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers.tables import create, seat_headers

pytestmark = pytest.mark.db

PROBLEM = "application/problem+json"


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
