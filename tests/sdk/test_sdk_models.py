"""Models parse the server's shapes, and render as text and (escaped) HTML."""

from __future__ import annotations

import dataclasses

import pytest
from test_sdk_client import PRESET_JSON, SCORE_JSON

from handfoot.client import APIResponseValidationError, Breakdown, Line, Preset, PresetSummary, RoundScore


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
    assert p.provenance["book_size"].kind == "seed"
    assert "card_values" not in p.provenance
    text = str(p)
    assert text.splitlines()[0] == "Pagat (pagat) - https://www.pagat.com/rummy/handfoot.html"
    assert "book_size" in text and "[seed: seed 000]" in text
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
    team = Breakdown(evil, 5, (Line("x", "a & <b>", 1, 5, 5),))
    score = RoundScore("p<1>", 1, (team,))
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
