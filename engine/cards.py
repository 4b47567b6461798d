"""Cards: parsing, canonical strings and classification (DESIGN §2).

A card is a string, rank then suit: ranks ``A 2 3 4 5 6 7 8 9 10 J Q K`` (``T`` is accepted for ten),
suits ``S H D C`` (``♠ ♥ ♦ ♣`` accepted), jokers ``JK``. Input is case-insensitive; output is always
canonical (``10H``, ``QS``, ``JK``). Hearts and diamonds are red. Wild cards are 2s and jokers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from operator import attrgetter

from handfoot.engine.errors import CardError, Path, Problem


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
    Rank.FOUR,
    Rank.FIVE,
    Rank.SIX,
    Rank.SEVEN,
    Rank.EIGHT,
    Rank.NINE,
    Rank.TEN,
    Rank.JACK,
    Rank.QUEEN,
    Rank.KING,
    Rank.ACE,
)


#: Position of each rank in ``Rank`` (0 = ace ... 13 = joker): tuples by rank are indexed by it.
RANK_INDEX: dict[Rank, int] = {rank: i for i, rank in enumerate(Rank)}
#: Each rank's text by rank index (``RANK_TEXT[card.rank_index]``: an enum's ``.value`` is a
#: Python-level descriptor, a tuple item is read in C).
RANK_TEXT: tuple[str, ...] = tuple(rank.value for rank in Rank)
_SUIT_INDEX: dict[Suit | None, int] = {suit: i for i, suit in enumerate(Suit)} | {None: len(Suit)}

# -- compositions ---------------------------------------------------------------------------------
# A meld's *composition* is how many of its cards are of each rank, as one int: a field of
# ``RANK_BITS`` bits per rank, field r (``RANK_INDEX``) counting the cards of rank r. It is the sum of
# its cards' ``Card.composition`` (a one in the card's rank field), so a meld's composition is one
# C-level ``sum`` (:func:`composition`) rather than a Python loop over its cards; every meld rule but
# the colour of threes reads it (``handfoot.engine.melds.validate_meld``). Exact for melds of at most
# ``MELD_CARDS_MAX`` cards (no field can carry into the next); the meld check refuses larger ones.

#: Bits per rank field of a composition.
RANK_BITS = 8
#: The most cards of one meld that a composition counts exactly.
MELD_CARDS_MAX = (1 << RANK_BITS) - 1
#: The field of a composition that counts threes (a meld without threes is checked by its composition).
THREE_FIELD = MELD_CARDS_MAX << RANK_BITS * RANK_INDEX[Rank.THREE]

# A meld's *key* is its composition and size in one int below ``MELD_KEY_LIMIT`` (63 bits: summed by
# ``sum``'s C fast path), for a meld of at most 15 cards without threes: the sum of its cards'
# ``Card.meld_key``, a 4-bit field per rank (``RANK_INDEX``) counting its cards and a 4-bit field
# above them counting every card. A three's key is ``MELD_KEY_LIMIT`` itself, and 16 cards count
# past it, so a sum below it has no field carried into the next: two melds whose keys are below it
# are equal in composition and size exactly when their keys are equal (a table's melds read as keys:
# ``handfoot.engine.table.analyse_table``).

#: The bits of a rank's field, and of the count, in a meld key.
_KEY_BITS = 4
#: One card in a meld key's count.
_KEY_CARD = 1 << _KEY_BITS * len(Rank)
#: A meld key at or past this is no key: a three, or more than 15 cards.
MELD_KEY_LIMIT = _KEY_CARD << _KEY_BITS


@dataclass(frozen=True, slots=True)
class Card:
    """One card. ``suit`` is ``None`` for a joker.

    Equality and hashing are by ``rank`` and ``suit`` only. Everything else is derived once, when the
    card is made, and kept as an attribute: scoring reads these for every card of a round, and an
    attribute is cheaper than a property or hashing an enum.
    """

    rank: Rank
    suit: Suit | None
    #: The canonical string, e.g. ``10H``, ``QS``, ``JK``.
    code: str = field(init=False, repr=False, compare=False)
    #: 2s and jokers are wild (DESIGN §2; every seed).
    is_wild: bool = field(init=False, repr=False, compare=False)
    is_red: bool = field(init=False, repr=False, compare=False)
    is_red_three: bool = field(init=False, repr=False, compare=False)
    is_black_three: bool = field(init=False, repr=False, compare=False)
    #: ``RANK_INDEX[rank]``.
    rank_index: int = field(init=False, repr=False, compare=False)
    #: A small integer per distinct card (rank and suit): 0 ... 69.
    key: int = field(init=False, repr=False, compare=False)
    #: This card as a composition: a one in its rank's field (see above).
    composition: int = field(init=False, repr=False, compare=False)
    #: This card's part of a meld key (see above).
    meld_key: int = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        rank, suit = self.rank, self.suit
        red = suit is not None and suit.is_red
        setattr_ = object.__setattr__
        setattr_(self, "code", rank.value + (suit.value if suit else ""))
        setattr_(self, "is_wild", rank is Rank.TWO or rank is Rank.JOKER)
        setattr_(self, "is_red", red)
        setattr_(self, "is_red_three", rank is Rank.THREE and red)
        setattr_(self, "is_black_three", rank is Rank.THREE and not red)
        setattr_(self, "rank_index", RANK_INDEX[rank])
        setattr_(self, "key", RANK_INDEX[rank] * (len(Suit) + 1) + _SUIT_INDEX[suit])
        setattr_(self, "composition", 1 << RANK_BITS * RANK_INDEX[rank])
        in_meld = (1 << _KEY_BITS * RANK_INDEX[rank]) + _KEY_CARD  # its rank's field and the count
        setattr_(self, "meld_key", MELD_KEY_LIMIT if rank is Rank.THREE else in_meld)
        setattr_(self, "_hash", hash((rank, suit)))  # what the dataclass would compute, once

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return self.code


_SUIT_ALIASES = {
    "S": Suit.SPADES,
    "H": Suit.HEARTS,
    "D": Suit.DIAMONDS,
    "C": Suit.CLUBS,
    "♠": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}
_RANK_ALIASES = {r.value: r for r in Rank if r is not Rank.JOKER} | {"T": Rank.TEN}


def _build_table() -> dict[str, Card]:
    table: dict[str, Card] = {"JK": Card(Rank.JOKER, None)}
    for rank_text, rank in _RANK_ALIASES.items():
        for suit_text, suit in _SUIT_ALIASES.items():
            table[rank_text + suit_text] = Card(rank, suit)
    return table


_CARDS: dict[str, Card] = _build_table()
#: Every accepted card string (canonical and aliases, upper case) → its Card. Read only.
CARD_TABLE: Mapping[str, Card] = _CARDS

#: Every distinct card of one deck: 52 ranked cards and 2 jokers (DESIGN §2; seed 000 "jokers included").
DECK: tuple[Card, ...] = tuple(
    [Card(r, s) for r in Rank if r is not Rank.JOKER for s in Suit] + [Card(Rank.JOKER, None)] * 2
)


def rank_of(code: str) -> str:
    """The rank, as canonical text (``"10"``, ``"JK"``), of the card spelled ``code`` (canonical or an
    alias); ``KeyError`` for a string that is no card. For the bots and the listing, which read
    views' card strings."""
    return _CARDS[code].rank.value


