"""handfoot.rl.actions: the fixed index of macro actions, each legal exactly when the play engine's
step accepts the engine action it stands for."""

from __future__ import annotations

import random
from typing import Any

import pytest

from handfoot.engine import PRESETS
from handfoot.engine.errors import PlayError
from handfoot.engine.play import State, new_round, step, view
from handfoot.engine.play.bots import greedy_policy
from handfoot.rl.actions import ACTION_COUNT, ACTIONS, CARD_CODES, INDEX, acting_seat, index_for, legal_moves
from handfoot.rl.handfoot_v0 import table_for
from tests.engine.play.helpers import arrange


def chosen(moves: dict[int, Any], name: str) -> dict[str, Any]:
    """The engine action of index ``name`` (its seat left out)."""
    return {k: v for k, v in moves[INDEX[name]][0].items() if k != "seat"}


def accepted(state: State, action: dict[str, Any]) -> bool:
    try:
        step(state, action)
    except PlayError:
        return False
    return True


def test_the_index() -> None:
    """130 named macros, the first 101 as before the joker macros came (tests/rl/test_docs.py holds
    the documented tables to them)."""
    assert ACTION_COUNT == len(ACTIONS) == len(set(ACTIONS)) == 130
    assert len(CARD_CODES) == 53 and CARD_CODES[:5] == ("AS", "AH", "AD", "AC", "2S") and CARD_CODES[-1] == "JK"
    assert (INDEX["take_pile:pair"], INDEX["take_pile:pair+melds"], INDEX["meld:4"], INDEX["meld:wild"]) == (
        1,
        4,
        7,
        19,
    )
    assert (INDEX["wild_onto:4"], INDEX["burn:4"], INDEX["meld_all"], INDEX["discard:AS"]) == (20, 32, 44, 45)
    assert (INDEX["discard:JK"], INDEX["ask"], INDEX["answer:yes"], INDEX["answer:no"]) == (97, 98, 99, 100)
    assert (INDEX["meld:4:joker"], INDEX["wild_onto:4:joker"], INDEX["take_pile:natural_joker"]) == (101, 113, 125)
    assert (INDEX["take_pile:naturals"], INDEX["meld:wild:new"]) == (127, 129)


def test_a_rank_is_melded_with_the_fewest_wilds_the_engine_accepts() -> None:
    state = arrange(hands={0: "7S 7H 2C JK 9D 9S"}, melds={0: ["KS KH KD"]}, phase="play")
    moves = legal_moves(state, 0)
    assert chosen(moves, "meld:7") == {"type": "meld", "melds": [["7S", "7H", "2C"]]}  # two naturals, one wild
    assert chosen(moves, "meld:9") == {"type": "meld", "melds": [["9D", "9S", "2C"]]}
    assert chosen(moves, "wild_onto:K") == {"type": "meld", "add": [{"to": 0, "cards": ["2C"]}]}  # a two first
    assert INDEX["meld:wild"] not in moves  # two wild cards are no meld where melds need three
    moves = legal_moves(arrange(hands={0: "2C JK 2H 9D"}, melds={0: ["KS KH KD"]}, phase="play"), 0)
    # pagat has wild melds; all wild cards in hand order, as the view's listing lays them
    assert chosen(moves, "meld:wild") == {"type": "meld", "melds": [["2C", "JK", "2H"]]}
    assert INDEX["meld:K"] not in moves and INDEX["burn:7"] not in moves  # no king in hand; pagat does not burn


def test_an_opening_below_the_minimum_is_not_offered_and_meld_all_opens() -> None:
    # Pagat's first round needs 50 points: three kings (30) alone are refused; with a wild (20) they open
    state = arrange(hands={0: "KS KH KD 2C 8S 8H 8D 4S"}, phase="play")
    moves = legal_moves(state, 0)
    assert not accepted(state, {"type": "meld", "seat": 0, "melds": [["KS", "KH", "KD"]]})
    assert chosen(moves, "meld:K") == {"type": "meld", "melds": [["KS", "KH", "KD", "2C"]]}
    assert chosen(moves, "meld:8")["melds"] == [["8S", "8H", "8D", "2C"]]  # 8s are 10 points each too
    assert chosen(moves, "meld_all")["melds"] == [["KS", "KH", "KD"], ["8S", "8H", "8D"]]


def test_the_pile_is_taken_each_listed_way() -> None:
    state = arrange(hands={0: "7S 7D 2C QS QH QD 4S"}, pile="7H 9S", melds={0: ["JS JH JD"]})
    moves = legal_moves(state, 0)
    assert chosen(moves, "take_pile:pair") == {"type": "take_pile", "cards": ["7S", "7D"]}
    assert chosen(moves, "take_pile:pair+melds") == {
        "type": "take_pile",
        "cards": ["7S", "7D"],
        "melds": [["QS", "QH", "QD"]],
    }
    assert INDEX["take_pile:onto"] not in moves  # the side has no meld of sevens
    assert INDEX["draw"] in moves


