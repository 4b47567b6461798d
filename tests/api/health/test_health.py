"""GET /health: 200 when the database answers, 503 problem+json with Retry-After when not."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from handfoot.server import create_app


@pytest.mark.db
def test_health_ok(flask_client: FlaskClient, db_backend: str) -> None:
    r = flask_client.get("/health")
    assert r.status_code == 200
    assert r.mimetype == "application/json"
    assert r.get_json() == {"status": "ok", "database": "ok"}


def test_health_database_down_is_503() -> None:
    # Nothing listens on port 1: the connection is refused at once.
    app = create_app({"TESTING": True, "DATABASE_URL": "postgresql+psycopg://nobody@127.0.0.1:1/none"})
    r = app.test_client().get("/health")
    assert r.status_code == 503
    assert r.mimetype == "application/problem+json"
    assert r.headers["Retry-After"] == "5"
    body = r.get_json(force=True)
    assert body["type"] == "https://handfoot.dev/problems/service-unavailable"
    assert body["status"] == 503
    assert body["instance"] == "/health"
    assert "nobody" not in r.get_data(as_text=True)  # no connection details leak
