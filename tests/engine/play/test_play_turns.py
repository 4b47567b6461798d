"""Drawing, taking the pile, red threes, the foot and the stock: each rule with a case that allows it
and one that refuses it, per preset where the presets differ."""

from __future__ import annotations

import pytest

from handfoot.engine.errors import PlayError
from handfoot.engine.play import step
from tests.engine.play.helpers import arrange, codes

BOOK_OF_SEVENS = "7S 7H 7D 7C 7S 7H 7D"


def refused(state, action) -> list[str]:  # type: ignore[no-untyped-def]
    with pytest.raises(PlayError) as err:
        step(state, action)
    return [p.code for p in err.value.problems]


def test_draw_two_from_the_stock() -> None:
    state = arrange(stock="4S 5S 6S", hands={0: "KS"})
    after = step(state, {"type": "draw", "seat": 0})
    assert codes(after.seats[0].hand) == ["KS", "6S", "5S"]
    assert codes(after.stock) == ["4S"] and after.phase == "play"
    assert state.phase == "draw" and codes(state.seats[0].hand) == ["KS"]  # the state given is unchanged


@pytest.mark.parametrize("count", [1, 3])
def test_a_house_rules_draw_count_is_what_the_view_offers_and_the_draw_takes(count: int) -> None:
    """D77: the cards drawn each turn are the rule ``draw_count`` (2 in every preset)."""
    from handfoot.engine.play import view

    state = arrange(stock="4S 5S 6S 7S", hands={0: "KS"}, overrides={"draw_count": count})
    assert [a["cards"] for a in view(state, 0)["actions"] if a["type"] == "draw"] == [count]
    after = step(state, {"type": "draw", "seat": 0})
    assert len(after.seats[0].hand) == 1 + count and len(after.stock) == 4 - count


def test_draw_out_of_turn_or_phase_is_refused() -> None:
    state = arrange()
    assert refused(state, {"type": "draw", "seat": 1}) == ["not_your_turn"]
    assert refused(arrange(phase="play"), {"type": "draw", "seat": 0}) == ["wrong_phase"]
    assert refused(state, {"type": "fly", "seat": 0}) == ["unknown_action"]


@pytest.mark.parametrize("kind", [["draw"], {"draw": True}, 7, None, True])
def test_a_type_that_is_not_a_string_is_refused_naming_it(kind: object) -> None:
    with pytest.raises(PlayError) as err:
        step(arrange(), {"type": kind, "seat": 0})
    assert [(p.code, p.path) for p in err.value.problems] == [("unknown_action", ("type",))]


def test_a_member_an_action_type_does_not_have_is_refused_naming_each() -> None:
    state = arrange(stock="4S 5S 6S", hands={0: "KS"})
    with pytest.raises(PlayError) as err:
        step(state, {"type": "draw", "seat": 0, "padding": "x" * 1000, "melds": []})
    assert [(p.code, p.path) for p in err.value.problems] == [
        ("unknown_action", ("padding",)),
        ("unknown_action", ("melds",)),
    ]
    assert "draw" in err.value.problems[0].detail
    assert step(state, {"type": "draw", "seat": 0}).phase == "play"  # its own members only: taken


def test_every_type_takes_the_members_it_lists_and_no_other() -> None:
    from handfoot.engine.play import ACTION_MEMBERS, ACTION_TYPES

    assert tuple(ACTION_MEMBERS) == ACTION_TYPES
    assert dict(ACTION_MEMBERS["answer"]) == {"yes": "yes_no", "timed_out": "logged"}


def test_a_drawn_red_three_is_laid_out_and_replaced_where_the_rules_lay_them_out() -> None:
    pagat = step(arrange("pagat", stock="4S 9S 3H", hands={0: "KS"}), {"type": "draw", "seat": 0})
    assert codes(pagat.sides[0].red_threes) == ["3H"]
    assert codes(pagat.seats[0].hand) == ["KS", "9S", "4S"]
    wages = step(arrange("wages", stock="4S 9S 3H", hands={0: "KS"}), {"type": "draw", "seat": 0})
    assert not wages.sides[0].red_threes and codes(wages.seats[0].hand) == ["KS", "3H", "9S"]


