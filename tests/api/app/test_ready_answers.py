"""Every successful JSON answer matches the schema the OpenAPI document gives it, with no member the
schema does not document.

Two routes answer without dumping through their schema, for speed: ``POST /v1/rounds/score``
(``breakdown_data``) and ``POST /v1/games/{game_id}/rounds`` (``serializers.round_answer``). This
test sends every operation of the document (its documented request example, or the games cases of
``games_routes.py``) and validates each 2xx answer against the documented response schema, so those
answers, and any a route sends ready in future, are checked against what the document promises.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from openapi_schema_validator import OAS31Validator

from bench import rounds as bench_rounds
from tests.helpers.game_routes import GAME_OPERATIONS, call
from tests.helpers.games import SEED_ROUND_1, append, create_game

pytestmark = pytest.mark.db

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
                errors = sorted(OAS31Validator({"components": _closed(copy.deepcopy(spec["components"])),
                                                **_closed(documented["content"][response.mimetype]["schema"])})
                                .iter_errors(json.loads(line)), key=str)
                assert not errors, (method, path, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]])
        return
    schema = documented["content"]["application/json"]["schema"]
    root = {"components": _closed(copy.deepcopy(spec["components"])), **_closed(schema)}
    errors = sorted(OAS31Validator(root).iter_errors(response.get_json()), key=str)
    assert not errors, (method, path, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]])


def test_every_operation_of_the_document_is_sent(app: Flask, flask_client: FlaskClient, spec: dict[str, Any],
                                                 db_backend: str) -> None:
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
