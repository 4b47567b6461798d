"""A seat's view hides what it must; replay from the seed and the log gives every state again."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from handfoot.engine import PRESETS
from handfoot.engine.errors import PlayError
from handfoot.engine.play import new_round, state_from_mapping, step, to_mapping, view
from handfoot.engine.play.bots import greedy_policy, play_round, random_policy
from tests.engine.play.helpers import BOOK_OF_SEVENS, TAKE, arrange, codes, refused, rules_of, table_of, takers


def hidden_changed(state):  # type: ignore[no-untyped-def]
    """The same state with everything a seat may not see changed: the stock's order, the seed, and
    the hand and foot of every other seat (kept to their sizes)."""
    seats = list(state.seats)
    for i, seat in enumerate(seats):
        if i != 0:
            seats[i] = replace(
                seat,
                hand=tuple(reversed(state.stock[: len(seat.hand)])),
                foot=None if seat.foot is None else tuple(state.stock[-len(seat.foot) :]),
            )
    seats[0] = replace(seats[0], foot=None if seats[0].foot is None else tuple(reversed(seats[0].foot)))
    return replace(state, seats=tuple(seats), stock=tuple(reversed(state.stock)), seed=state.seed + 1)


def some_states(preset: str, seed: int, count: int = 60):  # type: ignore[no-untyped-def]
    state = new_round(preset, table_of(preset), seed)
    rng = random.Random(seed)
    out = [state]
    from handfoot.engine.play.bots import choose

    for _ in range(count):
        if state.phase == "ended":
            break
        _, state = choose(state, greedy_policy, rng)
        out.append(state)
    return out


@pytest.mark.parametrize("preset", ["pagat", "wages", "online-11-13", "steve-simpson"])
def test_a_view_never_shows_another_seats_cards_a_foot_the_stock_or_the_seed(preset: str) -> None:
    for state in some_states(preset, 3):
        seen = view(state, 0)
        assert seen == view(hidden_changed(state), 0)  # nothing hidden changes what seat 0 sees
        text = json.dumps(seen)
        assert "seed" not in seen and "stock" not in seen and "hands" not in seen
        assert seen["hand"] == [c.code for c in state.seats[0].hand]
        assert seen["stock_size"] == len(state.stock) and seen["pile"]["size"] == len(state.pile)
        assert [s["hand_size"] for s in seen["seats"]] == [len(s.hand) for s in state.seats]
        assert json.loads(text) == seen  # plain JSON


def test_an_ended_round_shows_the_seed_every_card_and_the_score() -> None:
    state = new_round("wages", table_of("wages"), 2)
    end, _ = play_round(state, [greedy_policy, random_policy] * 2, random.Random(2))
    seen = view(end, 1)
    assert seen["seed"] == 2 and seen["phase"] == "ended" and seen["actions"] == []
    assert seen["hands"] == [[c.code for c in s.hand] for s in end.seats]
    assert [t["total"] for t in seen["score"]] == [sum(line["points"] for line in t["lines"]) for t in seen["score"]]


def test_the_actions_open_describe_the_turn() -> None:
    state = new_round("pagat", table_of("pagat"), 4)
    first = view(state, state.turn)
    kinds = [a["type"] for a in first["actions"]]
    assert kinds == ["draw"]  # one 7 in hand for the 7H on the pile: no take is open
    assert first["actions"][0] == {"type": "draw", "cards": 2, "ends_round": False, "send": [{"type": "draw"}]}
    assert view(state, (state.turn + 1) % 4)["actions"] == []  # not its turn
    drawn = step(state, {"type": "draw", "seat": state.turn})
    seen = view(drawn, drawn.turn)
    kinds = [a["type"] for a in seen["actions"]]
    assert kinds == ["meld", "discard", "ask"]  # going out is no action (D79)
    assert not seen["going_out"]["allowed"] and "contract_not_met" in seen["going_out"]["problems"]
    discard = seen["actions"][1]
    assert discard["send"] == [{"type": "discard", "card": c} for c in discard["cards"]]
    assert discard["cards"] == sorted(set(seen["hand"]))


def test_a_take_short_of_the_opening_minimum_is_not_listed_and_one_with_melds_is() -> None:
    """Issue 30's first lie: the take was marked allowed (the pair is there) where the opening
    minimum then refused it. The listing runs the step's own checks: 5H with 5S 5D counts 15 of
    Pagat's 50; with the aces melded beside it, 75."""
    short = arrange("pagat", pile="5H 4C", hands={0: "5S 5D KS QH 9C"})
    assert [a["type"] for a in view(short, 0)["actions"]] == ["draw"]
    assert refused(short, {**TAKE, "cards": ["5S", "5D"]}) == ["opening_below_minimum"]
    enough = arrange("pagat", pile="5H 4C", hands={0: "5S 5D AS AH AD 9C"})
    take = view(enough, 0)["actions"][1]
    assert take["send"] == [{"type": "take_pile", "cards": ["5S", "5D"], "onto": None, "melds": [["AS", "AH", "AD"]]}]
    assert take["with"] == [["5S", "5D"]] and take["opening_minimum"] == 50 and take["allowed"]
    step(enough, {**take["send"][0], "seat": 0})


