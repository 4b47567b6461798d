"""Scripted deals played through the table's steps to the end of a round, under every preset, each
asserting what the seeds say of its outcome.

- Going out under each preset's real contract (Pagat, the online 11/13 game and Board Game Arena
  need a wild book): a side one card short of its contract draws, asks its partner where the rules
  ask, completes the last book, melds and discards; the round ends with the side out and scores
  "book bonuses + card points of all melded cards + going-out bonus - card points left" (seed 000's
  scoring; seed 002 basic/count/against; seed 003 "Adding up your points").
- The stock running out: under the online 11/13 game "play goes on only while each player takes the
  discard pile ... If you can't take it ... the round ends and no one goes out"; elsewhere the round
  ends (seed 000 "Play also ends when the stock runs out"; seed 004 "If the draw pile is exhausted,
  the round ends and no team gets this bonus").
- A red three as the stock's last card: "it is laid out as usual and the round ends at once" (seed
  001; D40).
- The straight-away foot pick-up: a hand melded out picks up the foot and keeps playing (seed 000 "If
  you melded every card, you pick up the foot straight away and keep playing"; seed 002 "going
  straight"; seed 004 running to the foot); a red three in it is laid out where the rules lay red
  threes out (seed 004: the foot's red threes once it is picked up, D76).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from handfoot.engine import PRESETS, parse_cards
from handfoot.engine.melds import rank_points
from handfoot.engine.play import State, preset_play_options, score, step
from tests.engine.play.helpers import arrange, codes, discard, rules_of, table_of, takers
from tests.engine.play.test_play_going_out_by_preset import books_for


def _points(cards: str, preset: str) -> int:
    values = rank_points(rules_of(preset))
    return sum(values[c.rank_index] for c in parse_cards(cards.split()))


def _partners_ready(state: State) -> State:
    """Seat 0's partners hold 9C, feet picked up and played from; seat 0's foot picked up and played."""
    seats = list(state.seats)
    seats[0] = replace(seats[0], foot=None, played_from_foot=True)
    for i in state.seats_of(0):
        if i != 0:
            seats[i] = replace(seats[i], hand=parse_cards(["9C"]), foot=None, played_from_foot=True)
    return replace(state, seats=tuple(seats))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_scripted_deal_goes_out_under_the_presets_contract(preset: str) -> None:
    rules = rules_of(preset)
    contract = rules.contract_for(1)
    books = books_for(contract)
    last = books[-1].split()
    table = [*books[:-1], " ".join(last[:-1])]  # the last book one card short
    state = _partners_ready(
        arrange(preset, hands={0: f"{last[-1]} 5S 5H 5D"}, melds={0: table}, stock="4C 9D 5C", phase="draw")
    )
    state = step(state, {"type": "draw", "seat": 0})  # 5C and 9D
    assert codes(state.seats[0].hand) == [last[-1], "5S", "5H", "5D", "5C", "9D"]
    partners = [i for i in state.seats_of(0) if i != 0]
    if preset_play_options(preset)[0].ask_partner and partners:  # "May I go out?" (Pagat, Wikipedia, ...)
        state = step(state, {"type": "ask", "seat": 0})
        state = step(state, {"type": "answer", "seat": state.answerer, "yes": True})
    state = step(
        state,
        {
            "type": "meld",
            "seat": 0,
            "melds": [["5S", "5H", "5D", "5C"]],
            "add": [{"to": len(table) - 1, "cards": [last[-1]]}],
        },
    )
    ended = step(state, discard("9D"))
    assert ended.phase == "ended" and ended.ended == "went_out" and ended.out_side == 0
    side = score(ended).teams[0]
    lines = {line.code: line for line in side.lines}
    assert (lines["clean_books"].count, lines["dirty_books"].count, lines["wild_books"].count) == (
        contract.clean_books,
        contract.dirty_books,
        contract.wild_books,
    )
    melded = " ".join([*books, "5S 5H 5D 5C"])
    left = _points("9C", preset) * len(partners)
    expected = (
        contract.clean_books * rules.clean_book_bonus
        + contract.dirty_books * rules.dirty_book_bonus
        + contract.wild_books * rules.wild_book_bonus
        + rules.going_out_bonus_for(1)
        + _points(melded, preset)
        - left
    )
    assert lines["going_out"].points == rules.going_out_bonus_for(1)
    assert side.total == expected
    assert all(line.points == 0 for t in score(ended).teams[1:] for line in t.lines if line.code == "going_out")


@pytest.mark.parametrize("preset", takers())
def test_a_scripted_deal_plays_the_stock_out(preset: str) -> None:
    """Seat 0 draws the stock's last two cards and discards a king; seat 1 holds a pair of kings."""
    if len(table_of(preset)[0][1]) == 1:  # players alone: two seats
        hands = {0: "KS QS", 1: "KC KD 5S"}
    else:
        hands = {0: "KS QS", 1: "KC KD 5S", 2: "6S 6H 4C", 3: "JC JD 4D"}
    state = arrange(
        preset,
        phase="draw",
        stock="7C 8C",
        hands=hands,
        melds={0: ["9S 9H 9C"], 1: ["10S 10H 10C"]},
        pile="4H",
    )
    state = step(state, {"type": "draw", "seat": 0})
    assert state.stock == ()
    after = step(state, discard("KS"))
    if preset_play_options(preset)[0].stock_out == "ends":  # "Play also ends when the stock runs out"
        assert after.phase == "ended" and after.ended == "stock_out" and after.out_side is None
    else:  # the online 11/13 game: "play goes on only while each player takes the discard pile"
        assert after.phase == "draw" and after.turn == 1
        taken = step(after, {"type": "take_pile", "seat": 1, "cards": ["KC", "KD"]})
        assert taken.phase == "play" and taken.pile == ()
        passed = step(taken, discard("5S", seat=1))
        assert passed.phase == "draw" and passed.turn == 2
        # seat 2 cannot take a 5 with 6 6 4: it draws from no stock, and the round ends, no one out
        after = step(passed, {"type": "draw", "seat": 2})
        assert after.phase == "ended" and after.ended == "stock_out" and after.out_side is None
    scored = score(after)
    assert [t.line("going_out").points for t in scored.teams] == [0] * len(scored.teams)  # type: ignore[union-attr]


