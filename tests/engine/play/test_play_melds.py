"""Melding, the opening minimum, burn piles, asking the partner and going out: each rule with a case
that allows it and one that refuses it, per preset where the presets differ."""

from __future__ import annotations

from dataclasses import replace

import pytest

from handfoot.engine import score_round_request
from handfoot.engine.errors import PlayError
from handfoot.engine.play import score, score_body, step
from tests.engine.play.helpers import arrange, codes

# side 0's table with pagat's contract: 2 clean, 2 dirty, 1 wild book
CONTRACT = [
    "KS KH KD KC KS KH KD",
    "QS QH QD QC QS QH QD",
    "JS JH JD JC JS 2H 2D",
    "10S 10H 10D 10C 10S JK 2C",
    "2S 2H 2D 2C JK JK 2S",
]
CONTRACT_HODGES = CONTRACT[:4]


def refused(state, action) -> list[str]:  # type: ignore[no-untyped-def]
    with pytest.raises(PlayError) as err:
        step(state, action)
    return [p.code for p in err.value.problems]


def meld(*melds: str, seat: int = 0, **more: object) -> dict[str, object]:
    return {"type": "meld", "seat": seat, "melds": [m.split() for m in melds], **more}


@pytest.mark.parametrize(
    ("preset", "cards", "allowed"),
    [
        ("pagat", "KS KH KD AS AH AD", True),  # 30 + 60 = 90 >= 50
        ("pagat", "KS KH KD", False),  # 30 < 50
        ("hodges", "KS KH KD AS AH AD", False),  # 90 < 100 (the Hodges family rules)
        ("hodges", "KS KH KD AS AH AD AC", True),  # 110
    ],
)
def test_the_opening_minimum_of_the_round(preset: str, cards: str, allowed: bool) -> None:
    split = cards.split()
    melds = [" ".join(split[:3]), " ".join(split[3:])] if len(split) > 3 else [cards]
    state = arrange(preset, phase="play", hands={0: cards + " 5S 5H"})
    if allowed:
        after = step(state, meld(*melds))
        assert [codes(m) for m in after.sides[0].melds] == [m.split() for m in melds]
    else:
        assert refused(state, meld(*melds)) == ["opening_below_minimum"]


def test_an_opening_by_a_take_counts_only_the_top_card_and_the_melds_from_hand() -> None:
    state = arrange(pile="KH 10C 10D 10H", hands={0: "KS KD AS AH AD 5S"})
    take = {"type": "take_pile", "seat": 0, "cards": ["KS", "KD"]}
    assert refused(state, take) == ["opening_below_minimum"]  # 30: the 10s under the top do not count
    after = step(state, {**take, "melds": [["AS", "AH", "AD"]]})  # 30 + 60
    assert len(after.sides[0].melds) == 2 and codes(after.seats[0].hand) == ["5S", "10C", "10D", "10H"]


def test_adding_to_the_sides_melds_and_the_meld_rules() -> None:
    state = arrange(phase="play", hands={0: "9D 9S 2C JK 5S 5H"}, melds={0: ["9S 9H 9C"]})
    after = step(state, {"type": "meld", "seat": 0, "add": [{"to": 0, "cards": ["9D", "2C"]}]})
    assert codes(after.sides[0].melds[0]) == ["9S", "9H", "9C", "9D", "2C"]
    assert refused(state, {"type": "meld", "seat": 0, "add": [{"to": 0, "cards": ["2C", "JK"]}]}) == ["too_many_wilds"]
    assert refused(state, {"type": "meld", "seat": 0, "add": [{"to": 3, "cards": ["9D"]}]}) == ["unknown_meld"]
    assert refused(state, meld("9D 9S 2C")) == ["duplicate_open_meld"]
    assert refused(state, meld("5S 5H 5D")) == ["card_not_held"]


def test_a_completed_book_takes_no_more_cards() -> None:
    state = arrange(phase="play", hands={0: "KC 5S 5H"}, melds={0: ["KS KH KD KC KS KH KD"]})
    assert refused(state, {"type": "meld", "seat": 0, "add": [{"to": 0, "cards": ["KC"]}]}) == ["book_closed"]


@pytest.mark.parametrize(("preset", "problem"), [("hodges", None), ("wages", None), ("pagat", "burn_not_allowed")])
def test_burning_a_card_of_a_closed_rank(preset: str, problem: str | None) -> None:
    state = arrange(preset, phase="play", hands={0: "KC 5S 5H"}, melds={0: ["KS KH KD KC KS KH KD"]})
    action = {"type": "meld", "seat": 0, "burn": ["KC"]}
    if problem is None:
        assert codes(step(state, action).sides[0].burn) == ["KC"]
    else:
        assert refused(state, action) == [problem]
    open_rank = arrange("hodges", phase="play", hands={0: "QC 5S 5H"}, melds={0: ["KS KH KD KC KS KH KD"]})
    assert refused(open_rank, {"type": "meld", "seat": 0, "burn": ["QC"]}) == ["burn_needs_closed_book"]


def going_out(preset: str = "pagat", **kw: object):  # type: ignore[no-untyped-def]
    """Seat 0 with its foot picked up and played from, its partner likewise, side 0 holding the
    contract; seat 0 holds three fives in the play phase."""
    contract = CONTRACT if preset in ("pagat", "bga") else CONTRACT_HODGES
    return arrange(
        preset, phase="play", hands={0: "5S 5H 5D", 2: "9C"}, feet={0: None, 2: None}, melds={0: contract}, **kw
    )