@pytest.mark.parametrize("preset", list(PRESETS))
def test_replay_from_the_seed_and_the_log_gives_every_state(preset: str) -> None:
    state = new_round(preset, table_of(preset), 11)
    rng = random.Random(11)
    states, log = [state], []
    from handfoot.engine.play.bots import choose

    while state.phase != "ended":
        action, state = choose(state, random_policy if len(log) % 2 else greedy_policy, rng)
        states.append(state)
        log.append(json.loads(json.dumps(action)))  # what a table stores
    again = new_round(preset, table_of(preset), 11)
    assert again == states[0]
    for action, expected in zip(log, states[1:], strict=True):
        again = step(again, action)
        assert again == expected
        assert state_from_mapping(json.loads(json.dumps(to_mapping(again)))) == again


def test_the_reference_policies_play_the_same_round_under_any_hash_seed() -> None:
    import os
    import subprocess
    import sys

    code = (
        "import random, json\nfrom handfoot.engine.play import new_round, to_mapping\n"
        "from handfoot.engine.play.bots import greedy_policy, random_policy, play_round\n"
        "s = new_round('hodges', [('A', ['a', 'b']), ('B', ['c', 'd'])], 5)\n"
        "end, log = play_round(s, [greedy_policy, random_policy] * 2, random.Random(5))\n"
        "print(json.dumps([to_mapping(end), log]))"
    )
    runs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    }
    assert len(runs) == 1


@pytest.mark.parametrize("preset", takers())
@pytest.mark.parametrize("broken", [False, True])
def test_every_take_the_view_offers_is_accepted(preset: str, broken: bool) -> None:
    """The view's ``take_pile.with``: sets of hand cards a take accepts, and no other (seat 0's side
    has opened, so the opening minimum is not in question)."""
    state = arrange(preset, pile="7H 4C", hands={0: "7S 7D 2C JK KS"}, melds={0: ["9S 9H 9C"]}, pile_taken=broken)
    take = next(a for a in view(state, 0)["actions"] if a["type"] == "take_pile")
    assert take["allowed"] and take["with"]
    for cards in take["with"]:
        assert step(state, {**TAKE, "cards": cards}).sides[0].melds[1][0].code == "7H"
    pair_and_wild = rules_of(preset).pile_later_take == "natural_and_wild_or_open_meld" and broken
    assert any(len({c[:-1] for c in cards}) == 2 for cards in take["with"]) is pair_and_wild


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_view_and_the_pile_check_agree_with_the_take_on_a_closed_rank(preset: str) -> None:
    """``take_pile.allowed`` (``check_discard_pile``) and ``with`` say what the take does, where the
    top card's rank is a completed book on the side's table."""
    state = arrange(preset, pile="7H", hands={0: "7S 7D KS"}, melds={0: [BOOK_OF_SEVENS, "9S 9H 9C"]})
    take = next((a for a in view(state, 0)["actions"] if a["type"] == "take_pile"), None)
    try:
        step(state, TAKE)
        accepted = True
    except PlayError:
        accepted = False
    assert (take is not None) is accepted  # listed only when the take is open
    assert accepted is not (rules_of(preset).pile_closed_rank_blocks or rules_of(preset).after_book == "burn")


