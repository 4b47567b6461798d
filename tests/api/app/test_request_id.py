"""``X-Request-ID`` on every answer (api/logs.py ``send_request_id``): the client's own when it is
well formed, else one the server makes, on successes and problem answers alike."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

HEX_ID = re.compile(r"[0-9a-f]{32}")


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("GET", "/health", None, 200),
        ("GET", "/v1/presets", None, 200),
        ("GET", "/v1/games/999999", None, 404),
        ("POST", "/v1/rounds/score", {"preset": "pagat"}, 422),
        ("DELETE", "/v1/presets", None, 405),
        ("GET", "/", None, 200),
    ],
)
def test_every_answer_carries_a_fresh_id(
    flask_client: FlaskClient, method: str, path: str, body: object, status: int
) -> None:
    """Clients and logs quote the id of any answer, an error's above all; two requests never share one."""
    first = flask_client.open(path, method=method, json=body)
    second = flask_client.open(path, method=method, json=body)
    assert first.status_code == status, first.get_data(as_text=True)
    ids = [first.headers.get("X-Request-ID", ""), second.headers.get("X-Request-ID", "")]
    assert all(HEX_ID.fullmatch(i) for i in ids), ids
    assert ids[0] != ids[1]


@pytest.mark.parametrize("sent", ["abc-123", "trace.ID_9", "x" * 64])
def test_a_well_formed_client_id_is_echoed(flask_client: FlaskClient, sent: str) -> None:
    """A client (or proxy) that names its request finds that name on the answer, to match logs on both sides."""
    answer = flask_client.get("/v1/games/999999", headers={"X-Request-ID": sent})
    assert answer.status_code == 404
    assert answer.headers["X-Request-ID"] == sent


@pytest.mark.parametrize("sent", ["", "x" * 65, "has space", "semi;colon", "é"])
def test_an_ill_formed_client_id_is_replaced(flask_client: FlaskClient, sent: str) -> None:
    """An id that is too long or holds other characters is not written back into headers and logs."""
    answer = flask_client.get("/health", headers={"X-Request-ID": sent})
    assert HEX_ID.fullmatch(answer.headers["X-Request-ID"])


def test_no_request_keeps_a_cookie_session(flask_client: FlaskClient) -> None:
    """No answer sets a cookie, and ``flask.session`` is read-only (Flask's null session: the server's
    secret is not Flask's ``SECRET_KEY``, api/secret.py): a write to it fails loudly instead of
    signing a cookie with the server's secret."""
    import flask

    answer = flask_client.post("/v1/rounds/score", json={"preset": "pagat"})
    assert answer.status_code == 422 and "Set-Cookie" not in answer.headers
    app = flask_client.application
    with app.test_request_context("/v1/presets"), pytest.raises(RuntimeError):
        flask.session["kept"] = True
