"""Every body over the limit is a 413 ``body-too-large``, however it is framed (issue 18, defect 3):
with a ``Content-Length``, and chunked (no ``Content-Length``), through the test client and through a
real server on a socket. A chunked body whose first MiB is valid JSON was once cut there and
answered 200. A chunked body within the limit still arrives whole."""

from __future__ import annotations

import http.client
import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.serving import WSGIRequestHandler

from handfoot.server.config import DEFAULT_MAX_BODY_BYTES
from tests.conftest import served
from tests.helpers.games import out_round

LIMIT = DEFAULT_MAX_BODY_BYTES
SCORE = "/v1/rounds/score"


def padded(size: int) -> bytes:
    """A valid score request padded with spaces to ``size`` bytes, then more bytes past it."""
    body = json.dumps({"preset": "pagat", "teams": out_round("A", "B")}).encode()
    return body + b" " * (size - len(body))


def _chunked(flask_client: FlaskClient, data: bytes) -> Any:
    return flask_client.post(SCORE, input_stream=io.BytesIO(data), content_type="application/json",
                       headers={"Transfer-Encoding": "chunked"},
                       environ_overrides={"wsgi.input_terminated": True})


def assert_too_large(status: int, problem: dict[str, Any]) -> None:
    assert status == 413
    assert problem["type"].endswith("/body-too-large")


def test_a_chunked_body_past_the_limit_is_413(flask_client: FlaskClient) -> None:
    response = _chunked(flask_client, padded(3 * LIMIT))
    assert_too_large(response.status_code, response.get_json())
    response = _chunked(flask_client, padded(LIMIT + 1))
    assert_too_large(response.status_code, response.get_json())


def test_a_chunked_body_at_the_limit_is_read_whole(flask_client: FlaskClient) -> None:
    response = _chunked(flask_client, padded(LIMIT))
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["teams"][0]["total"] == 3700


def test_a_declared_length_past_the_limit_is_413(flask_client: FlaskClient) -> None:
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
    data = padded(size)
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=30)
    chunks = (data[i:i + 65536] for i in range(0, len(data), 65536))
    try:
        conn.request("POST", SCORE, body=chunks, encode_chunked=True,
                     headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"})
        response = conn.getresponse()
        body = json.loads(response.read())
    finally:
        conn.close()
    assert response.status == status, body
    if status == 413:
        assert_too_large(response.status, body)
