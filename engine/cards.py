"""Cards: parsing, canonical strings and classification (DESIGN §2).

A card is a string, rank then suit: ranks ``A 2 3 4 5 6 7 8 9 10 J Q K`` (``T`` is accepted for ten),
suits ``S H D C`` (``♠ ♥ ♦ ♣`` accepted), jokers ``JK``. Input is case-insensitive; output is always
canonical (``10H``, ``QS``, ``JK``). Hearts and diamonds are red. Wild cards are 2s and jokers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from engine.errors import CardError, Path, Problem


class Rank(Enum):
    """A card's rank; the value is its canonical text."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    JOKER = "JK"


class Suit(Enum):
    """A card's suit; the value is its canonical letter."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


#: Ranks that may form natural melds, low to high (threes excluded: DESIGN §2, every seed).
NATURAL_RANKS: tuple[Rank, ...] = (
    Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN,
    Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE,
)


@dataclass(frozen=True, slots=True)
class Card:
    """One card. ``suit`` is ``None`` for a joker."""

    rank: Rank
    suit: Suit | None

    @property
    def code(self) -> str:
        """The canonical string, e.g. ``10H``, ``QS``, ``JK``."""
        return self.rank.value + (self.suit.value if self.suit else "")

    @property
    def is_wild(self) -> bool:
        """2s and jokers are wild (DESIGN §2; every seed)."""
        return self.rank is Rank.TWO or self.rank is Rank.JOKER

    @property
    def is_red(self) -> bool:
        return self.suit is not None and self.suit.is_red

    @property
    def is_red_three(self) -> bool:
        return self.rank is Rank.THREE and self.is_red

    @property
    def is_black_three(self) -> bool:
        return self.rank is Rank.THREE and not self.is_red

    def __str__(self) -> str:
        return self.code


_SUIT_ALIASES = {
    "S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS,
    "♠": Suit.SPADES, "♥": Suit.HEARTS, "♦": Suit.DIAMONDS, "♣": Suit.CLUBS,
    "♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS,
}
_RANK_ALIASES = {r.value: r for r in Rank if r is not Rank.JOKER} | {"T": Rank.TEN}


def _build_table() -> dict[str, Card]:
    table: dict[str, Card] = {"JK": Card(Rank.JOKER, None)}
    for rank_text, rank in _RANK_ALIASES.items():
        for suit_text, suit in _SUIT_ALIASES.items():
            table[rank_text + suit_text] = Card(rank, suit)
    return table


_CARDS: dict[str, Card] = _build_table()

#: Every distinct card of one deck: 52 ranked cards and 2 jokers (DESIGN §2; seed 000 "jokers included").
DECK: tuple[Card, ...] = tuple(
    [Card(r, s) for r in Rank if r is not Rank.JOKER for s in Suit] + [Card(Rank.JOKER, None)] * 2
)


def parse_card(text: object) -> Card:
    """Parse one card string (aliases accepted, case-insensitive, surrounding spaces ignored).

    Raises :class:`CardError` (code ``unknown_card``) for anything else.
    """
    if isinstance(text, str):
        card = _CARDS.get(text) or _CARDS.get(text.strip().upper())
        if card is not None:
            return card
    raise CardError([Problem("unknown_card", f"{text!r} is not a card: expected rank then suit, "
                             "e.g. 10H, QS, TD, 4♣, or JK for a joker")])


def parse_cards(items: Sequence[object], path: Path = ()) -> tuple[Card, ...]:
    """Parse a list of card strings; every unknown card is reported at ``path + (index,)``."""
    cards: list[Card] = []
    problems: list[Problem] = []
    get = _CARDS.get
    for index, text in enumerate(items):
        card = get(text) if isinstance(text, str) else None
        if card is None:
            try:
                card = parse_card(text)
            except CardError as err:
                problems.extend(p.at(*path, index) for p in err.problems)
                continue
        cards.append(card)
    if problems:
        raise CardError(problems)
    return tuple(cards)


def codes(cards: Sequence[Card]) -> list[str]:
    """The canonical strings of ``cards``."""
    return [c.code for c in cards]
