"""The check operations: a well-formed question gets 200 even when the answer is no."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from handfoot.engine import (
    check_discard_pile_request,
    check_going_out_request,
    check_opening_request,
    validate_meld_request,
)
from handfoot.server.blueprint import Blueprint

from . import examples
from .schemas import (
    DiscardPileCheckRequestSchema,
    DiscardPileCheckSchema,
    GoingOutCheckRequestSchema,
    GoingOutCheckSchema,
    MeldCheckSchema,
    MeldValidateRequestSchema,
    OpeningCheckRequestSchema,
    OpeningCheckSchema,
)

EXAMPLES = examples.responses()

blp = Blueprint(
    "Checks",
    __name__,
    url_prefix="/v1",
    description="Is this meld, opening, going out or pile take legal under a preset? Each answer "
    "lists every rule broken, with a stable code.",
)


@blp.route("/melds/validate")
class MeldValidate(MethodView):
    @blp.arguments(MeldValidateRequestSchema, example=examples.MELD_REQUEST)
    @blp.response(200, MeldCheckSchema, example=EXAMPLES["meld"])
    def post(self, body: dict[str, Any]) -> Any:
        """Validate a meld

        One meld, or cards added `onto` a meld on the table: valid or not, its kind (clean, dirty
        or wild), whether it is complete (a book), its card points, and every rule it breaks.
        """
        return validate_meld_request(body)


@blp.route("/openings/check")
class OpeningCheck(MethodView):
    @blp.arguments(OpeningCheckRequestSchema, example=examples.OPENING_REQUEST)
    @blp.response(200, OpeningCheckSchema, example=EXAMPLES["opening"])
    def post(self, body: dict[str, Any]) -> Any:
        """Check an opening meld

        The card points of a side's first melds against the round's minimum. Red threes and book
        bonuses never count; of a taken discard pile only the top card counts where the preset says so.
        """
        return check_opening_request(body)


@blp.route("/going-out/check")
class GoingOutCheck(MethodView):
    @blp.arguments(GoingOutCheckRequestSchema, example=examples.GOING_OUT_REQUEST)
    @blp.response(200, GoingOutCheckSchema, example=EXAMPLES["going_out"])
    def post(self, body: dict[str, Any]) -> Any:
        """Check going out

        A side's melds and players against the round's contract: the books it has and still needs,
        by kind, and whether every player has picked up their foot where the preset requires it.
        """
        return check_going_out_request(body)


@blp.route("/discard-pile/check")
class DiscardPileCheck(MethodView):
    @blp.arguments(DiscardPileCheckRequestSchema, example=examples.DISCARD_REQUEST)
    @blp.response(200, DiscardPileCheckSchema, example=EXAMPLES["discard"])
    def post(self, body: dict[str, Any]) -> Any:
        """Check taking the discard pile

        May a player with this hand take the pile: how many cards, and every rule that stops it
        (a black three on top, no matching pair, a frozen pile, a closed rank...).
        """
        return check_discard_pile_request(body)
