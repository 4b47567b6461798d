"""The arena from the client: ratings (openskill), the report and its table, ``handfoot arena``, a
table bot's ``choose`` in the arena, and an arena match played through an HTTP table."""

from __future__ import annotations

import builtins
import io
import json
from collections.abc import Sequence
from typing import Any

import pytest

from handfoot.client import Client, SeatView
from handfoot.client._cli_arena import Progress
from handfoot.client._cli_play import _bots
from handfoot.client.arena import (
    RATINGS_MISSING,
    arena_report,
    play_match_at_table,
    ratings,
    report_table,
    table_bot_policy,
)
from handfoot.client.bots import policy_choose
from handfoot.client.cli import EXIT_OK, EXIT_PROBLEM, EXIT_USAGE, main
from handfoot.engine.play.arena import POLICIES, play_match, run_arena
from tests.sdk.test_bots import FakeTable, play_fake

ONE_ROUND = {"rounds": 1}


@pytest.fixture(scope="module")
def small_run() -> Any:
    return run_arena(["greedy", "random"], "pagat", 4, seed=5, overrides=ONE_ROUND)


def test_ratings_rank_the_policy_that_won_more_higher() -> None:
    run = run_arena(["greedy", "random"], "pagat", 8, seed=5, overrides=ONE_ROUND)
    won = {"greedy": 0.0, "random": 0.0}
    for match in run.matches:
        for side, score in zip(match.sides, match.scores, strict=True):
            won[side] += score
    more, fewer = sorted(won, key=won.__getitem__, reverse=True)
    assert won[more] > won[fewer]  # these games have a winner (greedy: 6 of 8)
    rated = {r.name: r for r in ratings(run) or ()}
    assert set(rated) == {"greedy", "random"}
    assert rated[more].mu > 25 > rated[fewer].mu
    assert rated["greedy"].ordinal == pytest.approx(rated["greedy"].mu - 3 * rated["greedy"].sigma)


