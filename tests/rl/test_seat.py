"""handfoot.rl.seat: the index read from a seat's view. Every body a view lists is reachable by an
index whose move in the environment is that body (a property over random rounds), save the one kind
docs/rl.md says has none; and a view's listed indexes are legal in the environment."""

from __future__ import annotations

import random
from typing import Any

import pytest

from handfoot.engine import PRESETS
from handfoot.engine.cards import is_wild_code, rank_of
from handfoot.engine.play import State, new_round, step, view
from handfoot.rl.actions import ACTIONS, INDEX, acting_seat, legal_moves
from handfoot.rl.handfoot_v0 import table_for
from handfoot.rl.seat import index_of, listed_moves
from tests.engine.play.helpers import arrange


def no_index_is_documented(v: dict[str, Any], body: dict[str, Any]) -> bool:
    """The one listed body without an index (docs/rl.md): an addition onto a second open meld of a
    rank, where the rules let a side hold two (online-11-13's wild melds); the macros add to the first."""
    if body["type"] != "meld" or set(body) != {"type", "add"} or len(body["add"]) != 1:
        return False
    side = v["sides"][v["side"]]
    to = body["add"][0]["to"]

    def rank(meld: list[str]) -> str:
        return next((rank_of(c) for c in meld if not is_wild_code(c)), "wild")

    return any(not side["complete"][i] and rank(m) == rank(side["melds"][to]) for i, m in enumerate(side["melds"][:to]))


def check_round(preset: str, seed: int) -> tuple[int, int]:
    """One round by random legal indexes; at every state, each body the acting seat's view lists
    maps to an index whose move is that body (the same successor), or to none of the documented
    kind. Returns (bodies listed, bodies without an index)."""
    rng = random.Random(seed)
    state: State = new_round(preset, table_for(PRESETS[preset].rules), seed)
    listed = unreached = 0
    while state.phase != "ended":
        seat = acting_seat(state)
        assert seat is not None
        seen, moves = view(state, seat), legal_moves(state, seat)
        for entry in seen["actions"]:
            for body in entry["send"]:
                listed += 1
                index = index_of(seen, body)
                if index is None:
                    assert no_index_is_documented(seen, body), (preset, state.step, body)
                    unreached += 1
                    continue
                assert index in moves, (preset, state.step, body, ACTIONS[index])
                assert moves[index].after == step(state, {**body, "seat": seat}), (body, moves[index].action)
        for index, body in listed_moves(seen).items():  # what a table seat may send, by index
            assert index in moves and moves[index].after == step(state, {**body, "seat": seat})
        state = moves[rng.choice(sorted(moves))].after
    return listed, unreached


@pytest.mark.parametrize(
    ("preset", "seeds"),
    [("pagat", range(4)), ("online-11-13", range(2)), ("bicycle", range(1)), ("steve-simpson", range(1)),
     ("hodges", range(1)), ("wages", range(1)), ("bga", range(1))],
)  # fmt: skip
def test_every_listed_body_has_an_index_whose_move_it_is(preset: str, seeds: range) -> None:
    listed = unreached = 0
    for seed in seeds:
        n, u = check_round(preset, seed)
        listed, unreached = listed + n, unreached + u
    assert listed > 500 and (unreached == 0 or preset == "online-11-13"), (listed, unreached)


def test_a_joker_where_a_two_would_do_has_its_own_index() -> None:
    # the hand holds a two and a joker: 7-18 and 20-31 play the two, the joker macros the joker
    state = arrange(hands={0: "7S 7H 2C JK 9D 4S"}, melds={0: ["KS KH KD"]}, phase="play")
    moves = legal_moves(state, 0)
    assert moves[INDEX["meld:7"]].action["melds"] == [["7S", "7H", "2C"]]
    assert moves[INDEX["meld:7:joker"]].action["melds"] == [["7S", "7H", "JK"]]
    assert moves[INDEX["wild_onto:K"]].action["add"] == [{"to": 0, "cards": ["2C"]}]
    assert moves[INDEX["wild_onto:K:joker"]].action["add"] == [{"to": 0, "cards": ["JK"]}]
    seen = view(state, 0)
    assert index_of(seen, {"type": "meld", "melds": [["7S", "7H", "JK"]]}) == INDEX["meld:7:joker"]
    assert index_of(seen, {"type": "meld", "melds": [["7S", "7H", "2C"]]}) == INDEX["meld:7"]
    # without a two the joker is what 7-18 play, and no joker macro repeats it
    alone = legal_moves(arrange(hands={0: "7S 7H JK 9D 4S"}, melds={0: ["KS KH KD"]}, phase="play"), 0)
    assert alone[INDEX["meld:7"]].action["melds"] == [["7S", "7H", "JK"]]
    assert INDEX["meld:7:joker"] not in alone and INDEX["wild_onto:K:joker"] not in alone


def test_a_take_with_every_natural_of_the_rank_has_an_index() -> None:
    state = arrange(hands={0: "7S 7D 7C 2C QS QH QD 4S"}, pile="7H 9S", melds={0: ["JS JH JD"]})
    moves = legal_moves(state, 0)
    assert moves[INDEX["take_pile:naturals"]].action["cards"] == ["7S", "7D", "7C"]
    assert moves[INDEX["take_pile:pair"]].action["cards"] == ["7S", "7D"]
    seen = view(state, 0)
    assert (
        index_of(seen, {"type": "take_pile", "cards": ["7S", "7D", "7C"], "onto": None}) == INDEX["take_pile:naturals"]
    )
    assert set(listed_moves(seen)) <= set(moves)


def test_a_view_without_its_listing_lists_nothing() -> None:
    state = new_round("pagat", table_for(PRESETS["pagat"].rules), seed=4)
    bare = view(state, 0, listing=False)
    assert "actions" not in bare and "going_out" not in bare and listed_moves(bare) == {}
    full = view(state, 0)
    assert listed_moves(full)[INDEX["draw"]] == {"type": "draw"} and set(listed_moves(full)) <= set(
        legal_moves(state, 0)
    )
    assert {k: v for k, v in full.items() if k not in ("actions", "going_out")} == bare
