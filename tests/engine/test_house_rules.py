"""Issue 19 item 5: house rules from public score sheets, and the Hodges family rules' "what's layed
is played" (seed 002), each under every preset. Choices: docs/rules-decisions.md D25-D32.
"""

from __future__ import annotations

from typing import Any

import pytest

from handfoot.engine import PRESETS, HandFootError, RoundScore, resolve_rules, score_round_request, validate_meld
from handfoot.engine.cards import deck, parse_cards
from handfoot.engine.melds import rank_points
from handfoot.engine.operations import check_opening_request
from tests.helpers.sides import per_side

PRESET_IDS = list(PRESETS)
SEVENS = ["7S", "7H", "7D", "7C", "7S", "7H", "7D"]  # a clean book of sevens
EIGHTS_DIRTY = ["8S", "8H", "8D", "8C", "8S", "2C", "JK"]  # a dirty book (5 naturals, 2 wilds)
KINGS_ILLEGAL = ["KS", "KH", "KD", "2C", "2D", "2H", "JK"]  # 3 naturals, 4 wilds: no preset allows it


def _players(preset: str, side: int) -> list[dict[str, Any]]:
    rules = PRESETS[preset].rules
    return [{"name": f"P{side}{p}", "hand": ["4H"]} for p in range(per_side(rules, max(2, rules.teams_min)))]


def _round(preset: str, rules: dict[str, Any], first: dict[str, Any], round_number: int = 1) -> dict[str, Any]:
    """A round of the preset's fewest sides: side 0 is ``first`` (cards form unless it has a tally),
    the others hold one card each; no side went out."""
    sides = max(2, PRESETS[preset].rules.teams_min)  # two sides at least, so the second shows the default
    teams = [{"name": "S0", **({} if "tally" in first else {"players": _players(preset, 0)}), **first}]
    teams += [{"name": f"S{i}", "melds": [["9S", "9H", "9D"]], "players": _players(preset, i)} for i in range(1, sides)]
    return {"preset": preset, "rules": rules, "round": round_number, "teams": teams}


def _score(body: dict[str, Any]) -> RoundScore | list[tuple[str, tuple[str | int, ...]]]:
    try:
        return score_round_request(body)
    except HandFootError as err:
        return [(p.code, p.path) for p in err.problems]


def _rules_problems(preset: str, overrides: dict[str, Any]) -> list[tuple[str, tuple[str | int, ...]]]:
    try:
        resolve_rules(preset, overrides)
    except HandFootError as err:
        return [(p.code, p.path) for p in err.problems]
    return []


def _tally(**counts: Any) -> dict[str, Any]:
    base = {
        "clean_books": 0,
        "dirty_books": 0,
        "wild_books": 0,
        "red_threes_on_table": 0,
        "red_threes_caught": 0,
        "table_points": 0,
        "points_left": 0,
    }
    return {**base, **counts}


# -- defaults keep every result ------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_no_preset_plays_a_score_sheet_house_rule_unless_its_source_says_so(preset: str) -> None:
    rules, provenance = PRESETS[preset].rules, PRESETS[preset].provenance
    assert rules.hand_size_by_round == rules.foot_size_by_round == rules.rank_book_bonuses == ()
    assert rules.jokers_per_deck == 2
    assert not rules.clean_books_grow and not rules.opening_needs_book
    assert rules.perfect_cut_within_1_bonus == rules.perfect_cut_within_3_bonus == 0
    assert rules.illegal_melds_stand is (preset == "hodges")
    for name in (
        "hand_size_by_round",
        "clean_books_grow",
        "opening_needs_book",
        "rank_book_bonuses",
        "perfect_cut_within_1_bonus",
    ):
        shown = f"{provenance[name].source} {provenance[name].note}"
        assert "house rule from a public score sheet" in shown or provenance[name].kind == "filled", shown
        assert "seed" not in shown.lower()