def test_a_card_may_be_discarded_exactly_when_the_engine_accepts_it() -> None:
    for hand in ("7S 9D", "7S"):
        state = arrange(hands={0: hand}, feet={0: None}, melds={0: ["KS KH KD"]}, phase="play")
        moves = legal_moves(state, 0)
        for code in CARD_CODES:
            wanted = accepted(state, {"type": "discard", "seat": 0, "card": code})
            assert (INDEX[f"discard:{code}"] in moves) is wanted, (hand, code)


def test_a_seat_not_to_act_has_no_move_and_an_ended_round_none() -> None:
    state = new_round("pagat", table_for(PRESETS["pagat"].rules), seed=3)
    assert legal_moves(state, 1) == {} and legal_moves(state, 0)
    assert legal_moves(arrange(phase="ended", ended="stock_out"), 0) == {}
    assert acting_seat(arrange(phase="ended", ended="stock_out")) is None


def random_round(preset: str, seed: int) -> tuple[int, set[str]]:
    """One round by random choices among the legal indexes; checks at every action that each
    legal index's move is what step returns for its action, and that the simple macros (draw, every
    discard, ask, the answers) are legal exactly when step accepts their action. The actions played
    and the macro kinds used."""
    rng = random.Random(seed)
    state = new_round(preset, table_for(PRESETS[preset].rules), seed)
    count, kinds = 0, set()
    while state.phase != "ended":
        seat = acting_seat(state)
        assert seat is not None
        moves = legal_moves(state, seat)
        assert moves, f"no legal index at step {state.step}"
        for index, (action, after) in moves.items():
            assert action["seat"] == seat and step(state, action) == after, ACTIONS[index]
        simple: list[tuple[str, dict[str, Any]]] = [
            ("draw", {"type": "draw"}),
            ("ask", {"type": "ask"}),
            ("answer:yes", {"type": "answer", "yes": True}),
            ("answer:no", {"type": "answer", "yes": False}),
            *((f"discard:{code}", {"type": "discard", "card": code}) for code in CARD_CODES),
        ]
        for name, action in simple:
            assert (INDEX[name] in moves) is accepted(state, {**action, "seat": seat}), (name, state.step)
        index = rng.choice(sorted(moves))
        kinds.add(ACTIONS[index].split(":")[0])
        state = moves[index][1]
        count += 1
    return count, kinds


@pytest.mark.parametrize("preset", ["pagat", "wikipedia", "steve-simpson", "online-11-13", "hodges", "wages", "bga"])
def test_random_choices_among_the_legal_indexes_play_whole_rounds(preset: str) -> None:
    count, kinds = random_round(preset, seed=11)
    assert count > 20
    assert {"draw", "discard", "meld"} <= kinds


def test_the_greedy_bot_plays_its_own_first_choice_through_the_index() -> None:
    """The engine's greedy policy, through :func:`index_for`: its first accepted candidate has an
    index in every turn (it picks from the view's listing, and every listed body has an index)."""
    expressed = total = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = new_round("pagat", table_for(PRESETS["pagat"].rules), seed)
        while state.phase != "ended":
            seat = acting_seat(state)
            assert seat is not None
            moves = legal_moves(state, seat)
            candidates = [a for a in greedy_policy(view(state, seat), state.rules, rng) if accepted(state, a)]
            indexes = [index_for(state, a, moves) for a in candidates]
            expressed += indexes[0] is not None
            total += 1
            state = moves[next(i for i in indexes if i is not None)][1]
    assert expressed == total > 100, (expressed, total)
    assert index_for(state, {"type": "draw"}) is None  # the round has ended


def test_wild_cards_are_added_until_the_meld_rule_accepts_or_refuses_past_mending() -> None:
    """A new meld's naturals take one wild card more at a time until the meld rule accepts; where it
    refuses for a reason more wild cards cannot mend (a wild-card limit), none are tried further,
    and every candidate left untried is one the step refuses too."""
    hand, melds = "7S 2C 2H JK 9D", {0: ["KS KH KD"]}
    state = arrange(hands={0: hand}, melds=melds, phase="play")
    assert INDEX["meld:7"] not in legal_moves(state, 0)  # one natural: pagat's wild-card limits
    for cards in (["7S"], ["7S", "2C"], ["7S", "2C", "2H"], ["7S", "2C", "2H", "JK"]):
        assert not accepted(state, {"type": "meld", "seat": 0, "melds": [cards]})
    # where one natural may carry wild cards, the loop goes past the meld too small to the first accepted
    loose = {"wild_ratio": "none", "min_naturals_with_wilds": 1}
    state = arrange(hands={0: hand}, melds=melds, phase="play", overrides=loose)
    assert chosen(legal_moves(state, 0), "meld:7") == {"type": "meld", "melds": [["7S", "2C", "2H"]]}
