"""Who may sit, what may be taken, red threes in a foot, the numbers a seat sees (issue 42).

Each test answers from the seed texts (``../shared/seeds``): the Board Game Arena help page (seed 004)
and the online 11/13 game (seed 001) leave a red three in a foot never picked up to count against its
side; the Hodges family rules (seed 002) seat players by the count's parity and never take the discard
pile; the Wages reunion rules (seed 003) are for 3 to 6 players.
"""

from __future__ import annotations

from typing import Any

import pytest

from handfoot.engine import RoundError, find_preset, parse_cards, score_round_request, sides_problems
from handfoot.engine.checks import check_discard_pile
from handfoot.engine.play import step, view
from tests.engine.play.helpers import arrange

FOOT_WITH_RED_THREE = "3H 4S 4D 5S 5D 6S 6D 7S 7D 8S 8D 9S 9D"  # 13 cards


def _player(name: str, hand: str, foot: str | None) -> dict[str, Any]:
    return {"name": name, "hand": hand.split(), "foot": None if foot is None else foot.split()}


@pytest.mark.parametrize("preset", ["bga", "online-11-13"])
def test_a_red_three_in_a_foot_never_picked_up_counts_against_its_side(preset: str) -> None:
    """Seed 004: "those left in the hand (and foot) are scored against the team"; seed 001: "-100 if it
    hasn't", "minus the value of any cards remaining in your hand or foot"."""
    teams = [
        {
            "name": "Us",
            "went_out": False,
            "melds": [],
            "players": [_player("Ann", "KS", FOOT_WITH_RED_THREE), _player("Bo", "KD", FOOT_WITH_RED_THREE)],
        },
        {
            "name": "Them",
            "went_out": False,
            "melds": [],
            "players": [_player("Cy", "QS", FOOT_WITH_RED_THREE), _player("Di", "QD", FOOT_WITH_RED_THREE)],
        },
    ]
    score = score_round_request({"preset": preset, "round": 1, "teams": teams})
    caught = score.teams[0].line("red_threes_caught")
    assert caught is not None and caught.count == 2 and caught.points == -200


@pytest.mark.parametrize(
    ("sides", "allowed"),
    [
        ([["A", "B"], ["C"]], False),  # a team of two beside a player alone (3 players: odd)
        ([["A", "B", "C"], ["D", "E"]], False),  # three beside two (5 players: odd)
        ([["A"], ["B"], ["C"]], True),  # odd: every player alone
        ([["A", "B"], ["C", "D"]], True),  # even: half against half
        ([["A"], ["B"], ["C"], ["D"]], False),  # even: teams, not players alone
        ([["A", "B"], ["C", "D"], ["E", "F"]], True),  # six: three teams of two
        ([["A", "B", "C"], ["D", "E", "F"]], True),  # six: half against half
        ([["A", "B", "C", "D"], ["E", "F"]], False),  # six: not half against half
    ],
)
def test_hodges_sides_follow_the_player_count(sides: list[list[str]], allowed: bool) -> None:
    """Seed 002: "Odd-count total players: Every player plays for oneself with no team-up"; "Even-count
    total players: Half the total players against the other half ... In cases of 6+, three teams of 2"."""
    rules = find_preset("hodges").rules
    problems = sides_problems(rules, [f"side {i}" for i in range(len(sides))], sides)
    assert (not problems) is allowed, problems


@pytest.mark.parametrize(
    ("sides", "allowed"),
    [
        ([["A"], ["B"]], False),
        ([["A"], ["B"], ["C"]], True),
        ([["A"]] * 0 + [[str(i)] for i in range(6)], True),
        ([[str(i)] for i in range(7)], False),
        ([["A", "B"], ["C", "D"]], True),
    ],
)
def test_wages_is_for_three_to_six_players(sides: list[list[str]], allowed: bool) -> None:
    """Seed 003: "For 3-6 players, cut-throat or teams (4 & 6 players)"."""
    rules = find_preset("wages").rules
    problems = sides_problems(rules, [f"side {i}" for i in range(len(sides))], sides)
    assert (not problems) is allowed, problems


@pytest.mark.parametrize(("individuals", "teams"), [((2, 7), (4, 12))])
def test_bga_counts_players_by_individuals_and_by_teams(individuals: tuple[int, int], teams: tuple[int, int]) -> None:
    """Seed 004: "2〜7人の個人戦と、4~12人のチーム戦" (2 to 7 individuals, 4 to 12 in teams)."""
    rules = find_preset("bga").rules
    assert (rules.players_alone_min, rules.players_alone_max) == individuals
    assert (rules.players_in_teams_min, rules.players_in_teams_max) == teams
    assert sides_problems(rules, [str(i) for i in range(8)], [[str(i)] for i in range(8)])
    assert not sides_problems(rules, [str(i) for i in range(7)], [[str(i)] for i in range(7)])


