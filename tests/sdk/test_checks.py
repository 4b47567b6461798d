"""Request shapes and parsing of health, compare_presets and the four check methods."""

from __future__ import annotations

import json

import pytest
import responses
from responses import matchers

from handfoot.client import (
    Books,
    Client,
    DiscardPileCheck,
    GoingOutCheck,
    Health,
    MeldCheck,
    OpeningCheck,
    PlayerInput,
    ProblemItem,
    RoundComparison,
    UnprocessableEntityError,
)
from tests.helpers.sdk import BASE, PROBLEM_JSON, problem
from tests.sdk.test_client import SCORE_JSON

TOO_MANY_WILDS = {
    "pointer": "/cards",
    "code": "too_many_wilds",
    "detail": "1 natural and 3 wild cards break the rule naturals >= 2 x wilds (wild_ratio twice)",
}
MELD_JSON = {
    "valid": False,
    "kind": "dirty",
    "rank": "9",
    "complete": False,
    "size": 4,
    "naturals": 1,
    "wilds": 3,
    "points": 100,
    "problems": [TOO_MANY_WILDS],
}


def body(rsps: responses.RequestsMock, i: int = 0) -> object:
    return json.loads(rsps.calls[i].request.body or b"")


def test_health(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.get(f"{BASE}/health", json={"status": "ok", "database": "ok"})
    health = sdk_client.health()
    assert health == Health("ok", "ok") and health.ok
    assert str(health) == "status ok, database ok"


def test_validate_meld_request_and_answer(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.post(
        f"{BASE}/v1/melds/validate",
        json=MELD_JSON,
        match=[
            matchers.json_params_matcher(
                {"preset": "pagat", "cards": ["9D", "2S", "2♣", "JK"], "rules": {"wild_ratio": "twice"}}
            )
        ],
    )
    check = sdk_client.validate_meld(preset="pagat", cards=("9D", "2S", "2♣", "JK"), rules={"wild_ratio": "twice"})
    assert isinstance(check, MeldCheck)
    assert not check and check.valid is False and check.kind == "dirty" and check.rank == "9"
    assert (check.size, check.naturals, check.wilds, check.points) == (4, 1, 3, 100)
    assert check.problems == (ProblemItem("too_many_wilds", TOO_MANY_WILDS["detail"], pointer="/cards"),)
    text = str(check)
    assert text.startswith("INVALID dirty meld of 9s: 4 cards (1 natural, 3 wild), 100 points")
    assert "/cards: 1 natural and 3 wild cards" in text and "[too_many_wilds]" in text
    assert "<caption>Problems</caption>" in check._repr_html_()


def test_validate_meld_onto(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.post(
        f"{BASE}/v1/melds/validate",
        json={**MELD_JSON, "valid": True, "size": 5, "naturals": 4, "wilds": 1, "points": 60, "problems": []},
    )
    check = sdk_client.validate_meld(preset="pagat", cards=["9D", "2S"], onto=["9S", "9H", "9C"])
    assert check and check.problems == ()
    assert body(rsps) == {"preset": "pagat", "cards": ["9D", "2S"], "onto": ["9S", "9H", "9C"]}
    assert str(check) == "valid dirty meld of 9s: 5 cards (4 natural, 1 wild), 60 points, not a book yet"


def test_check_opening(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    answer = {
        "points": 30,
        "minimum": 50,
        "met": False,
        "problems": [{"pointer": "/melds", "code": "opening_below_minimum", "detail": "30 < 50"}],
    }
    rsps.post(f"{BASE}/v1/openings/check", json=answer)
    check = sdk_client.check_opening(preset="pagat", melds=[("KS", "KH", "KD")], round=2, from_pile=["KD"], score=3000)
    assert check == OpeningCheck(30, 50, False, (ProblemItem("opening_below_minimum", "30 < 50", "/melds"),))
    assert body(rsps) == {
        "preset": "pagat",
        "round": 2,
        "melds": [["KS", "KH", "KD"]],
        "from_pile": ["KD"],
        "score": 3000,
    }
    assert str(check).splitlines()[0] == "opening NOT met: 30 of 50 points"


def test_check_going_out(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    answer = {
        "met": False,
        "books": {"clean_books": 1, "dirty_books": 0, "wild_books": 0},
        "missing": {"clean_books": 1, "dirty_books": 2, "wild_books": 1},
        "contract": {"clean_books": 2, "dirty_books": 2, "wild_books": 1},
        "problems": [],
        "unknown": [],
    }
    rsps.post(f"{BASE}/v1/going-out/check", json=answer)
    players: list[PlayerInput] = [{"name": "North", "hand": []}, {"name": "South", "hand": ["4C"], "foot": ["5C"]}]
    check = sdk_client.check_going_out(preset="pagat", melds=[["KS"] * 7], players=players)
    assert isinstance(check, GoingOutCheck) and not check
    assert check.books == Books(1, 0, 0) and check.missing == Books(1, 2, 1) and check.contract == Books(2, 2, 1)
    assert body(rsps) == {"preset": "pagat", "round": 1, "melds": [["KS"] * 7], "players": players}
    assert str(check) == (
        "may go out: no; books 1 clean, 0 dirty, 0 wild; contract 2 clean, 2 dirty, 1 wild; "
        "missing 1 clean, 2 dirty, 1 wild"
    )


def test_check_discard_pile(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.post(f"{BASE}/v1/discard-pile/check", json={"allowed": True, "cards": 7, "problems": []})
    rsps.post(f"{BASE}/v1/discard-pile/check", json={"allowed": False, "cards": 0, "problems": []})
    check = sdk_client.check_discard_pile(preset="bga", hand=["KS", "KH"], pile=["KD", "4C"])
    assert check == DiscardPileCheck(True, 7, ()) and check
    assert body(rsps, 0) == {"preset": "bga", "hand": ["KS", "KH"], "pile": ["KD", "4C"]}
    sdk_client.check_discard_pile(
        preset="bga", hand=["KS"], pile=["KD"], melds=[["KS", "KH", "KD"]], taken_before=True, frozen=True
    )
    assert body(rsps, 1) == {
        "preset": "bga",
        "hand": ["KS"],
        "pile": ["KD"],
        "melds": [["KS", "KH", "KD"]],
        "taken_before": True,
        "frozen": True,
    }
    rsps.post(f"{BASE}/v1/discard-pile/check", json={"allowed": False, "cards": 0, "problems": []})
    sdk_client.check_discard_pile(preset="wages", hand=["KS", "KH"], pile=["KD"], burn=["KC"])
    assert body(rsps, 2) == {"preset": "wages", "hand": ["KS", "KH"], "pile": ["KD"], "burn": ["KC"]}


def test_compare_presets(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    answer = {
        "round": 1,
        "results": [
            {"preset": "pagat", "valid": True, "teams": SCORE_JSON["teams"], "problems": []},
            {
                "preset": "bicycle",
                "valid": False,
                "teams": None,
                "problems": [{"pointer": "/teams/0/melds/0", "code": "all_wild_not_allowed", "detail": "no"}],
            },
        ],
    }
    rsps.post(f"{BASE}/v1/rounds/compare", json=answer)
    result = sdk_client.compare_presets(presets=["pagat", "bicycle"], teams=[{"name": "Team 1"}], rules={})
    assert body(rsps) == {"presets": ["pagat", "bicycle"], "round": 1, "teams": [{"name": "Team 1"}], "rules": {}}
    assert isinstance(result, RoundComparison)
    pagat, bicycle = result.results
    assert pagat.totals == {"Team 1": 3740, "Team 2": 1075}
    assert bicycle.totals is None and bicycle.problems[0].code == "all_wild_not_allowed"
    assert result.result("bicycle") is bicycle and result.result("nope") is None
    text = str(result)
    assert "pagat     3,740   1,075" in text
    assert "not legal: all_wild_not_allowed" in text
    assert "<td>bicycle</td>" in result._repr_html_()


def test_check_with_a_bad_question_raises_422(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    err = {"pointer": "/cards/0", "code": "unknown_card", "detail": "'XX' is not a card"}
    rsps.post(
        f"{BASE}/v1/melds/validate",
        json=problem(422, "Invalid card", errors=[err]),
        status=422,
        content_type=PROBLEM_JSON,
    )
    with pytest.raises(UnprocessableEntityError) as info:
        sdk_client.validate_meld(preset="pagat", cards=["XX"])
    assert info.value.problems == [ProblemItem("unknown_card", "'XX' is not a card", "/cards/0")]
    assert len(rsps.calls) == 1  # never retried


def test_preset_fields_are_parsed(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    field = {
        "name": "book_size",
        "group": "melds",
        "description": "Cards in a book.",
        "value": 7,
        "provenance": {"kind": "stated", "source": "Pagat", "note": ""},
    }
    rsps.get(
        f"{BASE}/v1/presets/pagat",
        json={
            "id": "pagat",
            "name": "Pagat",
            "source": "Pagat",
            "summary": "",
            "rules": {"book_size": 7},
            "provenance": {},
            "fields": [field],
        },
    )
    preset = sdk_client.preset("pagat")
    (rule,) = preset.fields
    assert (rule.name, rule.group, rule.value) == ("book_size", "melds", 7)
    assert rule.provenance.kind == "stated"
    assert str(rule) == "book_size = 7  (Cards in a book.)"


def test_an_unknown_going_out_answer_is_not_yes(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    """D78: ``met`` with the inputs it rests on in ``unknown``: falsy, shown as unknown with each pointer."""
    needed = {
        "pointer": "/players/1/played_from_foot",
        "code": "input_needed",
        "detail": "South: played_from_foot not given",
    }
    answer = {
        "met": True,
        "books": {"clean_books": 2, "dirty_books": 2, "wild_books": 1},
        "missing": {"clean_books": 0, "dirty_books": 0, "wild_books": 0},
        "contract": {"clean_books": 2, "dirty_books": 2, "wild_books": 1},
        "problems": [],
        "unknown": [needed],
    }
    rsps.post(f"{BASE}/v1/going-out/check", json=answer)
    check = sdk_client.check_going_out(preset="pagat", melds=[["KS"] * 7], players=[{"name": "South", "hand": []}])
    assert check.met is True and not check
    assert [(p.pointer, p.code) for p in check.unknown] == [("/players/1/played_from_foot", "input_needed")]
    assert str(check).startswith("may go out: unknown;") and "input_needed" in str(check)
