"""What the app sends back: every answer matches its documented schema, every header sent is documented, and
the JSON encoder means what the standard library's did.

Every successful JSON answer matches the schema the OpenAPI document gives it, with no member the
schema does not document.

Two routes answer without dumping through their schema, for speed: ``POST /v1/rounds/score``
(``breakdown_data``) and ``POST /v1/games/{game_id}/rounds`` (``serializers.round_answer``). This
test sends every operation of the document (its documented request example, or the games cases of
``games_routes.py``) and validates each 2xx answer against the documented response schema, so those
answers, and any a route sends ready in future, are checked against what the document promises.

Every header the server sends is documented on the answer that sends it (issue 20, item 5).

Each games operation and a few others are called with an API key and a rate limit on (so
``Cache-Control``, ``X-RateLimit-*`` and the rest are sent); an append is replayed
(``Idempotent-Replayed``), a list is paged (``Link``), a correction is refused (412, 428), a call
without a key answered 401, and the limit exhausted (429). For each answer, every header of
:data:`WATCHED` it carries must be listed in the served document for that operation and status.

api/jsonio.py: orjson encodes answers and JSON columns; what it gives must mean exactly what the
standard library (Flask's own provider) gave, for every value the app can hand it.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest
from flask import Flask
from flask.json.provider import DefaultJSONProvider
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st
from openapi_schema_validator import OAS31Validator

from bench import rounds as bench_rounds
from handfoot.engine import Line, rules_of, score_round_body
from handfoot.server import jsonio
from handfoot.server.auth import create_key
from handfoot.server.db import get_db
from handfoot.server.resources.games import examples as ex
from handfoot.server.schemas import breakdown_data
from tests.conftest import examples
from tests.helpers.game_routes import GAME_OPERATIONS, call
from tests.helpers.games import SEED_ROUND_1, append, create_game

METHODS = ("get", "post", "put", "patch", "delete")


def _closed(node: Any) -> Any:
    """The spec with every object schema closed (``additionalProperties: false`` where it lists
    ``properties`` and says nothing else): an undocumented member fails validation."""
    if isinstance(node, dict):
        out = {k: _closed(v) for k, v in node.items()}
        if "properties" in out and "additionalProperties" not in out:
            out["additionalProperties"] = False
        return out
    if isinstance(node, list):
        return [_closed(v) for v in node]
    return node


@pytest.fixture
def spec(flask_client: FlaskClient) -> dict[str, Any]:
    document: dict[str, Any] = flask_client.get("/openapi.json").get_json()
    return document


def assert_documented(spec: dict[str, Any], method: str, path: str, response: Any) -> None:
    assert response.status_code < 300, (method, path, response.get_data(as_text=True))
    documented = spec["paths"][path][method]["responses"][str(response.status_code)]
    if response.status_code == 204:
        return
    if getattr(response, "mimetype", "application/json") != "application/json":  # a stream (NDJSON, CSV)
        assert response.mimetype in documented["content"], (method, path, response.mimetype)
        if response.mimetype == "application/x-ndjson":
            for line in response.get_data(as_text=True).splitlines():
                errors = sorted(
                    OAS31Validator(
                        {
                            "components": _closed(copy.deepcopy(spec["components"])),
                            **_closed(documented["content"][response.mimetype]["schema"]),
                        }
                    ).iter_errors(json.loads(line)),
                    key=str,
                )
                assert not errors, (method, path, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]])
        return
    schema = documented["content"]["application/json"]["schema"]
    root = {"components": _closed(copy.deepcopy(spec["components"])), **_closed(schema)}
    errors = sorted(OAS31Validator(root).iter_errors(response.get_json()), key=str)
    assert not errors, (method, path, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]])


@pytest.mark.db
def test_every_operation_of_the_document_is_sent(
    app: Flask, flask_client: FlaskClient, spec: dict[str, Any], db_backend: str
) -> None:
    sent = set()
    for path, item in spec["paths"].items():
        for method in (m for m in METHODS if m in item):
            operation = item[method]
            if path.startswith("/v1/games"):
                continue  # below, on a game of their own
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("example")
            url = path.replace("{preset_id}", "pagat") if "{" in path else path
            response = (
                getattr(flask_client, method)(url, json=body)
                if body is not None
                else getattr(flask_client, method)(url)
            )
            if response.mimetype != "application/json":
                continue  # the docs pages, the keeper's HTML
            assert_documented(spec, method, path, response)
            sent.add((method, path))
    assert ("post", "/v1/rounds/score") in sent and ("post", "/v1/rounds/compare") in sent

    for op in sorted(GAME_OPERATIONS, key=lambda op: op[0] == "delete"):  # DELETE last
        game_id = create_game(flask_client)["id"]
        append(flask_client, game_id, SEED_ROUND_1)
        etag = flask_client.get(f"/v1/games/{game_id}/rounds/1").headers["ETag"]
        assert_documented(spec, op[0], op[1], call(flask_client, op, game_id=game_id, etag=etag))


@pytest.mark.db
@pytest.mark.parametrize("form", ["tallies", "cards"])
def test_the_ready_answers_in_both_forms(
    flask_client: FlaskClient, spec: dict[str, Any], db_backend: str, form: str
) -> None:
    """The two ready answers, for a round in tallies and a round in cards with house rules."""
    if form == "cards":
        body, teams, rules = bench_rounds.append_body(), bench_rounds.game_teams(), {"clean_book_bonus": 450}
    else:
        body, teams, rules = {"round": 1, "teams": SEED_ROUND_1}, None, None
    game_id = create_game(flask_client, teams=teams, rules=rules)["id"]
    appended = flask_client.post(f"/v1/games/{game_id}/rounds", json=body)
    assert_documented(spec, "post", "/v1/games/{game_id}/rounds", appended)
    scored = flask_client.post("/v1/rounds/score", json={**body, "preset": "pagat", "rules": rules or {}})
    assert_documented(spec, "post", "/v1/rounds/score", scored)


def test_breakdown_lines_name_the_engines_fields() -> None:
    """``breakdown_data`` writes each line's members out by name: they are the engine's ``Line``
    fields, in their order, with each field's value (a schema check would not see two integers swapped)."""
    for body in (bench_rounds.score_body(), bench_rounds.tally_body()):
        for breakdown in score_round_body(body, rules_of(body).rules).teams:
            lines = breakdown_data(breakdown)["lines"]
            assert lines == [dict(zip(Line._fields, line, strict=True)) for line in breakdown.lines]
            assert [list(line) for line in lines] == [list(Line._fields)] * len(lines)