# -- a book of a given rank worth its own bonus (D30) -------------------------------------------


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_a_book_of_a_rank_scores_its_own_bonus_in_cards_and_tally_form_alike(preset: str) -> None:
    bonus = {"rank_book_bonuses": [{"rank": "7", "bonus": 1500}, {"rank": "8", "bonus": 900}]}
    melds = [SEVENS, EIGHTS_DIRTY, ["QS", "QH", "QD", "QC", "QS", "QH", "QD"]]
    plain = _score(_round(preset, {}, {"melds": melds}))
    ranked = _score(_round(preset, bonus, {"melds": melds}))
    assert isinstance(plain, RoundScore) and isinstance(ranked, RoundScore), (plain, ranked)
    rules = PRESETS[preset].rules
    side = ranked.teams[0]
    assert side.line("clean_books").count == 1 and side.line("dirty_books").count == 0  # type: ignore[union-attr]
    assert side.line("books_of_7").points == 1500 and side.line("books_of_8").points == 900  # type: ignore[union-attr]
    assert side.total - plain.teams[0].total == 1500 + 900 - rules.clean_book_bonus - rules.dirty_book_bonus
    assert ranked.teams[1].line("books_of_7").count == 0  # type: ignore[union-attr]
    # the tally form says which of its books are of a bonus rank
    table = plain.teams[0].line("table_points").points  # type: ignore[union-attr]
    tally = _tally(
        clean_books=2,
        dirty_books=1,
        table_points=table,
        points_left=5 * per_side(rules, max(2, rules.teams_min)),
        rank_books=[{"rank": "7", "clean_books": 1}, {"rank": "8", "dirty_books": 1}],
    )
    by_tally = _score(_round(preset, bonus, {"tally": tally}))
    assert isinstance(by_tally, RoundScore), by_tally
    assert by_tally.teams[0].lines == side.lines


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_a_tally_cannot_name_more_rank_books_than_it_has_or_a_rank_without_a_bonus(preset: str) -> None:
    bonus = {"rank_book_bonuses": [{"rank": "7", "bonus": 1500}]}
    too_many = _tally(clean_books=1, table_points=500, rank_books=[{"rank": "7", "clean_books": 2}])
    assert ("invalid_tally", ("teams", 0, "tally", "rank_books")) in _score(_round(preset, bonus, {"tally": too_many}))
    other = _tally(clean_books=1, table_points=500, rank_books=[{"rank": "K", "clean_books": 1}])
    assert ("not_in_rules", ("teams", 0, "tally", "rank_books", 0, "rank")) in _score(
        _round(preset, bonus, {"tally": other})
    )


@pytest.mark.parametrize("preset", PRESET_IDS)
@pytest.mark.parametrize(
    ("value", "path"),
    [
        ([{"rank": "2", "bonus": 100}], ("rules", "rank_book_bonuses", 0, "rank")),
        ([{"rank": "JK", "bonus": 100}], ("rules", "rank_book_bonuses", 0, "rank")),
        ([{"rank": "7", "bonus": 100_001}], ("rules", "rank_book_bonuses", 0, "bonus")),
        ([{"rank": "7", "bonus": 1}, {"rank": "7", "bonus": 2}], ("rules", "rank_book_bonuses", 1, "rank")),
        ([{"rank": "7"}], ("rules", "rank_book_bonuses", 0)),
    ],
)
def test_a_rank_bonus_out_of_range_is_refused_naming_it(preset: str, value: Any, path: tuple[Any, ...]) -> None:
    assert _rules_problems(preset, {"rank_book_bonuses": value}) == [("invalid_rule_value", path)]


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_books_of_black_threes_need_black_threes_melded(preset: str) -> None:
    threes = {"rank_book_bonuses": [{"rank": "3", "bonus": 2000}]}
    assert _rules_problems(preset, threes) == [("inconsistent_rules", ("rules", "rank_book_bonuses", 0, "rank"))]
    book = ["3S", "3C", "3S", "3C", "3S", "3C", "3S"]
    # four decks at least: seven black threes need them
    score = _score(_round(preset, {**threes, "black_three_books": True, "decks_extra": 4}, {"melds": [book]}))
    assert isinstance(score, RoundScore), score
    assert score.teams[0].line("books_of_3").points == 2000  # type: ignore[union-attr]


# -- a graded perfect cut (D29) ------------------------------------------------------------------

