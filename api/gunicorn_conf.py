"""gunicorn's production settings for handfoot: ``gunicorn -c python:handfoot.server.gunicorn_conf``.

``handfoot-server serve`` (and so ``make run``) and the API benchmark (``make bench``) load this
module, so what is measured is what is served. Command-line flags override it (``make run`` passes ``-b`` and ``-w``).

- ``workers``: ``WEB_CONCURRENCY`` (gunicorn's own variable), default 2: scoring is CPU-bound pure
  Python, so one process per core serves it best (threads add no scoring throughput: the GIL).
- ``worker_class`` ``gevent`` (``HANDFOOT_WORKER_CLASS``; ``gthread`` where gevent is not installed,
  which ``serve`` says): each connection is a greenlet, up to ``worker_connections``
  (``HANDFOOT_WORKER_CONNECTIONS``, default 1000) a worker. gunicorn's gevent worker reads each
  request's headers under a ``keepalive`` (5 s) deadline and closes the connection past it, so
  slow or idle clients cost a greenlet for 5 s, where under ``gthread`` a client sending its
  headers a line at a time holds one of ``threads`` for as long as it likes (gunicorn 27 has no
  header timeout: its 5 s wait only covers the first byte). A seat waiting for its turn (a
  long-poll, ``GET /v1/tables/{id}/view?wait=``, or an event stream, up to a minute) holds a
  greenlet asleep until the table changes (``api/wakeups.py``); psycopg 3 yields to other greenlets
  while it waits. On SQLite a write waiting for the database's lock blocks in C and so stalls its
  worker's other greenlets meanwhile, for as long as the other worker's write holds it
  (docs/deploy.md, "Slow clients", measures it).
- ``threads`` (``HANDFOOT_THREADS``, default 8) a worker under ``gthread``: they bound the waiters
  (and database connections) a worker holds; a slow client holds one too, so put a buffering proxy
  in front of ``gthread`` on a public network.
- ``preload_app``: the app is built once in the master and forked, so workers start fast and share
  its memory. ``create_app()`` opens no database connection (``api/db.py`` creates the engine
  lazily, per worker); ``post_fork`` drops any pool a hook might have opened in the master anyway,
  without closing the parent's sockets (SQLAlchemy ``Engine.dispose(close=False)``).
- ``control_socket_disable``: gunicorn 24+ opens a control socket at one fixed path per user
  (``~/.gunicorn/gunicorn.ctl``); two servers on one machine (a benchmark next to ``make run``)
  would fight over it, and nothing here uses it.
- ``logconfig_dict``: gunicorn's lines and the server's on standard error, each of a request with
  its id, as text or JSON (``HANDFOOT_LOG_FORMAT``), at ``HANDFOOT_LOG_LEVEL`` (``api/logs.py``).
- ``PROMETHEUS_MULTIPROC_DIR``: the workers' metrics files (``/metrics`` adds them up,
  ``api/metrics.py``). ``handfoot-server serve`` makes a fresh folder unless it is set (it must be
  set before the server's package is imported, so not here); ``child_exit`` marks a dead worker's
  gauges gone, and ``on_exit`` removes a folder ``serve`` made.
- ``pre_fork``: the master's objects (the app, its modules and caches) are frozen before a worker
  forks off (``gc.freeze()``, the recipe of Python's ``gc`` documentation): a worker's full garbage
  collections then skip them, instead of walking every one of them again a few times a game, and
  leave their memory pages shared with the master (docs/performance.md).
- ``max_requests`` stays 0 (workers are never recycled): the memory benchmark shows a worker's RSS
  flat from 1,000 to 10,000 scored rounds (docs/performance.md).
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