@pytest.mark.db
def test_an_undocumented_or_missing_typed_member_fails(
    flask_client: FlaskClient, spec: dict[str, Any], db_backend: str
) -> None:
    """The check can fail: an extra member, or a member of the wrong type, is reported."""
    game_id = create_game(flask_client)["id"]
    answer = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1})

    class Altered:
        status_code = 201

        def __init__(self, body: dict[str, Any]) -> None:
            self.body = body

        def get_json(self) -> dict[str, Any]:
            return self.body

        def get_data(self, as_text: bool = False) -> str:
            return str(self.body)

    for altered in ({**answer.get_json(), "undocumented": 1}, {**answer.get_json(), "number": "1"}):
        with pytest.raises(AssertionError):
            assert_documented(spec, "post", "/v1/games/{game_id}/rounds", Altered(altered))


WATCHED = (
    "ETag",
    "Location",
    "Link",
    "X-Pagination",
    "Idempotent-Replayed",
    "Retry-After",
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "Cache-Control",
    "Content-Disposition",
    "WWW-Authenticate",
    "X-Request-ID",
)


def documented(spec: dict[str, Any], method: str, path: str, status: int) -> set[str]:
    response = spec["paths"][path][method.lower()]["responses"][str(status)]
    if "$ref" in response:
        response = spec["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
    return set(response.get("headers", {}))


class Recorder:
    """Calls the API and records, per answer, the watched headers it sent that are not documented."""

    def __init__(self, flask_client: FlaskClient, spec: dict[str, Any], token: str) -> None:
        self.client, self.spec, self.auth = flask_client, spec, {"Authorization": f"Bearer {token}"}
        self.missing: list[tuple[str, str, int, str]] = []
        self.seen: set[str] = set()

    def call(self, method: str, template: str, path: str, *, auth: bool = True, **kw: Any) -> Any:
        headers = {**(self.auth if auth else {}), **kw.pop("headers", {})}
        response = self.client.open(path, method=method, headers=headers, **kw)
        sent = {name for name in WATCHED if name in response.headers}
        self.seen |= sent
        for name in sent - documented(self.spec, method, template, response.status_code):
            self.missing.append((method, template, response.status_code, name))
        return response


def test_every_sent_header_is_documented(make_app: Callable[..., Flask]) -> None:
    app = make_app(RATE_LIMIT="40/minute")
    spec = app.test_client().get("/openapi.json").get_json()
    _, token = create_key(get_db(app), "kitchen")
    r = Recorder(app.test_client(), spec, token)

    games, game, rounds = "/v1/games", "/v1/games/{game_id}", "/v1/games/{game_id}/rounds"
    rnd, revisions = "/v1/games/{game_id}/rounds/{number}", "/v1/games/{game_id}/rounds/{number}/revisions"
    created = r.call("POST", games, games, json=ex.GAME_CREATE_REQUEST)
    assert created.status_code == 201, created.get_json()
    r.call("POST", games, games, json=ex.GAME_CREATE_REQUEST)
    gid = created.get_json()["id"]
    key = {"Idempotency-Key": '"headers-documented-1"'}
    for _ in range(2):  # the second answer is the replay
        appended = r.call("POST", rounds, f"/v1/games/{gid}/rounds", json=ex.ROUND_REQUEST, headers=key)
        assert appended.status_code == 201, appended.get_json()
    r.call("GET", games, "/v1/games?page=1&page_size=1")
    etag = r.call("GET", game, f"/v1/games/{gid}").headers["ETag"]
    r.call("GET", game, f"/v1/games/{gid}", headers={"If-None-Match": etag})
    round_etag = r.call("GET", rnd, f"/v1/games/{gid}/rounds/1").headers["ETag"]
    r.call("PUT", rnd, f"/v1/games/{gid}/rounds/1", json=ex.ROUND_UPDATE_REQUEST)  # 428
    r.call("PUT", rnd, f"/v1/games/{gid}/rounds/1", json=ex.ROUND_UPDATE_REQUEST, headers={"If-Match": '"stale"'})
    r.call("PUT", rnd, f"/v1/games/{gid}/rounds/1", json=ex.ROUND_UPDATE_REQUEST, headers={"If-Match": round_etag})
    r.call("GET", revisions, f"/v1/games/{gid}/rounds/1/revisions?page_size=1")
    r.call("GET", "/v1/games/{game_id}/scoresheet", f"/v1/games/{gid}/scoresheet", headers={"Accept": "text/csv"})
    r.call("GET", game, "/v1/games/99999")
    r.call("GET", games, games, auth=False)  # 401: the server has a key
    r.call("POST", "/v1/rounds/score", "/v1/rounds/score", json={"preset": "pagat"})
    r.call("DELETE", game, f"/v1/games/{gid}", headers={"If-Match": '"stale"'})
    r.call("DELETE", game, f"/v1/games/{gid}")
    limited = None
    for _ in range(60):
        limited = r.call("GET", "/v1/presets", "/v1/presets")
        if limited.status_code == 429:
            break
    assert limited is not None and limited.status_code == 429

    assert not r.missing, "sent but not documented (api/spec.py, sent_headers):\n" + "\n".join(map(str, r.missing))
    assert r.seen == set(WATCHED), f"never sent here, so never checked: {set(WATCHED) - r.seen}"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
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
