"""Schemas of the check operations: melds, openings, going out, the discard pile."""

from __future__ import annotations

from marshmallow import fields

from handfoot.engine import BookKind
from handfoot.server.resources.rounds.schemas import Players
from handfoot.server.schemas import (
    Bool,
    Cards,
    Doc,
    EngineProblemSchema,
    Int,
    Melds,
    PresetId,
    Problems,
    Required,
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
    valid = Required(fields.Boolean, "The meld (with `onto`, the meld after adding) breaks no rule.")
    kind = Required(
        fields.Enum,
        "clean (no wilds), dirty (naturals and wilds) or wild (wild cards only); null when the ranks are mixed.",
        BookKind,
        by_value=True,
        allow_none=True,
    )
    rank = Required(fields.String, "The natural cards' rank; null for a wild meld.", allow_none=True)
    complete = Required(fields.Boolean, "The meld is a book (book_size cards or more).")
    size = Required(fields.Integer, "Cards in the meld.")
    naturals = Required(fields.Integer, "Natural cards.")
    wilds = Required(fields.Integer, "Wild cards (2s and jokers).")
    points = Required(fields.Integer, "Card points of the whole meld.")
    problems = Problems(required=True)


class OpeningCheckRequestSchema(CheckBaseSchema):
    round = RoundNumber(load_default=1)
    melds = Melds("The side's opening melds.", required=True)
    from_pile = Cards("The melded cards that came from a taken discard pile, its top card first.", load_default=list)
    score = Doc(
        Int,
        "The side's cumulative score (points), for rules that set the minimum by score.",
        allow_none=True,
        load_default=None,
    )


class OpeningCheckSchema(Schema):
    points = Required(fields.Integer, "Card points counted toward the minimum.")
    minimum = Required(fields.Integer, "The round's opening minimum (points).")
    met = Required(fields.Boolean, "The opening is legal and reaches the minimum.")
    problems = Problems(required=True)


class GoingOutCheckRequestSchema(CheckBaseSchema):
    round = RoundNumber(load_default=1)
    melds = Melds("Every meld of the side on the table.", required=True)
    players = Players("The side's players; `foot` only for a foot never picked up.")


class BooksSchema(Schema):
    clean_books = Required(fields.Integer, "Clean books.")
    dirty_books = Required(fields.Integer, "Dirty books.")
    wild_books = Required(fields.Integer, "Wild books.")


class GoingOutCheckSchema(Schema):
    met = Required(
        fields.Boolean,
        "No rule is known to be broken: the side may go out, unless `unknown` lists an input "
        "not given on which the answer rests (unknown is not yes).",
    )
    books = Required(fields.Nested, "Completed books on the table, by kind.", BooksSchema)
    missing = Required(fields.Nested, "Books still missing for the contract, by kind.", BooksSchema)
    contract = Required(fields.Nested, "The contract of this round.", BooksSchema)
    problems = Problems(required=True)
    # `unknown` is a Schema's own setting: the member is named by data_key
    unknown_inputs = Required(
        fields.List,
        "Each input not given that decides the answer (code input_needed, with its pointer), "
        "e.g. a player's played_from_foot where every player must have played from the foot.",
        fields.Nested(EngineProblemSchema),
        attribute="unknown",
        data_key="unknown",
    )


class DiscardPileCheckRequestSchema(CheckBaseSchema):
    hand = Cards("The cards in the hand of the player who wants the pile.", required=True)
    pile = Cards("The discard pile, top card first.", required=True)
    melds = Melds("The side's melds on the table.", load_default=list)
    taken_before = Doc(
        Bool, "The pile has been taken before this round (the Wages reunion rules' broken pile).", load_default=False
    )
    frozen = Doc(
        Bool,
        "A wild card was discarded onto the pile (rule pile_freezes_on_wild; refused where the rules never freeze).",
        load_default=False,
    )
    burn = Cards(
        "The side's burn pile (rule after_book burn): its ranks cannot be used to take the pile.", load_default=list
    )


class DiscardPileCheckSchema(Schema):
    allowed = Required(fields.Boolean, "The player may take the pile.")
    cards = Required(fields.Integer, "Cards that would be taken (the top pile_take_count, all if fewer).")
    problems = Problems(required=True)
