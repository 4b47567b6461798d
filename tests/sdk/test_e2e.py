"""End to end: the SDK and the ``handfoot`` command against a real server process.

The ``live_server`` fixture (conftest.py) runs gunicorn with two workers on a free port, on a
SQLite file in a temp folder migrated with ``alembic upgrade head``, with two API keys.
"""

from __future__ import annotations

import io
import json
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from requests.adapters import HTTPAdapter

import handfoot.client
from handfoot.client import (
    APIConnectionError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    Client,
    ConflictError,
    NotFoundError,
    PayloadTooLargeError,
    PreconditionFailedError,
    PreconditionRequiredError,
    TeamInput,
    UnprocessableEntityError,
)
from handfoot.client.cli import main as cli_main
from tests.conftest import WORKED_CASES
from tests.helpers.live import LiveServer, free_port

WORKED_ROUND: dict[str, Any] = json.loads((WORKED_CASES / "s0-worked-round-cards.json").read_text(encoding="utf-8"))[
    "request"
]
WORKED_TEAMS: list[TeamInput] = WORKED_ROUND["teams"]


@pytest.fixture
def hf(live_server: LiveServer) -> Iterator[Client]:
    with Client(live_server.url, timeout=(3.05, 30)) as sdk_client:
        yield sdk_client


# --------------------------------------------------------------------------- reads and scoring


def test_health(hf: Client) -> None:
    health = hf.health()
    assert health.ok and health == handfoot.client.Health("ok", "ok")


def test_presets_and_preset(hf: Client) -> None:
    presets = hf.presets()
    ids = [p.id for p in presets]
    assert "pagat" in ids and "bicycle" in ids and len(ids) == len(set(ids))
    pagat = hf.preset("pagat")
    assert pagat.name == "Pagat" and pagat.rules["book_size"] == 7
    assert pagat.provenance["book_size"].kind in handfoot.client.PROVENANCE_KINDS
    assert [f.name for f in pagat.fields] == list(pagat.rules)
    assert "book_size" in str(pagat) and "<table>" in pagat._repr_html_()
    # a preset's rules can be sent back as house rules unchanged
    assert hf.score_round(preset="pagat", teams=WORKED_TEAMS, rules=pagat.rules).rules_overridden == ()


def test_score_worked_round(hf: Client) -> None:
    score = hf.score_round(preset=WORKED_ROUND["preset"], teams=WORKED_TEAMS, round=WORKED_ROUND["round"])
    assert score.totals == {"Team 1": 3740, "Team 2": 1075}
    team1 = score.team("Team 1")
    assert team1 is not None and team1.points("wild_books") == 1500
    assert sum(line.points for line in team1.lines) == team1.total
    text = str(score)
    assert "Total" in text and "3,740" in text and "1,075" in text


def test_score_with_house_rules(hf: Client) -> None:
    score = hf.score_round(preset="pagat", teams=WORKED_TEAMS, rules={"clean_book_bonus": 400})
    assert score.rules_overridden == ("clean_book_bonus",)
    assert score.totals == {"Team 1": 3740 - 2 * 100, "Team 2": 1075 - 100}


def test_compare_presets(hf: Client) -> None:
    result = hf.compare_presets(presets=["pagat", "bicycle"], teams=WORKED_TEAMS)
    pagat, bicycle = result.results
    assert pagat.valid and pagat.totals == {"Team 1": 3740, "Team 2": 1075}
    assert not bicycle.valid and bicycle.teams is None
    assert "all_wild_not_allowed" in {p.code for p in bicycle.problems}


def test_validate_meld(hf: Client) -> None:
    ok = hf.validate_meld(preset="pagat", cards=["9D", "2S"], onto=["9S", "9H", "9C"])
    assert ok.valid and ok.kind == "dirty" and (ok.naturals, ok.wilds, ok.points) == (4, 1, 60)
    bad = hf.validate_meld(preset="pagat", cards=["9D", "2S", "2C", "JK"])
    assert not bad.valid and [p.code for p in bad.problems] == ["too_many_wilds"]
    assert bad.problems[0].pointer == "/cards"


