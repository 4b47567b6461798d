"""The CSV score sheet never carries a live spreadsheet formula (issue 18, defect 4; OWASP "CSV
Injection"): a text cell that begins with ``=``, ``+``, ``-``, ``@``, tab or carriage return is
written with a leading ``'``; numbers (negative totals too) stay numbers; the JSON form is exact."""

from __future__ import annotations

import csv
import io

import pytest
from flask.testing import FlaskClient

from handfoot.server.resources.games.serializers import csv_cell, scoresheet_csv
from tests.helpers.games import create_game, tally

HOSTILE = ['=HYPERLINK("http://evil.example/","ok")', "+1+1", "-2+3", "@SUM(A1)"]


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


@pytest.mark.parametrize("name", HOSTILE)
def test_side_names_that_look_like_formulas_are_neutralised(flask_client: FlaskClient, name: str) -> None:
    teams = [{"name": name, "players": ["a", "b"]}, {"name": "Them", "players": ["c", "d"]}]
    game = create_game(flask_client, name=name, teams=teams)
    response = flask_client.post(f"/v1/games/{game['id']}/rounds", json={"teams": [
        tally(name, clean=1, table=200, left=1000), tally("Them", out=True, clean=2, dirty=2, wild=1, table=500)]})
    assert response.status_code == 201, response.get_json()
    sheet = flask_client.get(f"/v1/games/{game['id']}/scoresheet", headers={"Accept": "text/csv"}).get_data(
        as_text=True
    )
    header, row = _rows(sheet)
    assert header[1:3] == ["'" + name, f"'{name} total"]
    assert not any(cell[:1] in "=+-@\t\r" for cell in header if cell)
    assert int(row[1]) < 0 and row[1].startswith("-")  # a negative score is a number, not neutralised
    assert flask_client.get(f"/v1/games/{game['id']}/scoresheet").get_json()["teams"][0] == name  # JSON exact


@pytest.mark.parametrize("text", ["\tx", "\rx", "=1", "+", "-", "@"])
def test_every_dangerous_first_character_is_neutralised(text: str) -> None:
    assert csv_cell(text) == "'" + text
    sheet = {"teams": [text, "B"], "rows": [{"round": 1, "scores": [-5, 5], "totals": [-5, 5]}]}
    assert _rows(scoresheet_csv(sheet))[0][1] == "'" + text


@pytest.mark.parametrize("value", ["ok", "a=b", "", 0, -50, 12])
def test_other_cells_are_unchanged(value: object) -> None:
    assert csv_cell(value) == value