@pytest.mark.parametrize("preset", [p for p in PRESETS if PRESETS[p].rules.red_threes_laid_out])
def test_a_red_three_as_the_stocks_last_card_ends_the_round(preset: str) -> None:
    """Seed 001: "If the last card of the stock is a red 3, it is laid out as usual and the round ends
    at once" (D40: wherever red threes are laid out, a replacement wanted from an empty stock)."""
    state = arrange(preset, phase="draw", stock="3H", hands={0: "KS QS"}, melds={0: ["9S 9H 9C"]})
    ended = step(state, {"type": "draw", "seat": 0})
    assert ended.phase == "ended" and ended.ended == "stock_out" and ended.out_side is None
    assert codes(ended.sides[0].red_threes) == ["3H"] and codes(ended.seats[0].hand) == ["KS", "QS"]
    side = score(ended).teams[0]
    rules = rules_of(preset)
    assert side.line("red_threes_on_table").points == rules.red_three_table_points  # type: ignore[union-attr]
    assert side.line("going_out").points == 0  # type: ignore[union-attr]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_scripted_deal_goes_straight_into_the_foot(preset: str) -> None:
    state = arrange(
        preset,
        phase="draw",
        stock="4C 7D KD",
        hands={0: "KS KH"},
        feet={0: "3D 8S 8H 8D QS"},
        melds={0: ["9S 9H 9C", "7S 7H 7C"]},
    )
    state = step(state, {"type": "draw", "seat": 0})  # KD and 7D
    assert codes(state.seats[0].hand) == ["KS", "KH", "KD", "7D"]
    after = step(state, {"type": "meld", "seat": 0, "melds": [["KS", "KH", "KD"]], "add": [{"to": 1, "cards": ["7D"]}]})
    # every card melded: the foot is picked up straight away and the turn goes on
    assert after.phase == "play" and after.turn == 0 and after.seats[0].foot is None
    if rules_of(preset).red_threes_laid_out:  # laid out and replaced from the stock (4C)
        assert codes(after.sides[0].red_threes) == ["3D"]
        assert codes(after.seats[0].hand) == ["8S", "8H", "8D", "QS", "4C"]
    else:  # the Hodges family rules "always discarded", Wages, Wikipedia: held until discarded
        assert codes(after.sides[0].red_threes) == []
        assert codes(after.seats[0].hand) == ["3D", "8S", "8H", "8D", "QS"]
    played = step(after, {"type": "meld", "seat": 0, "melds": [["8S", "8H", "8D"]]})
    assert played.seats[0].played_from_foot is True and played.phase == "play"


@pytest.mark.parametrize("preset", [p for p in PRESETS if p not in takers()])
def test_a_scripted_deal_plays_the_stock_out_where_no_one_takes_the_pile(preset: str) -> None:
    """Where the discard pile is never taken (the Hodges family rules: "drawing 2 cards maximum and
    minimum"), the stock running out ends the round as its filled rule says (from Pagat: "Play also
    ends when the stock runs out"), no one out and no going-out bonus (the take itself is refused:
    tests/engine/test_rules_fourth_pass.py)."""
    hands = {0: "KS QS", 1: "KC KD 5S"}
    state = arrange(preset, phase="draw", stock="7C 8C", hands=hands, melds={0: ["9S 9H 9C"]}, pile="4H")
    assert preset_play_options(preset)[0].stock_out == "ends"
    state = step(state, {"type": "draw", "seat": 0})
    assert state.stock == ()
    ended = step(state, discard("KS"))
    assert ended.phase == "ended" and ended.ended == "stock_out" and ended.out_side is None
    scored = score(ended)
    assert [t.line("going_out").points for t in scored.teams] == [0] * len(scored.teams)  # type: ignore[union-attr]


@pytest.mark.parametrize("preset", [p for p in PRESETS if not PRESETS[p].rules.red_threes_laid_out])
def test_a_red_three_as_the_stocks_last_card_stays_in_hand_where_none_are_laid_out(preset: str) -> None:
    """Where red threes are not laid out (Wikipedia, the Hodges family rules, Wages), the stock's last
    card, a red three, is drawn into the hand like any card; the round ends when the stock is out
    (after the turn's discard), and the red three held counts against its side as caught."""

    def caught(last: str) -> tuple[int, int]:
        state = arrange(preset, phase="draw", stock=last, hands={0: "KS QS"}, melds={0: ["9S 9H 9C"]})
        drawn = step(state, {"type": "draw", "seat": 0})
        assert drawn.stock == () and last in codes(drawn.seats[0].hand) and codes(drawn.sides[0].red_threes) == []
        ended = step(drawn, discard("KS"))
        assert ended.phase == "ended" and ended.ended == "stock_out" and ended.out_side is None
        line = score(ended).teams[0].line("red_threes_caught")
        assert line is not None
        return line.count or 0, line.points

    (with_three, points), (without, points_before) = caught("3H"), caught("5H")  # the same deal otherwise
    assert with_three == without + 1
    assert points - points_before == rules_of(preset).red_three_caught_points
