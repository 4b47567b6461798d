"""Cards: their spellings, parsing with positions, the deck."""

from __future__ import annotations

import pytest

from handfoot.engine import (
    CardError,
    parse_card,
    parse_cards,
)
from handfoot.engine.cards import DECK


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("10H", "10H"),
        ("TH", "10H"),
        ("th", "10H"),
        (" qs ", "QS"),
        ("4♣", "4C"),
        ("A♥", "AH"),
        ("k♦", "KD"),
        ("JK", "JK"),
        ("jk", "JK"),
        ("2♠", "2S"),
        ("3D", "3D"),
    ],
)
def test_card_aliases_parse_to_canonical(text: str, code: str) -> None:
    assert parse_card(text).code == code


@pytest.mark.parametrize("text", ["1X", "", "11H", "JKR", "10", "H10", "QX", "🂡"])
def test_unknown_cards(text: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(text)
    assert info.value.code == "unknown_card"


def test_parse_cards_reports_every_position() -> None:
    with pytest.raises(CardError) as info:
        parse_cards(["KS", "1X", "QH", 7], ("melds", 2))
    assert [p.path for p in info.value.problems] == [("melds", 2, 1), ("melds", 2, 3)]


def test_deck_has_54_cards() -> None:
    assert len(DECK) == 54 and sum(1 for c in DECK if c.is_wild) == 6
