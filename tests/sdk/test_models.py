"""Result types read the server's shapes by the loader's rules, and render as text and (escaped) HTML."""

from __future__ import annotations

import dataclasses
import json
import pickle

import pytest

from handfoot.client import (
    APIResponseValidationError,
    Books,
    Breakdown,
    Game,
    Line,
    Preset,
    PresetSummary,
    Provenance,
    RoundScore,
    Scoresheet,
)
from handfoot.client._loader import FrozenDict, Result
from tests.sdk.test_client import PRESET_JSON, SCORE_JSON
from tests.sdk.test_games import GAME_JSON, SHEET_JSON


def test_round_score_parses() -> None:
    score = RoundScore.from_json(SCORE_JSON)
    assert score.preset == "pagat" and score.round == 1
    team1, team2 = score.teams
    assert team1 == Breakdown(
        "Team 1",
        3740,
        (
            Line("clean_books", "Clean books", 2, 500, 1000),
            Line("going_out", "Going out", None, None, 100),
            Line("points_left", "Points left", None, None, -25),
        ),
        (),
    )
    assert team1.line("going_out") == Line("going_out", "Going out", None, None, 100)
    assert team1.line("burn") is None
    assert team1.points("clean_books") == 1000 and team1.points("burn") == 0
    assert team2.lines == ()
    assert score.totals == {"Team 1": 3740, "Team 2": 1075}
    assert score.team("Team 2") is team2


def test_models_are_frozen() -> None:
    score = RoundScore.from_json(SCORE_JSON)
    with pytest.raises(dataclasses.FrozenInstanceError):
        score.round = 2  # type: ignore[misc]


def test_unknown_members_are_ignored() -> None:
    line = Line.from_json({"code": "burn", "label": "Burn", "points": 30, "new_field": 1})
    assert line == Line("burn", "Burn", None, None, 30)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"preset": "pagat", "round": 1}, "missing member 'teams'"),
        ({"preset": "pagat", "round": "1", "teams": []}, "round: expected an integer"),
        (
            {"preset": "pagat", "round": 1, "teams": [{"name": "A", "total": 1, "lines": {}}]},
            r"teams\[0\].lines: expected an array",
        ),
        ([], "expected a JSON object"),
    ],
)
def test_wrong_shapes_raise(data: object, message: str) -> None:
    with pytest.raises(APIResponseValidationError, match=message):
        RoundScore.from_json(data)


def test_preset_parses_and_prints() -> None:
    p = Preset.from_json(PRESET_JSON)
    assert p.provenance["book_size"].kind == "stated"
    assert "card_values" not in p.provenance
    text = str(p)
    assert text.splitlines()[0] == "Pagat (pagat) - https://www.pagat.com/rummy/handfoot.html"
    assert "book_size" in text and "[stated: Pagat]" in text
    assert "[50, 90, 120, 150]" in text
    assert '{"JK": 50, "2": 20}' in text
    html = p._repr_html_()
    assert html.startswith("<table>") and "<td>opening_minimums</td>" in html


def test_breakdown_str_is_an_aligned_table() -> None:
    team = RoundScore.from_json(SCORE_JSON).teams[0]
    assert str(team).splitlines() == [
        "Team 1",
        "  Clean books  2  x 500  1,000",
        "  Going out                100",
        "  Points left              -25",
        "  Total                  3,740",
    ]
    score = str(RoundScore.from_json(SCORE_JSON))
    assert score.startswith("Round 1 (pagat)\n\nTeam 1\n")
    assert "Team 2\n  Total  1,075" in score


