"""What the app takes in: a body's size, shape and parse are bounded, every parse failure is a 4xx, and the
limits on values hold at their edges.

A request's work and its answer are bounded whatever its shape (issue 18, defect 2).

A 400 KB body of 100,000 empty sides once got a 9.4 MB problem document, one error per side, and
held a worker for seconds. Now the body's values and objects are counted on its bytes (``bytes.count``)
before the schema reads it, a body past the limits is refused as a whole, and a problem lists at
most :data:`MAX_ERRORS_LISTED` errors with the count of the rest. "Cheap" is shown by counting
the work (marshmallow field deserializations), not by a timing.

Every body over the limit is a 413 ``body-too-large``, however it is framed (issue 18, defect 3):
with a ``Content-Length``, and chunked (no ``Content-Length``), through the test client and through a
real server on a socket. A chunked body whose first MiB is valid JSON was once cut there and
answered 200. A chunked body within the limit still arrives whole.

Every exception that parsing untrusted input can raise is a 4xx (issue 18, defect 1).

The body is parsed twice on an idempotent POST: once by the schema's parser and once for the key's
fingerprint. Each hostile body below (nesting past the recursion limit, an integer past Python's
digit limit, bytes that are not UTF-8, lone surrogates) is sent with and without an
``Idempotency-Key`` to every route that takes a body, and hostile header values to the headers
the server reads.

Limits at their edges (the largest accepted, one more refused by name) and Unicode names kept intact.
"""

from __future__ import annotations

import http.client
import io
import json
from collections.abc import Iterator
from typing import Any

import marshmallow
import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st
from werkzeug.serving import WSGIRequestHandler

from handfoot.server import parsing
from handfoot.server.config import DEFAULT_MAX_BODY_BYTES
from handfoot.server.problems import MAX_ERRORS_LISTED, make_problem
from handfoot.server.resources.games.schemas import MAX_PAGE_SIZE
from handfoot.server.schemas import MAX_NAME_LENGTH, MAX_PLAYERS_PER_TEAM
from tests.conftest import examples, served
from tests.helpers.games import SEED_ROUND_1, TEAMS, append, create_game, out_round

EMPTY_SIDES = json.dumps({"preset": "pagat", "teams": [{}] * 100_000}).encode()


