"""POST /v1/rounds/score, /v1/rounds/compare, the presets and the check operations over HTTP.

Impossible end states through the HTTP API: scoring and game appends refuse them alike (422
naming the input and the rule), and a refused append writes nothing (docs/rules-decisions.md D20-D22).

A tally may leave out the counts that are zero: the server takes them as 0 (issue 20, item 3).

Every count of every worked case in tally form, left out whenever it is 0, scores exactly as the
whole tally, on the score endpoint and when appended to a game; an empty tally is a side that
scored nothing; and the document gives every count the default 0 and requires none.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from handfoot.engine import PRESETS, PROBLEM_CODES
from handfoot.server.resources.rounds.schemas import TallySchema
from tests.api.app.test_problems import assert_problem
from tests.conftest import RULE_CASES, WORKED_CASES
from tests.helpers.games import create_game, tally


def worked(form: str) -> dict[str, Any]:
    request: dict[str, Any] = json.loads((WORKED_CASES / f"s0-worked-round-{form}.json").read_text())["request"]
    return request


def test_worked_round_every_line(stateless_client: FlaskClient) -> None:
    body = stateless_client.post("/v1/rounds/score", json=worked("cards")).json
    assert body["preset"] == "pagat" and body["round"] == 1 and body["rules_overridden"] == []
    one, two = body["teams"]
    assert [(ln["code"], ln["count"], ln["points_each"], ln["points"]) for ln in one["lines"]] == [
        ("clean_books", 2, 500, 1000),
        ("dirty_books", 2, 300, 600),
        ("wild_books", 1, 1500, 1500),
        ("going_out", 1, 100, 100),
        ("red_threes_on_table", 1, 100, 100),
        ("red_threes_caught", 0, -100, 0),
        ("table_points", None, None, 465),
        ("points_left", None, None, -25),
    ]
    assert one["total"] == 3740 and two["total"] == 1075
    assert {ln["code"]: ln["points"] for ln in two["lines"]} == {
        "clean_books": 500,
        "dirty_books": 600,
        "wild_books": 0,
        "going_out": 0,
        "red_threes_on_table": 0,
        "red_threes_caught": -100,
        "table_points": 260,
        "points_left": -185,
    }


def test_cards_and_tally_forms_answer_identically(stateless_client: FlaskClient) -> None:
    cards = stateless_client.post("/v1/rounds/score", json=worked("cards")).json
    tally = stateless_client.post("/v1/rounds/score", json=worked("tally")).json
    assert cards == tally


@pytest.mark.parametrize(
    ("form", "rules"),
    [("cards", {}), ("tally", {}), ("cards", {"clean_book_bonus": 400}), ("cards", {"after_book": "burn"})],
)
def test_answer_is_the_documented_schema_dump(stateless_client: FlaskClient, form: str, rules: dict[str, Any]) -> None:
    """The score answer is built without marshmallow; it must be byte for byte what dumping it through
    RoundScoreSchema (the documented response) and jsonify gave."""
    from flask import jsonify

    from handfoot.engine import resolve_rules, round_from_mapping, score_round
    from handfoot.server.resources.rounds.schemas import RoundScoreSchema

    body = {**worked(form), "rules": rules}
    response = stateless_client.post("/v1/rounds/score", json=body)
    assert response.status_code == 200, response.json
    resolved = resolve_rules(body["preset"], rules)
    score = score_round(round_from_mapping(body), resolved.rules)
    expected = RoundScoreSchema().dump(
        {
            "preset": resolved.preset.id,
            "round": score.round,
            "rules_overridden": list(resolved.overridden),
            "teams": score.teams,
        }
    )
    with stateless_client.application.app_context():
        assert response.data == jsonify(expected).get_data()


def bad(stateless_client: FlaskClient, body: Any, status: int, pointer: str, code: str, **kw: Any) -> dict[str, Any]:
    response = (
        stateless_client.post("/v1/rounds/score", json=body, **kw)
        if body is not None
        else stateless_client.post("/v1/rounds/score", **kw)
    )
    problem = assert_problem(response, status)
    assert any(e.get("pointer") == pointer and e["code"] == code for e in problem["errors"]), problem
    return problem


def test_malformed_json(stateless_client: FlaskClient) -> None:
    bad(
        stateless_client,
        None,
        400,
        "",
        "malformed_json",
        data='{"preset": "pagat", "teams": [',
        content_type="application/json",
    )


def test_unknown_card_names_its_position(stateless_client: FlaskClient) -> None:
    body = worked("cards")
    body["teams"][1]["melds"][2][3] = "1X"
    body["teams"][0]["players"][1]["hand"][0] = "ZZ"
    problem = bad(stateless_client, body, 422, "/teams/1/melds/2/3", "unknown_card")
    assert any(e["pointer"] == "/teams/0/players/1/hand/0" for e in problem["errors"])
    assert "1X" in problem["detail"]


def test_unknown_preset(stateless_client: FlaskClient) -> None:
    bad(stateless_client, {**worked("tally"), "preset": "poker"}, 422, "/preset", "unknown_preset")


def test_negative_tally(stateless_client: FlaskClient) -> None:
    body = worked("tally")
    body["teams"][1]["tally"]["points_left"] = -185
    bad(stateless_client, body, 422, "/teams/1/tally/points_left", "negative_tally")


def test_string_where_a_number_belongs(stateless_client: FlaskClient) -> None:
    body = worked("tally")
    body["teams"][0]["tally"]["table_points"] = "465"
    bad(stateless_client, body, 422, "/teams/0/tally/table_points", "invalid_type")


def test_two_megabyte_body(stateless_client: FlaskClient) -> None:
    body = worked("cards")
    body["teams"][0]["name"] = "x" * 2_000_000
    assert_problem(stateless_client.post("/v1/rounds/score", json=body), 413)


def test_unknown_field_is_named(stateless_client: FlaskClient) -> None:
    body = worked("tally")
    body["teams"][0]["tally"]["bonus"] = 5
    bad(stateless_client, body, 422, "/teams/0/tally/bonus", "unknown_field")


def test_tally_and_cards_together_refused(stateless_client: FlaskClient) -> None:
    body = worked("tally")
    body["teams"][0]["melds"] = [["KS", "KH", "KD"]]
    bad(stateless_client, body, 422, "/teams/0/tally", "invalid_value")


@pytest.mark.parametrize(
    ("rules", "pointer", "code"),
    [
        ({"clean_book_bonus": "500"}, "/rules/clean_book_bonus", "invalid_type"),
        ({"not_a_rule": 1}, "/rules/not_a_rule", "unknown_field"),
        ({"hand_size": 0}, "/rules/hand_size", "invalid_value"),
        ({"all_wild_melds": False}, "/rules/contract/wild_books", "inconsistent_rules"),
        ({"decks_extra": 0, "decks_per_player": 0}, "/rules/decks_extra", "inconsistent_rules"),
        ({"wild_ratio": "twice", "max_wilds_per_book": 0}, "/rules/wild_ratio", "inconsistent_rules"),
        ({"contract": {"wild_books": 9}}, "/rules/contract/wild_books", "inconsistent_rules"),
    ],
)
def test_house_rules_refused_by_name(
    stateless_client: FlaskClient, rules: dict[str, Any], pointer: str, code: str
) -> None:
    bad(stateless_client, {**worked("tally"), "rules": rules}, 422, pointer, code)


def test_house_rules_change_the_score(stateless_client: FlaskClient) -> None:
    body = stateless_client.post("/v1/rounds/score", json={**worked("tally"), "rules": {"clean_book_bonus": 400}}).json
    assert body["rules_overridden"] == ["clean_book_bonus"]
    assert [t["total"] for t in body["teams"]] == [3740 - 200, 1075 - 100]


def test_rule_breaking_round_names_the_rule(stateless_client: FlaskClient) -> None:
    body = worked("cards")
    body["teams"][1]["went_out"] = True
    problem = assert_problem(stateless_client.post("/v1/rounds/score", json=body), 422, "invalid-round")
    codes = {e["code"] for e in problem["errors"]}
    assert {"two_sides_out", "contract_not_met"} <= codes
    assert codes <= set(PROBLEM_CODES)


def test_compare_presets(stateless_client: FlaskClient) -> None:
    body = {k: v for k, v in worked("tally").items() if k != "preset"}
    answer = stateless_client.post(
        "/v1/rounds/compare", json={**body, "presets": ["pagat", "bga", "bicycle", "hodges"]}
    ).json
    results = {r["preset"]: r for r in answer["results"]}
    assert [t["total"] for t in results["pagat"]["teams"]] == [3740, 1075]
    # bga lays a foot's red threes out only once it is picked up (D76): Pagat's worked round scores there
    assert results["bga"]["valid"] is True
    assert [t["total"] for t in results["bga"]["teams"]] == [3740, 1075]
    assert results["bicycle"]["valid"] is False  # bicycle has no wild books
    assert {p["code"] for p in results["bicycle"]["problems"]} >= {"all_wild_not_allowed"}
    # hodges: no red threes laid out, no wild books
    assert results["hodges"]["valid"] is False
    bad_preset = stateless_client.post("/v1/rounds/compare", json={**body, "presets": ["pagat", "nope"]})
    assert any(e["pointer"] == "/presets/1" for e in assert_problem(bad_preset, 422)["errors"])


def test_presets_list_and_detail(stateless_client: FlaskClient) -> None:
    listed = stateless_client.get("/v1/presets").json
    assert [p["id"] for p in listed] == list(PRESETS)
    hodges = stateless_client.get("/v1/presets/hodges").json
    assert hodges["rules"]["black_three_points"] == 300
    assert hodges["provenance"]["black_three_points"] == {
        "kind": "stated",
        "source": "the Hodges family rules",
        "note": "black 3: -300 points",
    }
    assert hodges["provenance"]["pile_take_count"]["kind"] == "filled"
    assert [f["name"] for f in hodges["fields"]] == list(hodges["rules"])
    problem = assert_problem(stateless_client.get("/v1/presets/nope"), 404, "not-found")
    assert problem["errors"][0]["parameter"] == "preset_id"


def test_check_operations(stateless_client: FlaskClient) -> None:
    meld = stateless_client.post("/v1/melds/validate", json={"preset": "pagat", "cards": ["9S", "3S", "10D"]}).json
    assert meld["valid"] is False
    assert {(p["pointer"], p["code"]) for p in meld["problems"]} == {
        ("/cards/1", "rank_not_meldable"),
        ("/cards", "mixed_ranks"),
    }
    opening = stateless_client.post(
        "/v1/openings/check", json={"preset": "hodges", "round": 1, "melds": [["AS", "AH", "AD"]]}
    ).json
    assert opening == {
        "points": 60,
        "minimum": 100,
        "met": False,
        "problems": [
            {
                "pointer": "/melds",
                "code": "opening_below_minimum",
                "detail": "the opening melds count 60 points; round 1 needs at least 100",
            }
        ],
    }
    pile = stateless_client.post(
        "/v1/discard-pile/check", json={"preset": "pagat", "hand": ["9S"], "pile": ["3C", "9D"]}
    ).json
    assert pile["allowed"] is False and pile["problems"][0]["code"] == "pile_blocked"
    pile = stateless_client.post(
        "/v1/discard-pile/check", json={"preset": "saskatchewan", "hand": ["9S", "9H"], "pile": ["9D"] + ["5S"] * 9}
    ).json
    assert pile == {"allowed": True, "cards": 10, "problems": []}
    out = stateless_client.post("/v1/going-out/check", json={"preset": "hodges", "melds": [], "players": []}).json
    assert out["met"] is False and out["missing"] == {"clean_books": 2, "dirty_books": 2, "wild_books": 0}


def test_check_bad_input_is_a_problem(stateless_client: FlaskClient) -> None:
    problem = assert_problem(
        stateless_client.post("/v1/melds/validate", json={"preset": "pagat", "cards": ["9S", 9]}), 422
    )
    assert problem["errors"][0]["pointer"] == "/cards/1"
    problem = assert_problem(
        stateless_client.post("/v1/openings/check", json={"preset": "pagat", "melds": [["XX"]]}), 422
    )
    assert problem["errors"][0] == {
        "pointer": "/melds/0/0",
        "code": "unknown_card",
        "detail": problem["errors"][0]["detail"],
    }


def test_compare_keeps_the_request_untouched(stateless_client: FlaskClient) -> None:
    body = {k: v for k, v in worked("cards").items() if k != "preset"}
    before = copy.deepcopy(body)
    stateless_client.post("/v1/rounds/compare", json={**body, "presets": ["pagat"]})
    assert body == before


HOLDING = [{"name": "North", "hand": ["9S"]}, {"name": "South", "hand": ["9H"]}]
EMPTY_EAST = [{"name": "East", "hand": []}, {"name": "West", "hand": ["9D"]}]


def _sides(second: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"name": "Team 1", "melds": [["KS", "KH", "KD"]], "players": HOLDING},
        {"name": "Team 2", "melds": [["QS", "QH", "QD"]], "players": second},
    ]


@pytest.mark.parametrize(
    ("teams", "code", "pointer"),
    [
        (_sides(EMPTY_EAST), "out_of_cards_not_out", "/teams/1/players/0/hand"),
        (
            _sides([{"name": "East", "hand": ["9C"], "foot": ["4S", "5S"]}, {"name": "West", "hand": ["9D"]}]),
            "foot_count",
            "/teams/1/players/0/foot",
        ),
    ],
)
def test_scoring_and_appends_refuse_alike(
    flask_client: FlaskClient, teams: list[dict[str, Any]], code: str, pointer: str
) -> None:
    scored = flask_client.post("/v1/rounds/score", json={"preset": "pagat", "teams": teams})
    game = create_game(flask_client)
    appended = flask_client.post(f"/v1/games/{game['id']}/rounds", json={"teams": teams})
    for response in (scored, appended):
        assert response.status_code == 422, response.get_json()
        assert response.content_type == "application/problem+json"
        errors = response.get_json()["errors"]
        assert [(e["code"], e["pointer"]) for e in errors] == [(code, pointer)]
        assert "foot_size" in errors[0]["detail"] or "last_card_needs_contract" in errors[0]["detail"]
    assert flask_client.get(f"/v1/games/{game['id']}").get_json()["rounds"] == []


def test_a_tally_is_not_refused_for_it(flask_client: FlaskClient) -> None:
    """A tally names no players (D21): 0 points left on a side not out scores and is stored."""
    game = create_game(flask_client)
    response = flask_client.post(
        f"/v1/games/{game['id']}/rounds", json={"teams": [tally("Team 1", table=30, left=5), tally("Team 2", table=30)]}
    )
    assert response.status_code == 201, response.get_json()


def test_where_play_goes_on_the_round_scores(flask_client: FlaskClient) -> None:
    """The Hodges family rules let a player run out of cards without going out."""
    teams = [
        {"name": "A", "melds": [["KS", "KH", "KD"]], "players": [{"name": "N", "hand": []}]},
        {"name": "B", "melds": [["QS", "QH", "QD"]], "players": [{"name": "E", "hand": ["9D"]}]},
    ]
    response = flask_client.post("/v1/rounds/score", json={"preset": "hodges", "teams": teams})
    assert response.status_code == 200, response.get_json()
    refused = flask_client.post(
        "/v1/rounds/score", json={"preset": "hodges", "teams": teams, "rules": {"last_card_needs_contract": True}}
    )
    assert refused.status_code == 422
    assert [e["code"] for e in refused.get_json()["errors"]] == ["out_of_cards_not_out"]


CASES = [json.loads(path.read_text()) for path in sorted(WORKED_CASES.glob("*.json"))]
TALLY_CASES = [case for case in CASES if any("tally" in team for team in case["request"].get("teams", []))]


def without_zeros(body: dict[str, Any]) -> dict[str, Any]:
    teams = [
        {**team, "tally": {k: v for k, v in team["tally"].items() if v != 0}} if "tally" in team else team
        for team in body["teams"]
    ]
    return {**body, "teams": teams}


def test_some_cases_have_zero_counts() -> None:
    zeros = [c["id"] for c in TALLY_CASES if without_zeros(c["request"]) != c["request"]]
    assert "s0-worked-round-tally" in zeros and len(zeros) >= 3, zeros


@pytest.mark.parametrize("case", TALLY_CASES, ids=[c["id"] for c in TALLY_CASES])
def test_omitted_zero_counts_score_as_zeros(flask_client: FlaskClient, case: dict[str, Any]) -> None:
    whole = flask_client.post("/v1/rounds/score", json=case["request"])
    short = flask_client.post("/v1/rounds/score", json=without_zeros(case["request"]))
    assert short.status_code == whole.status_code, short.get_json()
    assert short.get_json() == whole.get_json()


def test_an_empty_tally_scores_nothing(flask_client: FlaskClient) -> None:
    body = {
        "preset": "pagat",
        "teams": [
            {
                "name": "Us",
                "went_out": True,
                "tally": {"clean_books": 2, "dirty_books": 2, "wild_books": 1, "table_points": 465, "points_left": 0},
            },
            {"name": "Them", "tally": {}},
        ],
    }
    answer = flask_client.post("/v1/rounds/score", json=body)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["teams"][1]["total"] == 0


def test_appended_round_fills_zeros(flask_client: FlaskClient) -> None:
    case = json.loads((WORKED_CASES / "s0-worked-round-tally.json").read_text())["request"]
    game = flask_client.post(
        "/v1/games",
        json={
            "name": "Zeros",
            "preset": "pagat",
            "teams": [
                {"name": "Team 1", "players": ["North", "South"]},
                {"name": "Team 2", "players": ["East", "West"]},
            ],
        },
    )
    assert game.status_code == 201, game.get_json()
    appended = flask_client.post(
        f"/v1/games/{game.get_json()['id']}/rounds", json={"round": 1, "teams": without_zeros(case)["teams"]}
    )
    assert appended.status_code == 201, appended.get_json()
    assert [t["total"] for t in appended.get_json()["teams"]] == [3740, 1075]


def test_the_document_says_every_count_defaults_to_zero() -> None:
    spec = json.loads((WORKED_CASES.parents[2] / "openapi" / "openapi.json").read_text())
    tally = spec["components"]["schemas"]["Tally"]
    assert "required" not in tally
    counts = [name for name, field in TallySchema().fields.items() if name not in ("has_melded", "rank_books")]
    assert len(counts) == 11  # the seven of every table, burn points and the three grades of cut
    for name in counts:  # said in words: a TypeScript generator reads `default` as "always sent"
        member = tally["properties"][name]
        assert "default" not in member and member["description"].endswith("Default: `0`."), name


def test_numbers_past_64_bits_are_refused_by_the_schema(stateless_client: FlaskClient) -> None:
    """A tally count past 64 bits is a 422 naming it, refused by the schema before it reaches the engine or
    a database column (moved here from the engine's tally ceilings: it is the API's check)."""
    zero = dict.fromkeys(
        (
            "clean_books",
            "dirty_books",
            "wild_books",
            "red_threes_on_table",
            "red_threes_caught",
            "table_points",
            "points_left",
        ),
        0,
    )
    body = {
        "preset": "pagat",
        "teams": [{"name": "A", "tally": {**zero, "table_points": 18446744073709551615}}, {"name": "B", "tally": zero}],
    }
    response = stateless_client.post("/v1/rounds/score", json=body)
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/teams/0/tally/table_points"


@pytest.mark.parametrize(
    ("preset", "given", "pointers"),
    [
        ("pagat", None, ["/players/0/played_from_foot", "/players/1/played_from_foot"]),
        ("pagat", True, []),
        ("online-11-13", None, []),  # playing from the foot is not asked there
    ],
)
def test_the_going_out_check_lists_the_inputs_its_answer_rests_on(
    stateless_client: FlaskClient, preset: str, given: bool | None, pointers: list[str]
) -> None:
    """D78: unknown is not yes: a played_from_foot the rules need and the request left out is listed."""
    case = json.loads((RULE_CASES / "r-pagat-going-out-partner-foot-played-is-met.json").read_text())["request"]
    players = [{k: v for k, v in p.items() if k != "played_from_foot"} for p in case["players"]]
    if given is not None:
        players = [{**p, "played_from_foot": given} for p in players]
    answer = stateless_client.post("/v1/going-out/check", json={**case, "preset": preset, "players": players}).json
    assert answer["met"] is True
    assert [(u["pointer"], u["code"]) for u in answer["unknown"]] == [(p, "input_needed") for p in pointers]


@pytest.mark.parametrize(
    ("card", "code"),
    [(7, "invalid_type"), (None, "invalid_type"), ("KSKSKSKSK", "invalid_value")],
)
def test_a_card_that_is_no_card_string_is_refused_alike(flask_client: FlaskClient, card: Any, code: str) -> None:
    """The engine reads the card strings after the body's shape: an item that is no card string is a
    validation-error at its pointer, on the score and on an append alike, and no unknown card is listed."""
    teams = [
        {"name": "Team 1", "melds": [["KS", "KH", card], ["QS", "QH", "1X"]], "players": [{"name": "N", "hand": []}]},
        tally("Team 2", table=30),
    ]
    game = create_game(flask_client)
    for response in (
        flask_client.post("/v1/rounds/score", json={"preset": "pagat", "teams": teams}),
        flask_client.post(f"/v1/games/{game['id']}/rounds", json={"teams": teams}),
    ):
        problem = assert_problem(response, 422)
        assert problem["type"].endswith("/validation-error"), problem
        assert [(e["pointer"], e["code"]) for e in problem["errors"]] == [("/teams/0/melds/0/2", code)]
    assert flask_client.get(f"/v1/games/{game['id']}").get_json()["rounds"] == []


def test_a_going_out_checks_players_are_read_by_the_engines_reader(stateless_client: FlaskClient) -> None:
    body = {"preset": "pagat", "melds": [["KS", "KH", "KD"]], "players": [{"name": "N", "hand": [], "feet": []}]}
    problem = assert_problem(stateless_client.post("/v1/going-out/check", json=body), 422)
    assert [(e["pointer"], e["code"]) for e in problem["errors"]] == [("/players/0/feet", "unknown_field")]
