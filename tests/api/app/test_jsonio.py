"""api/jsonio.py: orjson encodes answers and JSON columns; what it gives must mean exactly what the
standard library (Flask's own provider) gave, for every value the app can hand it."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from flask import Flask
from flask.json.provider import DefaultJSONProvider
from hypothesis import given, settings
from hypothesis import strategies as st

from handfoot.server import jsonio
from tests.conftest import examples

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


def _providers() -> tuple[jsonio.JSONProvider, DefaultJSONProvider]:
    app = Flask(__name__)
    default = DefaultJSONProvider(app)
    default.sort_keys = False
    return jsonio.JSONProvider(app), default


@settings(max_examples=examples(300), deadline=None)
@given(value=JSON)
def test_answers_mean_what_the_standard_library_wrote(value: Any) -> None:
    ours, flask_own = _providers()
    text = ours.dumps(value)
    assert json.loads(text) == json.loads(flask_own.dumps(value))
    assert list(_keys(json.loads(text))) == list(_keys(value))  # members keep their order


@settings(max_examples=examples(300), deadline=None)
@given(value=JSON)
def test_stored_columns_round_trip(value: Any) -> None:
    assert json.loads(jsonio.dumps(value)) == value  # read back by the standard library (api/db.py)


def test_what_orjson_refuses_goes_through_the_standard_library() -> None:
    ours, flask_own = _providers()
    when = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    for value in ({"big": 2**70}, {"when": when}, {"amount": Decimal("1.5")}, {1: "int key"}):
        assert json.loads(ours.dumps(value)) == json.loads(flask_own.dumps(value)), value
    assert json.loads(ours.dumps({"when": when})) == {"when": "Sun, 29 Nov 2026 12:00:00 GMT"}  # Flask's HTTP date
    assert json.loads(jsonio.dumps({"big": -(2**64) - 1})) == {"big": -(2**64) - 1}


def test_non_ascii_is_written_as_utf8() -> None:
    ours, _ = _providers()
    assert ours.dumps({"name": "Zoë 李"}) == '{"name":"Zoë 李"}'


def _keys(value: Any) -> Any:
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from _keys(v)
