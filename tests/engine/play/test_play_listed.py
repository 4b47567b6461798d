"""The view tells the truth (issue 30): every body the view lists is accepted by ``step``, under
every preset, over thousands of simulated turns; a refusal's pointer names what the request sent.

A seeded loop rather than hypothesis: each turn picks a listed body at random (``random.Random``),
so a failure names its preset, seed and step, and replays. Turns per preset: 2,000 under the ci
profile (several thousand actions), 150 under dev (``make check``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from handfoot.engine import PRESETS
from handfoot.engine.errors import HandFootError
from handfoot.engine.play import ACTION_TYPES, State, new_round, refusals, step, view
from handfoot.engine.play.bots import actor
from tests.conftest import HYPOTHESIS_PROFILE
from tests.engine.play.helpers import table_of

TURNS = 2000 if HYPOTHESIS_PROFILE == "ci" else 150


def listed(state: State, seat: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every (type, body) the seat's view lists."""
    for entry in view(state, seat)["actions"]:
        assert entry["type"] in ACTION_TYPES, f"{entry['type']} is listed but is no action"
        assert entry["send"], f"{entry['type']} is listed with nothing to send"
        for body in entry["send"]:
            assert body["type"] == entry["type"]
            yield entry["type"], body


def turns(preset: str, count: int) -> Iterator[tuple[State, int, list[dict[str, Any]]]]:
    """Every state of ``count`` turns (a turn: a seat's draw, its play, its partner's answers) of
    rounds of ``preset`` played by random picks of listed bodies, each with its actor and the actor's
    listed bodies. Round ``k`` is dealt from seed ``k`` and picks with ``random.Random(k)``."""
    seed = 0
    while count > 0:
        state = new_round(preset, table_of(preset), seed)
        rng = random.Random(seed)
        while state.phase != "ended" and count > 0:
            seat = actor(state)
            bodies = [body for _, body in listed(state, seat)]
            yield state, seat, bodies
            count -= state.phase == "draw"
            state = step(state, {**rng.choice(bodies), "seat": seat})
        seed += 1


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_body_the_view_lists_is_accepted(preset: str) -> None:
    seen: set[str] = set()
    for state, seat, bodies in turns(preset, TURNS):
        assert bodies, f"seed {state.seed} step {state.step}: nothing listed for the seat to act"
        for body in bodies:
            seen.add(body["type"])
            where = f"seed {state.seed} step {state.step}: {body}"
            assert refusals(state, {**body, "seat": seat}) == [], where
            step(state, {**body, "seat": seat})  # raises if refused
        for other in range(len(state.seats)):
            if other != seat:
                assert view(state, other)["actions"] == []  # not its move
    assert {"draw", "meld", "discard"} <= seen


def _resolves(body: Any, path: tuple[Any, ...]) -> bool:
    for key in path:
        found = (isinstance(body, dict) and key in body) or (
            isinstance(body, list) and isinstance(key, int) and 0 <= key < len(body)
        )
        if not found:
            return False
        body = body[key]
    return True


def _unheld(state: State, seat: int) -> str:
    """A card the seat does not hold."""
    held = {c.code for c in state.seats[seat].hand}
    return next(code for code in ("KS", "KH", "QS", "QH", "JS", "JH", "10S", "9S", "8S") if code not in held)


def _mutations(body: dict[str, Any], card: str) -> Iterator[dict[str, Any]]:
    """``body`` with one card replaced by ``card`` (not held), wherever it holds cards; then with
    one card fewer (refused or not)."""
    if "card" in body:
        yield {**body, "card": card}
    if body.get("cards"):
        yield {**body, "cards": [card, *body["cards"][1:]]}
    for i, meld in enumerate(body.get("melds", [])):
        yield {**body, "melds": [*body["melds"][:i], [*meld[:-1], card], *body["melds"][i + 1 :]]}
    for k, add in enumerate(body.get("add", [])):
        yield {**body, "add": [*body["add"][:k], {**add, "cards": [card, *add["cards"][1:]]}, *body["add"][k + 1 :]]}
    if body.get("burn"):
        yield {**body, "burn": [*body["burn"][:-1], card]}
    if body.get("cards"):
        yield {**body, "cards": body["cards"][1:]}
    for i, meld in enumerate(body.get("melds", [])):
        yield {**body, "melds": [*body["melds"][:i], meld[1:], *body["melds"][i + 1 :]]}


