"""The fast paths of round scoring give exactly what the precise path gives.

``handfoot.engine.plain.score_plain`` (a round straight from its body), ``table.quick_table`` (a side's melds
by their compositions) and ``melds.meld_table`` are held to ``round_from_mapping`` + ``score_round``,
``analyse_table`` and ``meld_check`` on random rounds, legal and not, under every preset and a few
house rules.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import partial
from typing import Any

import pytest

from handfoot.engine import (
    PRESETS,
    Breakdown,
    Card,
    HandFootError,
    Line,
    Rank,
    RuleSet,
    Suit,
    apply_overrides,
    parse_cards,
    round_from_mapping,
    score_round,
    score_round_request,
    validate_meld,
)
from handfoot.engine.cards import CARD_BITS, CARD_SHIFT, CARD_TABLE, DECK, RANK_BITS, RANK_FIELDS, RANK_INDEX
from handfoot.engine.frozen import fast_init
from handfoot.engine.melds import counts_of, meld_check, meld_table, rank_points
from handfoot.engine.plain import score_plain
from handfoot.engine.scoring import breakdown_values
from handfoot.engine.table import analyse_table, quick_table

NATURALS = ["A", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
WILDS = ["JK", "2S", "2H", "2D", "2C"]
HOUSE: list[dict[str, Any]] = [
    {}, {"after_book": "burn"}, {"one_open_meld_per_rank": False}, {"all_wild_melds": True},
    {"black_three_books": True}, {"book_max_size": None}, {"perfect_cut_bonus": 100},
    {"going_out_needs_feet": False}, {"red_threes_laid_out": False}, {"wild_ratio": "none"},
    {"after_book": "burn", "one_open_meld_per_rank": False, "book_max_size": None},
]


def _rules(rng: random.Random) -> tuple[str, dict[str, Any], RuleSet]:
    preset = rng.choice(sorted(PRESETS))
    house = dict(rng.choice(HOUSE))
    if rng.random() < 0.7:
        house["decks_extra"] = rng.choice([2, 4, 8])
    try:
        return preset, house, apply_overrides(PRESETS[preset].rules, house)
    except HandFootError:
        return preset, {}, PRESETS[preset].rules


def _meld(rng: random.Random, rules: RuleSet, rank: str) -> list[str]:
    for _ in range(30):
        top = rules.book_max_size or rules.book_size + 2
        size = rng.choice([rules.book_size, rules.book_size, *range(rules.meld_min, top + 1)])
        wilds = rng.randint(0, size // 2)
        cards = [rank + rng.choice("SHDC") for _ in range(size - wilds)] + rng.choices(WILDS, k=wilds)
        rng.shuffle(cards)
        if rng.random() < 0.05 or validate_meld(parse_cards(cards), rules).valid:
            return cards
    return []


def _card(rng: random.Random) -> Any:
    x = rng.random()
    if x < 0.01:
        return rng.choice(["1X", 7, None, "qs", "T♠"])
    return rng.choice([r + s for r in [*NATURALS, "2", "3"] for s in "SHDC"] + ["JK"])


def _body(rng: random.Random) -> tuple[dict[str, Any], RuleSet]:
    preset, house, rules = _rules(rng)
    teams = []
    n = rng.randint(rules.teams_min, rules.teams_max)
    out = rng.randrange(n + 2)
    for i in range(n):
        melds = [m for r in rng.sample(NATURALS, rng.randint(0, 8)) if (m := _meld(rng, rules, r))]
        if rules.all_wild_melds and rng.random() < 0.5:
            melds.append(rng.choices(WILDS, k=rng.choice([rules.meld_min, rules.book_size])))
        if rng.random() < 0.1 and melds:
            melds.append(list(rng.choice(melds)))
        players = []
        for p in range(rng.randint(rules.players_per_team_min, rules.players_per_team_max)):
            player: dict[str, Any] = {"name": f"P{i}{p}", "hand": [_card(rng) for _ in range(rng.randint(0, 4))]}
            if rng.random() < 0.3:
                player["foot"] = [_card(rng) for _ in range(rng.randint(0, 4))]
            if i == out and (p == 0 or rng.random() < 0.5):
                player["hand"] = []
                player.pop("foot", None)
            players.append(player)
        team: dict[str, Any] = {"name": f"T{i}", "went_out": i == out, "melds": melds, "players": players,
                                "red_threes": rng.choices(["3H", "3D"], k=rng.choice([0, 0, 1, 2]))}
        if rules.after_book == "burn" and rng.random() < 0.5:
            closed = [m[0] for m in melds if len(m) >= rules.book_size and m[0] not in WILDS]
            team["burn"] = [rng.choice(closed) if closed and rng.random() < 0.9 else _card(rng)
                            for _ in range(rng.randint(0, 2))]
        if rng.random() < 0.2:
            team["perfect_cuts"] = rng.randint(0, 2)
        teams.append(team)
    return {"preset": preset, "rules": house, "round": rng.choice([1, 2, 3, 4]), "teams": teams}, rules


def _precise(body: dict[str, Any], rules: RuleSet) -> Any:
    try:
        return score_round(round_from_mapping(body), rules)
    except HandFootError as err:
        return type(err), err.problems


@pytest.mark.parametrize("seed", range(12))
def test_score_plain_is_the_precise_path(seed: int) -> None:
    rng = random.Random(seed)
    plain = legal = 0
    for _ in range(60):
        body, rules = _body(rng)
        precise = _precise(body, rules)
        fast = score_plain(body, rules)
        legal += not isinstance(precise, tuple)
        if fast is not None:
            plain += 1
            assert fast == precise, body
        try:
            assert score_round_request(body) == precise
        except HandFootError as err:
            assert (type(err), err.problems) == precise
    assert plain and plain >= legal - 5  # the plain path takes (nearly) every legal round


def test_score_plain_declines_what_it_cannot_be_sure_of() -> None:
    rules = PRESETS["pagat"].rules
    two = [{"name": "x", "hand": ["4S"]}, {"name": "y", "hand": ["5S"], "foot": ["6S"]}]
    team = {"name": "A", "melds": [["KS", "KH", "KD"]], "players": two}
    other = {"name": "B", "melds": [], "players": two}
    assert score_plain({"teams": [team, other]}, rules) is not None
    for change in ({"melds": [["ks", "KH", "KD"]]}, {"melds": [("KS", "KH", "KD")]}, {"went_out": 1},
                   {"tally": {"clean_books": 1}}, {"name": 7}, {"melds": [["KS", "KH", "QD"]]},
                   {"red_threes": ["3S"]}, {"players": [{"name": "a", "hand": ["XX"]}, two[1]]}):
        body = {"teams": [{**team, **change}, other]}
        assert score_plain(body, rules) is None, change
    assert score_plain({"round": True, "teams": [team, other]}, rules) is None


def test_score_plain_reads_no_player_name() -> None:
    """A player's name plays no part in a score, and the precise path takes ``str()`` of any: a name
    of another type, or none, scores the same on both paths."""
    rules = PRESETS["pagat"].rules
    for name in (7, None, ["x"], {"a": 1}, "Zoë"):
        players = [{"name": name, "hand": ["4S"]}, {"hand": ["5S"], "foot": ["6S"]}]
        body = {"teams": [{"name": "A", "melds": [["KS", "KH", "KD"]], "players": players},
                          {"name": "B", "players": [{"hand": []}, {"hand": ["QS"]}]}]}
        fast = score_plain(body, rules)
        assert fast is not None and fast == _precise(body, rules), name


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_meld_table_is_meld_check(preset: str) -> None:
    preset_rules = PRESETS[preset].rules
    for rules in (preset_rules, replace(preset_rules, all_wild_melds=True)):
        table = meld_table(rules)
        points = rank_points(rules)
        rng = random.Random(preset)
        for _ in range(400):
            cards = parse_cards([rng.choice([*WILDS, *(r + "S" for r in NATURALS), "3C", "3H"])
                                 for _ in range(rng.randint(1, table.max_size))])
            if rng.random() < 0.7:  # mostly one rank
                cards = tuple(c for c in cards if c.is_wild or c.rank is cards[-1].rank)
            check = meld_check(cards, rules, (), points)
            info = table.info.get(sum(map(counts_of, cards)) & RANK_FIELDS)
            assert (info is not None) == (check.valid and not any(c.rank is Rank.THREE for c in cards))


@pytest.mark.parametrize("seed", range(6))
def test_quick_table_is_analyse_table(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(200):
        _, _, rules = _rules(rng)
        melds = [parse_cards(_meld(rng, rules, rng.choice(NATURALS))) for _ in range(rng.randint(0, 8))]
        sums = list(map(sum, map(partial(map, counts_of), melds)))
        quick = quick_table(sums, sum(map(len, melds)), meld_table(rules), closed=True)
        table = analyse_table(melds, rules)
        if quick is not None:
            assert not table.problems
            assert quick == (*table.books.values(), table.points, table.closed_ranks())
        elif all(not any(c.rank is Rank.THREE for c in m) and len(m) <= 15 for m in melds):
            assert table.problems


def test_packed_counts_cover_every_card() -> None:
    """One field per rank and one per distinct card: the sum over a round counts each."""
    cards = [*DECK, *DECK, Card(Rank.ACE, None), Card(Rank.JOKER, Suit.SPADES)]
    total = sum(c.counts for c in cards)
    for card in set(cards):
        assert total >> CARD_SHIFT + CARD_BITS * card.key & 0xFFFF == cards.count(card)
    for rank in Rank:
        assert total >> RANK_BITS * RANK_INDEX[rank] & 0xF == sum(c.rank is rank for c in cards) % 16
    assert all(CARD_TABLE[c.code].counts == c.counts for c in DECK)


def test_fast_init_keeps_the_dataclass() -> None:
    team = Breakdown("North", 100, ())
    assert team == Breakdown(name="North", total=100, lines=())
    assert repr(team) == "Breakdown(name='North', total=100, lines=())"
    with pytest.raises(AttributeError):
        team.total = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        fast_init(type("NotADataclass", (), {}))


def test_lines_built_fast_are_lines() -> None:
    """Breakdown lines are built with ``tuple.__new__``: still Lines, with every field by name."""
    line = score_round_request({"preset": "pagat", "teams": [
        {"name": "A", "melds": [["KS", "KH", "KD"]], "players": [{"hand": ["4S"]}, {"hand": ["5S"]}]},
        {"name": "B", "melds": [], "players": [{"hand": []}, {"hand": ["6S"]}]}]}).teams[0].lines[0]
    assert type(line) is Line
    assert line == Line(code="clean_books", label="Clean books", count=0, points_each=500, points=0)
    assert (line.code, line.count, line.points_each, line.points) == ("clean_books", 0, 500, 0)
    assert repr(line) == "Line(code='clean_books', label='Clean books', count=0, points_each=500, points=0)"
    with pytest.raises(AttributeError):
        line.points = 5  # type: ignore[misc]


@pytest.mark.parametrize("spellings", [["10S"], ["10S", "TS", "10♠", "T♤"], ["JK"]])
def test_score_plain_counts_copies_across_spellings(spellings: list[str]) -> None:
    """A card's copies are counted across its spellings: at the decks' limit the round scores (fast
    and precise alike), one over it the fast path declines and the precise one names the card."""
    rules = apply_overrides(PRESETS["pagat"].rules, {"decks_extra": 0})
    decks = rules.decks_for(4)
    limit = decks * (2 if spellings == ["JK"] else 1)
    for copies in (limit, limit + 1):
        held = [spellings[k % len(spellings)] for k in range(copies)]
        players = [{"name": "x", "hand": held[::2]}, {"name": "y", "hand": held[1::2]}]
        body = {"teams": [{"name": "A", "players": players},
                          {"name": "B", "players": [{"name": "z", "hand": ["4S"]}, {"name": "w", "hand": []}]}]}
        precise = _precise(body, rules)
        fast = score_plain(body, rules)
        if copies == limit:
            assert fast is not None and fast == precise
        else:
            assert fast is None
            assert isinstance(precise, tuple) and [p.code for p in precise[1]] == ["too_many_copies"]


def test_score_plain_counts_red_threes_caught_apart_from_points() -> None:
    """Red threes caught in hands and feet, in every spelling, are counted apart from the points of
    the cards held with them (one sum gives both), fast and precise alike."""
    rules = PRESETS["pagat"].rules
    red = sorted(text for text, card in CARD_TABLE.items() if card.is_red_three)
    decks = rules.decks_for(4)
    for caught in range(2 * decks + 1):
        held = [red[k % len(red)] for k in range(caught)] + ["KS", "4H", "JK", "2C"][: caught % 5]
        players = [{"name": "x", "hand": held[::2]}, {"name": "y", "hand": [], "foot": held[1::2]}]
        body = {"teams": [{"name": "A", "players": players},
                          {"name": "B", "players": [{"name": "z", "hand": ["4S"]}, {"name": "w", "hand": []}]}]}
        fast = score_plain(body, rules)
        assert fast is not None and fast == _precise(body, rules), held
        lines = {line.code: line for line in fast.teams[0].lines}
        assert lines["red_threes_caught"].count == caught
        left = sum(rank_points(rules)[CARD_TABLE[c].rank_index] for c in held if c not in red)
        assert lines["points_left"].points == -left


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_breakdown_lines_kept_per_rules_are_the_lines_made(preset: str) -> None:
    """``breakdown_values`` takes the lines of counts made once per RuleSet while a count is small;
    at every count, past that range and below zero too, under a preset and house rules with a
    going-out bonus by round, a perfect-cut bonus and a burn line, the lines are what ``Line`` makes
    of the rules' values, and they sum to the total."""
    plain_rules = PRESETS[preset].rules
    house = apply_overrides(plain_rules, {"perfect_cut_bonus": 25, "after_book": "burn",
                                          "going_out_bonus_by_round": [100, 200, 300],
                                          "red_three_table_points_unmelded": -75})
    rng = random.Random(preset)
    for rules in (plain_rules, house):
        for _ in range(300):
            counts = [rng.choice([-1, 0, 1, 2, 5, 31, 32, 33, 90]) for _ in range(6)]
            clean, dirty, wild, red, caught, perfect = counts
            went_out, has_melded = rng.random() < 0.5, rng.choice([True, False, None])
            round_number = rng.choice([1, 2, 3, 4, 9])
            table_points, left, burn_points = rng.randrange(-50, 900), rng.randrange(0, 300), rng.randrange(0, 90)
            got = breakdown_values("Side", went_out, clean, dirty, wild, red, caught, table_points, left,
                                   burn_points, perfect, has_melded, rules, round_number)
            melded = bool(table_points or clean or dirty or wild) if has_melded is None else has_melded
            red_each = rules.red_three_table_points if melded else rules.red_three_table_points_unmelded
            bonus = rules.going_out_bonus_for(round_number)
            want = [Line("clean_books", "Clean books", clean, rules.clean_book_bonus, clean * rules.clean_book_bonus),
                    Line("dirty_books", "Dirty books", dirty, rules.dirty_book_bonus, dirty * rules.dirty_book_bonus),
                    Line("wild_books", "Wild books", wild, rules.wild_book_bonus, wild * rules.wild_book_bonus),
                    Line("going_out", "Going out", int(went_out), bonus, bonus if went_out else 0),
                    Line("red_threes_on_table", "Red threes on the table", red, red_each, red * red_each),
                    Line("red_threes_caught", "Red threes caught in hand or foot", caught,
                         rules.red_three_caught_points, caught * rules.red_three_caught_points)]
            if rules.perfect_cut_bonus:
                want.append(Line("perfect_cut", "Perfect cuts", perfect, rules.perfect_cut_bonus,
                                 perfect * rules.perfect_cut_bonus))
            want.append(Line("table_points", "Cards on the table", None, None, table_points))
            if rules.after_book == "burn":
                want.append(Line("burn", "Burn pile", None, None, burn_points))
            want.append(Line("points_left", "Cards left in hands and feet", None, None, -left))
            assert got.lines == tuple(want)
            assert all(type(line) is Line for line in got.lines)
            assert got.total == sum(line.points for line in want)
