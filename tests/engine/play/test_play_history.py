"""What the view adds for a seat that remembers: the round's public ``history`` (what every seat saw:
melds, discards, pile takes, feet picked up, the round's end; never a hidden card), ``complete`` on
each meld (the meld rule's book), each side's ``book_values`` (the scoring's book lines) and each
going-out problem's ``pointer`` into the view.

Seeded loops over random rounds of every preset (as test_play_listed.py plays them): a failure
names its preset, seed and step, and replays.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from handfoot.engine import PRESETS
from handfoot.engine.melds import validate_meld
from handfoot.engine.play import EVENT_TYPES, State, new_round, step, view
from handfoot.engine.play.bots import actor
from handfoot.engine.play.listing import going_out as listed_going_out
from handfoot.engine.play.state import state_from_mapping, to_mapping
from handfoot.engine.scoring import BOOK_LINES
from tests.conftest import HYPOTHESIS_PROFILE
from tests.engine.play.helpers import arrange, table_of

ROUNDS = 12 if HYPOTHESIS_PROFILE == "ci" else 2
# Per type, the members an event may carry: all public (no hand, no foot, no stock).
MEMBERS = {
    "draw": {"cards"},
    "take_pile": {"cards", "melds", "add", "burn"},
    "meld": {"melds", "add", "burn"},
    "discard": {"card"},
    "ask": set(),
    "answer": {"yes"},
    "red_threes": {"cards"},
    "pick_up_foot": set(),
    "went_out": {"side"},
    "stock_out": {"side"},
}


def rounds(preset: str, count: int) -> Iterator[list[tuple[State, dict[str, Any]]]]:
    """``count`` random rounds of ``preset`` (seed ``k``, picks by ``random.Random(k)``), each as
    its (state, action taken) pairs and, last, the round's end with an empty action."""
    for seed in range(count):
        state = new_round(preset, table_of(preset), seed)
        rng = random.Random(seed)
        played: list[tuple[State, dict[str, Any]]] = []
        while state.phase != "ended" and state.step < 600:
            seat = actor(state)
            bodies = [body for entry in view(state, seat)["actions"] for body in entry["send"]]
            action = {**rng.choice(bodies), "seat": seat}
            played.append((state, action))
            state = step(state, action)
        played.append((state, {}))
        yield played


def _events(before: State, after: State) -> list[dict[str, Any]]:
    return [dict(e) for e in after.history[len(before.history) :]]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_each_step_adds_only_what_the_table_showed(preset: str) -> None:
    """Every step's events: its own step number, an event type, only the type's public members, and
    every card named is public after it (a discard the pile's top, melds and burns on the side's
    table, red threes laid out) or was before (the pile's cards taken). A draw gives a count."""
    for played in rounds(preset, ROUNDS):
        for (before, action), (after, _) in itertools.pairwise(played):
            events = _events(before, after)
            where = f"{preset} seed {before.seed} step {after.step}"
            assert after.history[: len(before.history)] == before.history, where
            assert events and events[0]["seat"] == action["seat"], where
            assert events[0]["type"] == action["type"], where
            for event in events:
                assert event["step"] == after.step and event["type"] in EVENT_TYPES, where
                assert set(event) - {"step", "seat", "type"} <= MEMBERS[event["type"]], where
                side = after.sides[after.seats[event["seat"]].side]
                on_table = Counter(c.code for m in side.melds for c in m)
                laid = Counter(
                    [
                        *(c for m in event.get("melds", ()) for c in m),
                        *(c for a in event.get("add", ()) for c in a["cards"]),
                    ]
                )
                assert not laid - on_table, where
                if event["type"] == "discard":
                    assert event["card"] == after.pile[0].code == action["card"], where
                if event["type"] == "take_pile":
                    assert event["cards"] == [c.code for c in before.pile[: len(event["cards"])]], where
                if event["type"] == "draw":
                    assert isinstance(event["cards"], int), where
                if event["type"] == "red_threes":
                    assert not Counter(event["cards"]) - Counter(c.code for c in side.red_threes), where


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_history_rebuilds_every_table_and_the_pile(preset: str) -> None:
    """Replayed from the deal, the history's melds, additions, burns and red threes give each side's
    table exactly, and its discards and takes the pile's size and top: nothing laid is missing."""
    for played in rounds(preset, ROUNDS):
        start, (end, _) = played[0][0], played[-1]
        melds: list[list[list[str]]] = [[[c.code for c in m] for m in s.melds] for s in start.sides]
        burn: list[list[str]] = [[c.code for c in s.burn] for s in start.sides]
        threes: list[list[str]] = [[c.code for c in s.red_threes] for s in start.sides]
        pile = [c.code for c in start.pile]
        for event in end.history[len(start.history) :]:
            j = end.seats[event["seat"]].side
            for add in event.get("add", ()):
                melds[j][add["to"]] += add["cards"]
            melds[j] += [list(m) for m in event.get("melds", ())]
            burn[j] += event.get("burn", [])
            if event["type"] == "red_threes":
                threes[j] += event["cards"]
            if event["type"] == "discard":
                pile.insert(0, event["card"])
            if event["type"] == "take_pile":
                pile = pile[len(event["cards"]) :]
        where = f"{preset} seed {start.seed}"
        assert melds == [[[c.code for c in m] for m in s.melds] for s in end.sides], where
        assert burn == [[c.code for c in s.burn] for s in end.sides], where
        assert threes == [[c.code for c in s.red_threes] for s in end.sides], where
        assert pile == [c.code for c in end.pile], where


