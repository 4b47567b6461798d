"""OpenAPI examples: the worked round of Pagat's rules (seed 000), as cards."""

from typing import Any

from handfoot.server.resources.games.examples import ROUND_REQUEST

WORKED_ROUND_REQUEST: dict[str, Any] = {
    "preset": "pagat",
    "round": 1,
    "teams": [
        {
            "name": "Team 1",
            "went_out": True,
            "melds": [
                ["2C", "2D", "2H", "2S", "2C", "2D", "2H"],
                ["KS", "KH", "KD", "KC", "KS", "KH", "KD"],
                ["5S", "5H", "5D", "5C", "5S", "5H", "5D"],
                ["AS", "AH", "AD", "AC", "AS", "2S", "2C"],
                ["6S", "6H", "6D", "6C", "6S", "2D", "2H"],
                ["4S", "4H", "4D"],
            ],
            "red_threes": ["3H"],
            "players": [{"name": "North", "hand": []}, {"name": "South", "hand": ["8S", "8H", "5C"]}],
        },
        {
            "name": "Team 2",
            "went_out": False,
            "melds": [
                ["4C", "4S", "4H", "4D", "4C", "4S", "4H"],
                ["KS", "KH", "KD", "KC", "KC", "2S", "2D"],
                ["JS", "JH", "JD", "JC", "JS", "2H", "2C"],
                ["5S", "5H", "5D", "5C", "5C", "2S"],
            ],
            "red_threes": [],
            "players": [
                {"name": "East", "hand": ["AS", "JK"]},
                {
                    "name": "West",
                    "hand": ["8C", "8H", "10H"],
                    "foot": ["3D", "4S", "4H", "4D", "JC", "QD", "6S", "6C", "7H", "7C", "8D", "9H", "10S"],
                },
            ],
        },
    ],
}


def _response() -> dict[str, Any]:
    from handfoot.engine import score_round_request

    from .schemas import RoundScoreSchema

    score = score_round_request(WORKED_ROUND_REQUEST)
    return dict(RoundScoreSchema().dump({"preset": "pagat", "round": 1, "rules_overridden": [], "teams": score.teams}))


#: Computed by the engine from the request, so the documented answer can never drift from the code.
WORKED_ROUND_RESPONSE: dict[str, Any] = _response()


#: The worked round as tallies (the stored-round example's sides), compared under three presets.
COMPARE_REQUEST: dict[str, Any] = {"presets": ["pagat", "bga", "bicycle"], **ROUND_REQUEST}


def _compare() -> dict[str, Any]:
    from handfoot.engine import compare_round_request

    from .schemas import RoundComparisonSchema

    return dict(RoundComparisonSchema().dump({"round": 1, "results": compare_round_request(COMPARE_REQUEST)}))


COMPARE_RESPONSE: dict[str, Any] = _compare()