@pytest.fixture
def field_loads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts marshmallow field deserializations: the work validation does, item by item."""
    count = [0]
    original = marshmallow.fields.Field.deserialize

    def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        count[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(marshmallow.fields.Field, "deserialize", counting)
    yield count


def _paths(flask_client: FlaskClient) -> list[str]:
    game_id = create_game(flask_client)["id"]
    return ["/v1/rounds/score", "/v1/rounds/compare", "/v1/games", f"/v1/games/{game_id}/rounds"]


@pytest.mark.parametrize("key", [None, '"k"'])
def test_100000_empty_sides_are_refused_before_validation_walks_them(
    flask_client: FlaskClient, field_loads: list[int], key: str | None
) -> None:
    """100,000 empty sides once got a 9.4 MB problem and held a worker for seconds (issue 18, defect 2)."""
    paths = _paths(flask_client)
    headers = {"Content-Type": "application/json", **({"Idempotency-Key": key} if key else {})}
    for path in paths:
        field_loads[0] = 0
        response = flask_client.post(path, data=EMPTY_SIDES, headers=headers)
        assert response.status_code == 413, (path, response.status_code)
        problem = response.get_json()
        assert problem["type"].endswith("/body-too-large")
        assert [e["code"] for e in problem["errors"]] == ["body_too_complex"]
        assert len(response.get_data()) < 2_000
        assert field_loads[0] == 0, path  # the schema never saw it


def _json(value: Any) -> bytes:
    return json.dumps(value).encode()


@pytest.mark.parametrize(
    ("body", "what"),
    [
        (_json([0] * parsing.MAX_BODY_VALUES), "values"),
        (_json([[]] * (parsing.MAX_BODY_VALUES // 2)), "values"),
        (_json([{}] * (parsing.MAX_BODY_OBJECTS + 1)), "objects"),
    ],
)
def test_each_limit_is_refused_by_name(body: bytes, what: str) -> None:
    """Each limit is counted on the bytes and refused naming itself (values: commas, lists and
    objects; objects), so a client knows which one it passed."""
    with pytest.raises(parsing.BodyTooComplexError, match=what):
        parsing.check_counts(body)


def test_every_real_request_fits() -> None:
    """The limits sit exactly at their values: the largest body of each kind is taken and one more value
    or object is refused, so a limit off by one either way fails here (not only a body far past it). The
    counts are exact for bodies without ``{[,`` in strings."""
    parsing.check_counts(_json([0] * (parsing.MAX_BODY_VALUES - 1)))
    parsing.check_counts(_json([{}] * parsing.MAX_BODY_OBJECTS))
    parsing.check_counts(_json({"preset": "pagat", "teams": [{"name": "a, b {c} [d]"}]}))
    for body, what in (
        (_json([0] * parsing.MAX_BODY_VALUES), "values"),
        (_json([{}] * (parsing.MAX_BODY_OBJECTS + 1)), "objects"),
    ):
        with pytest.raises(parsing.BodyTooComplexError, match=what):
            parsing.check_counts(body)


@settings(max_examples=examples(300))
@given(data=st.text(alphabet="{[,x", max_size=14).map(str.encode))
def test_the_counts_are_those_of_the_bytes_whatever_their_length(data: bytes) -> None:
    """Bodies too short to reach a limit are not counted for it: the refusals are still exactly the
    counts' (limits made small here: 3 objects, 6 values, on bodies of up to 14 bytes of ``{[,x``)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parsing, "MAX_BODY_OBJECTS", 3)
        patch.setattr(parsing, "MAX_BODY_VALUES", 6)
        objects, values = data.count(b"{"), data.count(b"{") + data.count(b"[") + data.count(b",") + 1
        expected = "objects" if objects > 3 else "values" if values > 6 else None
        try:
            parsing.check_counts(data)
            got = None
        except parsing.BodyTooComplexError as err:
            got = "objects" if "objects" in str(err) else "values"
        assert got == expected


def test_deep_nesting_within_the_counts_is_not_walked(flask_client: FlaskClient, field_loads: list[int]) -> None:
    """Nesting has no limit of its own: a deep value where a side belongs is named as a wrong type
    without being walked (the schema reads only as deep as it is declared)."""
    deep = "[" * 500 + "]" * 500
    response = flask_client.post(
        "/v1/rounds/score", data=f'{{"preset": "pagat", "teams": [{deep}]}}', content_type="application/json"
    )
    assert response.status_code == 422
    assert [e["pointer"] for e in response.get_json()["errors"]] == ["/teams/0"]
    assert field_loads[0] <= 5


def test_a_problem_lists_the_first_errors_and_counts_the_rest(
    flask_client: FlaskClient, field_loads: list[int]
) -> None:
    """Within the shape limits, 900 bad sides: 100 errors listed, the rest counted."""
    sides = [{"name": 5}] * 900
    response = flask_client.post("/v1/rounds/score", json={"preset": "pagat", "teams": sides})
    assert response.status_code == 422
    problem = response.get_json()
    assert len(problem["errors"]) == MAX_ERRORS_LISTED
    assert problem["errors_not_listed"] == problem["errors_found"] - MAX_ERRORS_LISTED > 0
    assert problem["errors"][0]["pointer"].startswith("/teams/0/")
    assert field_loads[0] <= 20 * len(sides)  # linear in the sides, at most a few fields each


def test_a_short_error_list_is_whole() -> None:
    """Bounding the error list must not cut a short one or claim errors were left out."""
    errors = [{"pointer": f"/x/{i}", "code": "required", "detail": "d"} for i in range(3)]
    problem = make_problem(422, errors=errors)
    assert problem["errors"] == errors and "errors_not_listed" not in problem


def test_a_valid_round_is_unchanged(flask_client: FlaskClient) -> None:
    """The count must not change what a valid round scores."""
    response = flask_client.post("/v1/rounds/score", json={"preset": "pagat", "teams": SEED_ROUND_1})
    assert response.status_code == 200 and response.get_json()["teams"][0]["total"] == 3740


LIMIT = DEFAULT_MAX_BODY_BYTES
SCORE = "/v1/rounds/score"


def padded(size: int) -> bytes:
    """A valid score request padded with spaces to ``size`` bytes, then more bytes past it."""
    body = json.dumps({"preset": "pagat", "teams": out_round("A", "B")}).encode()
    return body + b" " * (size - len(body))


def _chunked(flask_client: FlaskClient, data: bytes) -> Any:
    return flask_client.post(
        SCORE,
        input_stream=io.BytesIO(data),
        content_type="application/json",
        headers={"Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )


def assert_too_large(status: int, problem: dict[str, Any]) -> None:
    assert status == 413
    assert problem["type"].endswith("/body-too-large")


def test_a_chunked_body_past_the_limit_is_413(flask_client: FlaskClient) -> None:
    """A chunked body was once cut at the limit and answered as if whole (issue 18, defect 3)."""
    response = _chunked(flask_client, padded(3 * LIMIT))
    assert_too_large(response.status_code, response.get_json())
    response = _chunked(flask_client, padded(LIMIT + 1))
    assert_too_large(response.status_code, response.get_json())


def test_a_chunked_body_at_the_limit_is_read_whole(flask_client: FlaskClient) -> None:
    """The chunked-body guard must not refuse or cut a body exactly at the limit."""
    response = _chunked(flask_client, padded(LIMIT))
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["teams"][0]["total"] == 3700


def test_a_declared_length_past_the_limit_is_413(flask_client: FlaskClient) -> None:
    """A body with a Content-Length past the limit is a 413 body-too-large, not read."""
    response = flask_client.post(SCORE, data=padded(LIMIT + 1), content_type="application/json")
    assert_too_large(response.status_code, response.get_json())


class _Quiet(WSGIRequestHandler):
    def log(self, *args: Any) -> None:
        pass


@pytest.fixture
def server(app: Flask) -> Iterator[int]:
    with served(app, _Quiet) as srv:
        yield srv.server_port


@pytest.mark.parametrize(("size", "status"), [(3 * LIMIT, 413), (LIMIT + 1, 413), (LIMIT, 200), (1000, 200)])
def test_chunked_bodies_on_a_real_socket(server: int, size: int, status: int) -> None:
    """The test client frames bodies its own way: the chunked limit must also hold on a real socket."""
    data = padded(size)
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=30)
    chunks = (data[i : i + 65536] for i in range(0, len(data), 65536))
    try:
        conn.request(
            "POST",
            SCORE,
            body=chunks,
            encode_chunked=True,
            headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
        )
        response = conn.getresponse()
        body = json.loads(response.read())
    finally:
        conn.close()
    assert response.status == status, body
    if status == 413:
        assert_too_large(response.status, body)


DEEP = b"[" * 100_000 + b"]" * 100_000
DEEP_OBJECT = b'{"a":' * 50_000 + b"1" + b"}" * 50_000
LONG_INT = b'{"name": ' + b"9" * 5_000 + b"}"
NOT_UTF8 = b'{"name": "\xff\xfe"}'
SURROGATE = b'{"name": "\\ud800"}'
BODIES = {
    "deep-list": DEEP,
    "deep-object": DEEP_OBJECT,
    "long-int": LONG_INT,
    "not-utf8": NOT_UTF8,
    "surrogate": SURROGATE,
}


@pytest.fixture
def paths(flask_client: FlaskClient) -> list[tuple[str, str]]:
    game_id = create_game(flask_client)["id"]
    return [
        ("POST", "/v1/games"),
        ("POST", f"/v1/games/{game_id}/rounds"),
        ("POST", "/v1/rounds/score"),
        ("POST", "/v1/rounds/compare"),
        ("PUT", f"/v1/games/{game_id}/rounds/1"),
    ]


@pytest.mark.parametrize("key", [None, '"k-1"'])
@pytest.mark.parametrize("kind", sorted(BODIES))
def test_hostile_bodies_are_4xx_on_every_path(
    flask_client: FlaskClient, paths: list[tuple[str, str]], kind: str, key: str | None
) -> None:
    """Parsing an untrusted body once raised past the 4xx handlers (issue 18, defect 1): never a 500."""
    headers = {"Content-Type": "application/json", "If-Match": '"x"'}
    if key is not None:
        headers["Idempotency-Key"] = key
    for method, path in paths:
        response = flask_client.open(path, method=method, data=BODIES[kind], headers=headers)
        assert 400 <= response.status_code < 500, (method, path, kind, response.status_code)
        assert response.content_type == "application/problem+json"


@pytest.mark.parametrize("value", ['"' + "\\" * 10 + '"', "\x7f", '"' * 300, "é", " "])
def test_hostile_idempotency_keys_are_4xx(flask_client: FlaskClient, value: str) -> None:
    """An Idempotency-Key is untrusted input too: a bad one is a 4xx, never a 500."""
    response = flask_client.post(
        "/v1/games", data=b"{}", headers={"Content-Type": "application/json", "Idempotency-Key": value}
    )
    assert 400 <= response.status_code < 500, response.status_code


@pytest.mark.parametrize(
    "header",
    ["If-Match", "If-None-Match", "Authorization", "Accept", "Content-Type", "Idempotency-Key", "Content-Length"],
)
@pytest.mark.parametrize("value", ['"\\', "\x00\x01", "W/" * 1000, "é" * 10, ";;==,,", "-1"])
def test_hostile_header_values_are_never_5xx(
    flask_client: FlaskClient, paths: list[tuple[str, str]], header: str, value: str
) -> None:
    """Hostile header values on every path never get a 5xx (issue 18, defect 1)."""
    for method, path in [
        *paths,
        ("GET", "/v1/games/1"),
        ("GET", "/v1/games/1/scoresheet"),
        ("GET", "/v1/games"),
        ("DELETE", "/v1/games/999"),
    ]:
        response = flask_client.open(
            path, method=method, data=b"{}", headers={"Content-Type": "application/json", header: value}
        )
        assert response.status_code < 500, (method, path, header, value, response.status_code)


UNICODE = "Zoë 🂡 北"


@pytest.mark.db
def test_unicode_names_are_stored_and_returned_intact(flask_client: FlaskClient, db_backend: str) -> None:
    """Names must come back exactly as sent: no normalisation, no lost characters, on every backend."""
    decomposed = "Zoe\u0308"  # NFD: not normalised either
    teams = [{"name": UNICODE, "players": [decomposed, "Ålesund 🃏"]}, {"name": "Team 2", "players": ["東", "ج"]}]
    game = create_game(flask_client, name=UNICODE, teams=teams)
    rnd = append(flask_client, game["id"], [{**SEED_ROUND_1[0], "name": UNICODE}, SEED_ROUND_1[1]])
    assert rnd["teams"][0]["name"] == UNICODE and rnd["request"]["teams"][0]["name"] == UNICODE
    again = flask_client.get(f"/v1/games/{game['id']}").get_json()
    assert again["name"] == UNICODE
    assert again["teams"][0] == {"name": UNICODE, "players": [decomposed, "Ålesund 🃏"]}
    assert again["totals"][0] == {"name": UNICODE, "total": 3740}
    listed = flask_client.get("/v1/games", query_string={"player": "zoe\u0308"}).get_json()
    assert [g["name"] for g in listed] == [UNICODE]
    csv = flask_client.get(f"/v1/games/{game['id']}/scoresheet", headers={"Accept": "text/csv"}).get_data(as_text=True)
    assert csv.splitlines()[0] == f'"round","{UNICODE}","{UNICODE} total","Team 2","Team 2 total"'


@pytest.mark.db
def test_name_length_is_counted_in_characters(flask_client: FlaskClient, db_backend: str) -> None:
    """A name's limit counts characters, not UTF-8 bytes: 100 four-byte characters fit, one more is refused."""
    longest = "🂡" * MAX_NAME_LENGTH  # 100 characters, 400 bytes in UTF-8
    assert create_game(flask_client, name=longest)["name"] == longest
    response = flask_client.post("/v1/games", json={"name": longest + "x", "preset": "pagat", "teams": TEAMS})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/name"


def test_players_per_side_limit(flask_client: FlaskClient) -> None:
    """One player past the per-side limit is refused naming the players list."""
    players = [f"p{i}" for i in range(MAX_PLAYERS_PER_TEAM + 1)]
    response = flask_client.post(
        "/v1/games", json={"name": "x", "preset": "bga", "teams": [{"name": "A", "players": players}, TEAMS[1]]}
    )
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/teams/0/players"


def test_page_size_limit(flask_client: FlaskClient) -> None:
    """The largest page size is accepted and one more is refused naming page_size."""
    assert flask_client.get("/v1/games", query_string={"page_size": MAX_PAGE_SIZE}).status_code == 200
    response = flask_client.get("/v1/games", query_string={"page_size": MAX_PAGE_SIZE + 1})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["parameter"] == "page_size"


def test_limits_are_in_the_spec(flask_client: FlaskClient) -> None:
    """A limit a client cannot read in the OpenAPI document is a surprise: each is published there."""
    spec = flask_client.get("/openapi.json").get_json()
    schemas = spec["components"]["schemas"]
    team = schemas["Team"]["properties"] if "Team" in schemas else None
    assert team is not None
    assert team["melds"]["maxItems"] == 60 and team["melds"]["items"]["maxItems"] == 200
    assert team["players"]["maxItems"] == MAX_PLAYERS_PER_TEAM
    assert team["name"]["maxLength"] == MAX_NAME_LENGTH and "pattern" in team["name"]
    assert schemas["GameCreate"]["properties"]["teams"]["maxItems"] == 12
    params = {p["name"]: p for p in spec["paths"]["/v1/games"]["get"]["parameters"]}
    assert params["page_size"]["schema"]["maximum"] == MAX_PAGE_SIZE
    assert params["page"]["schema"]["maximum"] == 1_000_000
    item = {p["name"]: p for p in spec["paths"]["/v1/games/{game_id}/rounds/{number}"]["parameters"]}
    assert item["game_id"]["schema"] == {"type": "integer", "minimum": 1, "maximum": 2**31 - 1}
    assert item["number"]["schema"] == {"type": "integer", "minimum": 1, "maximum": 50}