def test_hodges_never_takes_the_discard_pile() -> None:
    """Seed 002: "Each person's turn will absolutely include drawing 2 cards maximum and minimum"."""
    rules = find_preset("hodges").rules
    pile = parse_cards(["7H", "4S", "5S", "6S", "8S", "9S", "KS"])
    check = check_discard_pile(parse_cards(["7S", "7D"]), pile, rules)
    assert not check.allowed
    assert [p.code for p in check.problems] == ["pile_not_taken"]
    state = arrange("hodges", hands={0: "7S 7D KS"}, pile="7H 4S 5S 6S 8S 9S KS")
    assert "take_pile" not in [a["type"] for a in view(state, 0)["actions"]]
    with pytest.raises(Exception) as err:
        step(state, {"type": "take_pile", "seat": 0, "cards": ["7S", "7D"]})
    assert "pile_not_taken" in str(getattr(err.value, "problems", err.value))


@pytest.mark.parametrize(("preset", "points"), [("hodges", -100), ("wages", -500), ("pagat", -100), ("bga", -100)])
def test_a_seat_sees_a_red_three_at_the_points_scoring_gives_it(preset: str, points: int) -> None:
    """The view's card points come from the one function scoring uses: a red three held is caught at
    ``red_three_caught_points`` (Hodges "-100 points", Wages "-500 = Red 3's"), not a black three's value."""
    state = arrange(preset, hands={0: "3H 3S KS"}, pile="4S")
    cards = view(state, 0)["cards"]
    assert cards["3H"]["points"] == points
    assert cards["3S"]["points"] == find_preset(preset).rules.black_three_points


def test_table_points_below_the_opening_minimum_are_a_warning_naming_the_rule() -> None:
    """Seed 000: "your team's first meld must add up to the round's minimum in card points: 50, 90, 120,
    then 150"; a side with 30 points on the table in round 1 never opened legally."""
    teams = [
        {
            "name": "Us",
            "went_out": False,
            "melds": [["6S", "6D", "6H"], ["5S", "5D", "5H"]],
            "players": [_player("Ann", "KS", None), _player("Bo", "KD", None)],
        },
        {
            "name": "Them",
            "went_out": False,
            "melds": [],
            "players": [_player("Cy", "QS", None), _player("Di", "QD", None)],
        },
    ]
    try:
        score = score_round_request({"preset": "pagat", "round": 1, "teams": teams})
    except RoundError as err:  # a refusal would name the rule too
        assert [p.code for p in err.problems] == ["table_below_opening_minimum"]
        return
    assert [(w.code, w.path) for w in score.teams[0].warnings] == [("table_below_opening_minimum", ("teams", 0))]
    assert "opening_minimum" in score.teams[0].warnings[0].detail
    assert score.teams[1].warnings == ()


def test_a_snapshot_stored_before_the_new_rules_reads_as_it_was_played() -> None:
    from handfoot.engine import rules_from_mapping

    stored = find_preset("hodges").rules.to_mapping()
    for name in (
        "players_alone_min",
        "players_alone_max",
        "players_in_teams_min",
        "players_in_teams_max",
        "sides_by_parity",
        "pile_take_allowed",
        "red_threes_automatic_foot",
    ):
        del stored[name]
    rules = rules_from_mapping(stored)
    assert rules.pile_take_allowed and not rules.sides_by_parity and rules.red_threes_automatic_foot == "dealt"
    assert rules_from_mapping(find_preset("hodges").rules.to_mapping()) == find_preset("hodges").rules


@pytest.mark.parametrize("preset", ["pagat", "bga", "online-11-13"])
def test_pagats_worked_round_scores_under_the_online_presets(preset: str) -> None:
    """Seed 000's worked round ("A red three was still in a foot: 500 + 600 + 260 - 185 - 100 = 1,075")
    is expressible under both online presets, whose red threes in a foot never picked up are caught."""
    tally = {
        "clean_books": 2,
        "dirty_books": 2,
        "wild_books": 1,
        "red_threes_on_table": 1,
        "red_threes_caught": 0,
        "table_points": 465,
        "points_left": 25,
    }
    other = {
        "clean_books": 1,
        "dirty_books": 2,
        "wild_books": 0,
        "red_threes_on_table": 0,
        "red_threes_caught": 1,
        "table_points": 260,
        "points_left": 185,
    }
    teams = [
        {"name": "Team 1", "went_out": True, "tally": tally},
        {"name": "Team 2", "went_out": False, "tally": other},
    ]
    score = score_round_request({"preset": preset, "round": 1, "teams": teams})
    assert [t.total for t in score.teams] == [3740, 1075]


@pytest.mark.parametrize(
    ("preset", "sides"),
    [
        ("hodges", [("Pair", ["A", "B"]), ("Alone", ["C"])]),  # three players: every one alone
        ("hodges", [("Three", ["A", "B", "C"]), ("Two", ["D", "E"])]),  # five players: every one alone
        ("wages", [("Ann", ["Ann"]), ("Bob", ["Bob"])]),  # "For 3-6 players"
    ],
)
def test_a_table_does_not_seat_sides_the_rules_do_not(preset: str, sides: list[tuple[str, list[str]]]) -> None:
    from handfoot.engine.errors import PlayError
    from handfoot.engine.play import new_round

    with pytest.raises(PlayError) as err:
        new_round(preset, sides, seed=3)
    assert [p.code for p in err.value.problems] == ["team_count"]