@pytest.mark.parametrize("preset", takers())
@pytest.mark.parametrize("broken", [False, True])
def test_the_takes_the_view_offers_go_onto_the_open_meld_of_the_rank(preset: str, broken: bool) -> None:
    """With an open meld of the top card's rank on the side's table, ``take_pile.onto`` names it and
    each set of ``with``, sent with it, is accepted; where a later take needs only that open meld
    (wages), the empty set is offered too."""
    state = arrange(preset, pile="7H 4C", hands={0: "7S 7D KS"}, melds={0: ["9S 9H 9C", "7C 7S 7D"]}, pile_taken=broken)
    take = next(a for a in view(state, 0)["actions"] if a["type"] == "take_pile")
    assert take["onto"] == 1
    for cards in take["with"]:
        after = step(state, {**TAKE, "cards": cards, "onto": take["onto"]})
        assert codes(after.sides[0].melds[1]) == ["7C", "7S", "7D", "7H", *cards]
    open_meld_will_do = rules_of(preset).pile_later_take == "natural_and_wild_or_open_meld" and broken
    assert take["with"] == [["7S", "7D"], *([[]] if open_meld_will_do else [])]
    assert refused(state, TAKE) == ["duplicate_open_meld"]  # a second open meld of the rank
    assert (
        take["allowed"]
        and view(replace(state, sides=(replace(state.sides[0], melds=state.sides[0].melds[:1]), *state.sides[1:])), 0)[
            "actions"
        ][1]["onto"]
        is None
    )


def _spoil(value: object) -> None:
    """Change every list and mapping inside ``value`` in place, as a careless caller might."""
    if isinstance(value, dict):
        for member in list(value.values()):
            _spoil(member)
        value.clear()
        value["spoiled"] = True
    elif isinstance(value, list):
        for member in value:
            _spoil(member)
        value.clear()
        value.append("spoiled")


@pytest.mark.parametrize("preset", ["pagat", "bicycle", "house"])
def test_a_caller_changing_its_view_changes_no_later_view(preset: str) -> None:
    # a view is assembled from parts kept with the state's sides and seats (shared by the next
    # states): every view must still be the caller's own, equal to one of a fresh copy of its state
    states = some_states(preset, 7, 400)
    assert any(side.melds for state in states for side in state.sides), "no meld: no side parts to keep"
    for state in states:
        for seat in range(len(state.seats)):
            for listing in (True, False):
                seen = view(state, seat, listing=listing)
                del seen["history"]  # the round's events, shared with the state as before: not a kept part
                _spoil(seen)
    for state in states:
        fresh = state_from_mapping(to_mapping(state))
        for seat in range(len(state.seats)):
            assert json.dumps(view(state, seat)) == json.dumps(view(fresh, seat))


@pytest.mark.parametrize("preset", ["pagat", "bicycle", "house"])
def test_a_shared_view_holds_what_a_copied_one_does(preset: str) -> None:
    # shared=True hands out the kept members uncopied (the environment's encoder reads them): the
    # same view in every member, as JSON, whether a side's part was kept before it or not
    states = some_states(preset, 8, 400)
    assert any(side.melds for state in states for side in state.sides), "no meld: no side parts to keep"
    for state in states:
        for seat in range(len(state.seats)):
            fresh = state_from_mapping(to_mapping(state))
            shared = json.dumps(view(fresh, seat, listing=False, shared=True))
            assert shared == json.dumps(view(state, seat, listing=False))
            assert json.dumps(view(state, seat, listing=False, shared=True)) == shared
