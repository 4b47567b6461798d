"""Every statement a write runs is one statement: none is a driver's executemany, which
PostgreSQL's driver sends as a round trip a row (an append's sides' facts were four). Counted on
every write route that stores several rows of a round (``@pytest.mark.db``: SQLite and PostgreSQL
alike); a table action that logs a due answer with itself: test_transactions.py."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.helpers.counting import counted
from tests.helpers.games import SEED_ROUND_1, append, create_game, out_round
from tests.helpers.tables import create, play_round

pytestmark = pytest.mark.db


def test_the_game_routes_run_no_executemany(app: Flask, flask_client: FlaskClient) -> None:
    with counted(app) as seen:
        game = create_game(flask_client)
        append(flask_client, game["id"], SEED_ROUND_1)
        appended = append(flask_client, game["id"], out_round("Team 2", "Team 1"))
        corrected = flask_client.put(
            f"/v1/games/{game['id']}/rounds/2",
            json={"teams": out_round("Team 1", "Team 2")},
            headers={"If-Match": "*"},
        )
        assert corrected.status_code == 200, corrected.get_json()
        deleted = flask_client.delete(f"/v1/games/{game['id']}/rounds/2", headers={"If-Match": "*"})
        assert deleted.status_code in (200, 204), deleted.get_json()
    assert appended["number"] == 2, appended
    assert any("round_sides" in s for s in seen.writes()), seen.statements
    assert seen.many == [], seen.many


def test_a_table_storing_its_round_runs_no_executemany(app: Flask, flask_client: FlaskClient) -> None:
    created = create(flask_client)
    with counted(app) as seen:
        play_round(flask_client, app, created)
    assert any(s.startswith("INSERT INTO round_sides") for s in seen.writes()), seen.writes()
    assert seen.many == [], seen.many
