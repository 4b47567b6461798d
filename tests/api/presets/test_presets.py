"""Issue 19 item 5 over HTTP: the score-sheet house rules in every preset's answer, settable in
`rules` (an out-of-range value is a 422 naming it), and the `warnings` of "what's layed is played"."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from handfoot.engine import PRESETS
from tests.api.app.test_problems import assert_problem
from tests.helpers.sides import per_side

NEW_RULES = (
    "hand_size_by_round",
    "foot_size_by_round",
    "jokers_per_deck",
    "clean_books_grow",
    "opening_needs_book",
    "perfect_cut_within_1_bonus",
    "perfect_cut_within_3_bonus",
    "rank_book_bonuses",
    "illegal_melds_stand",
    "threes_count_against",
    "decks_by_players",
    "red_threes_automatic",
    "draw_count",
    "players_alone_min",
    "players_alone_max",
    "players_in_teams_min",
    "players_in_teams_max",
    "sides_by_parity",
    "red_threes_automatic_foot",
    "pile_take_allowed",
)
KINGS_ILLEGAL = ["KS", "KH", "KD", "2C", "2D", "2H", "JK"]


def _body(preset: str, rules: dict[str, Any], melds: list[list[str]]) -> dict[str, Any]:
    published = PRESETS[preset].rules
    size = per_side(published, max(2, published.teams_min))
    teams = [
        {
            "name": f"S{i}",
            "melds": melds if i == 0 else [["9S", "9H", "9D"]],
            "players": [{"name": f"P{i}{p}", "hand": ["4H"]} for p in range(size)],
        }
        for i in range(max(2, published.teams_min))
    ]
    return {"preset": preset, "rules": rules, "round": 1, "teams": teams}


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_answers_each_new_rule_with_its_provenance(stateless_client: FlaskClient, preset: str) -> None:
    answer = stateless_client.get(f"/v1/presets/{preset}").json
    fields = {f["name"] for f in answer["fields"]}
    for name in NEW_RULES:
        assert name in answer["rules"] and name in answer["provenance"] and name in fields, name
        assert "seed" not in (answer["provenance"][name]["source"] + answer["provenance"][name]["note"]).lower()
    assert answer["rules"]["illegal_melds_stand"] is (preset == "hodges")
    assert answer["rules"]["threes_count_against"] is (preset == "hodges")
    assert answer["rules"]["draw_count"] == 2
    assert answer["rules"]["red_threes_automatic"] is (preset == "bga")
    assert answer["rules"]["sides_by_parity"] is (preset == "hodges")
    assert answer["rules"]["pile_take_allowed"] is (preset != "hodges")
    assert answer["rules"]["red_threes_automatic_foot"] == "picked_up"
    assert answer["rules"]["decks_by_players"] == ([5, 5, 5, 5, 6, 6] if preset == "wages" else [])
    assert answer["rules"]["rank_book_bonuses"] == [] and answer["rules"]["jokers_per_deck"] == 2


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize(
    ("rules", "pointer"),
    [
        ({"jokers_per_deck": 5}, "/rules/jokers_per_deck"),
        ({"hand_size_by_round": [11, 0]}, "/rules/hand_size_by_round/1"),
        ({"foot_size_by_round": [31]}, "/rules/foot_size_by_round/0"),
        ({"perfect_cut_within_1_bonus": 100_001}, "/rules/perfect_cut_within_1_bonus"),
        ({"perfect_cut_within_3_bonus": "20"}, "/rules/perfect_cut_within_3_bonus"),
        ({"clean_books_grow": "yes"}, "/rules/clean_books_grow"),
        ({"opening_needs_book": 1}, "/rules/opening_needs_book"),
        ({"illegal_melds_stand": None}, "/rules/illegal_melds_stand"),
        ({"rank_book_bonuses": [{"rank": "2", "bonus": 10}]}, "/rules/rank_book_bonuses/0/rank"),
        ({"rank_book_bonuses": [{"rank": "7", "bonus": -100_001}]}, "/rules/rank_book_bonuses/0/bonus"),
        ({"rank_book_bonuses": [{"rank": "7"}]}, "/rules/rank_book_bonuses/0/bonus"),
    ],
)
def test_an_out_of_range_house_rule_is_a_422_naming_it(
    stateless_client: FlaskClient, preset: str, rules: dict[str, Any], pointer: str
) -> None:
    problem = assert_problem(
        stateless_client.post("/v1/rounds/score", json=_body(preset, rules, [["7S", "7H", "7D"]])), 422
    )
    assert [e["pointer"] for e in problem["errors"]] == [pointer]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_set_house_rule_is_in_force_and_reported_as_overridden(stateless_client: FlaskClient, preset: str) -> None:
    sevens = ["7S", "7H", "7D", "7C", "7S", "7H", "7D"]
    rules = {"rank_book_bonuses": [{"rank": "7", "bonus": 1500}], "perfect_cut_within_1_bonus": 50}
    aces = ["AS", "AH", "AD", "AC"]  # with the sevens, past every round-1 opening minimum (D81)
    body = _body(preset, rules, [sevens, aces])
    body["teams"][0]["cuts_within_1"] = 1
    answer = stateless_client.post("/v1/rounds/score", json=body)
    assert answer.status_code == 200, answer.json
    side = answer.json["teams"][0]
    lines = {line["code"]: line["points"] for line in side["lines"]}
    assert lines["books_of_7"] == 1500 and lines["clean_books"] == 0 and lines["cut_within_1"] == 50
    assert side["warnings"] == []
    assert set(answer.json["rules_overridden"]) == set(rules)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_whats_layed_is_played_answers_warnings_not_a_422(stateless_client: FlaskClient, preset: str) -> None:
    stands = {"illegal_melds_stand": True}
    answer = stateless_client.post("/v1/rounds/score", json=_body(preset, stands, [KINGS_ILLEGAL]))
    assert answer.status_code == 200, answer.json
    warnings = answer.json["teams"][0]["warnings"]
    assert warnings and {w["pointer"] for w in warnings} == {"/teams/0/melds/0"}
    assert all(set(w) == {"pointer", "code", "detail"} and w["detail"] for w in warnings)
    refused = assert_problem(
        stateless_client.post("/v1/rounds/score", json=_body(preset, {"illegal_melds_stand": False}, [KINGS_ILLEGAL])),
        422,
    )
    assert sorted((e["pointer"], e["code"]) for e in refused["errors"]) == sorted(
        (w["pointer"], w["code"]) for w in warnings
    )


def test_hodges_lets_an_uncaught_meld_stand_by_default(stateless_client: FlaskClient) -> None:
    answer = stateless_client.post("/v1/rounds/score", json=_body("hodges", {}, [KINGS_ILLEGAL]))
    assert answer.status_code == 200, answer.json
    assert answer.json["teams"][0]["warnings"]
    assert not stateless_client.post("/v1/melds/validate", json={"preset": "hodges", "cards": KINGS_ILLEGAL}).json[
        "valid"
    ]


@pytest.mark.parametrize(("against", "table_points"), [(True, 30 - 3 * 300), (False, 30 + 3 * 300)])
def test_threes_standing_on_a_hodges_table_count_by_threes_count_against(
    stateless_client: FlaskClient, against: bool, table_points: int
) -> None:
    """D74: three black threes standing (what's layed is played) are -900 where threes count against
    their side (Hodges), and +900 where the house rules say they do not."""
    body = _body("hodges", {"threes_count_against": against}, [["KS", "KH", "KD"], ["3S", "3C", "3S"]])
    answer = stateless_client.post("/v1/rounds/score", json=body).json
    lines = {line["code"]: line["points"] for line in answer["teams"][0]["lines"]}
    assert lines["table_points"] == table_points
