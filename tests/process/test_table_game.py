"""End to end: bots play a whole Pagat game at a table through the HTTP API (gunicorn, two worker
processes, on SQLite and on PostgreSQL), and the game they leave in the history adds up: the
scoresheet's totals are the sums of its stored rounds, and each stored round is the table's.

Only that test plays the preset's whole game (four rounds); the others are about a client (the CLI,
the async bots, the example bots) and play a game of one round (``rules={"rounds": 1}``): it still
ends, is stored and adds up, in a quarter of the time."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from bench.live import LiveServer
from handfoot.client import Client, NotFoundError
from handfoot.client.bots import Bot, BotSummary, policy_choose
from tests.conftest import run_async

TEAMS: list[Any] = [
    {"name": "North-South", "players": ["North", "South"]},
    {"name": "East-West", "players": ["East", "West"]},
]
BOTS = ["greedy", "random", "greedy", "random"]  # seats in turn order: North, East, South, West
SEED = 7
ONE_ROUND = {"rounds": 1}  # house rule: the game ends after its first round


def table_server(db_url: str, log: Path) -> LiveServer:
    """gunicorn with the production settings (api/gunicorn_conf.py: threaded workers, so a seat's
    long-poll holds a thread, not a whole worker) and two worker processes."""
    return LiveServer(db_url, log, workers=2)


def migrated_sqlite(folder: Path) -> str:
    """A SQLite file in ``folder`` with the migrations applied (``alembic upgrade head``)."""
    db_url = f"sqlite:///{folder / 'handfoot.sqlite3'}"
    subprocess.run(
        [str(Path(sys.executable).with_name("alembic")), "upgrade", "head"],
        check=True,
        capture_output=True,
        env={**os.environ, "DATABASE_URL": db_url},
        cwd=Path(__file__).resolve().parents[2],
    )
    return db_url


def play(url: str, table_id: int, tokens: list[str]) -> list[BotSummary]:
    """Four bots, each in a thread with a client of its own and only its token."""
    results: list[BotSummary | None] = [None] * 4
    errors: list[BaseException] = []

    def run(seat: int) -> None:
        try:
            with Client(url, timeout=(3.05, 30)) as own:
                choose = policy_choose(BOTS[seat], seed=SEED + seat)
                results[seat] = Bot(own, table_id, tokens[seat], choose, wait=10).play()
        except BaseException as exc:  # noqa: BLE001 - re-raised by the test
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(seat,), daemon=True) for seat in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not errors, errors
    assert all(r is not None for r in results), "a bot did not finish"
    return [r for r in results if r is not None]


def check_game_adds_up(hf: Client, game_id: int, table_id: int, rounds: int = 4) -> list[int]:
    """The finished game's scoresheet totals are the sums of its stored rounds' totals (at least
    ``rounds`` of them), and each stored round scores what the table's round says; the totals, in
    the sheet's side order."""
    game = hf.game(game_id)
    assert game.status == "finished", game.status
    assert game.rounds_played >= rounds
    sheet = hf.scoresheet(game_id)
    sums = dict.fromkeys(sheet.teams, 0)
    for number in range(1, game.rounds_played + 1):
        stored = hf.round(game_id, number)
        for team in stored.teams:
            sums[team.name] += team.total
        public = hf.table_round(table_id, number)
        assert public.round == number and public.seed is not None and public.actions
        assert {b.name: b.total for b in public.score} == {t.name: t.total for t in stored.teams}
    assert list(sheet.totals) == [sums[name] for name in sheet.teams]
    assert [row.round for row in sheet.rounds] == list(range(1, game.rounds_played + 1))
    return list(sheet.totals)


