"""Property tests (hypothesis) over random legal rounds, for EVERY preset (each one parametrized,
not sampled):

- every side's total is the sum of its lines;
- the cards form and the tally form agree: the tally counted from the cards by hand (books by
  kind from ``validate_meld``, card points from ``card_points``, red threes counted) scores to the
  same lines and total as the cards;
- the API (``POST /v1/rounds/score`` through the Flask test client) answers what the engine computes.

Generators build on tests/engine/test_properties.py (``melds``, ``player_not_out``).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handfoot.engine import PRESETS, HandFootError, card_points, parse_cards, score_round_request, validate_meld
from handfoot.server import create_app
from tests.conftest import examples
from tests.engine.test_properties import melds, player_not_out
from tests.helpers.sides import per_side

PRESET_IDS = sorted(PRESETS)
PER_PRESET = settings(
    max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
APP = create_app({"TESTING": True, "DATABASE_URL": "sqlite://"})  # scoring touches no database


@st.composite
def legal_rounds(draw: st.DrawFn, preset: str) -> dict[str, Any]:
    """A round under ``preset`` in the cards form, nobody out: melds (books included, one meld per
    rank and side), red threes laid out where the rules lay them out, hands, feet never picked up
    (each a legal end state: :func:`test_properties.player_not_out`)."""
    rules = PRESETS[preset].rules
    teams = []
    for t in range(max(2, rules.teams_min)):
        team_melds: list[list[str]] = []
        ranks: set[Any] = set()
        for meld in draw(st.lists(melds(rules), max_size=4)):
            rank = next(c.rank for c in meld if not c.is_wild)
            if rank not in ranks:
                ranks.add(rank)
                team_melds.append([c.code for c in meld])
        red_threes = draw(st.lists(st.sampled_from(["3H", "3D"]), max_size=2)) if rules.red_threes_laid_out else []
        players = [player_not_out(draw, rules, f"P{t}{i}") for i in range(per_side(rules, max(2, rules.teams_min)))]
        teams.append(
            {"name": f"T{t}", "went_out": False, "melds": team_melds, "red_threes": red_threes, "players": players}
        )
    return {"preset": preset, "round": draw(st.integers(1, 4)), "teams": teams}


def scored(body: dict[str, Any]) -> Any:
    """The engine's score, or ``None`` when the drawn round breaks a rule (e.g. too many copies)."""
    try:
        return score_round_request(body)
    except HandFootError:
        return None


def tally_by_hand(team: dict[str, Any], preset: str) -> dict[str, Any]:
    rules = PRESETS[preset].rules
    counts = {"clean_books": 0, "dirty_books": 0, "wild_books": 0}
    table = 0
    for meld in team["melds"]:
        cards = parse_cards(meld)
        result = validate_meld(cards, rules)
        if result.complete:
            counts[f"{result.kind.value}_books"] += 1
        table += sum(card_points(c, rules) for c in cards)
    left = sum(card_points(c, rules) for p in team["players"] for c in parse_cards(p["hand"] + (p.get("foot") or [])))
    return {
        "name": team["name"],
        "went_out": team["went_out"],
        "tally": {
            **counts,
            "red_threes_on_table": len(team["red_threes"]),
            "red_threes_caught": 0,
            "table_points": table,
            "points_left": left,
        },
    }


def lines(team: Any) -> list[tuple[str, int | None, int | None, int]]:
    return [(ln.code, ln.count, ln.points_each, ln.points) for ln in team.lines]


@pytest.mark.parametrize("preset", PRESET_IDS)
@PER_PRESET
@given(data=st.data())
def test_total_is_the_sum_of_lines(preset: str, data: st.DataObject) -> None:
    score = scored(data.draw(legal_rounds(preset)))
    if score is None:
        return
    for team in score.teams:
        assert team.total == sum(line.points for line in team.lines)


@pytest.mark.parametrize("preset", PRESET_IDS)
@PER_PRESET
@given(data=st.data())
def test_cards_form_and_tally_form_agree(preset: str, data: st.DataObject) -> None:
    body = data.draw(legal_rounds(preset))
    cards = scored(body)
    if cards is None:
        return
    tallies = score_round_request({**body, "teams": [tally_by_hand(t, preset) for t in body["teams"]]})
    for by_cards, by_tally in zip(cards.teams, tallies.teams, strict=True):
        assert (by_cards.total, lines(by_cards)) == (by_tally.total, lines(by_tally))


@pytest.mark.parametrize("preset", PRESET_IDS)
@PER_PRESET
@given(data=st.data())
def test_api_and_engine_agree(preset: str, data: st.DataObject) -> None:
    body = data.draw(legal_rounds(preset))
    if data.draw(st.booleans()):  # sides may mix the forms
        body = {**body, "teams": [tally_by_hand(body["teams"][0], preset), *body["teams"][1:]]}
    engine_score = scored(body)
    response = APP.test_client().post("/v1/rounds/score", json=body)
    if engine_score is None:
        assert response.status_code == 422
        return
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    assert answer["preset"] == preset and answer["round"] == body["round"]
    assert [(t["name"], t["total"]) for t in answer["teams"]] == [(t.name, t.total) for t in engine_score.teams]
    for sent, expected in zip(answer["teams"], engine_score.teams, strict=True):
        assert [(ln["code"], ln["count"], ln["points_each"], ln["points"]) for ln in sent["lines"]] == lines(expected)


def test_generators_make_scorable_rounds_for_every_preset() -> None:
    """Guard against a generator that only makes rounds the engine refuses (tests vacuously true)."""
    from hypothesis import Phase, find

    quick = settings(database=None, phases=[Phase.generate], max_examples=200)
    for preset in PRESET_IDS:
        find(
            legal_rounds(preset),
            lambda body: scored(body) is not None and any(t["melds"] for t in body["teams"]),
            settings=quick,
        )