def test_every_seat_sees_one_history_and_no_hidden_card() -> None:
    """A few actions of a Pagat round: each other seat's view holds the discards and melds played, the
    same history as the actor's, and no card of a hand or a foot that was not played."""
    state = arrange(
        hands={0: "7S 7H 7D 9C 10H KD", 1: "8S 8H 8D 5C JH QD"},
        feet={0: "AS AH AD 4C 4D 6S 6H", 1: "QS QH QC 4S 9S 9H JS"},
        pile="5S",
        stock="5D 5H 8C 8D JC JD 6C 6D",
        melds={0: ["KS KH KC"], 1: ["10S 10C 10D"]},
        turn=0,
    )
    for action in (
        {"type": "draw", "seat": 0},
        {"type": "meld", "seat": 0, "melds": [["7S", "7H", "7D"]]},
        {"type": "discard", "seat": 0, "card": "9C"},
        {"type": "draw", "seat": 1},
        {"type": "discard", "seat": 1, "card": "5C"},
    ):
        state = step(state, action)
    histories = [view(state, seat)["history"] for seat in range(4)]
    assert all(h == histories[0] for h in histories)
    mine = [e for e in histories[0] if e["step"] > 0]
    assert [e["type"] for e in mine] == ["draw", "meld", "discard", "draw", "discard"]
    assert mine[1]["melds"] == [["7S", "7H", "7D"]] and mine[2]["card"] == "9C" and mine[4]["card"] == "5C"
    assert mine[0]["cards"] == 2  # a count: the cards drawn (JC 6D or the like) never named
    shown = str(histories[0])
    for hidden in ("10H", "KD", "8S", "8H", "JH", "QD", "AS", "4C", "QS", "JS", "JC", "JD", "6C", "6D", "5D"):
        assert f"'{hidden}'" not in shown, hidden


def test_the_history_survives_the_states_json_and_a_state_stored_without_one() -> None:
    played = next(rounds("pagat", 1))
    state = played[len(played) // 2][0]
    assert state.history and state_from_mapping(to_mapping(state)) == state
    old = to_mapping(state)
    del old["history"]
    assert state_from_mapping(old).history == ()


@pytest.mark.parametrize("preset", list(PRESETS))
def test_complete_is_the_meld_rules_book_and_book_values_the_scoring(preset: str) -> None:
    """Each meld's ``complete`` is ``validate_meld``'s; a side's ``book_values`` are its books by kind
    at each kind's bonus (``clean_books`` ... as the side's ``books`` count them) and, once the round
    has ended, the book lines of the side's score."""
    rules = PRESETS[preset].rules
    bonus = {
        "clean_books": rules.clean_book_bonus,
        "dirty_books": rules.dirty_book_bonus,
        "wild_books": rules.wild_book_bonus,
    }
    for played in rounds(preset, ROUNDS):
        for state, _ in [*played[:: max(1, len(played) // 25)], played[-1]]:
            seen = view(state, 0)
            for side, shown in zip(state.sides, seen["sides"], strict=True):
                assert shown["complete"] == [validate_meld(m, state.rules).complete for m in side.melds]
                values = {v["code"]: v for v in shown["book_values"]}
                assert set(BOOK_LINES) <= set(values)
                by_rank = sum(v["count"] for code, v in values.items() if code.startswith("books_of_"))
                counted = sum(values[code]["count"] for code in BOOK_LINES) + by_rank
                assert counted == sum(shown["books"].values())
                for code in BOOK_LINES:
                    assert values[code]["points_each"] == bonus[code]
                    assert values[code]["points"] == values[code]["count"] * bonus[code]
            if state.phase == "ended":
                for shown, score in zip(seen["sides"], seen["score"], strict=True):
                    lines = {line["code"]: line for line in score["lines"]}
                    for value in shown["book_values"]:
                        assert lines[value["code"]] == value


def test_two_feet_not_picked_up_have_two_pointers() -> None:
    """Going out needs every foot of the side picked up (Pagat): both partners' feet are down, and the
    two ``foot_not_picked_up`` point at the two seats' ``foot_size``."""
    state = arrange(hands={0: "7S 7H 7D 9C"}, phase="play", turn=0)
    going_out = view(state, 0)["going_out"]
    feet = [e["pointer"] for e in going_out["errors"] if e["code"] == "foot_not_picked_up"]
    assert feet == ["/seats/0/foot_size", "/seats/2/foot_size"]
    assert [e["code"] for e in going_out["errors"]] == going_out["problems"]


def _resolve(document: Any, pointer: str) -> Any:
    for part in pointer.split("/")[1:]:
        document = document[int(part)] if isinstance(document, list) else document[part]
    return document


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_going_out_pointer_resolves_in_the_view(preset: str) -> None:
    """The view's ``going_out`` is the listing's, and every problem in the way of going out points at
    a member of the view, in ``problems``' order; no two problems of one code share a pointer."""
    checked = 0
    for played in rounds(preset, ROUNDS):
        for state, _ in played:
            if state.phase != "play":
                continue
            shown = view(state, state.turn)
            going_out = shown["going_out"]
            assert {k: going_out[k] for k in ("allowed", "problems")} == listed_going_out(state, state.turn)
            assert [e["code"] for e in going_out["errors"]] == going_out["problems"]
            pairs = [(e["code"], e["pointer"]) for e in going_out["errors"]]
            assert len(set(pairs)) == len(pairs)
            for code, pointer in pairs:
                _resolve(shown, pointer)
                if code == "foot_not_picked_up":
                    assert _resolve(shown, pointer) is not None
                checked += 1
    assert checked