def test_card_aliases_pass_through(hf: Client) -> None:
    check = hf.validate_meld(preset="pagat", cards=["TS", "10♥", "T♦"])
    assert check.valid and check.kind == "clean" and check.rank == "10"


def test_check_opening(hf: Client) -> None:
    low = hf.check_opening(preset="pagat", melds=[["KS", "KH", "KD"]])
    assert not low.met and (low.points, low.minimum) == (30, 50)
    assert [p.code for p in low.problems] == ["opening_below_minimum"]
    assert hf.check_opening(preset="pagat", melds=[["AS", "AH", "AD"]]).met


def test_check_going_out(hf: Client) -> None:
    check = hf.check_going_out(preset="pagat", melds=[["KS", "KH", "KD"]], players=[{"name": "N", "hand": []}])
    books = handfoot.client.Books(2, 2, 1)
    assert not check.met and check.contract == books and check.missing == books


def test_check_discard_pile(hf: Client) -> None:
    check = hf.check_discard_pile(preset="pagat", hand=["KS", "KH"], pile=["KD", "4C"])
    assert check.allowed and check.cards == 2


# --------------------------------------------------------------------------- every error we can provoke


def test_422_lists_each_problem(hf: Client) -> None:
    teams: list[TeamInput] = [{"name": "A", "melds": [["KS", "XX"]]}, {"name": "B"}]
    with pytest.raises(UnprocessableEntityError) as info:
        hf.score_round(preset="pagat", teams=teams)
    err = info.value
    assert err.status == 422 and err.type.endswith("/problems/invalid-card")
    assert [(p.pointer, p.code) for p in err.problems] == [("/teams/0/melds/0/1", "unknown_card")]
    assert "'XX' is not a card" in str(err)


def test_422_bad_house_rule(hf: Client) -> None:
    with pytest.raises(UnprocessableEntityError) as info:
        hf.validate_meld(preset="pagat", cards=["KS"], rules={"no_such_rule": 1})
    assert any(p.pointer == "/rules/no_such_rule" for p in info.value.problems)


def test_404_unknown_preset(hf: Client) -> None:
    with pytest.raises(NotFoundError) as info:
        hf.preset("nope")
    assert info.value.problems[0].parameter == "preset_id"
    assert info.value.problems[0].code == "unknown_preset"


def test_400_malformed_json(live_server: LiveServer) -> None:
    # The SDK always sends valid JSON, so a session that corrupts the body provokes the 400.
    class Corrupting(requests.Session):
        def request(self, method: str | bytes, url: str | bytes, *args: Any, **kwargs: Any) -> requests.Response:
            kwargs["data"] = b'{"preset": "pagat", "teams": ['
            return super().request(method, url, *args, **kwargs)

    with Client(live_server.url, session=Corrupting()) as sdk_client, pytest.raises(BadRequestError) as info:
        sdk_client.score_round(preset="pagat", teams=[])
    assert info.value.problems[0].code == "malformed_json"


def test_413_body_too_large(hf: Client) -> None:
    huge: list[TeamInput] = [{"name": "A", "red_threes": ["3H"] * 400_000}]  # ~2.4 MB of JSON
    with pytest.raises(PayloadTooLargeError) as info:
        hf.score_round(preset="pagat", teams=huge)
    assert info.value.status == 413 and "1048576" in str(info.value)


def test_connection_error_on_a_closed_port(sleeps: list[float]) -> None:
    with Client(f"http://127.0.0.1:{free_port()}", max_retries=1) as sdk_client, pytest.raises(APIConnectionError):
        sdk_client.presets()
    assert len(sleeps) == 1  # retried once, with back-off


