"""The floors are a bare Flask app of their own (bench/floor_app.py), served by their own gunicorn
under the API's settings; the API is the real app as ``make run`` serves it, with and without its
rate limiter (bench/server.py, bench/run.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import func, select

from bench import floor_app, rounds, run, server, storage
from bench.load import LoadResult
from bench.report import Report
from handfoot.server import create_app

HOOKS = (
    "before_request_funcs",
    "after_request_funcs",
    "teardown_request_funcs",
    "url_value_preprocessors",
    "url_default_functions",
    "template_context_processors",
)


def _hooks(app: object) -> dict[str, int]:
    counts = {name: sum(len(v) for v in getattr(app, name).values()) for name in HOOKS}
    counts["template_context_processors"] -= 1  # Flask's own (request, session, g), in every app
    counts["teardown_appcontext_funcs"] = len(app.teardown_appcontext_funcs)  # type: ignore[attr-defined]
    counts["error_handlers"] = sum(len(v) for v in app.error_handler_spec.values())  # type: ignore[attr-defined]
    return counts


def test_the_floor_app_has_none_of_the_apps_hooks(tmp_path: Path) -> None:
    real = create_app({"DATABASE_URL": f"sqlite:///{tmp_path}/real.sqlite3", "RATE_LIMIT": "1/second"})
    floor = floor_app.create_floor_app({"DATABASE_URL": f"sqlite:///{tmp_path}/floor.sqlite3"})
    real_hooks = _hooks(real)
    # what the floors used to pay, inside the real app: the body-size check, the limiter, the teardown
    assert real_hooks["before_request_funcs"] >= 2 and real_hooks["teardown_appcontext_funcs"] >= 1
    assert set(_hooks(floor).values()) == {0}
    assert floor.extensions == {} and floor.blueprints == {}
    assert type(floor.json).__module__ == "flask.json.provider"  # Flask's default provider
    assert sorted(r.rule for r in floor.url_map.iter_rules() if r.endpoint != "static") == [
        "/bench/bare",
        "/bench/insert",
        "/bench/plain",
    ]


def test_plain_parses_the_body_and_answers_exactly_the_bytes_asked() -> None:
    client = floor_app.create_floor_app().test_client()
    body = json.dumps(rounds.score_body())
    for size in (10, 3293, 5000):
        answer = client.post(f"/bench/plain?bytes={size}", data=body, content_type="application/json")
        assert answer.status_code == 200 and len(answer.data) == size
        json.loads(answer.data)
    assert client.post("/bench/plain?bytes=100", data="{not json", content_type="application/json").status_code == 400


def test_insert_stores_one_row_of_the_size_asked(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/floor.sqlite3"
    storage.create_bench_table(url)
    client = floor_app.create_floor_app({"DATABASE_URL": url}).test_client()
    for _ in range(3):
        answer = client.post("/bench/insert?bytes=5396", json={"game": 7, "pad": "x"})
        assert answer.status_code == 201
    from handfoot.server.db import make_engine

    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                select(
                    func.count(),
                    func.min(func.length(floor_app.BENCH_ROWS.c.body)),
                    func.max(floor_app.BENCH_ROWS.c.game),
                )
            ).one()
    finally:
        engine.dispose()
    assert tuple(rows) == (3, 5396, 7)


def test_the_api_and_its_floors_run_under_the_same_gunicorn_settings() -> None:
    api = server.api_command(8123)
    floor = server.floor_command(8124)
    assert Path(api[0]).name == "handfoot-server" and api[1:3] == ["serve", "--no-migrate"]  # make run's command
    assert Path(floor[0]).name == "gunicorn" and floor[-1] == "bench.floor_app:create_floor_app()"
    assert floor[floor.index("-c") + 1] == server.GUNICORN_CONF  # what handfoot-server serve passes gunicorn
    for args in (api, floor):
        assert args[args.index("-w") + 1] == str(server.WORKERS)


def test_the_servers_floor_api_and_limited_api_run_apart(tmp_path: Path) -> None:
    """Three gunicorn processes: only the limited API counts requests; the floor answers its routes
    and not the API's."""
    url = f"sqlite:///{tmp_path}/api.sqlite3"
    storage.migrate(url)
    with (
        server.floor_server(tmp_path / "floor.log") as floor,
        server.api_server(tmp_path / "api.log", run.api_env(url)) as api,
        server.api_server(tmp_path / "limited.log", run.api_env(url, run.LIMIT_NEVER_REACHED)) as limited,
    ):
        assert len({floor.process.pid, api.process.pid, limited.process.pid}) == 3
        assert len(floor.workers()) == len(api.workers()) == server.WORKERS
        cases = run.api_cases(floor, api, limited)  # raises unless the limiter is on `limited` only
        assert {s.port for s, _, _ in cases.values()} == {floor.port, api.port, limited.port}
        assert all((s is floor) == name.startswith(("plain_", "bare")) for name, (s, _, _) in cases.items())
        assert server.request(floor.host, floor.port, "POST", "/v1/rounds/score", b"{}")[0] == 404
        got = server.fetch(
            limited.host, limited.port, "POST", "/v1/rounds/score", json.dumps(rounds.score_body()).encode()
        )
        assert got.status == 200 and int(got.headers["x-ratelimit-limit"]) == 1_000_000_000
        with pytest.raises(AssertionError, match="limiter"):
            run.api_cases(floor, limited, api)  # the servers swapped: the check says so