GRADES = {"perfect_cut_bonus": 100, "perfect_cut_within_1_bonus": 50, "perfect_cut_within_3_bonus": 20}


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_each_grade_of_cut_is_its_own_bonus(preset: str) -> None:
    cuts = {"perfect_cuts": 1, "cuts_within_1": 2, "cuts_within_3": 3}
    cards = _score(_round(preset, GRADES, {"melds": [SEVENS], **cuts}))
    tally = _score(_round(preset, GRADES, {"tally": _tally(clean_books=1, table_points=35, **cuts)}))
    for score in (cards, tally):
        assert isinstance(score, RoundScore), score
        lines = {line.code: line.points for line in score.teams[0].lines}
        assert (lines["perfect_cut"], lines["cut_within_1"], lines["cut_within_3"]) == (100, 100, 60)
        assert "cut_within_1" in {line.code for line in score.teams[1].lines}


@pytest.mark.parametrize("preset", PRESET_IDS)
@pytest.mark.parametrize("grade", ["cuts_within_1", "cuts_within_3"])
def test_a_grade_of_cut_without_its_bonus_is_refused_not_ignored(preset: str, grade: str) -> None:
    only_exact = {"perfect_cut_bonus": 100}
    assert ("not_in_rules", ("teams", 0, grade)) in _score(_round(preset, only_exact, {"melds": [SEVENS], grade: 1}))
    body = _round(preset, only_exact, {"tally": _tally(clean_books=1, table_points=35, **{grade: 1})})
    assert ("not_in_rules", ("teams", 0, "tally", grade)) in _score(body)
    plain = _score(_round(preset, only_exact, {"melds": [SEVENS]}))
    assert isinstance(plain, RoundScore)
    assert not {"cut_within_1", "cut_within_3"} & {line.code for line in plain.teams[0].lines}


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_a_cut_bonus_out_of_range_is_refused_naming_it(preset: str) -> None:
    assert _rules_problems(preset, {"perfect_cut_within_3_bonus": 100_001}) == [
        ("invalid_rule_value", ("rules", "perfect_cut_within_3_bonus"))
    ]


# -- hand and foot sizes by round (D25) ----------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_hand_and_foot_sizes_follow_the_round(preset: str) -> None:
    sheet = {"hand_size_by_round": [11, 13, 15, 17, 17], "foot_size_by_round": [11, 13, 15, 17, 17]}
    rules = resolve_rules(preset, sheet).rules
    assert [rules.hand_size_for(n) for n in range(1, 7)] == [11, 13, 15, 17, 17, rules.hand_size]
    assert [rules.foot_size_for(n) for n in range(1, 7)] == [11, 13, 15, 17, 17, rules.foot_size]
    published = PRESETS[preset].rules
    assert published.hand_size_for(3) == published.hand_size and published.foot_size_for(3) == published.foot_size
    assert _rules_problems(preset, {"foot_size_by_round": [13, 31]}) == [
        ("invalid_rule_value", ("rules", "foot_size_by_round", 1))
    ]


# -- clean books that grow (D26) -----------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_clean_books_grow_past_the_limit_and_dirty_books_close_at_it(preset: str) -> None:
    grow = resolve_rules(preset, {"clean_books_grow": True}).rules
    closed = PRESETS[preset].rules
    nine = parse_cards([*SEVENS, "7C", "7S"])
    assert validate_meld(nine, grow).valid and validate_meld(nine, grow).kind.value == "clean"  # type: ignore[union-attr]
    assert [p.code for p in validate_meld(nine, closed).problems] == ["meld_too_large"]
    wild_onto = validate_meld(parse_cards(["2C"]), grow, onto=nine)
    assert {p.code for p in wild_onto.problems} <= {"book_closed", "meld_too_large"} and wild_onto.problems
    dirty_onto = validate_meld(parse_cards(["8C"]), grow, onto=parse_cards(EIGHTS_DIRTY))
    assert {p.code for p in dirty_onto.problems} <= {"book_closed", "meld_too_large"} and dirty_onto.problems
    score = _score(_round(preset, {"clean_books_grow": True}, {"melds": [[*SEVENS, "7C", "7S"]]}))
    assert isinstance(score, RoundScore), score
    assert score.teams[0].line("clean_books").count == 1  # type: ignore[union-attr]


