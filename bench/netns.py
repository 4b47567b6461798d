"""Network namespaces on one bridge, a private PostgreSQL cluster and a private Redis, for
``bench/multihost.py``. Linux only, as root (``ip netns``, ``runuser``).

Layout of one :class:`Lab` (``tag`` keeps two labs on one machine apart): a bridge ``<tag>br`` in
the root namespace holding ``10.<a>.<b>.1/24``; each namespace ``<tag>-<name>`` has a veth on it
with ``10.<a>.<b>.<n>`` and its own loopback. The harness itself (the clients) stays in the root
namespace and reaches every namespace through the bridge.

Everything made is recorded as it is made and undone by :meth:`Lab.close` in reverse order, pass or
fail: processes (their whole process group, SIGKILL), namespaces, links, the cluster's directory.
Errors raised: ``subprocess.CalledProcessError`` when an ``ip``/``initdb``/``pg_ctl`` step fails,
``RuntimeError`` when a server does not come up in time.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path


def run(*args: str) -> None:
    subprocess.run(args, check=True, capture_output=True, timeout=60)


def pg_bin(name: str) -> str:
    """``initdb``/``pg_ctl``/``postgres`` from PATH, else the newest /usr/lib/postgresql/*/bin."""
    found = shutil.which(name)
    if found:
        return found
    for folder in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (folder / name).exists():
            return str(folder / name)
    raise RuntimeError(f"no {name}: install PostgreSQL's server binaries")


def wait_port(host: str, port: int, timeout: float, alive: Callable[[], bool] = lambda: True) -> None:
    """Wait until ``host:port`` accepts a TCP connection (from the root namespace)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not alive():
            raise RuntimeError(f"the server for {host}:{port} exited")
        try:
            with socket.create_connection((host, port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{host}:{port} did not answer in {timeout:g} s")


class Lab:
    """Namespaces, their processes and a scratch directory; a context manager that undoes them all."""

    def __init__(self, tag: str | None = None) -> None:
        pid = os.getpid()
        self.tag = tag or f"hf{pid % 100000}"
        # 10.200-249.x.0/24, from the pid: two labs at once rarely share a subnet (and fail clearly if so).
        self.subnet = f"10.{200 + pid % 50}.{(pid // 50) % 250}"
        self.bridge = f"{self.tag}br"
        self.namespaces: dict[str, str] = {}  # name -> address
        self.processes: list[tuple[subprocess.Popen[bytes], int]] = []  # each with the signal that stops it
        self.cleanups: list[Callable[[], None]] = []
        self.dir = Path(tempfile.mkdtemp(prefix=f"handfoot-{self.tag}-"))
        self.log_dir = self.dir / "logs"
        self.log_dir.mkdir()
        self.root_address = f"{self.subnet}.1"

    def __enter__(self) -> Lab:
        run("ip", "link", "add", self.bridge, "type", "bridge")
        self.cleanups.append(lambda: run("ip", "link", "del", self.bridge))
        run("ip", "addr", "add", f"{self.root_address}/24", "dev", self.bridge)
        run("ip", "link", "set", self.bridge, "up")
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def namespace(self, name: str) -> str:
        """A namespace on the bridge; returns its address."""
        ns, n = f"{self.tag}-{name}", len(self.namespaces) + 2
        address = f"{self.subnet}.{n}"
        run("ip", "netns", "add", ns)
        self.cleanups.append(lambda: run("ip", "netns", "del", ns))
        outer, inner = f"{self.tag}v{n}", f"{self.tag}i{n}"
        run("ip", "link", "add", outer, "type", "veth", "peer", "name", inner)
        self.cleanups.append(lambda: subprocess.run(["ip", "link", "del", outer], capture_output=True))
        run("ip", "link", "set", inner, "netns", ns)
        run("ip", "link", "set", outer, "master", self.bridge)
        run("ip", "link", "set", outer, "up")
        run("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up")
        run("ip", "netns", "exec", ns, "ip", "addr", "add", f"{address}/24", "dev", inner)
        run("ip", "netns", "exec", ns, "ip", "link", "set", inner, "up")
        self.namespaces[name] = address
        return address

    def spawn(
        self,
        name: str,
        args: Sequence[str],
        log: str,
        env: dict[str, str] | None = None,
        user: str | None = None,
        stop: int = signal.SIGKILL,
    ) -> subprocess.Popen[bytes]:
        """``args`` in namespace ``name``, in a process group of its own (one killpg reaches it all);
        :meth:`close` sends ``stop`` to that group. The group stays in the harness's session: with
        the kernel's ``sched_autogroup`` each session gets its own share of the CPU, and N servers
        in N sessions would take N shares against one server's one."""
        prefix = ["ip", "netns", "exec", f"{self.tag}-{name}"]
        if user:
            prefix += ["runuser", "-u", user, "--"]
        with (self.log_dir / log).open("ab") as out:
            proc = subprocess.Popen(
                [*prefix, *args],
                env={**os.environ, **(env or {})},
                stdout=out,
                stderr=subprocess.STDOUT,
                process_group=0,
            )
        self.processes.append((proc, stop))
        return proc

    @staticmethod
    def kill(proc: subprocess.Popen[bytes], sig: int = signal.SIGKILL) -> None:
        """``sig`` to ``proc``'s whole process group (master and workers at once), then reap it."""
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, sig)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)

    def postgres(self, name: str, port: int = 5432) -> str:
        """A fresh cluster (``initdb`` as the ``postgres`` user: initdb refuses root) serving in
        namespace ``name``; ``trust`` for the lab's subnet only. Returns its SQLAlchemy URL base."""
        address = self.namespaces[name]
        data = self.dir / "pgdata"
        data.mkdir()
        shutil.chown(self.dir, "postgres")
        shutil.chown(data, "postgres")
        run(
            "runuser",
            "-u",
            "postgres",
            "--",
            pg_bin("initdb"),
            "-D",
            str(data),
            "-A",
            "trust",
            "-U",
            "postgres",
            "--no-sync",
        )
        with (data / "pg_hba.conf").open("a") as hba:
            hba.write(f"host all all {self.subnet}.0/24 trust\n")
        proc = self.spawn(
            name,
            [
                pg_bin("postgres"),
                "-D",
                str(data),
                "-c",
                f"listen_addresses={address}",
                "-p",
                str(port),
                "-c",
                f"unix_socket_directories={data}",
                "-c",
                "max_connections=100",
            ],
            "postgres.log",
            user="postgres",
            stop=signal.SIGQUIT,
        )
        # SIGQUIT is PostgreSQL's immediate shutdown: it removes its shared memory, unlike SIGKILL.
        wait_port(address, port, 60, lambda: proc.poll() is None)
        return f"postgresql+psycopg://postgres@{address}:{port}"

    def redis(self, name: str, port: int = 6379) -> str:
        """A private ``redis-server`` (no persistence) in namespace ``name``; returns its URL."""
        address = self.namespaces[name]
        proc = self.spawn(
            name,
            [
                "redis-server",
                "--bind",
                address,
                "--port",
                str(port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--protected-mode",
                "no",
            ],
            "redis.log",
        )
        wait_port(address, port, 30, lambda: proc.poll() is None)
        return f"redis://{address}:{port}/0"

    def close(self) -> None:
        # Processes first (the cluster before its directory), then links and namespaces.
        for proc, stop in reversed(self.processes):
            with contextlib.suppress(Exception):  # cleanup goes on whatever one step does
                self.kill(proc, stop)
        for undo in reversed(self.cleanups):
            with contextlib.suppress(Exception):
                undo()
        shutil.rmtree(self.dir, ignore_errors=True)
