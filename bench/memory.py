"""Memory of one gunicorn worker while it scores rounds: RSS after 1,000 and after 10,000 rounds."""

from __future__ import annotations

import http.client
import threading
import time
from pathlib import Path

from bench.server import Server


def rss_kib(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of ``pid`` in KiB: current and peak resident set size."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0])
    return fields["VmRSS"], fields["VmHWM"]


def post_many(server: Server, path: str, body: bytes, count: int, deadline: float, threads: int = 4) -> int:
    """POST ``body`` ``count`` times over ``threads`` connections, stopping at ``deadline`` (monotonic).

    Returns how many answered 200; raises on any other status.
    """
    lock = threading.Lock()
    state = {"sent": 0, "ok": 0, "bad": ""}

    def worker() -> None:
        while time.monotonic() < deadline:
            with lock:
                if state["sent"] >= count or state["bad"]:
                    return
                state["sent"] += 1
            conn = http.client.HTTPConnection(server.host, server.port, timeout=10)
            try:
                conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
                resp = conn.getresponse()
                resp.read()
                with lock:
                    if resp.status == 200:
                        state["ok"] += 1
                    else:
                        state["bad"] = f"{path} answered {resp.status}"
            finally:
                conn.close()

    pool = [threading.Thread(target=worker) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    if state["bad"]:
        raise RuntimeError(str(state["bad"]))
    return int(state["ok"])