def with_feet_played(state):  # type: ignore[no-untyped-def]
    seats = tuple(replace(s, played_from_foot=True) if s.side == 0 else s for s in state.seats)
    return replace(state, seats=seats)


def test_going_out_needs_the_contract_the_feet_and_the_partners_yes() -> None:
    ready = with_feet_played(going_out(permission=True, asked=True))
    out = step(ready, meld("5S 5H 5D"))
    assert out.phase == "ended" and out.ended == "went_out" and out.out_side == 0
    assert refused(with_feet_played(going_out()), meld("5S 5H 5D")) == ["partner_not_asked"]
    no = with_feet_played(going_out(permission=False, asked=True))
    assert refused(no, meld("5S 5H 5D")) == ["partner_not_asked"]
    short = with_feet_played(
        arrange(
            phase="play",
            hands={0: "5S 5H 5D"},
            feet={0: None, 2: None},
            melds={0: CONTRACT[:3]},
            permission=True,
            asked=True,
        )
    )
    assert refused(short, meld("5S 5H 5D")) == ["contract_not_met"]
    foot_down = arrange(
        phase="play",
        hands={0: "5S 5H 5D", 2: "9C"},
        feet={0: None},  # the partner's is down
        melds={0: CONTRACT},
        permission=True,
        asked=True,
    )
    assert "foot_not_picked_up" in refused(foot_down, meld("5S 5H 5D"))


def test_going_out_without_asking_where_the_rules_do_not_ask() -> None:
    out = step(with_feet_played(going_out("bga")), meld("5S 5H 5D"))
    assert out.ended == "went_out"
    hodges = step(going_out("hodges"), meld("5S 5H 5D"))  # no feet condition, no asking
    assert hodges.ended == "went_out"


def test_a_seat_keeps_two_cards_unless_it_may_go_out() -> None:
    state = arrange(phase="play", hands={0: "5S 5H 5D 9C"}, feet={0: None}, melds={0: ["KS KH KD"]})
    assert "contract_not_met" in refused(state, meld("5S 5H 5D"))


def test_going_out_by_the_final_discard_and_where_it_is_required() -> None:
    ready = with_feet_played(
        arrange(
            phase="play",
            hands={0: "5S 5H 5D 9C"},
            feet={0: None, 2: None},
            melds={0: CONTRACT},
            permission=True,
            asked=True,
        )
    )
    one_left = step(ready, meld("5S 5H 5D"))
    assert codes(one_left.seats[0].hand) == ["9C"] and one_left.phase == "play"
    out = step(one_left, {"type": "discard", "seat": 0, "card": "9C"})
    assert out.ended == "went_out" and codes(out.pile[:1]) == ["9C"]
    required = with_feet_played(going_out(permission=True, asked=True, overrides={"going_out_discard": "required"}))
    assert refused(required, meld("5S 5H 5D")) == ["going_out_needs_discard"]


def test_asking_and_answering() -> None:
    state = arrange(phase="play", hands={0: "5S 5H"})
    asked = step(state, {"type": "ask", "seat": 0})
    assert asked.phase == "answer" and asked.answerer == 2
    assert refused(asked, {"type": "answer", "seat": 1, "yes": True}) == ["not_your_turn"]
    assert refused(asked, {"type": "discard", "seat": 0, "card": "5S"}) == ["not_your_turn"]
    answered = step(asked, {"type": "answer", "seat": 2, "yes": True})
    assert answered.phase == "play" and answered.permission is True and answered.turn == 0
    assert refused(answered, {"type": "ask", "seat": 0}) == ["already_asked"]
    assert refused(arrange("bga", phase="play"), {"type": "ask", "seat": 0}) == ["not_in_rules"]
    assert refused(arrange("steve-simpson", phase="play"), {"type": "ask", "seat": 0}) == ["not_in_rules"]
    turned = step(answered, {"type": "discard", "seat": 0, "card": "5S"})
    assert turned.permission is None and not turned.asked  # one question a turn


def test_the_score_of_an_ended_round_is_the_score_endpoints() -> None:
    out = step(with_feet_played(going_out(permission=True, asked=True)), meld("5S 5H 5D"))
    mine = score(out)
    theirs = score_round_request(score_body(out))
    assert [(b.name, b.total, b.lines) for b in mine.teams] == [(b.name, b.total, b.lines) for b in theirs.teams]
    assert mine.teams[0].line("going_out").points == 100  # type: ignore[union-attr]
    with pytest.raises(PlayError):
        score(arrange())


def test_an_opening_by_a_later_take_follows_the_later_take_rule() -> None:
    from handfoot.engine import PRESETS, check_opening, parse_cards

    wages = PRESETS["wages"].rules
    melds = [parse_cards(["7H", "7S", "2C"]), parse_cards(["KS", "KH", "KD"])]
    top = parse_cards(["7H"])
    first = check_opening(melds, wages, 1, top)
    assert [p.code for p in first.problems] == ["pile_needs_match"]  # a first take needs a natural pair
    assert check_opening(melds, wages, 1, top, taken_before=True).met  # a broken pile: a natural and a wild
    state = arrange("wages", pile="7H", hands={0: "7S 2C KS KH KD 5S"}, pile_taken=True)
    after = step(state, {"type": "take_pile", "seat": 0, "cards": ["7S", "2C"], "melds": [["KS", "KH", "KD"]]})
    assert len(after.sides[0].melds) == 2
