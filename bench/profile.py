"""Where the time of ``POST /v1/rounds/score`` goes: the benchmark's round, in process, through the
WSGI app (Flask test client, so no socket or gunicorn in the picture).

    python -m bench.profile [--requests 2000] [--cprofile]
    python -m bench.profile --cpu [--blocks 7] [--requests 300]
    python -m bench.profile --instructions cards|tally|rules [--floor] [--requests 200]

Prints pyinstrument's call tree (or cProfile's top functions by own time) and writes it to
``bench/results/profile-score.txt``. Also prints the time per request of each layer, measured
separately: the whole request, the engine alone, marshmallow's load alone, the answer's dump alone.

``--cpu``: CPU time (``time.process_time``) per request of the app's WSGI callable, called directly
(no test client, no socket), on the bench round in cards form, tally form and with house rules, each
against the floor app's ``/bench/plain`` with the same body and an answer of the same size, in
alternating blocks of ``--requests``; medians and best blocks, and app / floor per block. CPU time in
one process is far less moved by other work on the machine than a ``wrk`` window.

``--instructions FORM``: ``--requests`` (default 200) score requests in that form (``--floor``: the
floor's ``/bench/plain`` with the same body and an answer of the same size), called as ``--cpu`` calls
them, after 50 untimed ones, all inside ``sys.call_tracing``, so that callgrind, told to collect only
there, counts those requests alone (not the imports, the app's set-up or the warm-up):

    PYTHONHASHSEED=0 valgrind --tool=callgrind --collect-atstart=no --toggle-collect=sys_call_tracing \\
        --callgrind-out-file=cards.out .venv/bin/python -m bench.profile --instructions cards

``callgrind_annotate cards.out | head`` prints the total; divided by ``--requests``, a request's.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import pstats
import statistics
import sys
import tempfile
import time
import timeit
from collections.abc import Callable
from typing import Any

from bench import rounds
from bench.server import ROOT


def layers(app: object, floor: object, body: bytes, data: dict[str, object]) -> dict[str, float]:
    """Microseconds per call of each layer of the score endpoint; ``floor`` is the floor app
    (bench/floor_app.py), for a bare route through Flask alone."""
    from handfoot.engine import score_round_request
    from handfoot.server.resources.rounds.schemas import RoundScoreRequestSchema, RoundScoreSchema

    client = app.test_client()  # type: ignore[attr-defined]
    floor_client = floor.test_client()  # type: ignore[attr-defined]
    load_schema, dump_schema = RoundScoreRequestSchema(), RoundScoreSchema()
    loaded = load_schema.load(data)
    score = score_round_request(loaded)
    answer = {"preset": "pagat", "round": 1, "rules_overridden": [], "teams": score.teams}
    dumped = dump_schema.dump(answer)

    def post() -> None:
        client.post("/v1/rounds/score", data=body, content_type="application/json")

    def bare() -> None:
        floor_client.post("/bench/bare", data=body, content_type="application/json")

    cases = {
        "whole request (test client)": post,
        "bare route of the floor app (test client)": bare,
        "json.loads of the body": lambda: json.loads(body),
        "schema load (marshmallow)": lambda: load_schema.load(data),
        "engine score_round_request": lambda: score_round_request(loaded),
        "schema dump (marshmallow)": lambda: dump_schema.dump(answer),
        "json.dumps of the dumped answer": lambda: json.dumps(dumped),
    }
    out = {}
    for name, fn in cases.items():
        timer = timeit.Timer(fn)
        number, took = timer.autorange()
        number = max(1, int(number * 0.5 / max(took, 1e-9)))
        out[name] = min(timer.repeat(repeat=5, number=number)) / number * 1e6
    return out


def _wsgi_caller(app: Any, path: str, body: bytes) -> Callable[[], bytes]:
    """A call of ``app`` (a WSGI callable) posting ``body`` to ``path``; it returns the answer's bytes."""
    from werkzeug.test import EnvironBuilder

    environ = EnvironBuilder(path=path, method="POST", data=body, content_type="application/json").get_environ()

    def call() -> bytes:
        request = dict(environ, **{"wsgi.input": io.BytesIO(body)})
        answer = app(request, lambda status, headers, exc_info=None: None)
        data = b"".join(answer)
        answer.close()
        return data

    return call