@pytest.mark.parametrize("preset", ["pagat", "wages", "bga", "steve-simpson"])
def test_a_refusals_pointer_names_a_member_the_request_sent(preset: str) -> None:
    """A card the hand does not hold, or one card fewer, in any member of any listed body: every
    problem of its refusal points into the body sent (a discard's ``card_not_held`` at ``card``,
    never ``cards``; a take's pair at ``cards``, never the check endpoint's ``hand``)."""
    checked = 0
    for state, seat, bodies in turns(preset, TURNS // 3):
        card = _unheld(state, seat)
        for body in bodies:
            for bad in _mutations(body, card):
                sent = {**bad, "seat": seat}
                problems = refusals(state, sent)
                if card in json.dumps(bad):  # refused (a take's pair is checked first: pile_needs_match)
                    codes = [p.code for p in problems]
                    assert "card_not_held" in codes or (bad["type"] == "take_pile" and codes), (bad, problems)
                for p in problems:
                    assert _resolves(sent, p.path), f"{p.code} at {p.path} in {bad}"
                checked += 1
    assert checked > 100


def test_a_discard_of_a_card_not_held_points_at_card() -> None:
    state = step(new_round("pagat", table_of("pagat"), 4), {"type": "draw", "seat": 0})
    card = _unheld(state, 0)
    with pytest.raises(HandFootError) as err:
        step(state, {"type": "discard", "card": card, "seat": 0})
    assert [(p.code, p.path) for p in err.value.problems] == [("card_not_held", ("card",))]


def test_go_out_is_not_listed_and_its_refusal_says_what_to_send() -> None:
    """Going out is melding or discarding the last cards (D79): the view says whether it would be
    accepted (``going_out``) and never lists a ``go_out`` action the step would refuse."""
    state = step(new_round("pagat", table_of("pagat"), 4), {"type": "draw", "seat": 0})
    seen = view(state, 0)
    assert "go_out" not in [a["type"] for a in seen["actions"]]
    assert seen["going_out"]["allowed"] is False
    assert [e["code"] for e in seen["going_out"]["errors"]] == seen["going_out"]["problems"]
    assert "contract_not_met" in seen["going_out"]["problems"]
    (problem,) = refusals(state, {"type": "go_out", "seat": 0})
    assert problem.code == "unknown_action" and "meld or discard the last cards" in problem.detail
    assert view(state, 1)["going_out"] is None  # not its turn


def test_the_view_gives_each_cards_points_and_whether_it_is_wild() -> None:
    state = new_round("pagat", table_of("pagat"), 4)
    seen = view(state, 0)
    rules = PRESETS["pagat"].rules
    assert set(seen["cards"]) == {*seen["hand"], seen["pile"]["top"]}
    for code, facts in seen["cards"].items():
        wild = code == "JK" or code.startswith("2")
        assert facts["wild"] is wild
        if code == "JK":
            assert facts["points"] == rules.joker_points
        elif code.startswith("2"):
            assert facts["points"] == rules.two_points


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_reference_bots_choose_only_listed_bodies_and_are_never_refused(preset: str) -> None:
    """Greedy against random (``choose``'s candidates, best first): every candidate is a body the
    view lists (with the seat), so the first is always taken."""
    from handfoot.engine.play.bots import greedy_policy, random_policy

    rounds = 4 if HYPOTHESIS_PROFILE == "ci" else 1
    for seed in range(rounds):
        state = new_round(preset, table_of(preset), seed)
        rng = random.Random(seed)
        while state.phase != "ended":
            seat = actor(state)
            policy = greedy_policy if state.seats[seat].side == seed % 2 else random_policy
            seen = view(state, seat)
            bodies = [{**b, "seat": seat} for a in seen["actions"] for b in a["send"]]
            candidates = policy(seen, state.rules, rng)
            assert candidates and all(c in bodies for c in candidates), (state.step, candidates)
            state = step(state, candidates[0])