def _load(rps: float, non_2xx: int = 0) -> LoadResult:
    return LoadResult(
        requests=int(rps),
        seconds=1.0,
        rps=rps,
        p50_ms=1.0,
        p90_ms=1.5,
        p99_ms=2.0,
        max_ms=3.0,
        errors=0,
        non_2xx=non_2xx,
        status_5xx=0,
        locked=0,
    )


def test_every_score_case_is_judged_against_its_floor_at_8_and_32() -> None:
    names = [
        "bare",
        "plain_score",
        "score",
        "score_limited",
        "plain_score_tally",
        "score_tally",
        "plain_score_rules",
        "score_rules",
        "plain_validate",
        "validate",
    ]
    rps = {
        "bare": 2000,
        "plain_score": 1000,
        "score": 660,
        "score_limited": 550,
        "plain_score_tally": 1000,
        "score_tally": 640,
        "plain_score_rules": 1000,
        "score_rules": 650,
        "plain_validate": 1500,
        "validate": 1200,
    }
    results = {
        (n, c): [_load(rps[n], non_2xx=3 if (n, c) == ("score_limited", 32) else 0)] for n in names for c in (1, 8, 32)
    }
    report = Report()
    run._api_rows(report, results, [1, 8, 32], names)
    rows = {(r.measure, r.concurrency): r for r in report.rows}
    for c in (8, 32):
        assert rows[("score / plain_score req/s", c)].met is True
        assert rows[("score_rules / plain_score_rules req/s", c)].met is True
        assert rows[("score_tally / plain_score_tally req/s", c)].met is False  # 0.64
        assert rows[("score_limited / plain_score req/s", c)].met is False  # 0.55
        assert rows[("score_limited / score req/s", c)].values == [550 / 660]
    assert rows[("score / plain_score req/s", 1)].met is None  # no target at c=1
    assert rows[("validate / plain_validate req/s", 8)].met is None
    assert rows[("score_limited non-2xx", 8)].met is True
    assert rows[("score_limited non-2xx", 32)].met is False  # a 429 means the limit was reached
    assert "score_limited non-2xx c=32" in report.misses()


def test_one_short_api_run_fills_every_row(tmp_path: Path) -> None:
    """The API section end to end (wrk, three servers), one window of a second per case at c=8."""
    report = Report()
    run.bench_api(report, 1, 1.0, [8], tmp_path)
    rows = {row.measure: row for row in report.rows}
    for name in (
        "bare",
        "plain_score",
        "score",
        "score_limited",
        "plain_score_tally",
        "score_tally",
        "plain_score_rules",
        "score_rules",
        "plain_validate",
        "validate",
    ):
        assert rows[f"{name} req/s"].values[0] > 0
    for measure in (
        "score / plain_score req/s",
        "score_tally / plain_score_tally req/s",
        "score_rules / plain_score_rules req/s",
        "score_limited / plain_score req/s",
    ):
        assert rows[measure].target == ">= 0.65" and rows[measure].met is not None
    assert rows["score_limited non-2xx"].values == [0.0]
    assert any("HANDFOOT_RATE_LIMIT=1000000000/minute" in note for note in report.notes)
