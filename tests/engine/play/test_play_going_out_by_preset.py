"""Going out, per preset where the presets differ: the contract, the feet, asking the partner and the
last card, each with a case the engine allows and one it refuses (the matrix:
test_play_rules_by_preset.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from handfoot.engine import PRESETS, parse_cards, score_round_request
from handfoot.engine.play import State, preset_play_options, score, score_body, step, view
from handfoot.engine.rules import Contract
from tests.engine.play.helpers import TAKE, arrange, but, codes, discard, meld, refused, rules_of, takers

BOOK_RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "4"]  # never 5: seat 0 goes out with 5s


def books_for(contract: Contract) -> list[str]:
    """Completed books making ``contract``: clean (seven naturals), dirty (five naturals and two
    wilds: within every preset's wild limits), wild (seven wilds), each of its own rank."""
    ranks = iter(BOOK_RANKS)
    out = [" ".join(f"{r}{s}" for s in "SHDCSHD") for r in (next(ranks) for _ in range(contract.clean_books))]
    out += [
        " ".join([*(f"{r}{s}" for s in "SHDCS"), "2C", "2D"])
        for r in (next(ranks) for _ in range(contract.dirty_books))
    ]
    out += ["2S 2H 2D 2C JK JK 2S"] * contract.wild_books
    return out


def ready(
    preset: str,
    books: list[str],
    *,
    hand: str = "5S 5H 5D",
    partner_foot: str | None = None,
    partner_played: bool = True,
    answer: bool | None = True,
) -> State:
    """Seat 0 in its play phase holding ``hand``, its foot picked up and played from; its partners
    (if any) holding 9C with the foot picked up (``partner_foot``: still down) and played from as
    ``partner_played``; side 0's table ``books``. Where going out needs the partner's yes, ``answer``
    is the partner's answer this turn (``None``: not asked)."""
    base = arrange(preset, phase="play", hands={0: hand}, melds={0: books})
    seats = list(base.seats)
    seats[0] = replace(seats[0], foot=None, played_from_foot=True)
    for i in partners(base):
        down = partner_foot is not None
        seats[i] = replace(
            seats[i],
            hand=parse_cards(["9C"]),
            foot=parse_cards(partner_foot.split()) if partner_foot is not None else None,
            played_from_foot=partner_played and not down,
        )
    state = replace(base, seats=tuple(seats))
    if asks(preset, state) and answer is not None:
        state = replace(state, asked=True, permission=answer)
    return state


def partners(state: State) -> list[int]:
    return [i for i in state.seats_of(0) if i != 0]


def asks(preset: str, state: State) -> bool:
    return preset_play_options(preset)[0].ask_partner and bool(partners(state))


def went_out(state: State) -> bool:
    return state.phase == "ended" and state.ended == "went_out" and state.out_side == 0


@pytest.mark.parametrize("preset", but("pagat"))
def test_going_out_with_the_contract(preset: str) -> None:
    rules = rules_of(preset)
    books = books_for(rules.contract_for(1))
    assert went_out(step(ready(preset, books), meld("5S 5H 5D")))
    short = ready(preset, books[:-1])  # one book fewer
    listed = next((a for a in view(short, 0)["actions"] if a["type"] == "meld"), None)
    if rules.last_card_needs_contract:
        assert listed is None  # its only meld would go out without the contract: not listed
        assert refused(short, meld("5S 5H 5D")) == ["contract_not_met"]
    else:  # play goes on as if the side had not gone out (D70)
        assert listed is not None and listed["keep"] == 0
        assert {"type": "meld", "melds": [["5S", "5H", "5D"]]} in listed["send"]
        after = step(short, meld("5S 5H 5D"))
        assert after.phase == "draw" and after.turn == 1 and after.seats[0].hand == ()
        assert after.ended is None
        ended = step(replace(after, stock=()), {"type": "draw", "seat": 1})  # the stock's rule ends it
        mine, theirs = score(ended), score_round_request(score_body(ended))  # scoring accepts the empty hand
        assert [(b.name, b.total) for b in mine.teams] == [(b.name, b.total) for b in theirs.teams]
        assert mine.teams[0].line("going_out").points == 0  # type: ignore[union-attr]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_discarding_the_last_card_without_the_contract(preset: str) -> None:
    rules = rules_of(preset)
    books = books_for(rules.contract_for(1))
    assert went_out(step(ready(preset, books, hand="9D"), discard("9D")))
    short = ready(preset, books[:-1], hand="9D")
    listed = next((a for a in view(short, 0)["actions"] if a["type"] == "discard"), None)
    if rules.last_card_needs_contract:  # the last card would go out without the contract: not listed
        assert listed is None
        assert refused(short, discard("9D")) == ["contract_not_met"]
    else:  # play goes on; the seat draws at its next turn (D70)
        assert listed is not None and listed["cards"] == ["9D"] and listed["goes_out"] is False
        after = step(short, discard("9D"))
        assert after.ended is None and after.turn == 1 and after.seats[0].hand == ()
        assert codes(after.pile[:1]) == ["9D"]
        again = step(replace(after, turn=0, phase="draw"), {"type": "draw", "seat": 0})
        assert len(again.seats[0].hand) == 2 and again.phase == "play"


@pytest.mark.parametrize("preset", takers())
def test_a_take_that_leaves_no_card_without_the_contract(preset: str) -> None:
    rules = rules_of(preset)
    short = replace(
        ready(preset, books_for(rules.contract_for(1))[:-1], hand="7S 7D", answer=None),
        phase="draw",
        pile=parse_cards(["7H"]),
    )
    if rules.last_card_needs_contract:
        expected = ["contract_not_met", *(["partner_not_asked"] if asks(preset, short) else [])]
        assert refused(short, TAKE) == expected
    else:  # play goes on (D70)
        after = step(short, TAKE)
        assert after.ended is None and after.turn == 1 and after.seats[0].hand == () and after.pile == ()


WITH_PARTNERS = [p for p in PRESETS if rules_of(p).players_per_team_max > 1]


@pytest.mark.parametrize("preset", [p for p in WITH_PARTNERS if p != "pagat"])
def test_going_out_with_a_partners_foot_down(preset: str) -> None:
    rules = rules_of(preset)
    state = ready(preset, books_for(rules.contract_for(1)), partner_foot="4C 4D 4H")
    if rules.going_out_needs_feet:
        assert refused(state, meld("5S 5H 5D")) == ["foot_not_picked_up"]
    else:
        assert went_out(step(state, meld("5S 5H 5D")))


@pytest.mark.parametrize("preset", WITH_PARTNERS)
def test_going_out_with_a_partner_who_never_played_from_the_foot(preset: str) -> None:
    rules = rules_of(preset)
    state = ready(preset, books_for(rules.contract_for(1)), partner_played=False)
    if rules.going_out_needs_feet and rules.going_out_needs_foot_play:
        assert refused(state, meld("5S 5H 5D")) == ["foot_not_played"]
    else:
        assert went_out(step(state, meld("5S 5H 5D")))


@pytest.mark.parametrize("preset", [p for p in WITH_PARTNERS if p not in ("pagat", "bga")])
def test_asking_the_partner_by_preset(preset: str) -> None:
    books = books_for(rules_of(preset).contract_for(1))
    state = ready(preset, books, answer=None)
    if not preset_play_options(preset)[0].ask_partner:
        assert refused(state, {"type": "ask", "seat": 0}) == ["not_in_rules"]
        assert went_out(step(state, meld("5S 5H 5D")))  # no question to ask
        return
    assert refused(state, meld("5S 5H 5D")) == ["partner_not_asked"]
    asked = step(state, {"type": "ask", "seat": 0})
    assert asked.phase == "answer" and asked.answerer == partners(state)[0]
    no = step(asked, {"type": "answer", "seat": asked.answerer, "yes": False})
    assert refused(no, meld("5S 5H 5D")) == ["partner_not_asked"]
    yes = step(asked, {"type": "answer", "seat": asked.answerer, "yes": True})
    assert went_out(step(yes, meld("5S 5H 5D")))
