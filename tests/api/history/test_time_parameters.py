"""Every time and cursor parameter over its whole domain: any string given as ``since``, ``until``
(the export, the statistics) or ``cursor`` (the games list) is a 2xx or a 422 problem naming that
parameter, never a 500. Dates near year 1 or 9999 with an offset fall outside what a datetime
holds once in UTC; they were a 500 (OverflowError) before."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from urllib.parse import quote

import pytest
from flask.testing import FlaskClient
from hypothesis import example, given, settings
from hypothesis import strategies as st

from handfoot.server import create_app, migrate

TIME_PATHS = ("/v1/games/export", "/v1/games/stats")


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory) -> FlaskClient:
    """One app on a migrated SQLite file for every example (reads only)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('times') / 'handfoot.sqlite3'}"
    migrate.upgrade(url)
    return create_app({"TESTING": True, "DATABASE_URL": url}).test_client()


def answered(client: FlaskClient, path: str, parameter: str, value: str) -> None:
    response = client.get(f"{path}?{parameter}={quote(value, safe='')}")
    if response.status_code < 300:
        return
    assert response.status_code == 422, (value, response.status_code, response.get_data(as_text=True)[:300])
    assert response.content_type == "application/problem+json"
    assert [error.get("parameter") for error in response.get_json()["errors"]] == [parameter]


#: Date-times at the edges of what a datetime holds, with offsets that push them past in UTC.
EDGES = st.builds(
    lambda moment, minutes: moment.replace(tzinfo=timezone(timedelta(minutes=minutes))).isoformat(),
    st.sampled_from([datetime(1, 1, 1), datetime(9999, 12, 31, 23, 59, 59), datetime(1, 1, 1, 23, 59)]),
    st.integers(-23 * 60 - 59, 23 * 60 + 59),
)
MOMENTS = st.one_of(
    st.text(max_size=45),
    EDGES,
    st.datetimes(timezones=st.timezones() | st.none()).map(datetime.isoformat),
    st.dates().map(str),
)


@settings(max_examples=150, deadline=None)
@given(value=MOMENTS, path=st.sampled_from(TIME_PATHS), parameter=st.sampled_from(["since", "until"]))
@example(value="0001-01-01T00:00:00+05:00", path="/v1/games/export", parameter="since")
@example(value="9999-12-31T23:00:00-05:00", path="/v1/games/stats", parameter="until")
def test_any_since_or_until_is_answered_or_named(reader: FlaskClient, value: str, path: str, parameter: str) -> None:
    answered(reader, path, parameter, value)


@settings(max_examples=100, deadline=None)
@given(value=st.text(max_size=200) | st.binary(max_size=120).map(lambda b: b.hex()))
def test_any_cursor_is_answered_or_named(reader: FlaskClient, value: str) -> None:
    answered(reader, "/v1/games", "cursor", value)


def test_an_edge_that_fits_is_read(reader: FlaskClient) -> None:
    """Year 1 with a negative offset is still in year 1 in UTC: accepted, not refused."""
    assert reader.get("/v1/games/stats?since=0001-01-01T00:00:00-05:00").status_code == 200
    assert datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=-5))).astimezone(UTC).year == 1
