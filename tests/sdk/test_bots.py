"""The Bot loop against an in-process stand-in for a table (the engine behind the SDK's result
types and errors, as the HTTP contract describes them): four bots in threads play two rounds."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping, Sequence
from typing import Any, cast

import pytest

from handfoot.client import Client, ProblemDetails, SeatView, UnprocessableEntityError, VersionMovedError
from handfoot.client.aio import AsyncClient
from handfoot.client.bots import AsyncBot, Bot, BotError, Refusal, final_totals, policy_choose
from handfoot.engine.errors import PlayError
from handfoot.engine.play.bots import actor
from handfoot.engine.play.deal import new_round
from handfoot.engine.play.end import score
from handfoot.engine.play.step import step
from handfoot.engine.play.view import view
from tests.conftest import run_async

SIDES = [("NS", ["N", "S"]), ("EW", ["E", "W"])]


class FakeTable:
    """A table of ``rounds`` rounds: table version across rounds, 409 on a stale version, 422 on a
    refusal, long-poll by a condition; tokens are ``"t0"``..``"t3"``."""

    def __init__(self, rounds: int = 2, seed: int = 5, rules: Mapping[str, Any] | None = None) -> None:
        self.rounds, self.seed, self.version, self.rules = rounds, seed, 0, dict(rules or {})
        self.state = new_round("pagat", SIDES, seed, 1, self.rules)
        self.totals = [0, 0]
        self.finished = False
        self.changed = threading.Condition()
        self.log: list[tuple[int, dict[str, Any]]] = []
        self.refusals: list[str] = []  # the codes of every refused action
        self.stale_once = {2}  # seats whose first action gets a 409 (another seat "came first")

    def _seat(self, token: str) -> int:
        return int(token[1:])

    def _view(self, seat: int) -> SeatView:
        return SeatView.from_json(
            {
                "table": 1,
                "game": 1,
                "status": "finished" if self.finished else "playing",
                "version": self.version,
                "round": self.state.round,
                "rounds": self.rounds,
                "preset": "pagat",
                "rules": self.rules,
                "view": view(self.state, seat),
                "last_round": None,
            }
        )

    def seat_view(self, table_id: int, token: str, *, version: int | None = None, wait: int | None = None) -> SeatView:
        with self.changed:
            if version is not None and wait:
                self.changed.wait_for(lambda: self.version != version, timeout=wait)
            return self._view(self._seat(token))

    def act(self, table_id: int, token: str, version: int, action: Mapping[str, Any]) -> SeatView:
        seat = self._seat(token)
        assert "seat" not in action  # the token says the seat
        with self.changed:
            if seat in self.stale_once:
                self.stale_once.discard(seat)
                raise VersionMovedError(
                    409,
                    ProblemDetails.from_json(
                        {"type": "x/version-moved", "title": "Version moved", "status": 409, "version": self.version},
                        status=409,
                    ),
                )
            if version != self.version:
                raise VersionMovedError(409, ProblemDetails.from_status(409))
            try:
                state = step(self.state, {**action, "seat": seat})
            except PlayError as exc:
                self.refusals += [p.code for p in exc.problems]
                raise UnprocessableEntityError(
                    422,
                    ProblemDetails.from_json(
                        {
                            "type": "x/play",
                            "title": "Action refused",
                            "status": 422,
                            "errors": [
                                {
                                    "code": p.code,
                                    "detail": p.detail,
                                    "pointer": "/action" + "".join(f"/{k}" for k in p.path),
                                }
                                for p in exc.problems
                            ],
                        },
                        status=422,
                    ),
                ) from exc
            self.log.append((seat, dict(action)))
            self.state, self.version = state, self.version + 1
            if state.phase == "ended":
                self.totals = [t + b.total for t, b in zip(self.totals, score(state).teams, strict=True)]
                if state.round == self.rounds:
                    self.finished = True
                else:
                    self.state = new_round(
                        "pagat", SIDES, self.seed + state.round, state.round + 1, self.rules, scores=self.totals
                    )
            self.changed.notify_all()
            return self._view(seat)


def test_four_bots_play_two_rounds_to_the_end() -> None:
    table = FakeTable(rounds=2)
    kinds = ["greedy", "random", "greedy", "random"]
    summaries: list[Any] = [None] * 4

    def run(seat: int) -> None:
        choose = policy_choose(kinds[seat], preset="pagat", seed=seat)
        summaries[seat] = Bot(cast(Client, table), 1, f"t{seat}", choose, wait=5).play()

    threads = [threading.Thread(target=run, args=(seat,)) for seat in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert all(s is not None for s in summaries), "a bot did not finish"
    assert table.finished
    assert sum(s.actions for s in summaries) == len(table.log)
    assert {s.rounds for s in summaries} == {2}
    assert summaries[2].conflicts == 1  # its 409 was read again, not fatal
    expected = {"NS": table.totals[0], "EW": table.totals[1]}
    assert all(s.totals == expected for s in summaries)
    assert {seat for seat, _ in table.log} == {0, 1, 2, 3}
    assert table.refusals == [] and sum(s.refused for s in summaries) == 0  # they choose from the view's list


def play_fake(table: FakeTable, minds: Sequence[Any]) -> list[Any]:
    summaries: list[Any] = [None] * 4

    def run(seat: int) -> None:
        summaries[seat] = Bot(cast(Client, table), 1, f"t{seat}", minds[seat], wait=5).play()

    threads = [threading.Thread(target=run, args=(seat,)) for seat in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert all(s is not None for s in summaries), "a bot did not finish"
    return summaries


def test_policy_choose_reads_the_rules_from_the_view() -> None:
    """No preset given: the bots play under the view's preset and house rules (melds of four at
    least), so no meld of theirs is too small; told plain Pagat instead, they still send only the
    bodies the view lists (built under the table's rules), so the table refuses none."""
    house = {"meld_min": 4}
    table = FakeTable(rounds=1, rules=house)
    summaries = play_fake(table, [policy_choose(kind, seed=seat) for seat, kind in enumerate(["greedy"] * 4)])
    assert table.finished and "meld_too_small" not in table.refusals
    assert all(s.last.preset == "pagat" and dict(s.last.rules) == house for s in summaries)
    melds = [m for _, a in table.log for m in a.get("melds", ())]
    assert melds and all(len(m) >= 4 for m in melds)
    told = FakeTable(rounds=1, rules=house)
    summaries = play_fake(told, [policy_choose("greedy", preset="pagat", seed=seat) for seat in range(4)])
    assert told.finished and told.refusals == []  # what the view lists, the table accepts


def test_policy_choose_refuses_a_view_of_unknown_rules() -> None:
    from handfoot.engine.errors import HandFootError

    sv = SeatView.from_json(
        {
            "table": 1,
            "game": 1,
            "status": "playing",
            "version": 0,
            "round": 1,
            "preset": "no-such-preset",
            "rules": {},
            "view": {"phase": "draw"},
        }
    )
    with pytest.raises(HandFootError):
        policy_choose("greedy")(sv)


def test_a_refused_candidate_passes_to_the_next() -> None:
    table = FakeTable(rounds=1)
    table.stale_once = set()
    first = actor(table.state)
    bad = {"type": "discard", "card": "JK"}  # the draw phase: refused
    bot = Bot(cast(Client, table), 1, f"t{first}", lambda sv: [bad, {"type": "draw"}], max_actions=1)
    with pytest.raises(BotError, match="actions posted"):
        bot.play()  # one accepted draw, then the guard
    assert table.log == [(first, {"type": "draw"})]


def test_every_refusal_reaches_the_authors_hook_and_the_log(caplog: pytest.LogCaptureFixture) -> None:
    """Bot passes each refused action's code, detail and pointer to ``on_refusal`` (a callback, or
    the method overridden) and logs it as a warning, then sends the next candidate."""
    table = FakeTable(rounds=1)
    table.stale_once = set()
    first = actor(table.state)
    seen: list[Any] = []
    bad = {"type": "discard", "card": "JK"}  # the draw phase: refused
    bot = Bot(
        cast(Client, table), 1, f"t{first}", lambda sv: [bad, {"type": "draw"}], max_actions=1, on_refusal=seen.append
    )
    with caplog.at_level("WARNING", logger="handfoot.client.bots"), pytest.raises(BotError, match="actions posted"):
        bot.play()
    (refusal,) = seen
    assert refusal.action == bad and refusal.version == 0 and refusal.codes == ["wrong_phase"]
    (problem,) = refusal.problems
    assert problem.pointer == "/action/type" and "draw phase" in problem.detail
    (record,) = [r for r in caplog.records if r.name == "handfoot.client.bots"]
    assert record.levelname == "WARNING" and "wrong_phase at /action/type" in record.getMessage()
    assert problem.detail in record.getMessage() and '"card":"JK"' in record.getMessage()

    class Counting(Bot):
        def on_refusal(self, refusal: Refusal) -> None:
            seen.append(refusal.codes)

    table = FakeTable(rounds=1)
    table.stale_once = set()
    counting = Counting(cast(Client, table), 1, f"t{first}", lambda sv: [bad, {"type": "draw"}], max_actions=1)
    with pytest.raises(BotError, match="actions posted"):
        counting.play()
    assert seen[-1] == ["wrong_phase"]


def test_every_candidate_refused_is_a_bot_error_naming_the_rule() -> None:
    table = FakeTable(rounds=1)
    table.stale_once = set()
    first = actor(table.state)
    bot = Bot(cast(Client, table), 1, f"t{first}", lambda sv: [{"type": "discard", "card": "JK"}])
    with pytest.raises(BotError) as caught:
        bot.play()
    assert [p.code for p in caught.value.problems] == ["wrong_phase"]


def test_final_totals_add_the_ended_round() -> None:
    sv = SeatView.from_json(
        {
            "table": 1,
            "game": 1,
            "status": "finished",
            "version": 9,
            "round": 2,
            "preset": "pagat",
            "rules": {},
            "view": {
                "phase": "ended",
                "sides": [{"name": "A", "score": 100}, {"name": "B", "score": 50}],
                "score": [{"name": "A", "total": 5}, {"name": "B", "total": -20}],
            },
        }
    )
    assert final_totals(sv) == {"A": 105, "B": 30}


class AsyncFake:
    """The fake table behind ``await``."""

    def __init__(self, table: FakeTable) -> None:
        self.table = table

    async def seat_view(
        self, table_id: int, token: str, *, version: int | None = None, wait: int | None = None
    ) -> SeatView:
        if version is not None and wait:
            deadline = asyncio.get_running_loop().time() + wait
            while self.table.version == version and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(0.001)
        return self.table.seat_view(table_id, token)

    async def act(self, table_id: int, token: str, version: int, action: Mapping[str, Any]) -> SeatView:
        return self.table.act(table_id, token, version, action)


def test_async_bots_play_a_round() -> None:
    table = FakeTable(rounds=1)
    fake = cast(AsyncClient, AsyncFake(table))

    async def choose_async(sv: SeatView) -> Sequence[Mapping[str, Any]]:
        return greedy(sv)

    greedy = policy_choose("greedy", preset="pagat", seed=1)

    async def main() -> list[Any]:
        bots = [
            AsyncBot(
                fake,
                1,
                f"t{seat}",
                choose_async if seat % 2 else policy_choose("random", preset="pagat", seed=seat),
                wait=5,
            )
            for seat in range(4)
        ]
        return list(await asyncio.gather(*(bot.play() for bot in bots)))

    summaries = run_async(main())  # not asyncio.run here: the browser tests leave a loop in this thread
    assert table.finished and sum(s.actions for s in summaries) == len(table.log)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "greedy,clever,greedy,random"], "unknown bot clever"),
        (["--bots", "greedy,random"], "2 bots for 4 players"),
        (["--bots", "greedy,random,greedy,random", "--rules", "[1]"], "a JSON object"),
        (["--bots", "greedy,random,greedy,random", "--rules", "{"], "not JSON"),
        (["--bots", "greedy,random,greedy,random", "--side", "Us"], "expected NAME=PLAYER,PLAYER"),
        (["--bots", "greedy,random,greedy,random", "--game", "3", "--side", "A=B,C"], "--game brings its own"),
    ],
)
def test_handfoot_play_usage_errors_send_nothing(argv: list[str], message: str) -> None:
    import io

    from handfoot.client.cli import EXIT_USAGE, main

    out, err = io.StringIO(), io.StringIO()
    # No server at this address: a usage error must be found before any request.
    assert main(["--url", "http://127.0.0.1:9", "play", *argv], stdout=out, stderr=err) == EXIT_USAGE
    assert message in err.getvalue() and out.getvalue() == ""


