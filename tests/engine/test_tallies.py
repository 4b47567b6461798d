"""Round scoring has one path: cards -> tally (``side_tally``) -> breakdown (``breakdown``).

Random rounds, legal and not, under every preset and a few house rules: scoring a side's cards gives
what scoring the tally that ``side_tally`` derives from them gives; a table's meld checks (kept per
composition) are ``validate_meld``'s; and the behaviour the earlier fast path was held to stays pinned
here, now of the one path: copies across spellings, red threes caught, the breakdown's lines, no
cost cliff at 16 melds, and house rules resolved once.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from handfoot.engine import (
    PRESETS,
    BookKind,
    Breakdown,
    Card,
    Contract,
    HandFootError,
    Line,
    Rank,
    RoundScore,
    RuleSet,
    Tally,
    apply_overrides,
    breakdown,
    parse_cards,
    resolve_rules,
    round_from_mapping,
    score_round,
    score_round_request,
    side_tally,
    validate_meld,
)
from handfoot.engine.cards import CARD_TABLE, DECK, MELD_CARDS_MAX, composition, composition_count
from handfoot.engine.frozen import fast_init
from handfoot.engine.melds import rank_points
from handfoot.engine.table import analyse_table

NATURALS = ["A", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
WILDS = ["JK", "2S", "2H", "2D", "2C"]
HOUSE: list[dict[str, Any]] = [
    {},
    {"after_book": "burn"},
    {"one_open_meld_per_rank": False},
    {"all_wild_melds": True},
    {"black_three_books": True},
    {"book_max_size": None},
    {"perfect_cut_bonus": 100},
    {"going_out_needs_feet": False},
    {"red_threes_laid_out": False},
    {"wild_ratio": "none"},
    {"after_book": "burn", "one_open_meld_per_rank": False, "book_max_size": None},
    # house rules from public score sheets (issue 19 item 5) and "what's layed is played"
    {"clean_books_grow": True},
    {"jokers_per_deck": 4},
    {"jokers_per_deck": 0},
    {"rank_book_bonuses": [{"rank": "7", "bonus": 1500}, {"rank": "K", "bonus": 50}]},
    {"perfect_cut_bonus": 100, "perfect_cut_within_1_bonus": 50, "perfect_cut_within_3_bonus": 20},
    {"illegal_melds_stand": True},
    {"illegal_melds_stand": True, "rank_book_bonuses": [{"rank": "8", "bonus": 900}]},
]

_BELOW = "table_below_opening_minimum"  # the one warning a tally gets


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
        if rng.random() < 0.05:
            melds.append(["3S", "3C", "3S"])
        players = []
        for p in range(rng.randint(rules.players_per_team_min, rules.players_per_team_max)):
            # a player left with no cards is on the side that went out (last_card_needs_going_out)
            player: dict[str, Any] = {"name": f"P{i}{p}", "hand": [_card(rng) for _ in range(rng.randint(1, 4))]}
            if rng.random() < 0.3:  # a foot never picked up holds the cards dealt
                player["foot"] = [_card(rng) for _ in range(rules.foot_size)]
            if i == out and (p == 0 or rng.random() < 0.5):
                player["hand"] = []
                player.pop("foot", None)
            players.append(player)
        team: dict[str, Any] = {
            "name": f"T{i}",
            "went_out": i == out,
            "melds": melds,
            "players": players,
            "red_threes": rng.choices(["3H", "3D"], k=rng.choice([0, 0, 1, 2])),
        }
        if rules.after_book == "burn" and rng.random() < 0.5:
            closed = [m[0] for m in melds if len(m) >= rules.book_size and m[0] not in WILDS]
            team["burn"] = [
                rng.choice(closed) if closed and rng.random() < 0.9 else _card(rng) for _ in range(rng.randint(0, 2))
            ]
        for key, bonus in (
            ("perfect_cuts", rules.perfect_cut_bonus),
            ("cuts_within_1", rules.perfect_cut_within_1_bonus),
            ("cuts_within_3", rules.perfect_cut_within_3_bonus),
        ):
            if rng.random() < 0.2 and bonus:  # else refused (not_in_rules)
                team[key] = rng.randint(0, 2)
        teams.append(team)
    return {"preset": preset, "rules": house, "round": rng.choice([1, 2, 3, 4]), "teams": teams}, rules


def _answer(body: dict[str, Any]) -> Any:
    try:
        return score_round_request(body)
    except HandFootError as err:
        return type(err), err.problems


@pytest.mark.parametrize("seed", range(10))
def test_scoring_cards_is_scoring_the_tally_derived_from_them(seed: int) -> None:
    """A legal round in cards form, each side replaced by the tally ``side_tally`` derives from its
    cards (sent as a request's ``tally``), scores to the same breakdowns."""
    rng = random.Random(seed)
    legal = 0
    for _ in range(80):
        body, rules = _body(rng)
        answer = _answer(body)
        if not isinstance(answer, RoundScore):  # a RoundScore is a named tuple too
            continue
        legal += 1
        round_input = round_from_mapping(body)
        tallies = []
        for i, team in enumerate(round_input.teams):
            tally, problems = side_tally(team, rules, round_input.round, ("teams", i))
            warned = answer.teams[i].warnings
            # the meld rules that stand (illegal_melds_stand) are what side_tally names; a table below the
            # opening minimum is a warning of the round's scoring, in either form
            stood = [w for w in warned if w.code != "table_below_opening_minimum"]
            assert problems == stood and (not stood or rules.illegal_melds_stand)
            assert breakdown(team.name, team.went_out, tally, rules, round_input.round, warned) == answer.teams[i]
            counts = {k: getattr(tally, k) for k in Tally._fields}
            counts["rank_books"] = [
                {"rank": b.rank, "clean_books": b.clean_books, "dirty_books": b.dirty_books} for b in tally.rank_books
            ]
            tallies.append({"name": team.name, "went_out": team.went_out, "tally": counts})
        from_tallies = _answer({**body, "teams": tallies})  # a tally has no melds: only the table's warning
        assert from_tallies == RoundScore(
            answer.round,
            tuple(
                Breakdown(b.name, b.total, b.lines, tuple(w for w in b.warnings if w.code == _BELOW))
                for b in answer.teams
            ),
        )
    assert legal >= 3


@pytest.mark.parametrize("seed", range(6))
def test_a_tables_kept_meld_checks_are_validate_meld(seed: int) -> None:
    """``analyse_table`` keeps each composition's check: cold or warm, every meld's check is
    ``validate_meld`` of the meld (threes and all), and the table's books and points follow from them."""
    rng = random.Random(seed)
    for _ in range(150):
        _, _, rules = _rules(rng)
        melds = [parse_cards(_meld(rng, rules, rng.choice([*NATURALS, "3"]))) for _ in range(rng.randint(0, 8))]
        for _ in range(2):  # the second time every composition without threes is kept
            table = analyse_table(melds, rules)
            assert table.checks == tuple(validate_meld(m, rules) for m in melds)
            books = [c.kind for c in table.checks if c.complete and c.valid]
            assert table.books == Contract(*(books.count(kind) for kind in BookKind))
            assert table.points == sum(c.points for c in table.checks)


def test_player_names_of_any_type_score_alike() -> None:
    """A player's name plays no part in a score: a name of another type, or none, scores the same."""
    want = None
    for name in ("x", 7, None, ["x"], {"a": 1}, "Zoë"):
        foot = [f"{r}C" for r in [*"456789", "10", *"JQKA23"]]  # a foot as dealt: 13 cards
        players = [{"name": name, "hand": ["4S"]}, {"hand": ["5S"], "foot": foot}]
        body = {
            "preset": "pagat",
            "teams": [
                {"name": "A", "melds": [["KS", "KH", "KD"]], "players": players},
                {"name": "B", "players": [{"hand": ["JS"]}, {"hand": ["QS"]}]},
            ],
        }
        got = score_round_request(body)
        want = want or got
        assert got == want, name


def test_compositions_count_every_rank() -> None:
    cards = [*DECK, *DECK, Card(Rank.ACE, None)]
    comp = composition(cards)
    for rank in Rank:
        assert composition_count(comp, rank) == sum(c.rank is rank for c in cards)
    assert all(CARD_TABLE[c.code].composition == c.composition for c in DECK)


def test_a_meld_past_what_a_composition_counts_is_too_large() -> None:
    rules = apply_overrides(PRESETS["pagat"].rules, {"book_max_size": None})
    at_limit = validate_meld(parse_cards(["KS"] * MELD_CARDS_MAX), rules)
    assert at_limit.valid and at_limit.kind is not None and at_limit.naturals == MELD_CARDS_MAX
    over = validate_meld(parse_cards(["KS"] * (MELD_CARDS_MAX + 1)), rules)
    assert not over.valid and [p.code for p in over.problems] == ["meld_too_large"]


def test_fast_init_keeps_the_dataclass() -> None:
    books = Contract(2, 1)
    assert books == Contract(clean_books=2, dirty_books=1, wild_books=0)
    assert repr(books) == "Contract(clean_books=2, dirty_books=1, wild_books=0)"
    with pytest.raises(AttributeError):
        books.wild_books = 5  # type: ignore[misc]


def test_a_breakdown_is_a_named_tuple_by_name() -> None:
    team = Breakdown("North", 100, ())
    assert team == Breakdown(name="North", total=100, lines=())
    assert repr(team) == "Breakdown(name='North', total=100, lines=(), warnings=())"
    with pytest.raises(AttributeError):
        team.total = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        fast_init(type("NotADataclass", (), {}))


def test_lines_are_lines() -> None:
    """Breakdown lines are built with ``tuple.__new__``: still Lines, with every field by name."""
    line = (
        score_round_request(
            {
                "preset": "pagat",
                "teams": [
                    {"name": "A", "melds": [["KS", "KH", "KD"]], "players": [{"hand": ["4S"]}, {"hand": ["5S"]}]},
                    {"name": "B", "melds": [], "players": [{"hand": ["7S"]}, {"hand": ["6S"]}]},
                ],
            }
        )
        .teams[0]
        .lines[0]
    )
    assert type(line) is Line
    assert line == Line(code="clean_books", label="Clean books", count=0, points_each=500, points=0)
    assert (line.code, line.count, line.points_each, line.points) == ("clean_books", 0, 500, 0)
    assert repr(line) == "Line(code='clean_books', label='Clean books', count=0, points_each=500, points=0)"
    with pytest.raises(AttributeError):
        line.points = 5  # type: ignore[misc]


def _held(held: list[str], rules: RuleSet) -> Any:
    """Side A holds ``held`` and a 5S and a 5C (nobody is out, so every player holds a card)."""
    players = [{"name": "x", "hand": [*held[::2], "5S"]}, {"name": "y", "hand": [*held[1::2], "5C"]}]
    body = {
        "teams": [
            {"name": "A", "players": players},
            {"name": "B", "players": [{"name": "z", "hand": ["4S"]}, {"name": "w", "hand": ["4C"]}]},
        ]
    }
    try:
        return score_round(round_from_mapping(body), rules)
    except HandFootError as err:
        return err


@pytest.mark.parametrize("spellings", [["10S"], ["10S", "TS", "10♠", "T♤"], ["JK"]])
def test_copies_are_counted_across_spellings(spellings: list[str]) -> None:
    """At the decks' limit the round scores; one copy over it, the card is named (``too_many_copies``)."""
    rules = apply_overrides(PRESETS["pagat"].rules, {"decks_extra": 0})
    limit = rules.decks_for(4) * (2 if spellings == ["JK"] else 1)
    assert not isinstance(_held([spellings[k % len(spellings)] for k in range(limit)], rules), HandFootError)
    over = _held([spellings[k % len(spellings)] for k in range(limit + 1)], rules)
    assert isinstance(over, HandFootError) and [p.code for p in over.problems] == ["too_many_copies"]


def test_red_threes_caught_are_counted_apart_from_points() -> None:
    """Red threes caught in hands and feet, in every spelling, count on their own line, never as cards."""
    rules = PRESETS["pagat"].rules
    red = sorted(text for text, card in CARD_TABLE.items() if card.is_red_three)
    for caught in range(2 * rules.decks_for(4) + 1):
        held = [red[k % len(red)] for k in range(caught)] + ["KS", "4H", "JK", "2C"][: caught % 5]
        score = _held(held, rules)
        assert isinstance(score, RoundScore), held
        lines = {line.code: line for line in score.teams[0].lines}
        assert lines["red_threes_caught"].count == caught
        left = sum(rank_points(rules)[CARD_TABLE[c].rank_index] for c in held if c not in red) + 2 * rules.low_points
        assert lines["points_left"].points == -left


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_breakdown_lines_are_the_rules_values(preset: str) -> None:
    """At every count (large and below zero too), under a preset and house rules with a going-out
    bonus by round, a perfect-cut bonus and a burn line, the lines are what the rules' values make,
    and they sum to the total."""
    preset_rules = PRESETS[preset].rules
    house = apply_overrides(
        preset_rules,
        {
            "perfect_cut_bonus": 25,
            "after_book": "burn",
            "going_out_bonus_by_round": [100, 200, 300],
            "red_three_table_points_unmelded": -75,
        },
    )
    rng = random.Random(preset)
    for rules in (preset_rules, house):
        for _ in range(300):
            clean, dirty, wild, red, caught, perfect = (rng.choice([-1, 0, 1, 2, 5, 31, 32, 33, 90]) for _ in range(6))
            went_out, has_melded = rng.random() < 0.5, rng.choice([True, False, None])
            round_number = rng.choice([1, 2, 3, 4, 9])
            table_points, left, burn_points = rng.randrange(-50, 900), rng.randrange(0, 300), rng.randrange(0, 90)
            tally = Tally(clean, dirty, wild, red, caught, table_points, left, burn_points, perfect, has_melded)
            got = breakdown("Side", went_out, tally, rules, round_number)
            melded = bool(table_points or clean or dirty or wild) if has_melded is None else has_melded
            red_each = rules.red_three_table_points if melded else rules.red_three_table_points_unmelded
            bonus = rules.going_out_bonus_for(round_number)
            want = [
                Line("clean_books", "Clean books", clean, rules.clean_book_bonus, clean * rules.clean_book_bonus),
                Line("dirty_books", "Dirty books", dirty, rules.dirty_book_bonus, dirty * rules.dirty_book_bonus),
                Line("wild_books", "Wild books", wild, rules.wild_book_bonus, wild * rules.wild_book_bonus),
                Line("going_out", "Going out", int(went_out), bonus, bonus if went_out else 0),
                Line("red_threes_on_table", "Red threes on the table", red, red_each, red * red_each),
                Line(
                    "red_threes_caught",
                    "Red threes caught in hand or foot",
                    caught,
                    rules.red_three_caught_points,
                    caught * rules.red_three_caught_points,
                ),
            ]
            if rules.perfect_cut_bonus:
                want.append(
                    Line(
                        "perfect_cut",
                        "Perfect cuts",
                        perfect,
                        rules.perfect_cut_bonus,
                        perfect * rules.perfect_cut_bonus,
                    )
                )
            want.append(Line("table_points", "Cards on the table", None, None, table_points))
            if rules.after_book == "burn":
                want.append(Line("burn", "Burn pile", None, None, burn_points))
            want.append(Line("points_left", "Cards left in hands and feet", None, None, -left))
            assert got.lines == tuple(want)
            assert all(type(line) is Line for line in got.lines)
            assert got.total == sum(line.points for line in want)


@pytest.mark.parametrize("melds", [15, 16, 17, 30])
def test_a_side_of_many_melds_is_scored_like_any_other(melds: int) -> None:
    """No limit of melds a side (the fast path once stopped at 15): clean books of every rank."""
    rules = apply_overrides(PRESETS["pagat"].rules, {"decks_extra": 12})
    table = [[NATURALS[k % 11] + s for s in "SHDCSHD"] for k in range(melds)]
    body = {
        "preset": "pagat",
        "rules": {"decks_extra": 12},
        "teams": [
            {"name": "A", "melds": table, "players": [{"hand": ["4H"]}, {"hand": ["4S"]}]},
            {"name": "B", "players": [{"hand": ["5H"]}, {"hand": ["5S"]}]},
        ],
    }
    score = score_round_request(body)
    lines = {line.code: line for line in score.teams[0].lines}
    assert lines["clean_books"].count == melds
    assert lines["table_points"].points == sum(
        sum(rank_points(rules)[CARD_TABLE[c].rank_index] for c in m) for m in table
    )


def test_house_rules_resolve_once() -> None:
    """The same preset and overrides give the same RuleSet (the same object: it is cached), equal to
    applying the overrides afresh; overrides that differ only in type do not share an answer."""
    overrides = {
        "going_out_bonus": 200,
        "contract": {"clean_books": 1, "dirty_books": 1},
        "opening_minimum_by_round": [60, 90],
    }
    first = resolve_rules("pagat", overrides)
    again = resolve_rules("pagat", {k: v for k, v in overrides.items()})
    assert again is first
    assert first.rules == apply_overrides(PRESETS["pagat"].rules, overrides)
    assert first.overridden == ("going_out_bonus", "opening_minimum_by_round", "contract")
    assert resolve_rules("bga", overrides).rules == apply_overrides(PRESETS["bga"].rules, overrides)
    assert resolve_rules("pagat", {"all_wild_melds": True}).rules.all_wild_melds is True
    with pytest.raises(HandFootError) as err:  # 1 is an int; True is not (and is not cached as 1)
        resolve_rules("pagat", {"going_out_bonus": True})
    assert err.value.code == "invalid_rule_value"
    assert resolve_rules("pagat", {"going_out_bonus": 1}).rules.going_out_bonus == 1
    for _ in range(2):  # errors are raised every time
        with pytest.raises(HandFootError):
            resolve_rules("pagat", {"no_such_rule": 1})
    deep: Any = [1]
    for _ in range(50):
        deep = [deep]
    with pytest.raises(HandFootError):
        resolve_rules("pagat", {"opening_minimum_by_round": deep})