def is_wild_code(code: str) -> bool:
    """Whether the card spelled ``code`` is wild (:attr:`Card.is_wild`: 2s and jokers)."""
    return _CARDS[code].is_wild


def deck(jokers: int = 2) -> tuple[Card, ...]:
    """Every card of one deck of 52 ranked cards and ``jokers`` jokers (RuleSet ``jokers_per_deck``:
    two in every published rule set; 0 or 4 on some hosted tables, docs/rules-decisions.md D28)."""
    return DECK if jokers == 2 else (*DECK[:-2], *[Card(Rank.JOKER, None)] * jokers)


def parse_card(text: object) -> Card:
    """Parse one card string (aliases accepted, case-insensitive, surrounding spaces ignored).

    Raises :class:`CardError` (code ``unknown_card``) for anything else.
    """
    if isinstance(text, str):
        card = _CARDS.get(text) or _CARDS.get(text.strip().upper())
        if card is not None:
            return card
    raise CardError(
        [
            Problem(
                "unknown_card",
                f"{text!r} is not a card: expected rank then suit, e.g. 10H, QS, TD, 4♣, or JK for a joker",
            )
        ]
    )


def parse_cards(items: Sequence[object], path: Path = ()) -> tuple[Card, ...]:
    """Parse a list of card strings; every unknown card is reported at ``path + (index,)``."""
    try:
        # Every item exactly as the table spells it (canonical or an alias): one pass in C. Else
        # item by item below, to accept other spellings and name each unknown card.
        return tuple(map(_CARDS.__getitem__, items))  # type: ignore[arg-type]
    except (KeyError, TypeError):
        pass
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


_LISTS = frozenset([list, tuple])


def parse_card_lists(items: Sequence[Sequence[object]], path: Path = ()) -> tuple[tuple[Card, ...], ...]:
    """:func:`parse_cards` of every list in ``items`` (each a list or tuple: the caller checks the
    shape), the list at index ``j`` reported at ``path + (j,)``: every unknown card of every list is
    reported at once (:class:`CardError`)."""
    if _LISTS.issuperset(map(type, items)):
        try:  # every card exactly as the table spells it: one pass in C for all the lists
            return tuple([tuple(map(_CARDS.__getitem__, cards)) for cards in items])  # type: ignore[arg-type]
        except (KeyError, TypeError):
            pass
    lists: list[tuple[Card, ...]] = []
    problems: list[Problem] = []
    for j, cards in enumerate(items):
        try:
            lists.append(parse_cards(cards, (*path, j)))
        except CardError as err:
            problems.extend(err.problems)
    if problems:
        raise CardError(problems)
    return tuple(lists)


_composition_of = attrgetter("composition")
#: A card's ``key`` (``key_of(card)``; ``map(key_of, cards)`` reads many in C).
key_of = attrgetter("key")


def codes(cards: Iterable[Card]) -> list[str]:
    """The card strings of ``cards``, in order (``["10H", "JK"]``)."""
    out: list[str] = []
    for card in cards:  # a loop: a comprehension is a function made and called
        out.append(card.code)
    return out


def composition(cards: Iterable[Card]) -> int:
    """The composition of ``cards`` (see above): exact for at most ``MELD_CARDS_MAX`` cards."""
    return sum(map(_composition_of, cards))


def composition_count(comp: int, rank: Rank) -> int:
    """How many cards of ``rank`` the composition ``comp`` holds."""
    return comp >> RANK_BITS * RANK_INDEX[rank] & MELD_CARDS_MAX
