"""Every exception that parsing untrusted input can raise is a 4xx (issue 18, defect 1).

The body is parsed twice on an idempotent POST: once by the schema's parser and once for the key's
fingerprint. Each hostile body below (nesting past the recursion limit, an integer past Python's
digit limit, bytes that are not UTF-8, lone surrogates) is sent with and without an
``Idempotency-Key`` to every route that takes a body, and hostile header values to the headers
the server reads.
"""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.helpers.games import create_game

DEEP = b"[" * 100_000 + b"]" * 100_000
DEEP_OBJECT = b'{"a":' * 50_000 + b"1" + b"}" * 50_000
LONG_INT = b'{"name": ' + b"9" * 5_000 + b"}"
NOT_UTF8 = b'{"name": "\xff\xfe"}'
SURROGATE = b'{"name": "\\ud800"}'
BODIES = {"deep-list": DEEP, "deep-object": DEEP_OBJECT, "long-int": LONG_INT, "not-utf8": NOT_UTF8,
          "surrogate": SURROGATE}


@pytest.fixture
def paths(flask_client: FlaskClient) -> list[tuple[str, str]]:
    game_id = create_game(flask_client)["id"]
    return [("POST", "/v1/games"), ("POST", f"/v1/games/{game_id}/rounds"), ("POST", "/v1/rounds/score"),
            ("POST", "/v1/rounds/compare"), ("PUT", f"/v1/games/{game_id}/rounds/1")]


@pytest.mark.parametrize("key", [None, '"k-1"'])
@pytest.mark.parametrize("kind", sorted(BODIES))
def test_hostile_bodies_are_4xx_on_every_path(flask_client: FlaskClient, paths: list[tuple[str, str]], kind: str,
                                              key: str | None) -> None:
    headers = {"Content-Type": "application/json", "If-Match": '"x"'}
    if key is not None:
        headers["Idempotency-Key"] = key
    for method, path in paths:
        response = flask_client.open(path, method=method, data=BODIES[kind], headers=headers)
        assert 400 <= response.status_code < 500, (method, path, kind, response.status_code)
        assert response.content_type == "application/problem+json"


@pytest.mark.parametrize("value", ['"' + "\\" * 10 + '"', "\x7f", '"' * 300, "é", " "])
def test_hostile_idempotency_keys_are_4xx(flask_client: FlaskClient, value: str) -> None:
    response = flask_client.post("/v1/games", data=b"{}", headers={"Content-Type": "application/json",
                                                              "Idempotency-Key": value})
    assert 400 <= response.status_code < 500, response.status_code


@pytest.mark.parametrize("header", ["If-Match", "If-None-Match", "Authorization", "Accept", "Content-Type",
                                    "Idempotency-Key", "Content-Length"])
@pytest.mark.parametrize("value", ['"\\', "\x00\x01", "W/" * 1000, "é" * 10, ";;==,,", "-1"])
def test_hostile_header_values_are_never_5xx(flask_client: FlaskClient, paths: list[tuple[str, str]], header: str,
                                             value: str) -> None:
    for method, path in [*paths, ("GET", "/v1/games/1"), ("GET", "/v1/games/1/scoresheet"), ("GET", "/v1/games"),
                         ("DELETE", "/v1/games/999")]:
        response = flask_client.open(path, method=method, data=b"{}",
                               headers={"Content-Type": "application/json", header: value})
        assert response.status_code < 500, (method, path, header, value, response.status_code)