@pytest.mark.db
def test_two_greedy_and_two_random_bots_play_a_pagat_game(db_url: str, tmp_path: Path) -> None:
    with table_server(db_url, tmp_path / "gunicorn.log") as server, Client(server.base) as hf:
        table = hf.create_table(preset="pagat", teams=TEAMS, name="Bots end to end", seed=SEED)
        assert [s.name for s in table.seats] == ["North", "East", "South", "West"]
        summaries = play(server.base, table.id, table.tokens)

        totals = check_game_adds_up(hf, table.game, table.id)
        sheet = hf.scoresheet(table.game)
        assert all(dict(s.totals) == dict(zip(sheet.teams, totals, strict=True)) for s in summaries)
        assert all(s.rounds == hf.game(table.game).rounds_played for s in summaries)
        assert sum(s.actions for s in summaries) == sum(
            len(hf.table_round(table.id, n).actions) for n in range(1, summaries[0].rounds + 1)
        )
        assert hf.get_table(table.id).status == "finished"
        with pytest.raises(NotFoundError):  # a token is no key to another table's seat
            hf.seat_view(table.id + 1000, table.tokens[0])


@pytest.mark.db
def test_handfoot_play_plays_a_game_to_the_end(db_url: str, tmp_path: Path) -> None:
    with table_server(db_url, tmp_path / "gunicorn.log") as server, Client(server.base) as hf:
        cli = Path(sys.executable).with_name("handfoot")
        done = subprocess.run(
            [
                str(cli),
                "--url",
                server.base,
                "play",
                "--preset",
                "pagat",
                "--bots",
                ",".join(BOTS),
                "--rules",
                json.dumps(ONE_ROUND),
                "--seed",
                str(SEED),
                "--wait",
                "10",
            ],
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr
        first = done.stdout.splitlines()[0]
        assert first.startswith("Table ") and "(pagat)" in first
        game_id = int(first.split("game #", 1)[1].split()[0])
        table_id = int(first.split()[1].rstrip(","))
        totals = check_game_adds_up(hf, game_id, table_id, rounds=1)
        sheet = hf.scoresheet(game_id)
        assert str(sheet) in done.stdout
        assert sheet.winner is not None and done.stdout.rstrip().endswith(f"Winner: {sheet.winner}")
        assert sheet.winner == sheet.teams[totals.index(max(totals))]


def test_async_bots_play_a_game_and_a_seat_follows_its_events(tmp_path: Path) -> None:
    """``AsyncBot`` on ``AsyncClient`` for all four seats in one event loop, while a fifth reader
    follows seat 0's server-sent events (sync ``seat_events``) to the finished view."""
    from handfoot.client.aio import AsyncClient
    from handfoot.client.bots import AsyncBot

    db_url = migrated_sqlite(tmp_path)
    with table_server(db_url, tmp_path / "gunicorn.log") as server, Client(server.base) as hf:
        table = hf.create_table(preset="pagat", teams=TEAMS, rules=ONE_ROUND, name="Async bots", seed=SEED + 1)
        followed: list[Any] = []

        def follow() -> None:
            with Client(server.base) as reader:
                followed.extend(reader.seat_events(table.id, table.tokens[0]))

        reader = threading.Thread(target=follow, daemon=True)
        reader.start()

        async def main() -> list[BotSummary]:
            async with AsyncClient(server.base, timeout=(3.05, 30)) as ahf:
                bots = [
                    AsyncBot(ahf, table.id, token, policy_choose(bot, seed=i), wait=10)
                    for i, (token, bot) in enumerate(zip(table.tokens, BOTS, strict=True))
                ]
                return list(await asyncio.gather(*(bot.play() for bot in bots)))

        summaries = run_async(main())
        reader.join(timeout=120)
        totals = check_game_adds_up(hf, table.game, table.id, rounds=1)
        assert all(list(s.totals.values()) == totals for s in summaries)
        versions = [sv.version for sv in followed]
        assert versions == sorted(set(versions)) and len(versions) > 10  # one event a change, in order
        assert followed[-1].finished and followed[-1].version == summaries[0].last.version
        assert followed[0].view["seat"] == 0 and all(sv.view["seat"] == 0 for sv in followed)


def test_async_seat_events_and_a_moved_version(tmp_path: Path) -> None:
    """``AsyncClient.seat_events`` gives the view at once and after a change; an action on a stale
    version is ``VersionMovedError`` with the table's version."""
    from handfoot.client import VersionMovedError
    from handfoot.client.aio import AsyncClient

    db_url = migrated_sqlite(tmp_path)
    with table_server(db_url, tmp_path / "gunicorn.log") as server:

        async def main() -> None:
            async with AsyncClient(server.base) as ahf:
                table = await ahf.create_table(preset="pagat", teams=TEAMS, name="Events", seed=SEED)
                events = ahf.seat_events(table.id, table.tokens[1])
                first = await anext(events)
                assert first.version == 0 and not first.my_move
                after = await ahf.act(table.id, table.tokens[0], 0, {"type": "draw"})
                second = await anext(events)
                assert second.version == after.version == 1
                await events.aclose()
                with pytest.raises(VersionMovedError) as caught:
                    await ahf.act(table.id, table.tokens[0], 0, {"type": "discard", "card": after.hand[0]})
                assert caught.value.version == 1
                long_poll = await ahf.seat_view(table.id, table.tokens[2], version=1, wait=1)
                assert long_poll.version == 1  # nothing moved: the view as it is, after the wait

        run_async(main())


def test_the_reference_bot_examples_play_a_game(tmp_path: Path) -> None:
    """examples/greedy_bot.py and examples/random_bot.py, one process a seat with only its token."""
    root = Path(__file__).resolve().parents[2]
    with table_server(migrated_sqlite(tmp_path), tmp_path / "gunicorn.log") as server, Client(server.base) as hf:
        table = hf.create_table(preset="pagat", teams=TEAMS, rules=ONE_ROUND, name="Example bots", seed=SEED + 2)
        env = {k: v for k, v in os.environ.items() if not k.startswith("HANDFOOT_")} | {"HANDFOOT_URL": server.base}
        bots = [
            subprocess.Popen(
                [sys.executable, str(root / "examples" / f"{bot}_bot.py"), str(table.id), token, "--seed", str(i)],
                cwd=root,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for i, (bot, token) in enumerate(zip(BOTS, table.tokens, strict=True))
        ]
        outputs = [bot.communicate(timeout=600) for bot in bots]
        assert [bot.returncode for bot in bots] == [0, 0, 0, 0], [err for _, err in outputs]
        totals = check_game_adds_up(hf, table.game, table.id, rounds=1)
        final = f"final North-South {totals[0]}, East-West {totals[1]}"
        for seat, (out, _) in enumerate(outputs):
            assert out.startswith(f"seat {seat}: ") and out.rstrip().endswith(final), out


def test_handfoot_play_continues_a_stored_game_as_json(tmp_path: Path) -> None:
    """``handfoot play --game ID --json``: a game with three rounds kept by hand is played to its end
    at a table (its round 4), and the summary is JSON with the finished score sheet."""
    out = {
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
    with table_server(migrated_sqlite(tmp_path), tmp_path / "gunicorn.log") as server, Client(server.base) as hf:
        game = hf.create_game(name="Kept by hand", preset="pagat", teams=TEAMS)
        for _ in range(3):
            hf.add_round(
                game.id,
                teams=[{"name": "North-South", "went_out": True, "tally": out}, {"name": "East-West", "tally": other}],
            )
        done = subprocess.run(
            [
                str(Path(sys.executable).with_name("handfoot")),
                "--url",
                server.base,
                "play",
                "--game",
                str(game.id),
                "--bots",
                ",".join(BOTS),
                "--seed",
                str(SEED),
                "--wait",
                "10",
                "--json",
            ],
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr
        summary = json.loads(done.stdout)
        assert summary["game"] == game.id and [b["bot"] for b in summary["bots"]] == BOTS
        assert all(b["actions"] > 0 for b in summary["bots"])
        sheet = hf.scoresheet(game.id)
        assert summary["scoresheet"] == sheet.to_dict() and sheet.status == "finished"
        assert hf.table_round(summary["table"], 4).round == 4  # the table played the game's round 4
        with pytest.raises(NotFoundError):  # and only that one
            hf.table_round(summary["table"], 3)
        stored = [hf.round(game.id, n) for n in (1, 2, 3, 4)]
        sums = [sum(r.teams[i].total for r in stored) for i in (0, 1)]
        assert list(sheet.totals) == sums
