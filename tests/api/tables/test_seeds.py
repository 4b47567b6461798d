"""Seeds no seat can predict (issue 29): a table's default seed is drawn from :mod:`secrets` at 63 bits
and each round's is derived with the server's secret; a seed chosen by the table's creator makes a
practice deal (``practice``: true), whose rounds' seeds are derived from it alone, as before."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from handfoot.server.secret import secret_key
from handfoot.server.services import tables as tables_svc
from handfoot.server.services.tables import MAX_SEED, round_seed
from tests.helpers.tables import TEAMS, create, play_round, seat_headers, true_state, true_table

pytestmark = pytest.mark.db


def _random_table(flask_client: FlaskClient, **extra: Any) -> dict[str, Any]:
    response = flask_client.post("/v1/tables", json={"name": "Ranked", "preset": "pagat", "teams": TEAMS, **extra})
    assert response.status_code == 201, response.get_json()
    created: dict[str, Any] = response.get_json()
    return created


def test_the_default_seed_is_drawn_from_secrets_at_63_bits(
    app: Flask, flask_client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[int] = []
    real = tables_svc.secrets.randbelow

    def randbelow(n: int) -> int:
        drawn.append(n)
        return real(n)

    monkeypatch.setattr(tables_svc.secrets, "randbelow", randbelow)
    created = _random_table(flask_client)
    assert drawn == [MAX_SEED + 1] == [2**63]
    assert created["practice"] is False
    assert flask_client.get(created["href"]).get_json()["practice"] is False
    assert 0 <= true_table(app, created["id"]).seed <= MAX_SEED


def test_a_random_tables_rounds_are_dealt_from_seeds_keyed_with_the_server_secret(
    app: Flask, flask_client: FlaskClient
) -> None:
    """Knowing the table's seed and every ended round's seed, a seat still cannot compute the next
    round's: it is an HMAC with the server's secret. Each round's seed is shown once it has ended."""
    created = _random_table(flask_client, rules={"rounds": 2})
    table_seed, key = true_table(app, created["id"]).seed, secret_key(app)
    first = true_state(app, created["id"]).seed
    assert first == round_seed(table_seed, 1, key) != round_seed(table_seed, 1)
    ended = play_round(flask_client, app, created)
    log = flask_client.get(ended["last_round"]["href"], headers=seat_headers(created, 1)).get_json()
    assert log["seed"] == ended["last_round"]["seed"] == first  # revealed with the round's log, once ended
    second = true_state(app, created["id"]).seed
    assert second == round_seed(table_seed, 2, key) != round_seed(table_seed, 2)
    assert round_seed(table_seed, 2, b"another server's secret, 32 bytes") != second


def test_a_chosen_seed_makes_a_practice_deal_shown_in_the_summary(app: Flask, flask_client: FlaskClient) -> None:
    created = create(flask_client, rules={"rounds": 2})  # seed 424242
    assert created["practice"] is True
    summary = flask_client.get(created["href"]).get_json()
    assert summary["practice"] is True
    assert true_state(app, created["id"]).seed == round_seed(424242, 1)  # public: replays and tests
    play_round(flask_client, app, created)
    assert true_state(app, created["id"]).seed == round_seed(424242, 2)
    continued = flask_client.post("/v1/games", json={"name": "Later", "preset": "pagat", "teams": TEAMS}).get_json()
    chosen = flask_client.post("/v1/tables", json={"game": continued["id"], "seed": 0}).get_json()
    assert chosen["practice"] is True  # seed 0 is chosen too


def test_the_openapi_document_shows_practice(flask_client: FlaskClient) -> None:
    schemas = flask_client.get("/openapi.json").get_json()["components"]["schemas"]
    for name in ("Table", "TableCreated"):
        assert schemas[name]["properties"]["practice"]["type"] == "boolean"
        assert "practice" in schemas[name]["required"]