def test_timeout_on_a_server_that_never_answers() -> None:
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        with Client(url, timeout=(1, 0.2), max_retries=0) as sdk_client, pytest.raises(APITimeoutError):
            sdk_client.health()


# --------------------------------------------------------------------------- the handfoot command


@pytest.fixture
def round_file(tmp_path: Path) -> Path:
    path = tmp_path / "worked-round.json"
    path.write_text(json.dumps(WORKED_ROUND), encoding="utf-8")
    return path


def test_cli_scores_the_worked_round(live_server: LiveServer, round_file: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = cli_main(["--url", live_server.url, "score", str(round_file)], stdout=out, stderr=err)
    assert (code, err.getvalue()) == (0, "")
    text = out.getvalue()
    assert "Team 1: 3740" in text and "Team 2: 1075" in text
    assert "Wild books                             1  1500    1500" in text


def test_cli_console_script_reads_stdin(live_server: LiveServer) -> None:
    script = Path(sys.executable).parent / "handfoot"
    if not script.exists():
        pytest.skip("the handfoot console script is not installed in this environment (pip install -e .)")
    env = {"PATH": str(script.parent), "HANDFOOT_URL": live_server.url}
    done = subprocess.run(
        [str(script), "score", "-", "--json"], input=json.dumps(WORKED_ROUND), capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    assert [t["total"] for t in json.loads(done.stdout)["teams"]] == [3740, 1075]
    bad = subprocess.run([str(script), "preset", "nope"], capture_output=True, text=True, env=env)
    assert bad.returncode == 1 and "404 Preset not found" in bad.stderr and "[unknown_preset]" in bad.stderr


def test_cli_output_cut_short_by_a_closed_pipe(live_server: LiveServer) -> None:
    script = Path(sys.executable).parent / "handfoot"
    if not script.exists():
        pytest.skip("the handfoot console script is not installed in this environment (pip install -e .)")
    env = {"PATH": f"{script.parent}:/usr/bin:/bin", "HANDFOOT_URL": live_server.url}
    for command in ("presets --json", "preset pagat --json"):
        done = subprocess.run(f"{script} {command} | head -c 20", shell=True, capture_output=True, text=True, env=env)
        assert len(done.stdout) == 20
        assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr


def test_cli_exit_codes(live_server: LiveServer, round_file: Path) -> None:
    err = io.StringIO()
    invalid = json.dumps({"preset": "pagat", "teams": [{"name": "A", "melds": [["XX"]]}]})
    assert cli_main(["--url", live_server.url, "score", "-"], stdin=io.StringIO(invalid), stderr=err) == 1
    assert "/teams/0/melds/0/0" in err.getvalue()
    closed = f"http://127.0.0.1:{free_port()}"
    assert cli_main(["--url", closed, "presets"], stderr=io.StringIO()) == 3
    assert cli_main(["--url", live_server.url, "score"], stderr=io.StringIO()) == 2


# --------------------------------------------------------------------------- games (docs/games-api.md)


@pytest.fixture
def games(live_server: LiveServer) -> Iterator[Client]:
    with Client(live_server.url, api_key=live_server.api_key) as sdk_client:
        yield sdk_client


def new_game(
    sdk_client: Client, name: str = "Friday", players: tuple[str, str] = ("East", "West")
) -> handfoot.client.Game:
    return sdk_client.create_game(
        name=name,
        preset="pagat",
        teams=[{"name": "Team 1", "players": ["North", "South"]}, {"name": "Team 2", "players": list(players)}],
    )


def tally(clean: int, left: int) -> list[TeamInput]:
    def side(name: str, clean_books: int, points_left: int) -> TeamInput:
        return {
            "name": name,
            "tally": {
                "clean_books": clean_books,
                "dirty_books": 0,
                "wild_books": 0,
                "red_threes_on_table": 0,
                "red_threes_caught": 0,
                "table_points": 300 * clean_books,
                "points_left": points_left,
            },
        }

    return [side("Team 1", clean, 0), side("Team 2", 0, left)]


def test_game_lifecycle(games: Client) -> None:
    game = new_game(games)
    assert game.id > 0 and game.status == "in_progress" and game.rounds_played == 0 and game.etag
    assert game.next_round == 1 and game.rules["book_size"] == 7

    first = games.add_round(game.id, teams=WORKED_TEAMS, round=1)
    assert first.number == 1 and first.totals == {"Team 1": 3740, "Team 2": 1075}
    assert [t.total for t in first.totals_after] == [3740, 1075]

    fetched = games.game(game.id)
    assert fetched.rounds_played == 1 and fetched.leaders == ("Team 1",) and fetched.etag != game.etag
    assert games.round(game.id, 1).etag == first.etag

    corrected = games.correct_round(game.id, 1, teams=tally(clean=1, left=100))
    assert corrected.revision == 2 and corrected.totals["Team 2"] < 1075
    history = games.revisions(game.id, 1)
    assert [(r.revision, r.current) for r in history] == [(1, False), (2, True)]

    games.add_round(game.id, teams=tally(clean=1, left=50))
    sheet = games.scoresheet(game.id)
    assert sheet.columns() == ["round", "Team 1", "Team 1 total", "Team 2", "Team 2 total"]
    rows = sheet.rows()
    assert [r["round"] for r in rows] == [1, 2]
    assert rows[1]["Team 1 total"] == rows[0]["Team 1 total"] + rows[1]["Team 1"]
    csv = games.scoresheet_csv(game.id)
    assert csv.splitlines()[0] == '"round","Team 1","Team 1 total","Team 2","Team 2 total"'
    assert len(csv.strip().splitlines()) == 3

    assert game.id in [g.id for g in games.games(player="North")]
    current = games.game(game.id)
    games.delete_game(game.id, if_match=current.etag)
    with pytest.raises(NotFoundError):
        games.game(game.id)


def test_game_conflicts_and_preconditions(games: Client) -> None:
    game = new_game(games)
    games.add_round(game.id, teams=tally(clean=1, left=0))
    with pytest.raises(ConflictError) as info:
        games.add_round(game.id, teams=tally(clean=1, left=0), round=5)
    assert info.value.type.endswith("/round-number")

    stale = games.round(game.id, 1).etag
    games.correct_round(game.id, 1, teams=tally(clean=2, left=0))
    with pytest.raises(PreconditionFailedError, match="changed by someone else"):
        games.correct_round(game.id, 1, teams=tally(clean=3, left=0), if_match=stale)
    with pytest.raises(PreconditionRequiredError):  # the SDK always sends If-Match; go around it
        games._request("PUT", f"/v1/games/{game.id}/rounds/1", json={"teams": tally(clean=3, left=0)})
    with pytest.raises(PreconditionFailedError):
        games.delete_game(game.id, if_match=game.etag)  # the game changed since it was created
    with pytest.raises(UnprocessableEntityError):
        games.add_round(game.id, teams=[{"name": "Nobody", "tally": {}}])


def test_delete_the_last_round(games: Client) -> None:
    game = new_game(games)
    games.add_round(game.id, teams=tally(clean=1, left=0))
    games.add_round(game.id, teams=tally(clean=2, left=50))
    with pytest.raises(ConflictError) as info:
        games.delete_round(game.id, 1)
    assert info.value.type.endswith("/not-last-round")
    assert info.value.problem.errors[0].code == "not_last_round"
    stale = games.game(game.id).etag
    games.delete_round(game.id, 2)  # reads the game for its ETag
    after = games.game(game.id)
    assert after.rounds_played == 1 and after.next_round == 2
    games.delete_round(game.id, 2, if_match=stale)  # the same request again: done already
    assert games.game(game.id).etag == after.etag
    with pytest.raises(PreconditionFailedError):
        games.delete_round(game.id, 1, if_match=stale)
    games.delete_round(game.id, 1, if_match=after.etag)
    assert games.game(game.id).rounds_played == 0
    with pytest.raises(NotFoundError):
        games.delete_round(game.id, 1)


def test_finished_game_refuses_rounds(games: Client) -> None:
    game = new_game(games)
    rounds = game.rules["rounds"]
    assert isinstance(rounds, int)
    for _ in range(rounds):
        games.add_round(game.id, teams=tally(clean=1, left=0))
    done = games.game(game.id)
    assert done.status == "finished" and done.winner == "Team 1" and done.next_round is None
    with pytest.raises(ConflictError) as info:
        games.add_round(game.id, teams=tally(clean=1, left=0))
    assert info.value.type.endswith("/game-finished")


class DropFirstAppendResponse(HTTPAdapter):
    """Lets the first round append reach the server, then loses its response (as a network would)."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[requests.PreparedRequest] = []
        self.responses: list[requests.Response] = []
        self.dropped = False

    def send(self, request: requests.PreparedRequest, *args: Any, **kwargs: Any) -> requests.Response:
        response = super().send(request, *args, **kwargs)
        self.sent.append(request)
        self.responses.append(response)
        if request.method == "POST" and (request.path_url or "").endswith("/rounds") and not self.dropped:
            self.dropped = True
            response.close()
            raise requests.ConnectionError("the first response was lost on purpose")
        return response


def test_retried_append_scores_once(live_server: LiveServer, games: Client, sleeps: list[float]) -> None:
    game = new_game(games)
    adapter = DropFirstAppendResponse()
    session = requests.Session()
    session.mount("http://", adapter)
    with Client(live_server.url, api_key=live_server.api_key, session=session) as lossy:
        appended = lossy.add_round(game.id, teams=WORKED_TEAMS)
    appends = [r for r in adapter.sent if r.method == "POST"]
    assert len(appends) == 2 and len(sleeps) == 1
    assert appends[0].headers["Idempotency-Key"] == appends[1].headers["Idempotency-Key"]
    assert adapter.responses[-1].headers.get("Idempotent-Replayed") == "true"
    assert appended.number == 1
    stored = games.game(game.id)
    assert stored.rounds_played == 1 and [t.total for t in stored.totals] == [3740, 1075]


def test_pagination_walk_over_120_games(games: Client) -> None:
    player = f"walker-{uuid.uuid4().hex[:8]}"
    created = [new_game(games, name=f"walk {i}", players=(player, "West")).id for i in range(120)]
    walked = list(games.games(player=player, page_size=25))
    assert [g.id for g in walked] == sorted(created, reverse=True)  # newest first, each once
    first = games.games_page(player=player, page_size=25)
    # keyset pages: no total (it would cost a count of every game), the next page by its link
    assert first.total is None and first.page is None and len(first.items) == 25
    second = first.next_page()
    assert second is not None and [g.id for g in second.items] == [g.id for g in walked[25:50]]
    numbered = games.games_page(player=player, page=1, page_size=25)  # the deprecated numbered pages count
    assert numbered.total == 120 and numbered.total_pages == 5 and len(numbered.items) == 25


def test_api_keys_guard_game_writes(live_server: LiveServer, games: Client) -> None:
    game = new_game(games)
    with Client(live_server.url) as anonymous, pytest.raises(AuthenticationError) as info:
        anonymous.add_round(game.id, teams=tally(clean=1, left=0))
    assert info.value.status == 401
    with Client(live_server.url, api_key="hf_not_a_key") as wrong, pytest.raises(AuthenticationError):
        wrong.create_game(name="x", preset="pagat", teams=[])
    with Client(live_server.url, api_key=live_server.other_key) as other:
        with pytest.raises(NotFoundError):
            other.game(game.id)
        assert game.id not in [g.id for g in other.games()]
