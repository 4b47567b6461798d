"""``/v1/rounds``: score a finished round, or compare presets on it."""

from __future__ import annotations

from typing import Any

from flask import Response, request
from flask.views import MethodView
from marshmallow import missing

from handfoot.engine import compare_round_request, rules_of, score_round_body
from handfoot.engine.bodies import score_body_problems
from handfoot.server.blueprint import Blueprint
from handfoot.server.jsonio import json_response
from handfoot.server.problems import abort_invalid, flatten_messages
from handfoot.server.schemas import breakdown_data, rules_messages
from handfoot.server.services.errors import json_pointer

from .examples import COMPARE_REQUEST, COMPARE_RESPONSE, WORKED_ROUND_REQUEST, WORKED_ROUND_RESPONSE
from .schemas import (
    RoundCompareRequestSchema,
    RoundComparisonSchema,
    RoundScoreRequestSchema,
    RoundScoreSchema,
)

blp = Blueprint(
    "Rounds",
    __name__,
    url_prefix="/v1/rounds",
    description="Score a finished round for every side, with every line explained.",
)


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
        body = blp.ARGUMENTS_PARSER.load_json(request)
        if body is missing:
            body = {}  # no body: the reader lists every member missing
        # Each part of the body has one reader, in this order: the engine's reader its shape
        # (RoundScoreRequestSchema documents it) and the house rules' fields their values, both
        # listed in one 422 validation-error; then the engine reads the cards and the round and
        # applies the rules of the game (its own 422s).
        errors = [
            {"pointer": json_pointer(p.path), "code": p.code, "detail": p.detail} for p in score_body_problems(body)
        ]
        rules = body.get("rules") if type(body) is dict else None
        if type(rules) is dict and rules and (messages := rules_messages(rules)):
            errors += flatten_messages({"json": {"rules": messages}})
        if errors:
            abort_invalid(errors)
        resolved = rules_of(body)
        score = score_round_body(body, resolved.rules)
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
