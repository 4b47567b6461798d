"""gunicorn's production settings: ``gunicorn -c python:handfoot.server.gunicorn_conf``.

``handfoot-server serve`` and ``make bench`` load it (what is measured is what is served); flags
override it. Each setting and its variable is explained in docs/configuration.md and docs/deploy.md.
"""

from __future__ import annotations

import gc
import importlib.util
import os
import shutil
from typing import Any

from handfoot.server.logs import logging_config
from handfoot.server.metrics import METRICS_DIR_PREFIX

wsgi_app = "handfoot.server:create_app()"
bind = [os.environ.get("HANDFOOT_BIND", "127.0.0.1:8000")]
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))


def default_worker_class() -> str:
    """``gevent`` where it is installed (the ``gevent`` extra), else ``gthread``."""
    return "gevent" if importlib.util.find_spec("gevent") is not None else "gthread"


worker_class = os.environ.get("HANDFOOT_WORKER_CLASS") or default_worker_class()
threads = int(os.environ.get("HANDFOOT_THREADS", "8"))
worker_connections = int(os.environ.get("HANDFOOT_WORKER_CONNECTIONS", "1000"))  # gevent: a worker's connections
preload_app = True
timeout = 30
graceful_timeout = 30
# Seconds a connection may sit idle or take over a request's headers (gevent: the whole of them)
# before it is closed: longer than the 2 s a refused wait's Retry-After asks, so that a client coming
# back then finds its connection open instead of racing its close (gunicorn's default is 2).
keepalive = 5
backlog = 2048
# Heartbeat files on tmpfs: a worker is never stalled by a slow disk (gunicorn FAQ, "Blocking os.fchmod").
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
control_socket_disable = True
errorlog = "-"
loglevel = os.environ.get("HANDFOOT_LOG_LEVEL", "info")
accesslog = os.environ.get("HANDFOOT_ACCESS_LOG") or None
logconfig_dict = logging_config(
    os.environ.get("HANDFOOT_LOG_FORMAT", "text").strip().lower() or "text", loglevel, accesslog
)


def pre_fork(server: Any, worker: Any) -> None:
    """Freeze what the master holds (module docstring, ``pre_fork``) before the worker forks."""
    gc.freeze()


def post_fork(server: Any, worker: Any) -> None:
    """Each worker builds its own database pool: drop any the master holds, keeping its sockets."""
    app = getattr(server.app, "callable", None)
    extensions = getattr(app, "extensions", {}) or {}
    database = extensions.get("handfoot.db")
    engine = getattr(database, "_engine", None)
    if engine is not None:
        engine.dispose(close=False)


def child_exit(server: Any, worker: Any) -> None:
    """A worker gone: its live gauges (seats waiting) stop counting (prometheus_client's rule)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]


def on_exit(server: Any) -> None:
    """The server stops: a metrics folder ``handfoot-server serve`` made goes with it."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
    if os.path.basename(folder).startswith(METRICS_DIR_PREFIX):
        shutil.rmtree(folder, ignore_errors=True)
