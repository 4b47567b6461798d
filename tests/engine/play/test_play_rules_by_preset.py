"""Each rule of play, per preset where the presets differ: a case the engine allows and one it refuses
(with the refusal's code), built from the preset's own RuleSet and PlayOptions values.

The matrix: rule | RuleSet field / PlayOption | presets by value | tests (``deal`` =
test_play_deal.py, ``turns`` = test_play_turns.py, ``melds`` = test_play_melds.py, ``view`` =
test_play_view.py, ``out`` = test_play_going_out_by_preset.py; no file named: this one). A cell an
existing test covers is cited, not repeated: the tests written for this matrix leave those presets
out.

Deal
- hand and foot sizes | ``hand_size``, ``foot_size`` (``*_by_round`` empty in every preset) |
  13/13 pagat, house, hodges, bga; 11/11 bicycle, wikipedia, steve-simpson, wages; 11/13
  saskatchewan, online-11-13 | deal ``test_deal_sizes_threes_and_first_discard`` (every preset),
  ``test_the_deal_follows_the_rounds_sizes_and_the_jokers_per_deck`` (by round).
- red threes laid out and replaced | ``red_threes_laid_out`` | true pagat, bicycle, house,
  saskatchewan, steve-simpson, online-11-13, bga; false wikipedia, hodges, wages | at the deal: deal
  (every preset); drawn: turns ``test_a_drawn_red_three_is_laid_out_and_replaced...`` (pagat, wages),
  ``test_a_drawn_red_three_is_laid_out_or_held`` (the rest); from an empty stock: turns
  ``test_a_red_three_wanting_a_replacement_from_an_empty_stock_ends_the_round``.
- the first discard turned, a wild (or a laid-out red three) buried | ``red_threes_laid_out`` |
  as above | deal ``test_deal_sizes_threes_and_first_discard`` (every preset).

Draw
- two cards, the last one alone | every preset alike | turns ``test_draw_two_from_the_stock``,
  ``test_draw_out_of_turn_or_phase_is_refused``, ``test_the_last_card_of_the_stock_is_drawn_alone``.

Taking the pile
- cards taken | ``pile_take_count`` | 7 pagat, bicycle, house, steve-simpson, online-11-13, hodges,
  wages, bga; 5 wikipedia; all saskatchewan | turns ``test_the_pile_takes_seven_cards_or_all...``
  (pagat, saskatchewan), ``test_the_pile_gives_its_top_cards_by_the_take_count`` (the rest).
- a first take needs a natural pair | every preset alike | turns ``test_take_the_pile_with_a_natural_pair``,
  ``test_take_the_pile_needs_the_pair_and_an_unblocked_top`` (pagat),
  ``test_a_first_take_needs_a_natural_pair`` (the rest).
- a three on top blocks | ``pile_blocked_by`` | black_three: all but wages; any_three: wages (the same
  play: a red three on top is never melded, so it blocks under both) | turns (pagat, black three),
  ``test_a_three_on_top_blocks_the_pile`` (the rest, and red threes everywhere).
- a wild on top | ``pile_wild_top``, ``all_wild_melds`` | a matching pair: pagat, house, saskatchewan,
  online-11-13, bga; blocked: wages (``pile_wild_top``), bicycle, wikipedia, steve-simpson, hodges
  (no all-wild melds) | turns ``test_a_wild_on_top_needs_a_matching_pair_or_blocks_by_preset`` (pagat,
  wages), ``test_a_wild_on_top_of_the_pile`` (the rest).
- a later take (a broken pile) | ``pile_later_take`` | natural_pair: all but wages;
  natural_and_wild_or_open_meld: wages | turns ``test_a_later_take_needs_a_natural_and_a_wild...``
  (wages, pagat), ``test_a_later_take_by_a_natural_and_a_wild`` (the rest),
  ``test_a_later_take_onto_an_open_meld`` (every preset).
- a closed rank on top | ``pile_closed_rank_blocks``, ``after_book`` | blocks: wages; blocks because no
  second book of the rank is started: hodges (burn, D71); allowed: the rest | turns
  ``test_a_closed_rank_blocks_the_pile...`` (wages, pagat), ``test_a_closed_rank_on_top_of_the_pile``
  (the rest), view ``test_the_view_and_the_pile_check_agree_with_the_take_on_a_closed_rank`` (every preset).
- a frozen pile | ``pile_freezes_on_wild`` | true wages; false the rest | turns
  ``test_a_discarded_wild_freezes_the_pile...``, ``test_a_frozen_pile_thaws...`` (wages, pagat),
  ``test_a_discarded_wild_leaves_the_pile_open_where_the_rules_never_freeze`` (the rest).

Opening
- the opening minimum of the round | ``opening_minimum_by_round``, ``opening_minimum`` | 50, 90, 120,
  150 then 150: all but hodges; 100, 150, 200, 250 then 250: hodges | melds
  ``test_the_opening_minimum_of_the_round`` (pagat, hodges round 1), ``test_the_opening_minimum_by_round``
  (every other preset and round, and the round after the list).
- only the pile's top card counts | ``opening_pile_top_only`` (true everywhere) | melds
  ``test_an_opening_by_a_take_counts_only_the_top_card...``, ``test_an_opening_by_a_later_take...``.

Melds
- meld size and threes | ``meld_min`` (3 everywhere), ``black_three_books`` (false everywhere) |
  ``test_a_meld_needs_meld_min_cards_and_no_threes`` (every preset).
- an illegal meld | ``illegal_melds_stand`` | true hodges; false the rest | the play step refuses it in
  every preset, as the checks do (D31: the rule lets a score sheet keep what was laid); every test here
  that expects a meld problem runs under hodges too.
- starting and extending | ``one_open_meld_per_rank`` (true everywhere) | melds
  ``test_adding_to_the_sides_melds_and_the_meld_rules``.
- the book's size | ``book_max_size`` (7 everywhere), ``clean_books_grow`` (false everywhere) | melds
  ``test_a_completed_book_takes_no_more_cards``.
- wild limits | ``wild_ratio``, ``min_naturals_with_wilds`` (``min_naturals_dirty_book`` 4 of bicycle
  and wages is met by any 7-card book those rules already allow; ``max_wilds_per_book`` and
  ``min_natural_share`` are off everywhere) | twice: pagat, wikipedia, house, steve-simpson,
  online-11-13; more: saskatchewan, hodges, bga; equal: wages; none with 4 naturals: bicycle |
  ``test_the_wild_limits_of_a_meld`` (every preset; melds covers pagat's ``too_many_wilds`` onto a meld).
- all-wild melds | ``all_wild_melds`` | true pagat, house, saskatchewan, online-11-13, bga; false
  bicycle, wikipedia, steve-simpson, hodges, wages | ``test_an_all_wild_meld`` (every preset).
- another meld of a closed rank | ``after_book`` | new_meld: all but hodges, wages; burn: hodges, wages
  | ``test_a_new_meld_of_a_closed_rank`` (every preset).
- burn | ``after_book`` | as above | melds ``test_burning_a_card_of_a_closed_rank`` (hodges, wages,
  pagat), ``test_burning_by_preset`` (the rest); wild cards: ``test_a_wild_card_is_never_burned``.

The foot
- running and walking | every preset alike (D37) | turns ``test_running_into_the_foot...``,
  ``test_walking_into_the_foot...``, ``test_a_red_three_in_a_picked_up_foot_is_laid_out``.

Going out
- the contract | ``contract`` | 2 clean 2 dirty 1 wild: pagat, house, online-11-13, bga; 1 clean 1
  dirty: bicycle, steve-simpson, wages; 3 clean 4 dirty: wikipedia; 1 clean 1 dirty 1 wild:
  saskatchewan; 2 clean 2 dirty: hodges | melds ``test_going_out_needs_the_contract...`` (pagat),
  out ``test_going_out_with_the_contract`` (the rest).
- the feet | ``going_out_needs_feet`` | true pagat, bicycle, wikipedia, house, saskatchewan,
  online-11-13; false steve-simpson, hodges, wages, bga | melds (pagat refused),
  out ``test_going_out_with_a_partners_foot_down`` (the rest with partners).
- played from the foot | ``going_out_needs_foot_play`` | true pagat, bicycle, wikipedia, house,
  saskatchewan; false the rest | out ``test_going_out_with_a_partner_who_never_played_from_the_foot``.
- asking the partner | PlayOptions ``ask_partner`` | true pagat, bicycle, wikipedia, house,
  saskatchewan, steve-simpson (alone: never asks), online-11-13; false hodges, wages, bga | melds
  ``test_going_out_needs_the_contract_the_feet_and_the_partners_yes`` and ``test_asking_and_answering``
  (pagat yes and no; bga and steve-simpson refused), ``test_going_out_without_asking...`` (bga,
  hodges), out ``test_asking_the_partner_by_preset`` (the rest). The time-out that counts as yes (seed
  001) is the HTTP table's (D36), not the engine's.
- the last card without going out | ``last_card_needs_contract`` | true: all but hodges; false:
  hodges (play goes on, D70) | out ``test_going_out_with_the_contract`` (melding the last cards),
  out ``test_discarding_the_last_card_without_the_contract``,
  out ``test_a_take_that_leaves_no_card_without_the_contract`` (every preset).
- the final discard | ``going_out_discard`` (optional everywhere) | melds
  ``test_going_out_by_the_final_discard_and_where_it_is_required`` (required as a house rule).

What a seat sees
- the takes offered (``take_pile.with``, ``onto``) | as for taking the pile |
  view ``test_every_take_the_view_offers_is_accepted``,
  view ``test_the_takes_the_view_offers_go_onto_the_open_meld_of_the_rank`` (every preset, a first
  take and a later one).

The stock
- running out | PlayOptions ``stock_out`` | ends: all but online-11-13; pile_only: online-11-13 |
  turns ``test_the_stock_running_out_ends_the_round...`` (pagat, online-11-13),
  ``test_the_stock_running_out_by_preset`` (the rest).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from handfoot.engine import PRESETS, parse_cards
from handfoot.engine.melds import cards_points
from handfoot.engine.play import preset_play_options, step
from handfoot.engine.rules import RuleSet
from tests.engine.play.helpers import (
    BOOK_OF_SEVENS,
    TAKE,
    arrange,
    but,
    codes,
    discard,
    meld,
    refused,
    rules_of,
    takers,
)


# -- red threes ------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", but("pagat", "wages"))
def test_a_drawn_red_three_is_laid_out_or_held(preset: str) -> None:
    after = step(arrange(preset, stock="4S 9S 3H", hands={0: "KS"}), {"type": "draw", "seat": 0})
    if rules_of(preset).red_threes_laid_out:
        assert codes(after.sides[0].red_threes) == ["3H"] and codes(after.seats[0].hand) == ["KS", "9S", "4S"]
    else:
        assert after.sides[0].red_threes == () and codes(after.seats[0].hand) == ["KS", "3H", "9S"]
        assert codes(step(after, discard("3H")).pile[:1]) == ["3H"]  # held, and discarded (it blocks the pile)
        assert "rank_not_meldable" in refused(
            replace(
                after,
                seats=tuple(
                    replace(s, hand=parse_cards(["3H", "3D", "3H", "KS"])) if i == 0 else s
                    for i, s in enumerate(after.seats)
                ),
            ),
            meld("3H 3D 3H"),
        )


# -- taking the pile -------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", takers("pagat", "saskatchewan"))
def test_the_pile_gives_its_top_cards_by_the_take_count(preset: str) -> None:
    pile = "7H 4C 5C 6C 8C 9C 10C JC QC"
    count = rules_of(preset).pile_take_count
    taken = 9 if count is None else min(9, count)
    after = step(arrange(preset, pile=pile, hands={0: "7S 7D"}, melds={0: ["KS KH KD"]}), TAKE)
    assert codes(after.seats[0].hand) == pile.split()[1:taken]
    assert codes(after.pile) == pile.split()[taken:]


@pytest.mark.parametrize("preset", takers("pagat"))
def test_a_first_take_needs_a_natural_pair(preset: str) -> None:
    state = arrange(preset, pile="7H 4C", hands={0: "7S 7D 2C KS"}, melds={0: ["9S 9H 9C"]})
    assert codes(step(state, TAKE).sides[0].melds[1]) == ["7H", "7S", "7D"]
    assert refused(state, {**TAKE, "cards": ["7S", "2C"]}) == ["pile_needs_match"]


@pytest.mark.parametrize("preset", takers())
def test_a_three_on_top_blocks_the_pile(preset: str) -> None:
    under = step(arrange(preset, pile="7H 3S", hands={0: "7S 7D"}, melds={0: ["9S 9H 9C"]}), TAKE)
    assert codes(under.seats[0].hand) == ["3S"]  # a three under the top blocks nothing
    tops = ["3H", "3D"] if preset == "pagat" else ["3S", "3C", "3H", "3D"]  # turns: pagat's black three
    for top in tops:
        state = arrange(preset, pile=f"{top} 7H", hands={0: "7S 7D 3S 3C 3H 3D"}, melds={0: ["9S 9H 9C"]})
        assert refused(state, TAKE) == ["pile_blocked"]


@pytest.mark.parametrize("preset", takers("pagat", "wages"))
def test_a_wild_on_top_of_the_pile(preset: str) -> None:
    rules = rules_of(preset)
    pair = {"type": "take_pile", "seat": 0, "cards": ["2S", "2C"]}
    state = arrange(preset, pile="2H", hands={0: "2S 2C JK KS"}, melds={0: ["9S 9H 9C"]})
    if rules.pile_wild_top == "matching_pair" and rules.all_wild_melds:
        assert codes(step(state, pair).sides[0].melds[1]) == ["2H", "2S", "2C"]
        assert refused(state, {**pair, "cards": ["2S", "JK"]}) == ["pile_needs_match"]
    else:
        assert refused(state, pair) == ["pile_blocked"]


@pytest.mark.parametrize("preset", takers("pagat", "wages"))
def test_a_later_take_by_a_natural_and_a_wild(preset: str) -> None:
    action = {"type": "take_pile", "seat": 0, "cards": ["7S", "2C"]}
    broken = arrange(preset, pile="7H", hands={0: "7S 7D 2C KS"}, melds={0: ["9S 9H 9C"]}, pile_taken=True)
    assert codes(step(broken, TAKE).sides[0].melds[1]) == ["7H", "7S", "7D"]  # a natural pair always
    if rules_of(preset).pile_later_take == "natural_and_wild_or_open_meld":
        assert codes(step(broken, action).sides[0].melds[1]) == ["7H", "7S", "2C"]
    else:
        assert refused(broken, action) == ["pile_needs_match"]


@pytest.mark.parametrize("preset", takers())
def test_a_later_take_onto_an_open_meld(preset: str) -> None:
    action = {"type": "take_pile", "seat": 0, "cards": [], "onto": 1}
    melds = {0: ["9S 9H 9C", "7S 7C 7D"]}
    first = arrange(preset, pile="7H 4C", hands={0: "KS"}, melds=melds)
    assert refused(first, action) == ["pile_needs_match"]  # a first take needs the pair in every preset
    broken = replace(first, pile_taken=True)
    if rules_of(preset).pile_later_take == "natural_and_wild_or_open_meld":
        after = step(broken, action)
        assert codes(after.sides[0].melds[1]) == ["7S", "7C", "7D", "7H"] and codes(after.seats[0].hand) == ["KS", "4C"]
    else:
        assert refused(broken, action) == ["pile_needs_match"]


@pytest.mark.parametrize("preset", takers("pagat", "wages"))
def test_a_closed_rank_on_top_of_the_pile(preset: str) -> None:
    rules = rules_of(preset)
    state = arrange(preset, pile="7H", hands={0: "7S 7D KS"}, melds={0: [BOOK_OF_SEVENS, "9S 9H 9C"]})
    if rules.pile_closed_rank_blocks or rules.after_book == "burn":  # burn: no second book of a rank (D71)
        assert refused(state, TAKE) == ["pile_rank_closed"]
        assert refused(state, {**TAKE, "onto": 0}) == ["pile_rank_closed"]
    else:
        assert codes(step(state, TAKE).sides[0].melds[2]) == ["7H", "7S", "7D"]
    open_rank = arrange(preset, pile="9D", hands={0: "9S 9H KS"}, melds={0: [BOOK_OF_SEVENS]})
    assert len(step(open_rank, {**TAKE, "cards": ["9S", "9H"]}).sides[0].melds) == 2


@pytest.mark.parametrize("preset", takers("pagat", "wages"))
def test_a_discarded_wild_leaves_the_pile_open_where_the_rules_never_freeze(preset: str) -> None:
    seats = len(arrange(preset).seats)
    taker = 2 % seats  # side 0's next seat
    state = arrange(
        preset,
        phase="play",
        hands={0: "2C KS KH", 1: "7H QS QH", taker: "7S 7D KS"} if taker else {0: "2C 7S 7D KS", 1: "7H QS QH"},
        melds={0: ["9S 9H 9C"]},
        stock="4C 4D 4H 4S 5C 5D",
    )
    state = step(state, discard("2C"))
    frozen = rules_of(preset).pile_freezes_on_wild
    assert state.frozen_turns == (seats if frozen else 0)
    state = step(step(state, {"type": "draw", "seat": 1}), discard("7H", seat=1))
    assert state.turn == taker and codes(state.pile[:2]) == ["7H", "2C"]
    take = {**TAKE, "seat": taker}
    if frozen:
        assert "pile_frozen" in refused(state, take)
    else:
        assert codes(step(state, take).sides[0].melds[1]) == ["7H", "7S", "7D"]


# -- the opening -----------------------------------------------------------------------------------
RANKS_BY_VALUE = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "4"]


def opening_melds(rules: RuleSet, minimum: int) -> tuple[list[str], list[str]]:
    """Melds of three naturals, highest value first, that first reach ``minimum`` points (by the
    rules' card values), and the same less the last meld (below it)."""
    melds: list[str] = []
    for rank in RANKS_BY_VALUE:
        melds.append(f"{rank}S {rank}H {rank}D")
        if sum(cards_points(parse_cards(m.split()), rules) for m in melds) >= minimum:
            return melds, melds[:-1] or ["4S 4H 4D"]
    raise AssertionError(f"no opening of {minimum} points from {RANKS_BY_VALUE}")


CASES = [
    (p, r)
    for p in PRESETS
    for r in range(1, len(PRESETS[p].rules.opening_minimum_by_round) + 2)
    if (p, r) not in (("pagat", 1), ("hodges", 1))
]


@pytest.mark.parametrize(("preset", "round_number"), CASES)
def test_the_opening_minimum_by_round(preset: str, round_number: int) -> None:
    rules = rules_of(preset)
    minimum = rules.opening_minimum_for(round_number)
    by_round = rules.opening_minimum_by_round
    assert minimum == (by_round[round_number - 1] if round_number <= len(by_round) else rules.opening_minimum)
    enough, short = opening_melds(rules, minimum)
    hand = " ".join([*enough, "5S 5H"])
    state = arrange(preset, phase="play", hands={0: hand}, round=round_number)
    assert len(step(state, meld(*enough)).sides[0].melds) == len(enough)
    short_state = arrange(preset, phase="play", hands={0: " ".join([*short, "5S 5H"])}, round=round_number)
    assert refused(short_state, meld(*short)) == ["opening_below_minimum"]


# -- melds -----------------------------------------------------------------------------------------
OPENED = {0: ["KS KH KD"]}


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_meld_needs_meld_min_cards_and_no_threes(preset: str) -> None:
    rules = rules_of(preset)
    state = arrange(preset, phase="play", hands={0: "9S 9H 9D 9C 3S 3C 3S 5S 5H"}, melds=OPENED)
    enough = " ".join(["9S", "9H", "9D", "9C"][: rules.meld_min])
    assert codes(step(state, meld(enough)).sides[0].melds[1]) == enough.split()
    assert refused(state, meld(" ".join(enough.split()[:-1]))) == ["meld_too_small"]
    threes = refused(state, meld("3S 3C 3S"))
    assert ("rank_not_meldable" in threes) is not rules.black_three_books


WILDS = ["2C", "2D", "JK", "2H", "2S"]
#: wild_ratio -> (naturals, wilds) it allows, and (naturals, wilds) it refuses (None: no such meld)
RATIO_CASES: dict[str, tuple[tuple[int, int], tuple[int, int] | None]] = {
    "twice": ((4, 2), (3, 2)),
    "more": ((3, 2), (3, 3)),
    "equal": ((3, 3), (2, 3)),
    "none": ((4, 3), None),
}


def nines(naturals: int, wilds: int) -> str:
    return " ".join([*["9S", "9H", "9D", "9C", "9S", "9H"][:naturals], *WILDS[:wilds]])


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_wild_limits_of_a_meld(preset: str) -> None:
    rules = rules_of(preset)
    (n, w), too_many = RATIO_CASES[rules.wild_ratio]
    n = max(n, rules.min_naturals_with_wilds)
    hand = f"{nines(6, 5)} 5S 5H"
    state = arrange(preset, phase="play", hands={0: hand}, melds=OPENED)
    assert codes(step(state, meld(nines(n, w))).sides[0].melds[1]) == nines(n, w).split()
    if too_many is not None:
        expected = ["too_many_wilds"] + (["too_few_naturals"] if too_many[0] < rules.min_naturals_with_wilds else [])
        assert refused(state, meld(nines(*too_many))) == expected
    if rules.min_naturals_with_wilds:
        few = rules.min_naturals_with_wilds - 1
        assert refused(state, meld(nines(few, 1))) == ["too_few_naturals"]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_an_all_wild_meld(preset: str) -> None:
    state = arrange(preset, phase="play", hands={0: "2C 2D JK 5S 5H"}, melds=OPENED)
    if rules_of(preset).all_wild_melds:
        assert codes(step(state, meld("2C 2D JK")).sides[0].melds[1]) == ["2C", "2D", "JK"]
    else:
        assert refused(state, meld("2C 2D JK")) == ["all_wild_not_allowed"]


BOOK_OF_KINGS = "KS KH KD KC KS KH KD"


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_new_meld_of_a_closed_rank(preset: str) -> None:
    state = arrange(preset, phase="play", hands={0: "KC KD KH 5S 5H"}, melds={0: [BOOK_OF_KINGS]})
    if rules_of(preset).after_book == "burn":
        assert refused(state, meld("KC KD KH")) == ["second_book_of_rank"]
    else:
        assert codes(step(state, meld("KC KD KH")).sides[0].melds[1]) == ["KC", "KD", "KH"]


@pytest.mark.parametrize("preset", but("pagat", "hodges", "wages"))
def test_burning_by_preset(preset: str) -> None:
    state = arrange(preset, phase="play", hands={0: "KC 5S 5H"}, melds={0: [BOOK_OF_KINGS]})
    action = {"type": "meld", "seat": 0, "burn": ["KC"]}
    if rules_of(preset).after_book == "burn":
        assert codes(step(state, action).sides[0].burn) == ["KC"]
    else:
        assert refused(state, action) == ["burn_not_allowed"]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_wild_card_is_never_burned(preset: str) -> None:
    state = arrange(preset, phase="play", hands={0: "2C JK 5S 5H"}, melds={0: [BOOK_OF_KINGS]})
    expected = ["wild_burned"] if rules_of(preset).after_book == "burn" else ["burn_not_allowed"]
    assert refused(state, {"type": "meld", "seat": 0, "burn": ["2C"]}) == expected


# -- the stock -------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", but("pagat", "online-11-13"))
def test_the_stock_running_out_by_preset(preset: str) -> None:
    state = arrange(preset, phase="play", stock="", hands={0: "KS KH", 1: "KC KD 5S"}, melds={1: ["9S 9H 9C"]})
    after = step(state, discard("KS"))
    if preset_play_options(preset)[0].stock_out == "ends":
        assert after.phase == "ended" and after.ended == "stock_out" and after.out_side is None
    else:
        assert after.phase == "draw" and after.turn == 1
        assert step(after, {"type": "take_pile", "seat": 1, "cards": ["KC", "KD"]}).phase == "play"
        assert step(after, {"type": "draw", "seat": 1}).ended == "stock_out"