def _bodies() -> dict[str, dict[str, Any]]:
    return {"cards": rounds.score_body(), "tally": rounds.tally_body(), "rules": rounds.score_rules_body()}


def _callers(app: Any, floor: Any, data: dict[str, Any]) -> tuple[Callable[[], bytes], Callable[[], bytes]]:
    """The score request posting ``data`` to ``app``, and the floor's posting it to ``floor``."""
    body = json.dumps(data).encode()
    call = _wsgi_caller(app, "/v1/rounds/score", body)
    size = len(call())
    return call, _wsgi_caller(floor, f"/bench/plain?bytes={size}", body)


def instructions(app: Any, floor: Any, form: str, on_floor: bool, requests: int) -> None:
    """``--instructions``: ``requests`` calls inside ``sys.call_tracing`` (see the module's docstring)."""
    call = _callers(app, floor, _bodies()[form])[1 if on_floor else 0]
    for _ in range(50):
        call()

    def measured() -> None:
        for _ in range(requests):
            call()

    sys.call_tracing(measured, ())


def cpu(app: Any, floor: Any, blocks: int, requests: int) -> str:
    """``--cpu``'s table (see the module's docstring)."""
    cases = {form: _callers(app, floor, data) for form, data in _bodies().items()}
    taken: dict[str, tuple[list[float], list[float]]] = {form: ([], []) for form in cases}
    for _ in range(blocks):
        for form, calls in cases.items():
            for kept, call in zip(taken[form], calls, strict=True):
                start = time.process_time()
                for _ in range(requests):
                    call()
                kept.append((time.process_time() - start) / requests * 1e6)
    lines = [f"CPU µs per request, {blocks} blocks of {requests} (median / best); app / floor per block:"]
    for form, (app_us, floor_us) in taken.items():
        ratios = sorted(a / f for a, f in zip(app_us, floor_us, strict=True))
        lines.append(
            f"  {form:6s} app {statistics.median(app_us):7.1f} / {min(app_us):7.1f}   floor "
            f"{statistics.median(floor_us):6.1f} / {min(floor_us):6.1f}   app/floor {ratios[0]:.2f}-{ratios[-1]:.2f} "
            f"(median {statistics.median(ratios):.2f})"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=None, help="default: 2000 (profile), 300 a block (--cpu)")
    parser.add_argument("--cprofile", action="store_true", help="cProfile's top functions instead of pyinstrument")
    parser.add_argument("--cpu", action="store_true", help="CPU time per request against the floor (see above)")
    parser.add_argument("--blocks", type=int, default=7, help="--cpu: blocks per case")
    parser.add_argument("--instructions", choices=sorted(_bodies()), help="requests of one form, for callgrind")
    parser.add_argument("--floor", action="store_true", help="--instructions: the floor's requests")
    args = parser.parse_args()
    from bench.floor_app import create_floor_app
    from handfoot.server import create_app

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE_URL": f"sqlite:///{tmp}/p.sqlite3"})
        floor = create_floor_app()
        gc.freeze()  # as a server's worker starts: what was built before it forks is frozen (gunicorn_conf.pre_fork)
        if args.instructions:
            instructions(app, floor, args.instructions, args.floor, args.requests or 200)
            return 0
        if args.cpu:
            print(cpu(app, floor, args.blocks, args.requests or 300))
            return 0
        client = app.test_client()
        data = rounds.score_body()
        body = json.dumps(data).encode()
        assert client.post("/v1/rounds/score", data=body, content_type="application/json").status_code == 200
        lines = ["Time per call, µs (best of 5):"]
        lines += [f"  {us:9.1f}  {name}" for name, us in layers(app, floor, body, data).items()]
        lines.append("")

        def loop() -> None:
            for _ in range(args.requests or 2000):
                client.post("/v1/rounds/score", data=body, content_type="application/json")

        if args.cprofile:
            prof = cProfile.Profile()
            prof.runcall(loop)
            buf = io.StringIO()
            pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(30)
            lines.append(buf.getvalue())
        else:
            from pyinstrument import Profiler

            profiler = Profiler(interval=0.0005)
            profiler.start()
            loop()
            profiler.stop()
            lines.append(profiler.output_text(unicode=True, color=False, show_all=False))
    text = "\n".join(lines)
    print(text)
    out = ROOT / "bench" / "results" / "profile-score.txt"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
