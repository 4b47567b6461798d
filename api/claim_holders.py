"""Who holds an Idempotency-Key claim, and whether it still runs (api/idempotency.py's in-flight claims).

A claim's ``token`` names the process that holds it (:func:`process_marker`: host, pid, start time);
a claim whose process is gone is taken over by the next request with the key (:func:`holder_alive`).
A claim held by a process on another host (several API hosts on one PostgreSQL) is checked through
the database (:mod:`handfoot.server.liveness`).
"""

from __future__ import annotations

import functools
import hashlib
import os
import secrets
import socket
from pathlib import Path

from handfoot.server import liveness
from handfoot.server.db import Database


def _host_id() -> str:
    """This host's id in a claim: its name and boot (so one machine's namespaces share it, and a
    reboot, after which every pid is new, changes it)."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        boot = ""
    return hashlib.sha256(f"{socket.gethostname()}\n{boot}".encode()).hexdigest()[:12]


def _start_time(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot, /proc/<pid>/stat field 22): a pid
    reused by a new process has another. ``"dead"`` for a process that has exited and not yet
    been reaped (state Z or X); ``None`` where /proc cannot say."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()  # the fields after "(comm)": state is field 3
    return "dead" if fields[0] in ("Z", "X") else fields[19]


@functools.cache
def _marker_of(pid: int) -> str:
    return f"{_host_id()}-{pid}-{_start_time(pid) or 0}"


def process_marker() -> str:
    """``<host id>-<pid>-<start time>`` of this process: the first part of every token it claims
    with (a forked worker has its own pid, hence its own marker)."""
    return _marker_of(os.getpid())


def new_token() -> str:
    """A claim's token: this process's marker and 16 random hex digits (at most 64 characters)."""
    return f"{process_marker()}.{secrets.token_hex(8)}"


def holder_alive(token: str) -> bool | None:
    """Whether the process that claimed with ``token`` is still running: ``False`` when it is
    gone (its pid is free, or now another process's), ``True`` when it runs, ``None`` when this
    host cannot tell (another host's claim, or a token from before markers)."""
    marker, _, _random = token.rpartition(".")
    host, _, rest = marker.partition("-")
    pid_text, _, started = rest.partition("-")
    if host != _host_id() or not pid_text.isdigit():
        return None
    pid = int(pid_text)
    try:
        os.kill(pid, 0)  # signal 0: no signal sent, only whether the pid exists
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # it exists, run by another user
    now_started = _start_time(pid)
    return not (now_started is not None and started not in ("0", now_started))


def claim_holder_alive(db: Database, token: str) -> bool | None:
    """Whether the claim ``token``'s process runs: :func:`holder_alive` on this host; on PostgreSQL,
    another host's holder through its liveness lock; ``None`` where neither can tell."""
    alive = holder_alive(token)
    marker = token.rpartition(".")[0]
    if alive is not None or db.is_sqlite or marker.count("-") != 2:
        return alive
    return liveness.for_engine(db.engine).alive(marker)


def new_claim_token(db: Database) -> str:
    """A token for a claim by this process; on PostgreSQL, first the process's liveness lock."""
    if not db.is_sqlite:
        liveness.for_engine(db.engine).hold(process_marker())
    return new_token()
