"""The one-pass card list fields (api/schemas.py CardList, MeldList) answer exactly like the
per-item fields they replace: the same values, and on bad items the same pointers and codes."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from handfoot.server.schemas import Cards, Melds, Schema

ROUND: dict[str, Any] = {
    "preset": "pagat",
    "round": 1,
    "teams": [
        {"name": "A", "went_out": False, "melds": [["KS", "KH", "KD"], ["9S", "9H", "2C"]],
         "players": [{"name": "N", "hand": ["4S"]}, {"name": "S", "hand": [], "foot": ["QS"]}]},
        {"name": "B", "went_out": False, "melds": [["5S", "5H", "5D"]],
         "players": [{"name": "E", "hand": ["7S"]}, {"name": "W", "hand": ["8D"]}]},
    ],
}


class _Lists(Schema):
    cards = Cards("cards")
    melds = Melds("melds")


def test_valid_lists_load_as_lists() -> None:
    data = {"cards": ["KS", "10♠", "jk"], "melds": [["KS", "KH"], []]}
    assert _Lists().load(data) == data


@pytest.mark.parametrize(
    ("where", "value", "pointer"),
    [
        (("teams", 0, "melds", 1, 2), 5, "/teams/0/melds/1/2"),
        (("teams", 1, "melds", 0, 1), "X" * 9, "/teams/1/melds/0/1"),
        (("teams", 0, "players", 1, "foot", 0), None, "/teams/0/players/1/foot/0"),
        (("teams", 1, "players", 0, "hand", 0), ["KS"], "/teams/1/players/0/hand/0"),
        (("teams", 0, "melds", 1), "KS", "/teams/0/melds/1"),
        (("teams", 0, "melds"), "KS", "/teams/0/melds"),
    ],
)
def test_bad_items_are_named_by_position(flask_client: Any, where: tuple[Any, ...], value: Any, pointer: str) -> None:
    body = copy.deepcopy(ROUND)
    target = body
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    response = flask_client.post("/v1/rounds/score", json=body)
    assert response.status_code == 422
    assert response.headers["Content-Type"].startswith("application/problem+json")
    assert [e["pointer"] for e in response.get_json()["errors"]] == [pointer]


def test_too_many_cards_and_melds(flask_client: Any) -> None:
    body = copy.deepcopy(ROUND)
    body["teams"][0]["players"][0]["hand"] = ["4S"] * 201
    body["teams"][1]["melds"] = [["5S", "5H", "5D"]] * 61
    response = flask_client.post("/v1/rounds/score", json=body)
    assert response.status_code == 422
    pointers = sorted(e["pointer"] for e in response.get_json()["errors"])
    assert pointers == ["/teams/0/players/0/hand", "/teams/1/melds"]


def test_unknown_card_is_named_by_the_engine(flask_client: Any) -> None:
    body = copy.deepcopy(ROUND)
    body["teams"][1]["melds"][0][2] = "ZZ"
    response = flask_client.post("/v1/rounds/score", json=body)
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert [(e["pointer"], e["code"]) for e in errors] == [("/teams/1/melds/0/2", "unknown_card")]