def test_a_red_three_wanting_a_replacement_from_an_empty_stock_ends_the_round() -> None:
    state = step(arrange("online-11-13", stock="3H", hands={0: "KS"}), {"type": "draw", "seat": 0})
    assert state.phase == "ended" and state.ended == "stock_out"
    assert codes(state.sides[0].red_threes) == ["3H"]


TAKE = {"type": "take_pile", "seat": 0, "cards": ["7S", "7D"]}


def test_take_the_pile_with_a_natural_pair() -> None:
    state = arrange(pile="7H 4C 5D", hands={0: "7S 7D KS"}, melds={0: ["9S 9H 9C"]})
    after = step(state, TAKE)
    assert codes(after.sides[0].melds[1]) == ["7H", "7S", "7D"]
    assert codes(after.seats[0].hand) == ["KS", "4C", "5D"]
    assert after.pile == () and after.pile_taken and after.phase == "play"


def test_take_the_pile_needs_the_pair_and_an_unblocked_top() -> None:
    assert refused(
        arrange(pile="7H", hands={0: "7S 2D KS"}, melds={0: ["9S 9H 9C"]}), {**TAKE, "cards": ["7S", "2D"]}
    ) == ["pile_needs_match"]
    assert refused(arrange(pile="3S 7H", hands={0: "7S 7D"}, melds={0: ["9S 9H 9C"]}), TAKE) == ["pile_blocked"]
    assert refused(arrange(pile="7H", hands={0: "7S"}), TAKE) == ["card_not_held"]


def test_the_pile_takes_seven_cards_or_all_where_the_rules_say() -> None:
    pile = "7H 4C 5C 6C 8C 9C 10C JC QC"
    pagat = step(arrange("pagat", pile=pile, hands={0: "7S 7D"}, melds={0: ["KS KH KD"]}), TAKE)
    assert len(pagat.pile) == 2 and len(pagat.seats[0].hand) == 6
    sask = step(arrange("saskatchewan", pile=pile, hands={0: "7S 7D"}, melds={0: ["KS KH KD"]}), TAKE)
    assert sask.pile == () and len(sask.seats[0].hand) == 8


def test_a_wild_on_top_needs_a_matching_pair_or_blocks_by_preset() -> None:
    action = {"type": "take_pile", "seat": 0, "cards": ["2S", "2C"]}
    pagat = step(arrange("pagat", pile="2H", hands={0: "2S 2C KS"}, melds={0: ["9S 9H 9C"]}), action)
    assert codes(pagat.sides[0].melds[1]) == ["2H", "2S", "2C"]
    assert refused(arrange("wages", pile="2H", hands={0: "2S 2C KS"}, melds={0: ["9S 9H 9C"]}), action) == [
        "pile_blocked"
    ]


def test_a_later_take_needs_a_natural_and_a_wild_where_the_pile_is_broken() -> None:
    action = {"type": "take_pile", "seat": 0, "cards": ["7S", "2C"]}
    broken = arrange("wages", pile="7H", hands={0: "7S 2C KS"}, melds={0: ["9S 9H 9C"]}, pile_taken=True)
    assert codes(step(broken, action).sides[0].melds[1]) == ["7H", "7S", "2C"]
    assert refused(arrange("wages", pile="7H", hands={0: "7S 2C KS"}, melds={0: ["9S 9H 9C"]}), action) == [
        "pile_needs_match"
    ]
    assert refused(
        arrange("pagat", pile="7H", hands={0: "7S 2C KS"}, melds={0: ["9S 9H 9C"]}, pile_taken=True), action
    ) == ["pile_needs_match"]


def test_a_closed_rank_blocks_the_pile_where_the_rules_say() -> None:
    melds = {0: [BOOK_OF_SEVENS, "9S 9H 9C"]}
    assert refused(arrange("wages", pile="7H", hands={0: "7S 7D KS"}, melds=melds), TAKE) == ["pile_rank_closed"]
    pagat = step(arrange("pagat", pile="7H", hands={0: "7S 7D KS"}, melds=melds), TAKE)
    assert len(pagat.sides[0].melds) == 3  # pagat starts another meld of a closed rank


