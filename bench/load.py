"""HTTP load from a separate process: wrk (Debian's package), driven by a generated Lua script.

Every run is bounded: ``-d`` seconds, ``--timeout`` per request, 127.0.0.1 only. The Lua script
sends a fixed POST body (or walks a list of paths, each entry taken once, by one thread, until the
list wraps), counts answers by status class and
"database is locked" bodies per thread, and prints one JSON line in ``done``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

LUA = r"""
local body_file, paths_file = os.getenv("BENCH_BODY"), os.getenv("BENCH_PATHS")
local track = os.getenv("BENCH_TRACK") == "1"
local f = io.open(body_file, "rb")
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/json"

local paths = nil
if paths_file and paths_file ~= "" then
  paths = {}
  for line in io.lines(paths_file) do
    if line ~= "" then table.insert(paths, line) end
  end
end

local threads = {}
local counter = 1
function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

local stride = tonumber(os.getenv("BENCH_THREADS") or "1")
function init(args)
  n2, n4, n5, locked, refused = 0, 0, 0, 0, ""
  i = tid - 2  -- thread t takes entries t, t + stride, t + 2 * stride ... of the paths list
end

if paths then
  function request()
    i = i + stride
    return wrk.format(nil, paths[(i % #paths) + 1])
  end
end

if track then
  function response(status, headers, body)
    if status < 300 then n2 = n2 + 1
    elseif status < 500 then n4 = n4 + 1
    else n5 = n5 + 1 end
    if body and string.find(body, "database is locked", 1, true) then locked = locked + 1 end
    if status >= 400 and refused == "" then  -- the first refusal, to say what it was
      -- printable ASCII only, quotes and backslashes dropped: a JSON string as it stands
      refused = (string.gsub(status .. " " .. string.sub(body or "", 1, 400), '[^ -~]', "?"))
      refused = (string.gsub(refused, '["\\]', "'"))
    end
  end
end

function done(summary, latency, requests)
  local a2, a4, a5, al, ar = 0, 0, 0, 0, ""
  for _, t in ipairs(threads) do
    a2 = a2 + (t:get("n2") or 0); a4 = a4 + (t:get("n4") or 0)
    a5 = a5 + (t:get("n5") or 0); al = al + (t:get("locked") or 0)
    if ar == "" then ar = t:get("refused") or "" end
  end
  local e = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"duration_us":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,' ..
    '"connect_errors":%d,"read_errors":%d,"write_errors":%d,"timeouts":%d,"non_2xx_3xx":%d,' ..
    '"tracked_2xx":%d,"tracked_4xx":%d,"tracked_5xx":%d,"locked":%d,"first_refused":"%s"}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency.max, e.connect, e.read, e.write, e.timeout, e.status,
    a2, a4, a5, al, ar))
end
"""


@dataclass(frozen=True)
class LoadResult:
    requests: int
    seconds: float
    rps: float
    p50_ms: float
    p90_ms: float
    p99_ms: float
    max_ms: float
    errors: int  # socket errors and timeouts
    non_2xx: int
    status_5xx: int
    locked: int
    #: The first answer of 400 or more that a tracked run got: status, then the body's start ("" for none).
    first_refused: str = ""

    def as_dict(self) -> dict[str, float | int]:
        return dict(self.__dict__)


def wrk_path() -> str:
    path = shutil.which("wrk")
    if path is None:
        raise RuntimeError("wrk is not installed: apt-get install -y wrk (make bench does it)")
    return path


def run_wrk(
    url: str,
    body: bytes,
    workdir: Path,
    connections: int,
    seconds: float,
    paths: list[str] | None = None,
    track: bool = False,
) -> LoadResult:
    """POST ``body`` to ``url`` (or to each of ``paths`` in turn) for ``seconds`` over ``connections``.

    ``paths`` are taken in order, each entry once across wrk's threads, and from the start again only
    if the window outlasts the list (see :func:`bench.storage.append_paths`)."""
    if not url.startswith("http://127.0.0.1:"):
        raise ValueError("load goes to 127.0.0.1 only")
    workdir.mkdir(parents=True, exist_ok=True)
    script = workdir / "post.lua"
    script.write_text(LUA)
    body_file = workdir / "body.json"
    body_file.write_bytes(body)
    paths_file = workdir / "paths.txt"
    paths_file.write_text("\n".join(paths or []) + "\n")
    threads = max(1, min(2, connections))
    env = {
        "BENCH_BODY": str(body_file),
        "BENCH_PATHS": str(paths_file) if paths else "",
        "BENCH_TRACK": "1" if track else "0",
        "BENCH_THREADS": str(threads),
        "PATH": "/usr/bin:/bin",
    }
    args = [
        wrk_path(),
        "-t",
        str(threads),
        "-c",
        str(connections),
        "-d",
        f"{seconds:g}s",
        "--timeout",
        "5s",
        "--latency",
        "-s",
        str(script),
        url,
    ]
    proc = subprocess.run(args, capture_output=True, text=True, env=env, timeout=seconds + 60)
    line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("BENCH_JSON ")), None)
    if proc.returncode != 0 or line is None:
        raise RuntimeError(f"wrk failed ({proc.returncode}): {proc.stdout[-2000:]} {proc.stderr[-2000:]}")
    data = json.loads(line[len("BENCH_JSON ") :])
    secs = data["duration_us"] / 1e6
    return LoadResult(
        requests=data["requests"],
        seconds=secs,
        rps=data["requests"] / secs if secs else 0.0,
        p50_ms=data["p50_us"] / 1000,
        p90_ms=data["p90_us"] / 1000,
        p99_ms=data["p99_us"] / 1000,
        max_ms=data["max_us"] / 1000,
        errors=data["connect_errors"] + data["read_errors"] + data["write_errors"] + data["timeouts"],
        non_2xx=data["non_2xx_3xx"],
        status_5xx=data["tracked_5xx"],
        locked=data["locked"],
        first_refused=data.get("first_refused", ""),
    )
