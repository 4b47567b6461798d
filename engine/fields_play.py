"""The rule fields of the opening meld, going out and the discard pile: part of
:data:`~handfoot.engine.rule_fields.RULE_FIELDS`, in the order the RuleSet holds
them (each field: :class:`~handfoot.engine.rule_field.RuleField`)."""

from __future__ import annotations

from handfoot.engine.rule_field import RuleField, field_of

FIELDS: list[RuleField] = [
    field_of(
        "opening_minimum_by_round",
        "int_list",
        "opening",
        "Opening minimum (card points) per round, round 1 first.",
        maximum=100_000,
    ),
    field_of(
        "opening_minimum",
        "int",
        "opening",
        "Opening minimum (card points) for the rounds past those listed per round.",
        maximum=100_000,
        note="Rounds past opening_minimum_by_round.",
    ),
    field_of(
        "opening_thresholds",
        "threshold_list",
        "opening",
        "When not empty, the opening minimum comes from the side's score so far instead of the round: the score from "
        "which each minimum applies, lowest score first.",
        minimum=-1_000_000,
        maximum=1_000_000,
        note="[{score, minimum}], ascending score.",
    ),
    field_of(
        "opening_pile_top_only",
        "bool",
        "opening",
        "Of a taken discard pile only the top card counts toward the opening minimum.",
    ),
    field_of("opening_needs_book", "bool", "opening", "The opening melds must hold a completed book."),
    field_of(
        "contract",
        "contract",
        "going_out",
        "Books needed to go out (clean, dirty and wild) for the rounds past those listed per round.",
        maximum=40,
        note="{clean_books, dirty_books, wild_books}; rounds past contract_by_round.",
    ),
    field_of(
        "contract_by_round",
        "contract_list",
        "going_out",
        "Books needed to go out per round, round 1 first; empty: the same books every round.",
        maximum=40,
        note="Empty: `contract` every round.",
    ),
    field_of(
        "going_out_needs_feet",
        "bool",
        "going_out",
        "Every player of the side must have picked up their foot before the side goes out.",
    ),
    field_of(
        "going_out_needs_foot_play",
        "bool",
        "going_out",
        "Every player of the side must have played from their foot before the side goes out.",
        note="Read from each player's played_from_foot; absent: not known, not refused.",
    ),
    field_of(
        "going_out_discard",
        "choice",
        "going_out",
        "Going out: the last card may be melded or discarded (optional), or must be discarded (required).",
        choices=("optional", "required"),
    ),
    field_of(
        "last_card_needs_contract",
        "bool",
        "going_out",
        "A player may empty hand and foot only by going out, which needs the contract: no player of a side that did "
        "not go out holds no cards (no: a player may run out of cards and play continues as if the side had not gone "
        "out).",
    ),
    field_of(
        "draw_count",
        "int",
        "discard_pile",
        "Cards drawn from the stock at the start of a turn (instead of taking the discard pile).",
        minimum=1,
        maximum=5,
    ),
    field_of(
        "pile_take_allowed",
        "bool",
        "discard_pile",
        "The discard pile may be taken (no: every turn draws from the stock and the pile is never picked up).",
    ),
    field_of(
        "pile_take_count",
        "int",
        "discard_pile",
        "Cards taken from the discard pile (all if fewer; none: the whole pile).",
        minimum=1,
        maximum=200,
        nullable=True,
    ),
    field_of(
        "pile_blocked_by",
        "choice",
        "discard_pile",
        "Which three on top blocks the pile: a black three, or any three.",
        choices=("black_three", "any_three"),
        note="black_three or any_three.",
    ),
    field_of(
        "pile_wild_top",
        "choice",
        "discard_pile",
        "A wild card on top: taken with a matching pair of that wild, or never.",
        choices=("matching_pair", "blocked"),
        note="matching_pair or blocked.",
    ),
    field_of(
        "pile_later_take",
        "choice",
        "discard_pile",
        "Once the pile has been taken this round: a natural pair is still needed, or a natural and a wild, or an open"
        " meld of the rank, will do.",
        choices=("natural_pair", "natural_and_wild_or_open_meld"),
        note="natural_pair or natural_and_wild_or_open_meld.",
    ),
    field_of(
        "pile_freezes_on_wild",
        "bool",
        "discard_pile",
        "A discarded wild card freezes the pile for a round of turns.",
    ),
    field_of(
        "pile_closed_rank_blocks",
        "bool",
        "discard_pile",
        "The pile may not be taken when its top card's rank is a completed book of the side.",
    ),
]