def test_html_and_text_escape_user_strings() -> None:
    evil = "<script>alert('x')</script>"
    team = Breakdown(evil, 5, (Line("x", "a & <b>", 1, 5, 5),), ())
    score = RoundScore("p<1>", 1, (team,), ())
    for html in (team._repr_html_(), score._repr_html_()):
        assert "<script>" not in html
        assert "&lt;script&gt;" in html
        assert "a &amp; &lt;b&gt;" in html
    assert "&lt;1&gt;" in score._repr_html_()
    summary = PresetSummary("x", evil, "s", "t")
    assert "<script>" not in summary._repr_html_()
    preset = Preset.from_json({**PRESET_JSON, "name": evil, "rules": {"k": evil}})
    assert "<script>" not in preset._repr_html_()
    assert evil in str(team)  # plain text is not HTML-escaped


# --------------------------------------------------------------------------- the loader's rules


def test_a_value_outside_a_literal_is_refused() -> None:
    with pytest.raises(APIResponseValidationError, match=r"Provenance.kind: expected one of 'stated', .*got 'guess'"):
        Provenance.from_json({"kind": "guess", "source": "s", "note": ""})


def test_every_missing_member_is_named() -> None:
    with pytest.raises(APIResponseValidationError) as info:
        Breakdown.from_json({"total": 1})
    assert str(info.value) == (
        "Breakdown: missing member 'name'; Breakdown: missing member 'lines'; Breakdown: missing member 'warnings'"
    )


@dataclasses.dataclass(frozen=True, slots=True)
class _Counted(Result):
    """A result with a member that may be left out (every member of the SDK's own results that has
    a default is also ``X | None``: tests/contract/test_sdk_coverage.py)."""

    name: str
    count: int = 0


def test_null_takes_the_default_of_a_field_that_is_not_optional() -> None:
    assert _Counted.from_json({"name": "x", "count": None}) == _Counted("x", 0)
    assert _Counted.from_json({"name": "x"}) == _Counted("x", 0)
    with pytest.raises(APIResponseValidationError, match=r"Books.clean_books: expected an integer, got null"):
        Books.from_json({"clean_books": None, "dirty_books": 2, "wild_books": 0})
    with pytest.raises(APIResponseValidationError, match=r"Line.points: expected an integer, got null"):
        Line.from_json({"code": "x", "label": "X", "points": None})


def test_sides_keyed_by_name_read_as_a_mapping_and_written_back_as_the_array() -> None:
    minimums = [{"name": "A", "minimum": 90}]
    data = {**GAME_JSON, "next_opening_minimums": minimums}
    game = Game.from_json(data, etag='"v1"')
    assert game.next_opening_minimums == {"A": 90} and game.etag == '"v1"'
    assert game.to_dict()["next_opening_minimums"] == [{"name": "A", "minimum": 90}]
    assert "etag" not in game.to_dict()
    assert Game.from_json({**data, "next_opening_minimums": None}).next_opening_minimums is None
    with pytest.raises(APIResponseValidationError, match=r"next_opening_minimums\[0\].minimum: expected an integer"):
        Game.from_json({**data, "next_opening_minimums": [{"name": "A", "minimum": "90"}]})


def test_a_member_with_another_name() -> None:
    sheet = Scoresheet.from_json(
        {**SHEET_JSON, "teams": ["A"], "rows": [{"round": 1, "scores": [5], "totals": [5]}], "totals": [5]}
    )
    assert sheet.rounds[0].scores == (5,) and sheet.to_dict()["rows"] == [{"round": 1, "scores": [5], "totals": [5]}]


def test_frozen_dict_is_a_read_only_dict_that_pickles() -> None:
    rules = FrozenDict({"card_values": FrozenDict({"JK": 50}), "opening_minimums": (50, 90)})
    assert rules == {"card_values": {"JK": 50}, "opening_minimums": (50, 90)} and isinstance(rules, dict)
    for change in (lambda: rules.update(x=1), lambda: rules.pop("card_values"), rules.clear):
        with pytest.raises(TypeError, match="read-only"):
            change()
    again = pickle.loads(pickle.dumps(rules))
    assert again == rules and type(again) is FrozenDict and type(again["card_values"]) is FrozenDict
    assert json.loads(json.dumps(rules)) == {"card_values": {"JK": 50}, "opening_minimums": [50, 90]}
