"""``/v1/rounds``: score a finished round, or compare presets on it."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView

from handfoot.engine import compare_round_request, rules_of, score_round_body
from handfoot.server.blueprint import Blueprint
from handfoot.server.jsonio import json_response
from handfoot.server.schemas import breakdown_data

from .examples import COMPARE_REQUEST, COMPARE_RESPONSE, WORKED_ROUND_REQUEST, WORKED_ROUND_RESPONSE
from .schemas import (
    RoundCompareRequestSchema,
    RoundComparisonSchema,
    RoundScoreRequestSchema,
    RoundScoreSchema,
    plain_score_body,
)

blp = Blueprint(
    "Rounds",
    __name__,
    url_prefix="/v1/rounds",
    description="Score a finished round for every side, with every line explained.",
)


_SCORE_REQUEST = RoundScoreRequestSchema()


@blp.route("/score")
class RoundScore(MethodView):
    init_every_request = False  # the view keeps no state: one instance serves every request

    @blp.documented_body(RoundScoreRequestSchema, example=WORKED_ROUND_REQUEST)
    @blp.response(200, RoundScoreSchema, example=WORKED_ROUND_RESPONSE)
    def post(self) -> Response:
        """Score a round

        Every side's Breakdown from the cards on the table and in hands and feet, or from the
        tallies counted at the table (sides may mix forms). Both forms give the same lines. A round
        that breaks the preset's rules is a 422 naming each rule broken: a side out without its
        contract, two sides out, a meld the preset forbids, more copies of a card than the decks hold.
        The example is the worked round of Pagat's rules: Team 1 3,740, Team 2 1,075.
        """
        parser = blp.ARGUMENTS_PARSER
        body = parser.read_body(_SCORE_REQUEST)
        # As sent when every member but the cards is as the schema takes it: the engine, the one
        # reader of a round, reads each card. Else (a tally's rank books, something wrong) the
        # schema's load first, or its errors (422).
        as_sent = plain_score_body(body, cards_read=True)
        if not as_sent:
            body = parser.load_body(_SCORE_REQUEST, body)
        try:
            resolved = rules_of(body)
            score = score_round_body(body, resolved.rules)
        except Exception:
            # Whatever stopped the engine on a body as sent, the schema's errors are the answer when
            # it refuses the body (a card that is no string, or longer than any card), else the
            # engine's: the answer of the schema's load before the engine, as for any other body.
            if as_sent:
                parser.load_body(_SCORE_REQUEST, body)
            raise
        # A ready response: flask-smorest returns it as it is, without dumping it through
        # RoundScoreSchema (which documents it; breakdown_data gives the same members in the same order).
        return json_response(
            {
                "preset": resolved.preset.id,
                "round": score.round,
                "rules_overridden": list(resolved.overridden),
                "teams": [breakdown_data(b) for b in score.teams],
            }
        )


@blp.route("/compare")
class RoundCompare(MethodView):
    @blp.arguments(RoundCompareRequestSchema, example=COMPARE_REQUEST)
    @blp.response(200, RoundComparisonSchema, example=COMPARE_RESPONSE)
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Compare presets on one round

        The same round scored under several presets side by side: what is it worth under Pagat,
        under BGA? Each result is a Breakdown per side, or (`valid` false) the rules that preset
        says the round breaks. Unknown cards or presets fail the whole request (422).
        """
        return {"round": body["round"], "results": compare_round_request(body)}