def test_a_discarded_wild_freezes_the_pile_for_a_round_of_turns_where_the_rules_freeze() -> None:
    wages = step(arrange("wages", phase="play", hands={0: "2C KS KH"}), {"type": "discard", "seat": 0, "card": "2C"})
    assert wages.frozen_turns == 4 and wages.turn == 1
    frozen = arrange(
        "wages", pile="7H 2C", hands={1: "7S 7D KS"}, melds={1: ["9S 9H 9C"]}, turn=1, frozen_turns=4, pile_taken=True
    )
    assert "pile_frozen" in refused(frozen, {**TAKE, "seat": 1})
    pagat = step(arrange("pagat", phase="play", hands={0: "2C KS KH"}), {"type": "discard", "seat": 0, "card": "2C"})
    assert pagat.frozen_turns == 0


def test_a_frozen_pile_thaws_after_a_round_of_turns_and_needs_a_first_take_again() -> None:
    frozen = arrange("wages", phase="play", hands={i: "KS KH 5S" for i in range(4)}, frozen_turns=1, pile_taken=True)
    thawed = step(frozen, {"type": "discard", "seat": 0, "card": "KS"})
    assert thawed.frozen_turns == 0 and not thawed.pile_taken


def test_running_into_the_foot_melding_the_last_card() -> None:
    state = arrange(phase="play", hands={0: "KS KH KD"}, feet={0: "5S 6S 7S"}, melds={0: ["9S 9H 9C"]})
    after = step(state, {"type": "meld", "seat": 0, "melds": [["KS", "KH", "KD"]]})
    assert after.seats[0].foot is None and codes(after.seats[0].hand) == ["5S", "6S", "7S"]
    assert after.phase == "play" and after.turn == 0  # keeps playing


def test_walking_into_the_foot_discarding_the_last_card() -> None:
    state = arrange(phase="play", turn=3, hands={3: "5S 6S", 0: ""}, feet={0: "8S 9S 10S"})
    after = step(state, {"type": "discard", "seat": 3, "card": "5S"})
    assert after.turn == 0 and after.seats[0].foot is None and codes(after.seats[0].hand) == ["8S", "9S", "10S"]
    walked = step(
        arrange(phase="play", hands={0: "5S"}, feet={0: "8S 9S"}), {"type": "discard", "seat": 0, "card": "5S"}
    )
    assert walked.seats[0].hand == () and walked.seats[0].foot is not None  # not until the next turn


def test_a_red_three_in_a_picked_up_foot_is_laid_out() -> None:
    state = arrange(phase="play", hands={0: "KS KH KD"}, feet={0: "3D 6S 7S"}, melds={0: ["9S 9H 9C"]}, stock="4C 5C")
    after = step(state, {"type": "meld", "seat": 0, "melds": [["KS", "KH", "KD"]]})
    assert codes(after.sides[0].red_threes) == ["3D"] and codes(after.seats[0].hand) == ["6S", "7S", "5C"]


def test_the_stock_running_out_ends_the_round_or_leaves_only_the_pile_by_preset() -> None:
    pagat = step(
        arrange("pagat", phase="play", stock="", hands={0: "KS KH"}), {"type": "discard", "seat": 0, "card": "KS"}
    )
    assert pagat.phase == "ended" and pagat.ended == "stock_out"
    online = step(
        arrange("online-11-13", phase="play", stock="", hands={0: "KS KH", 1: "KC KD 5S"}, melds={1: ["9S 9H 9C"]}),
        {"type": "discard", "seat": 0, "card": "KS"},
    )
    assert online.phase == "draw" and online.turn == 1  # play goes on by taking the pile
    taken = step(online, {"type": "take_pile", "seat": 1, "cards": ["KC", "KD"]})
    assert taken.phase == "play"
    ended = step(online, {"type": "draw", "seat": 1})
    assert ended.phase == "ended" and ended.ended == "stock_out"


def test_the_last_card_of_the_stock_is_drawn_alone() -> None:
    after = step(arrange(stock="9C", hands={0: "KS"}), {"type": "draw", "seat": 0})
    assert codes(after.seats[0].hand) == ["KS", "9C"] and after.phase == "play"
