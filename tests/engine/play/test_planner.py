"""The planner's choices in arranged positions: wild cards kept for the wild book, pairs kept for the
pile, the foot reached, the partner asked and answered, and the discard that helps opponents least."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from handfoot.engine import PRESETS
from handfoot.engine.play import State, step, view
from handfoot.engine.play.arena import play_match
from handfoot.engine.play.bots import choose, greedy_policy
from handfoot.engine.play.planner import discard_order, planner_policy
from tests.engine.play.helpers import arrange

RNG = random.Random(0)


def first(state: State, seat: int = 0) -> dict[str, Any]:
    """The planner's candidate the rules accept first (what the arena plays)."""
    action, _ = choose(state, planner_policy, RNG)
    assert action["seat"] == seat
    return action


def test_wild_cards_wait_for_the_wild_book_instead_of_dirtying_a_meld() -> None:
    # an open meld of kings and two wild cards: greedy adds a wild to the kings; the planner keeps both
    state = arrange(hands={0: "KS 2C JK 5H 9D 8C"}, melds={0: ["KH KD KC"]}, phase="play", feet={0: "4S 4H 4D"})
    action = first(state)
    assert action == {"type": "meld", "add": [{"to": 0, "cards": ["KS"]}], "seat": 0}


def test_three_wild_cards_start_the_wild_book() -> None:
    state = arrange(hands={0: "2C JK 2D 5H 9D 8C QS"}, melds={0: ["KH KD KC"]}, phase="play")
    action = first(state)
    assert action["melds"] == [["JK", "2C", "2D"]]


def test_a_pair_is_kept_for_the_pile_not_made_a_meld_with_a_wild() -> None:
    state = arrange(hands={0: "9S 9H 2C 5H 8D 6C QS"}, melds={0: ["KH KD KC"]}, phase="play")
    action = first(state)
    assert action["type"] == "discard" and action["card"] not in ("9S", "9H", "2C")


def test_the_hand_is_emptied_to_reach_the_foot_when_it_can_be() -> None:
    # two cards that close with a wild: melding all three picks the foot up at once
    state = arrange(hands={0: "9S 9H 2C"}, melds={0: ["KH KD KC"]}, phase="play", feet={0: "4S 4H 4D 5S 5H"})
    action = first(state)
    after = step(state, action)
    assert after.seats[0].foot is None and after.phase == "play"


def test_a_black_three_is_discarded_first_and_a_wild_card_never_while_another_card_is_held() -> None:
    state = arrange(hands={0: "3S 2C QS 5H"}, melds={0: ["KH KD KC"]}, phase="play")
    order = discard_order(view(state, 0), state.rules)
    assert order[0] == "3S" and order[-1] == "2C"


def test_of_two_single_cards_the_rank_with_fewer_copies_unseen_goes_first() -> None:
    # six queens are on the tables, no fives: an opponent is less likely to hold a pair of queens
    state = arrange(hands={0: "QS 5H 9D 9C"}, melds={0: ["KH KD KC"], 1: ["QH QD QC QS QH QD"]}, phase="play")
    order = discard_order(view(state, 0), state.rules)
    assert order.index("QS") < order.index("5H") < order.index("9D")


def test_the_planner_takes_a_pile_that_pays_and_draws_from_a_small_one() -> None:
    big = arrange(hands={0: "7S 7D 9C"}, pile="7H 5C 6D 8S", melds={0: ["KH KD KC"]})
    assert first(big)["type"] == "take_pile"
    small = arrange(hands={0: "7S 7D 9C"}, pile="7H", melds={0: ["KH KD KC"]})
    assert first(small)["type"] == "draw"


def test_the_partner_is_asked_once_only_the_yes_is_missing_and_answers_by_the_tables() -> None:
    books = [
        "KH KD KC KS KH KD KC",
        "QH QD QC QS QH QD QC",
        "9H 9D 9C 9S 9H 2D 2C",
        "8H 8D 8C 8S 8H 2D 2C",
        "JK JK 2S 2S 2H 2H 2D",
    ]
    arranged = arrange(hands={0: "5S 5H 5D 6C"}, feet={0: None, 2: None}, melds={0: books}, phase="play")
    seats = tuple(replace(s, played_from_foot=True) if i in (0, 2) else s for i, s in enumerate(arranged.seats))
    asking = replace(arranged, seats=seats)
    assert first(asking)["type"] == "ask"
    answering = step(asking, {"type": "ask", "seat": 0})
    v = view(answering, 2)
    (reply,) = planner_policy(v, answering.rules, RNG)
    assert reply == {"type": "answer", "yes": True, "seat": 2}  # its side leads on the table


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_planner_plays_a_round_to_its_end_under_every_preset(preset: str) -> None:
    # the last candidate is always accepted: a round ends, scored, whatever the rules
    match = play_match([planner_policy, greedy_policy], preset, 11, {"rounds": 1})
    assert len(match.rounds) == 1 and match.rounds[0].ended in ("went_out", "stock_out")
