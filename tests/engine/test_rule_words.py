"""Each rule field's ``description`` is in players' words at its source (the keeper shows it as the
rule's label, as is): no field name, no ``null``, no code quoting, no comparison signs. What a
developer needs in field names (how one value reads with another, its JSON shape, the choice
values) is the field's ``note``, which the OpenAPI document adds to the description."""

from __future__ import annotations

import re

import pytest

from handfoot.engine import RULE_FIELDS

#: A field name (snake_case, ``hand_size``; a one-word name such as ``contract`` is a word, but not
#: quoted as code), ``null``, a backtick, or a comparison sign.
NOT_PLAYERS_WORDS = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b|\bnull\b|`|[<>]=?")


def words_that_are_not_players(description: str) -> list[str]:
    return NOT_PLAYERS_WORDS.findall(description)


@pytest.mark.parametrize("name", sorted(RULE_FIELDS))
def test_a_rule_is_described_in_players_words(name: str) -> None:
    description = RULE_FIELDS[name].description
    assert description and description.endswith("."), description
    assert not words_that_are_not_players(description), (name, description)


@pytest.mark.parametrize("name", sorted(name for name, spec in RULE_FIELDS.items() if spec.note))
def test_a_note_names_only_fields_that_exist(name: str) -> None:
    """A note names other fields for developers: each snake_case name it uses is a rule field, or
    a choice value of one, or a member of the value's JSON shape."""
    known = set(RULE_FIELDS) | {c for spec in RULE_FIELDS.values() for c in spec.choices}
    known |= {"clean_books", "dirty_books", "wild_books", "played_from_foot"}
    named = set(re.findall(r"\b[a-z0-9]+_[a-z0-9_]+\b", RULE_FIELDS[name].note))
    assert named <= known, (name, named - known)


def test_the_check_finds_field_names_and_null() -> None:
    assert words_that_are_not_players("Cards dealt to each hand; empty: hand_size every round.") == ["hand_size"]
    assert words_that_are_not_players("Rounds in a game (null: play to the target).") == ["null"]
    assert words_that_are_not_players("Books needed; empty: `contract` every round.") == ["`", "`"]
    assert words_that_are_not_players("Natural to wild cards: twice (naturals >= 2 x wilds).") == [">="]
    assert words_that_are_not_players("Rounds in a game (none: play until a side reaches the target score).") == []