def test_without_openskill_the_report_says_so(small_run: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_openskill(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("openskill"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_openskill)
    report = arena_report(small_run)
    assert report["ratings"] is None and report["ratings_note"] == RATINGS_MISSING
    assert all(p["rating"] is None for p in report["policies"])
    assert f"(no ratings: {RATINGS_MISSING})" in report_table(report)


def test_the_report_is_json_and_its_table_shows_each_policy(small_run: Any) -> None:
    report = json.loads(json.dumps(arena_report(small_run)))
    assert report["matches"] == 4 and len(report["games"]) == 4
    table = report_table(report).splitlines()
    assert table[0] == "pagat (rounds=1): 4 matches (2 deals, each played with the sides swapped), seed 5"
    assert table[1].split() == [
        "policy",
        "games",
        "won",
        "win",
        "rate",
        "95%",
        "interval",
        "deals",
        "won",
        "pts",
        "per",
        "round",
        "out",
        "rounds",
        "to",
        "out",
        "rating",
    ]
    greedy = report["policies"][0]
    row = table[2]
    assert row.startswith("greedy") and f"{greedy['win_rate']:.1%}" in row and "±" in row
    assert "games" not in arena_report(small_run, with_games=False)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_handfoot_arena_prints_the_table() -> None:
    code, out, err = run("arena", "--policies", "greedy,random", "--matches", "2", "--rule", "rounds=1", "--seed", "5")
    assert (code, err) == (EXIT_OK, "")  # a short run: no progress
    lines = out.splitlines()
    assert lines[0].startswith("pagat (rounds=1): 2 matches (1 deals")
    assert [line.split()[0] for line in lines[2:4]] == ["greedy", "random"]


def test_a_long_run_shows_its_progress_every_tenth() -> None:
    err = io.StringIO()
    progress = Progress(err)
    for done in range(1, 201):
        progress(done, 200)
    assert err.getvalue().splitlines() == [f"arena: {n}/200 matches" for n in range(20, 201, 20)]
    short = io.StringIO()
    for done in range(1, 11):
        Progress(short)(done, 10)
    assert short.getvalue() == ""


def test_handfoot_arena_json_is_the_report_with_every_game() -> None:
    code, out, _ = run("arena", "--policies", "greedy,planner", "--matches", "2", "--rule", "rounds=1", "--json")
    assert code == EXIT_OK
    doc = json.loads(out)
    expected = arena_report(run_arena(["greedy", "planner"], "pagat", 2, 0, ONE_ROUND))
    assert doc == json.loads(json.dumps(expected))
    assert [g["sides"] for g in doc["games"]] == [["greedy", "planner"], ["planner", "greedy"]]


def test_house_rules_and_play_options_reach_the_arena() -> None:
    code, out, _ = run(
        "arena",
        "--policies",
        "greedy,random",
        "--matches",
        "2",
        "--rule",
        "rounds=1",
        "--rule",
        "ask_partner=false",
        "--json",
    )
    assert code == EXIT_OK
    doc = json.loads(out)
    assert (doc["rules"], doc["play"]) == ({"rounds": 1}, {"ask_partner": False})


@pytest.mark.parametrize(
    "argv",
    [
        ("--policies", "greedy"),
        ("--policies", "greedy,nobody"),
        ("--policies", "greedy,greedy"),
        ("--policies", "greedy,random", "--matches", "0"),
        ("--policies", "greedy,random", "--rule", "rounds"),
    ],
)
def test_arena_usage_errors(argv: Sequence[str]) -> None:
    code, out, err = run("arena", *argv)
    assert (code, out) == (EXIT_USAGE, "")
    assert err.startswith("handfoot: ")


def test_rules_the_engine_refuses_are_a_problem() -> None:
    code, _, err = run("arena", "--policies", "greedy,random", "--matches", "2", "--rule", "rounds=-3")
    assert code == EXIT_PROBLEM
    assert "rounds" in err
    code, _, err = run("arena", "--policies", "greedy,random", "--preset", "no-such-preset")
    assert code == EXIT_PROBLEM


def test_a_table_bots_choose_runs_in_the_arena() -> None:
    # the same policy as a table's choose (SeatView in, actions without seat out) and in the engine
    seen: list[SeatView] = []
    greedy_at_table = policy_choose("greedy", preset="pagat")

    def choose(sv: SeatView) -> list[Any]:
        seen.append(sv)
        return list(greedy_at_table(sv))

    wrapped = table_bot_policy(choose, "pagat", ONE_ROUND)
    through_sdk = run_arena({"table bot": wrapped, "random": POLICIES["random"]}, "pagat", 2, 8, ONE_ROUND)
    in_engine = run_arena({"table bot": POLICIES["greedy"], "random": POLICIES["random"]}, "pagat", 2, 8, ONE_ROUND)
    assert through_sdk.to_dict() == in_engine.to_dict()
    assert seen and seen[0].preset == "pagat" and seen[0].rules == ONE_ROUND


def test_an_arena_match_plays_the_same_at_an_http_table(threaded_server: str) -> None:
    # the arena's match seed 77 (one round of Pagat) at a practice table seeded 77, one Bot a seat
    with Client(threaded_server, max_retries=0) as client:
        at_table = play_match_at_table(client, ["planner", "random"], "pagat", 77, rules=ONE_ROUND, wait=5)
    in_process = play_match([POLICIES["planner"], POLICIES["random"]], "pagat", 77, ONE_ROUND)
    assert at_table.totals == in_process.totals
    assert at_table.rounds == tuple(r.totals for r in in_process.rounds)
    assert sum(b.actions for b in at_table.bots) == sum(r.actions for r in in_process.rounds)


def test_the_planner_takes_a_seat_at_a_table() -> None:
    # policy_choose and handfoot play know the planner by name, as the arena does
    assert _bots("planner,greedy,planner,greedy") == ["planner", "greedy", "planner", "greedy"]
    table = FakeTable(rounds=1)
    minds = [policy_choose("planner" if seat % 2 == 0 else "greedy", preset="pagat", seed=seat) for seat in range(4)]
    summaries = play_fake(table, minds)
    assert table.finished and sum(s.actions for s in summaries) == len(table.log)
