"""Every error is RFC 9457 application/problem+json, with errors[] pointing at the culprit."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import marshmallow as ma
import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask.views import MethodView

from handfoot.engine.errors import PROBLEM_CODES, InvalidMeldError, Problem, RoundError
from handfoot.server import codes
from handfoot.server.blueprint import Blueprint
from handfoot.server.codes import SCHEMA_CODES as SCHEMA_ERROR_CODES
from handfoot.server.problems import (
    PROBLEM_TYPE_BASE,
    abort_problem,
    flatten_messages,
    json_pointer,
    problem_types,
)

PROBLEM_MEMBERS = {"type", "title", "status", "detail", "instance", "errors"}


def assert_problem(response: Any, status: int, slug: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body: dict[str, Any] = response.get_json(force=True)
    assert set(body) >= PROBLEM_MEMBERS, body
    assert body["status"] == status
    assert body["instance"] == response.request.path
    assert "Traceback" not in response.get_data(as_text=True)
    if slug is not None:
        assert body["type"] == PROBLEM_TYPE_BASE + slug
    assert body["type"] == "about:blank" or body["type"].startswith(PROBLEM_TYPE_BASE)
    if body["type"] != "about:blank":
        assert body["type"].removeprefix(PROBLEM_TYPE_BASE) in problem_types
    for item in body["errors"]:
        assert ("pointer" in item) != ("parameter" in item), item
        assert set(item) <= {"pointer", "parameter", "code", "detail"}
        assert item["code"] and item["detail"]
    return body


# --- a test-only blueprint with a nested body schema ------------------------------------------


class _TestTeamSchema(ma.Schema):
    name = ma.fields.String(required=True)
    melds = ma.fields.List(ma.fields.List(ma.fields.String()), load_default=list)
    score = ma.fields.Integer()


class _TestRoundSchema(ma.Schema):
    round = ma.fields.Integer(validate=ma.validate.Range(min=1))
    teams = ma.fields.List(ma.fields.Nested(_TestTeamSchema), required=True)


class _TestRoundQueryArgsSchema(ma.Schema):
    limit = ma.fields.Integer(validate=ma.validate.Range(min=1, max=10))


def make_test_blueprint() -> Blueprint:
    blp = Blueprint("Tests", __name__, url_prefix="/test", description="Test only.")

    @blp.route("/rounds")
    class Rounds(MethodView):
        @blp.arguments(_TestRoundQueryArgsSchema, location="query")
        @blp.arguments(_TestRoundSchema)
        @blp.response(200, _TestRoundSchema)
        def post(self, query: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
            return body

    @blp.route("/engine-error")
    def engine_error() -> None:
        raise RoundError(
            [
                Problem("two_sides_out", "Two teams went out (Pagat).", ("teams", 1, "went_out")),
                Problem("unknown_card", 'Not a card: "ZZ".', ("teams", 0, "melds", 1, 2)),
            ]
        )

    @blp.route("/meld-error")
    def meld_error() -> None:
        raise InvalidMeldError([Problem("meld_too_small", "A meld needs 3 cards.")])

    @blp.route("/conflict")
    def conflict() -> None:
        abort_problem(
            409,
            "Duplicate",
            "A key with this name exists.",
            errors=[{"pointer": "/name", "code": "duplicate", "detail": "Taken."}],
        )

    @blp.route("/unavailable")
    def unavailable() -> None:
        abort_problem(503, "Busy", "Try later.", retry_after=7)

    @blp.route("/boom")
    def boom() -> None:
        raise RuntimeError("secret internals")

    return blp


@pytest.fixture
def test_app(make_app: Callable[..., Flask]) -> Flask:
    app = make_app(PROPAGATE_EXCEPTIONS=False)
    app.extensions["handfoot.api"].register_blueprint(make_test_blueprint())
    return app


@pytest.fixture
def tc(test_app: Flask) -> FlaskClient:
    return test_app.test_client()


# --- HTTP-level errors --------------------------------------------------------------------------


def test_malformed_json_is_400(tc: FlaskClient) -> None:
    r = tc.post("/test/rounds", data='{"teams": [', content_type="application/json")
    body = assert_problem(r, 400, "malformed-json")
    assert body["errors"] == [{"pointer": "", "code": "malformed_json", "detail": "Invalid JSON body."}]


def test_invalid_utf8_is_400(tc: FlaskClient) -> None:
    r = tc.post("/test/rounds", data=b'{"teams": "\xff"}', content_type="application/json")
    assert_problem(r, 400, "malformed-json")


def test_unknown_route_is_404(flask_client: FlaskClient) -> None:
    body = assert_problem(flask_client.get("/v1/nothing-here"), 404, "not-found")
    assert body["errors"] == []


def test_wrong_method_is_405_with_allow(flask_client: FlaskClient) -> None:
    r = flask_client.delete("/health")
    assert_problem(r, 405, "method-not-allowed")
    assert "GET" in r.headers["Allow"]


@pytest.mark.parametrize("path", ["/test/rounds", "/health", "/nowhere"])
def test_two_megabyte_body_is_413(tc: FlaskClient, path: str) -> None:
    r = tc.post(path, data=b"x" * (2 * 1024 * 1024), content_type="application/json")
    body = assert_problem(r, 413, "body-too-large")
    assert "1048576" in body["detail"]


def test_body_limit_is_configurable(make_app: Callable[..., Flask]) -> None:
    app = make_app(MAX_CONTENT_LENGTH=10)
    r = app.test_client().post("/health", data=b"x" * 11)
    assert_problem(r, 413, "body-too-large")


def test_unhandled_exception_is_500_without_trace(tc: FlaskClient) -> None:
    r = tc.get("/test/boom")
    body = assert_problem(r, 500, "internal-error")
    assert "secret internals" not in r.get_data(as_text=True)
    assert "RuntimeError" not in r.get_data(as_text=True)
    assert body["errors"] == []


# --- schema errors (422) ------------------------------------------------------------------------


def test_valid_body_passes(tc: FlaskClient) -> None:
    payload = {"round": 1, "teams": [{"name": "A", "melds": [["KS", "KH", "KD"]]}]}
    r = tc.post("/test/rounds", json=payload)
    assert r.status_code == 200
    assert r.get_json() == payload


def test_nested_pointer(tc: FlaskClient) -> None:
    payload = {"teams": [{"name": "A", "melds": [["KS", "KH", "KD"], ["4S", "4H", 7]]}]}
    body = assert_problem(tc.post("/test/rounds", json=payload), 422, "validation-error")
    assert body["errors"] == [
        {"pointer": "/teams/0/melds/1/2", "code": "invalid_type", "detail": "Not a valid string."}
    ]


def test_unknown_field_named(tc: FlaskClient) -> None:
    payload = {"teams": [{"name": "A"}, {"name": "B", "colour": "red"}], "extra": 1}
    body = assert_problem(tc.post("/test/rounds", json=payload), 422)
    assert {(e["pointer"], e["code"]) for e in body["errors"]} == {
        ("/teams/1/colour", "unknown_field"),
        ("/extra", "unknown_field"),
    }


def test_string_where_integer_belongs(tc: FlaskClient) -> None:
    body = assert_problem(tc.post("/test/rounds", json={"round": "one", "teams": []}), 422)
    assert body["errors"] == [{"pointer": "/round", "code": "invalid_type", "detail": "Not a valid integer."}]


def test_required_and_invalid_value(tc: FlaskClient) -> None:
    body = assert_problem(tc.post("/test/rounds", json={"round": 0}), 422)
    codes = {e["pointer"]: e["code"] for e in body["errors"]}
    assert codes == {"/round": "invalid_value", "/teams": "required"}
    assert body["detail"] == "2 problems in the request."


def test_body_of_wrong_type_points_at_root(tc: FlaskClient) -> None:
    body = assert_problem(tc.post("/test/rounds", json=[1, 2]), 422)
    assert body["errors"] == [{"pointer": "", "code": "invalid_type", "detail": "Invalid input type."}]


def test_query_error_names_parameter(tc: FlaskClient) -> None:
    r = tc.post("/test/rounds?limit=abc", json={"teams": []})
    body = assert_problem(r, 422)
    assert body["errors"] == [{"parameter": "limit", "code": "invalid_type", "detail": "Not a valid integer."}]


def test_schema_codes_are_documented() -> None:
    assert set(SCHEMA_ERROR_CODES) >= {"required", "unknown_field", "invalid_type", "invalid_value"}


def test_one_catalogue_of_codes() -> None:
    """The engine's codes by reference, and no code in two groups (a code the engine takes over,
    such as ``duplicate_player`` did, leaves ``GAME_CODES``)."""
    assert codes.ENGINE_CODES is PROBLEM_CODES
    groups = [set(codes.ENGINE_CODES), set(codes.SCHEMA_CODES), set(codes.GAME_CODES)]
    assert sum(map(len, groups)) == len(codes.PROBLEM_CODES) == len(set.union(*groups))


API = Path(__file__).resolve().parents[3] / "api"
#: ``"code": "x"`` in a problem item, and the code of a service error's ``_item("x", ...)`` or of an
#: engine ``Problem("x", ...)`` the API makes.
CODE_LITERALS = re.compile(r'"code":\s*"([a-z_]+)"|(?:_item|Problem)\(\s*"([a-z_]+)"')


def test_every_code_the_api_sends_is_in_the_catalogue() -> None:
    sent = {a or b for path in API.rglob("*.py") for a, b in CODE_LITERALS.findall(path.read_text())}
    assert {"unknown_side", "missing_side", "etag_mismatch", "game_finished"} <= sent  # the scan finds them
    assert sent <= set(codes.PROBLEM_CODES), sent - set(codes.PROBLEM_CODES)


# --- engine errors and abort_problem ------------------------------------------------------------


def test_engine_error_is_422_with_pointers(tc: FlaskClient) -> None:
    body = assert_problem(tc.get("/test/engine-error"), 422, "invalid-round")
    assert body["title"] == RoundError.title
    assert body["errors"] == [
        {
            "pointer": "/teams/1/went_out",
            "code": "two_sides_out",
            "detail": "Two teams went out (Pagat).",
        },
        {"pointer": "/teams/0/melds/1/2", "code": "unknown_card", "detail": 'Not a card: "ZZ".'},
    ]
    assert body["detail"] == 'Two teams went out (Pagat).; Not a card: "ZZ".'
    assert all(e["code"] in PROBLEM_CODES for e in body["errors"])


def test_engine_error_with_empty_path(tc: FlaskClient) -> None:
    body = assert_problem(tc.get("/test/meld-error"), 422, "invalid-meld")
    assert body["errors"][0]["pointer"] == ""


def test_abort_problem_409(tc: FlaskClient) -> None:
    body = assert_problem(tc.get("/test/conflict"), 409, "conflict")
    assert body["title"] == "Duplicate"
    assert body["errors"] == [{"pointer": "/name", "code": "duplicate", "detail": "Taken."}]


def test_abort_problem_503_retry_after(tc: FlaskClient) -> None:
    r = tc.get("/test/unavailable")
    assert_problem(r, 503, "service-unavailable")
    assert r.headers["Retry-After"] == "7"


# --- units ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "pointer"),
    [
        ((), ""),
        (("teams", 0, "melds", 1, 2), "/teams/0/melds/1/2"),
        (("a/b", "m~n", ""), "/a~1b/m~0n/"),
    ],
)
def test_json_pointer(path: tuple[str | int, ...], pointer: str) -> None:
    assert json_pointer(path) == pointer


def test_flatten_messages_escapes_and_schema_level() -> None:
    messages = {
        "json": {"a/b": {"_schema": ["Bad pair."]}, "rules": {"x~y": ["Unknown field."]}},
        "headers": {"Idempotency-Key": ["Missing data for required field."]},
    }
    assert flatten_messages(messages) == [
        {"pointer": "/a~1b", "code": "invalid_value", "detail": "Bad pair."},
        {"pointer": "/rules/x~0y", "code": "unknown_field", "detail": "Unknown field."},
        {
            "parameter": "Idempotency-Key",
            "code": "required",
            "detail": "Missing data for required field.",
        },
    ]
