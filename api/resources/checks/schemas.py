"""Schemas of the check operations: melds, openings, going out, the discard pile."""

from __future__ import annotations

from marshmallow import fields

from handfoot.engine import BookKind
from handfoot.server.resources.rounds.schemas import Players
from handfoot.server.schemas import (
    Bool,
    Cards,
    EngineProblemSchema,
    Int,
    Melds,
    PresetId,
    Problems,
    RoundNumber,
    Rules,
    Schema,
)


class CheckBaseSchema(Schema):
    preset = PresetId(required=True)
    rules = Rules()


class MeldValidateRequestSchema(CheckBaseSchema):
    cards = Cards("The meld's cards, or the cards added `onto` a meld on the table.", required=True)
    onto = Cards("A meld already on the table that `cards` are added to (optional).", load_default=list)


class MeldCheckSchema(Schema):
    valid = fields.Boolean(
        required=True, metadata={"description": "The meld (with `onto`, the meld after adding) breaks no rule."}
    )
    kind = fields.Enum(
        BookKind,
        required=True,
        by_value=True,
        allow_none=True,
        metadata={
            "description": "clean (no wilds), dirty (naturals and wilds) or "
            "wild (wild cards only); null when the ranks are mixed."
        },
    )
    rank = fields.String(
        required=True, allow_none=True, metadata={"description": "The natural cards' rank; null for a wild meld."}
    )
    complete = fields.Boolean(required=True, metadata={"description": "The meld is a book (book_size cards or more)."})
    size = fields.Integer(required=True, metadata={"description": "Cards in the meld."})
    naturals = fields.Integer(required=True, metadata={"description": "Natural cards."})
    wilds = fields.Integer(required=True, metadata={"description": "Wild cards (2s and jokers)."})
    points = fields.Integer(required=True, metadata={"description": "Card points of the whole meld."})
    problems = Problems(required=True)


class OpeningCheckRequestSchema(CheckBaseSchema):
    round = RoundNumber(load_default=1)
    melds = Melds("The side's opening melds.", required=True)
    from_pile = Cards("The melded cards that came from a taken discard pile, its top card first.", load_default=list)
    score = Int(
        allow_none=True,
        load_default=None,
        metadata={"description": "The side's cumulative score (points), for rules that set the minimum by score."},
    )


class OpeningCheckSchema(Schema):
    points = fields.Integer(required=True, metadata={"description": "Card points counted toward the minimum."})
    minimum = fields.Integer(required=True, metadata={"description": "The round's opening minimum (points)."})
    met = fields.Boolean(required=True, metadata={"description": "The opening is legal and reaches the minimum."})
    problems = Problems(required=True)


class GoingOutCheckRequestSchema(CheckBaseSchema):
    round = RoundNumber(load_default=1)
    melds = Melds("Every meld of the side on the table.", required=True)
    players = Players("The side's players; `foot` only for a foot never picked up.")


class BooksSchema(Schema):
    clean_books = fields.Integer(required=True, metadata={"description": "Clean books."})
    dirty_books = fields.Integer(required=True, metadata={"description": "Dirty books."})
    wild_books = fields.Integer(required=True, metadata={"description": "Wild books."})


class GoingOutCheckSchema(Schema):
    met = fields.Boolean(
        required=True,
        metadata={
            "description": "No rule is known to be broken: the side may go out, unless `unknown` lists an input "
            "not given on which the answer rests (unknown is not yes)."
        },
    )
    books = fields.Nested(
        BooksSchema, required=True, metadata={"description": "Completed books on the table, by kind."}
    )
    missing = fields.Nested(
        BooksSchema, required=True, metadata={"description": "Books still missing for the contract, by kind."}
    )
    contract = fields.Nested(BooksSchema, required=True, metadata={"description": "The contract of this round."})
    problems = Problems(required=True)
    unknown_inputs = fields.List(  # `unknown` is a Schema's own setting: the member is named by data_key
        fields.Nested(EngineProblemSchema),
        required=True,
        attribute="unknown",
        data_key="unknown",
        metadata={
            "description": "Each input not given that decides the answer (code input_needed, with its pointer), "
            "e.g. a player's played_from_foot where every player must have played from the foot."
        },
    )


class DiscardPileCheckRequestSchema(CheckBaseSchema):
    hand = Cards("The cards in the hand of the player who wants the pile.", required=True)
    pile = Cards("The discard pile, top card first.", required=True)
    melds = Melds("The side's melds on the table.", load_default=list)
    taken_before = Bool(
        load_default=False,
        metadata={"description": "The pile has been taken before this round (the Wages reunion rules' broken pile)."},
    )
    frozen = Bool(
        load_default=False,
        metadata={
            "description": "A wild card was discarded onto the pile (rule pile_freezes_on_wild; refused where "
            "the rules never freeze)."
        },
    )
    burn = Cards(
        "The side's burn pile (rule after_book burn): its ranks cannot be used to take the pile.", load_default=list
    )


class DiscardPileCheckSchema(Schema):
    allowed = fields.Boolean(required=True, metadata={"description": "The player may take the pile."})
    cards = fields.Integer(
        required=True, metadata={"description": "Cards that would be taken (the top pile_take_count, all if fewer)."}
    )
    problems = Problems(required=True)