def test_a_seat_view_gives_the_bodies_to_send_and_the_card_facts() -> None:
    """``SeatView.sendable()``: every body the view lists, plain and accepted by the table as it
    stands; ``card_facts``: each hand card's points and wildness; ``going_out`` in the seat's play."""
    table = FakeTable(rounds=1)
    table.stale_once = set()
    seat = actor(table.state)
    sv = table.seat_view(1, f"t{seat}")
    assert sv.going_out is None  # its draw
    assert sv.sendable("draw") == [{"type": "draw"}] and {"type": "draw"} in sv.sendable()
    assert set(sv.card_facts) == {*sv.hand, sv.view["pile"]["top"]}  # type: ignore[index]
    assert all(wild is (code == "JK" or code.startswith("2")) for code, (_, wild) in sv.card_facts.items())
    sv = table.act(1, f"t{seat}", sv.version, sv.sendable("draw")[0])
    assert sv.going_out is not None and sv.going_out[0] is False and "contract_not_met" in sv.going_out[1]
    for body in sv.sendable():
        assert step(table.state, {**body, "seat": seat}) is not None  # each accepted
    assert sv.sendable("discard") == [{"type": "discard", "card": c} for c in sv.action("discard")["cards"]]  # type: ignore[index]


def test_an_async_bot_passes_refusals_to_its_hook() -> None:
    table = FakeTable(rounds=1)
    table.stale_once = set()
    first = actor(table.state)
    seen: list[Refusal] = []
    bad = {"type": "discard", "card": "JK"}
    bot = AsyncBot(
        cast(AsyncClient, AsyncFake(table)),
        1,
        f"t{first}",
        lambda sv: [bad, {"type": "draw"}],
        max_actions=1,
        on_refusal=seen.append,
    )
    with pytest.raises(BotError, match="actions posted"):
        run_async(bot.play())
    assert [(r.action, r.codes, r.problems[0].pointer) for r in seen] == [(bad, ["wrong_phase"], "/action/type")]