# -- an opening that needs a whole book (D27) ----------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_an_opening_that_needs_a_book_is_refused_without_one(preset: str) -> None:
    free = {"opening_minimum_by_round": [], "opening_minimum": 0, "opening_thresholds": []}
    body = {"preset": preset, "round": 1, "melds": [["AS", "AH", "AD"]], "score": 0}
    assert check_opening_request({**body, "rules": free}).met
    needs = check_opening_request({**body, "rules": {**free, "opening_needs_book": True}})
    assert [(p.code, p.path) for p in needs.problems] == [("opening_needs_book", ("melds",))]
    with_book = check_opening_request({**body, "melds": [SEVENS], "rules": {**free, "opening_needs_book": True}})
    assert with_book.met, with_book.problems


# -- jokers per deck (D28) ------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_IDS)
@pytest.mark.parametrize("jokers", [0, 2, 4])
def test_card_counts_follow_the_jokers_in_a_deck(preset: str, jokers: int) -> None:
    rules = resolve_rules(preset, {"jokers_per_deck": jokers}).rules
    sides = max(2, rules.teams_min)  # as _round builds
    decks = rules.decks_for(sides * per_side(rules, sides))
    for held, legal in ((jokers * decks, True), (jokers * decks + 1, False)):
        first = {"melds": [SEVENS], "players": [{"name": "P00", "hand": ["JK"] * held}, *_players(preset, 0)[1:]]}
        score = _score(_round(preset, {"jokers_per_deck": jokers}, first))
        codes = [] if isinstance(score, RoundScore) else [code for code, _ in score]
        assert ("too_many_copies" not in codes) is legal, (held, score)
    # the tally ceiling: every card of the decks, red threes aside, is worth at most this
    most_decks = rules.decks_for(sides * rules.players_per_team_max)
    values = rank_points(rules)
    most = most_decks * sum(values[c.rank_index] for c in deck(jokers) if not c.is_red_three)
    for left, legal in ((most, True), (most + 5, False)):
        score = _score(_round(preset, {"jokers_per_deck": jokers}, {"tally": _tally(points_left=left)}))
        assert isinstance(score, RoundScore) is legal, score


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_jokers_per_deck_out_of_range_is_refused_naming_it(preset: str) -> None:
    assert _rules_problems(preset, {"jokers_per_deck": 5}) == [("invalid_rule_value", ("rules", "jokers_per_deck"))]
    assert _rules_problems(preset, {"jokers_per_deck": -1}) == [("invalid_rule_value", ("rules", "jokers_per_deck"))]


# -- what's layed is played (D31) -----------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_an_illegal_meld_stands_with_warnings_only_where_the_rules_say_so(preset: str) -> None:
    melds = [SEVENS, KINGS_ILLEGAL, ["QS", "QH"]]
    stands = preset == "hodges"
    published = _score(_round(preset, {}, {"melds": melds}))
    forced = {"illegal_melds_stand": not stands}
    other = _score(_round(preset, forced, {"melds": melds}))
    standing, refused = (published, other) if stands else (other, published)
    assert isinstance(standing, RoundScore), standing
    assert isinstance(refused, list) and refused
    side = standing.teams[0]
    warned = sorted((p.code, p.path) for p in side.warnings)
    assert warned == sorted(refused)  # the same rules broken, as warnings instead of a 422
    assert {path[:4] for _, path in warned} == {("teams", 0, "melds", 1), ("teams", 0, "melds", 2)}
    assert side.line("dirty_books").count == 1 and side.line("clean_books").count == 1  # type: ignore[union-attr]
    rules = resolve_rules(preset, {} if stands else forced).rules
    values = rank_points(rules)
    assert side.line("table_points").points == sum(  # type: ignore[union-attr]
        values[c.rank_index] for meld in melds for c in parse_cards(meld)
    )
    assert [w.code for w in standing.teams[1].warnings] in ([], ["table_below_opening_minimum"])  # a small table
    # the checks still answer by the rules
    assert not validate_meld(parse_cards(KINGS_ILLEGAL), rules).valid


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_other_rules_are_still_refused_where_melds_stand(preset: str) -> None:
    first = {"melds": [KINGS_ILLEGAL], "red_threes": ["KS"]}
    problems = _score(_round(preset, {"illegal_melds_stand": True}, first))
    assert isinstance(problems, list)
    assert ("not_a_red_three", ("teams", 0, "red_threes", 0)) in problems
