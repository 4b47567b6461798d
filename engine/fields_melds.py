"""The rule fields of melds and books, bonuses and red threes: part of
:data:`~handfoot.engine.rule_fields.RULE_FIELDS`, in the order the RuleSet holds
them (each field: :class:`~handfoot.engine.rule_field.RuleField`)."""

from __future__ import annotations

from handfoot.engine.rule_field import RANK_BONUS_RANKS, RuleField, field_of

FIELDS: list[RuleField] = [
    field_of("meld_min", "int", "melds", "Fewest cards in a new meld.", minimum=1, maximum=13),
    field_of("book_size", "int", "melds", "Cards that complete a book.", minimum=2, maximum=13),
    field_of(
        "book_max_size",
        "int",
        "melds",
        "Most cards in a meld or book (none: no limit).",
        minimum=2,
        maximum=40,
        nullable=True,
    ),
    field_of("one_open_meld_per_rank", "bool", "melds", "A side may not have two unfinished melds of one rank."),
    field_of(
        "after_book",
        "choice",
        "melds",
        "After a book of a rank is complete: start another meld of the rank, or burn further cards of the rank "
        "(scored on a burn line).",
        choices=("new_meld", "burn"),
        note="new_meld: another meld of the rank; burn: onto the side's burn pile.",
    ),
    field_of("all_wild_melds", "bool", "melds", "Melds of wild cards only (and so wild books) exist."),
    field_of("black_three_books", "bool", "melds", "Black threes may be melded (naturals only)."),
    field_of(
        "wild_ratio",
        "choice",
        "melds",
        "Natural to wild cards in a meld: twice (at least twice as many naturals as wilds), more (more naturals than "
        "wilds), equal (at least as many naturals as wilds) or none (no ratio).",
        choices=("twice", "more", "equal", "none"),
        note="twice: naturals >= 2 x wilds; more: naturals > wilds; equal: naturals >= wilds.",
    ),
    field_of(
        "min_naturals_with_wilds",
        "int",
        "melds",
        "A meld holding a wild card needs at least this many naturals.",
        maximum=13,
    ),
    field_of(
        "min_naturals_dirty_book",
        "int",
        "melds",
        "A completed dirty book needs at least this many naturals.",
        maximum=13,
    ),
    field_of(
        "max_wilds_per_book",
        "int",
        "melds",
        "Most wild cards in one meld or book (none: only the ratio limits them).",
        maximum=40,
        nullable=True,
    ),
    field_of(
        "min_natural_share",
        "int",
        "melds",
        "Least share of natural cards in a meld holding wild cards, in percent of its cards (0: no such limit).",
        maximum=100,
    ),
    field_of(
        "clean_books_grow",
        "bool",
        "melds",
        "Clean books may grow past the most cards a meld may hold (a dirty book still closes at it).",
        note="Past book_max_size.",
    ),
    field_of(
        "illegal_melds_stand",
        "bool",
        "melds",
        "A meld that breaks the meld rules stands and scores when no one caught it: its problems are warnings on the "
        "side's breakdown, not a refusal.",
    ),
    field_of(
        "clean_book_bonus",
        "int",
        "bonuses",
        "Bonus per clean (red, natural) book.",
        minimum=-100_000,
        maximum=100_000,
    ),
    field_of(
        "dirty_book_bonus",
        "int",
        "bonuses",
        "Bonus per dirty (black, mixed) book.",
        minimum=-100_000,
        maximum=100_000,
    ),
    field_of("wild_book_bonus", "int", "bonuses", "Bonus per wild (all-wild) book.", minimum=-100_000, maximum=100_000),
    field_of(
        "going_out_bonus",
        "int",
        "bonuses",
        "Going-out bonus for the rounds past those listed per round.",
        minimum=-100_000,
        maximum=100_000,
        note="Rounds past going_out_bonus_by_round.",
    ),
    field_of(
        "going_out_bonus_by_round",
        "int_list",
        "bonuses",
        "Going-out bonus per round, round 1 first; empty: the same going-out bonus every round.",
        minimum=-100_000,
        maximum=100_000,
        note="Empty: going_out_bonus every round.",
    ),
    field_of(
        "rank_book_bonuses",
        "rank_bonus_list",
        "bonuses",
        "Books of a given rank worth their own bonus, in place of their kind's (clean or dirty): ranks 4-10, J, Q, K,"
        " A or 3 (black threes); empty: none.",
        minimum=-100_000,
        maximum=100_000,
        choices=RANK_BONUS_RANKS,
        note="[{rank, bonus}].",
    ),
    field_of(
        "perfect_cut_bonus",
        "int",
        "bonuses",
        "Bonus each time a player picks up exactly the dealt count of cards when cutting (0: no such bonus).",
        minimum=-100_000,
        maximum=100_000,
    ),
    field_of(
        "perfect_cut_within_1_bonus",
        "int",
        "bonuses",
        "Bonus each time a player's cut is one card off the dealt count (0: no such bonus).",
        minimum=-100_000,
        maximum=100_000,
    ),
    field_of(
        "perfect_cut_within_3_bonus",
        "int",
        "bonuses",
        "Bonus each time a player's cut is two or three cards off the dealt count (0: no such bonus).",
        minimum=-100_000,
        maximum=100_000,
    ),
    field_of("red_threes_laid_out", "bool", "red_threes", "Red threes are laid out on the table (and replaced)."),
    field_of(
        "red_threes_automatic",
        "bool",
        "red_threes",
        "The game lays out every red three as it reaches a hand, dealt or drawn, and replaces it: none is ever caught"
        " in a hand (a foot's: see the next rule).",
    ),
    field_of(
        "red_threes_automatic_foot",
        "choice",
        "red_threes",
        "Where the game lays red threes out itself, a foot's red threes: laid out when the foot is picked up (a foot "
        "never picked up keeps them, caught against its side), or as the foot is dealt (none is ever caught).",
        choices=("picked_up", "dealt"),
        note=(
            "Read only where red_threes_automatic; picked_up: a red three in a foot never picked up counts "
            "red_three_caught_points (D76)."
        ),
    ),
    field_of(
        "red_three_table_points",
        "int",
        "red_threes",
        "Points per red three on the table of a side that has melded (signed).",
        minimum=-100_000,
        maximum=100_000,
    ),
    field_of(
        "red_three_table_points_unmelded",
        "int",
        "red_threes",
        "Points per red three on the table of a side that has not melded (signed).",
        minimum=-100_000,
        maximum=100_000,
    ),
    field_of(
        "red_three_caught_points",
        "int",
        "red_threes",
        "Points per red three caught in a hand or foot (signed; usually negative).",
        minimum=-100_000,
        maximum=100_000,
    ),
]
