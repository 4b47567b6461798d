"""Prometheus metrics at ``GET /metrics`` (prometheus_client), correct under several gunicorn workers.

What is counted is in docs/deploy.md ("Health checks, metrics and logs"); a route is labelled as
the OpenAPI document writes it (ids never become labels). Under several workers each writes to
``PROMETHEUS_MULTIPROC_DIR`` and a scrape adds them up. ``HANDFOOT_METRICS=off``: a 404;
``HANDFOOT_METRICS_TOKEN`` requires ``Authorization: Bearer <token>`` (401).
"""

from __future__ import annotations

import functools
import hmac
import os
import re
import time
from collections.abc import Iterator
from typing import Any

import flask
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import func, select
from sqlalchemy.exc import SQLAlchemyError

from handfoot.server.logs import STARTED_KEY

__all__ = ["METRICS_DIR_PREFIX", "SEATS_WAITING", "init_app"]

#: The name of a metrics folder ``handfoot-server serve`` makes (and gunicorn's ``on_exit`` removes).
METRICS_DIR_PREFIX = "handfoot-metrics-"

REQUESTS = Counter("handfoot_requests", "Answered requests", ["method", "route", "status"])
DURATION = Histogram("handfoot_request_duration_seconds", "Seconds to answer a request", ["method", "route"])
SCORED = Counter("handfoot_rounds_scored", "Rounds scored by POST /v1/rounds/score")
STORED = Counter("handfoot_rounds_stored", "Rounds appended to stored games by POST /v1/games/{id}/rounds")
SEATS_WAITING = Gauge(
    "handfoot_seats_waiting", "Seats waiting for their turn (long-polls, event streams)", multiprocess_mode="livesum"
)

#: Whether prometheus_client counts in files (chosen when it was imported, with this module).
MULTIPROCESS = os.path.isdir(os.environ.get("PROMETHEUS_MULTIPROC_DIR", ""))
#: A route's parameter with its converter (``<int(min=1):game_id>``): the label names it as the
#: OpenAPI document does (``{game_id}``).
_PARAMETER = re.compile(r"<(?:[^:>]+:)?([^>]+)>")
#: The endpoints whose success is a round scored or stored (flask-smorest's ``Blueprint.View``).
_SCORE_ENDPOINT = "Rounds.RoundScore"
_APPEND_ENDPOINT = "Games.RoundCollection"


class TablesPlaying(Collector):
    """``handfoot_tables_playing``, counted in the database when scraped (every worker agrees)."""

    def __init__(self, app: flask.Flask) -> None:
        self.app = app

    def collect(self) -> Iterator[GaugeMetricFamily]:
        from handfoot.server.db import get_db
        from handfoot.server.models import Table

        family = GaugeMetricFamily("handfoot_tables_playing", "Tables in play")
        try:
            with get_db(self.app).engine.connect() as connection:
                count = connection.scalar(select(func.count()).select_from(Table).where(Table.status == "playing"))
        except SQLAlchemyError:
            return  # the database is down: /health/ready says so; the other metrics still answer
        family.add_metric([], float(count or 0))
        yield family


def enabled(app: flask.Flask) -> bool:
    """Whether ``app`` counts its requests (``HANDFOOT_METRICS`` is not ``off``)."""
    return str(app.config.get("METRICS", "on")).lower() != "off"


def init_app(app: flask.Flask) -> None:
    """Serve ``/metrics``, unless ``HANDFOOT_METRICS`` is ``off`` (``lifecycle.finish`` counts each
    request: :func:`count`)."""
    if not enabled(app):
        return
    tables = TablesPlaying(app)

    def metrics() -> flask.Response:
        token = app.config.get("METRICS_TOKEN")
        if token and not hmac.compare_digest(
            flask.request.headers.get("Authorization", "").encode(), f"Bearer {token}".encode()
        ):
            return flask.Response("401 Unauthorized: /metrics needs its token\n", 401, {"WWW-Authenticate": "Bearer"})
        registry = CollectorRegistry()
        if MULTIPROCESS:
            multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
            registry.register(tables)
            body = generate_latest(registry)
        else:
            registry.register(tables)
            body = generate_latest(REGISTRY) + generate_latest(registry)
        return flask.Response(body, 200, {"Content-Type": CONTENT_TYPE_LATEST, "Cache-Control": "no-store"})

    app.add_url_rule("/metrics", "metrics", metrics, methods=["GET"])


@functools.cache
def _route(rule: str) -> str:
    """A route's label: its rule as the OpenAPI document writes it (``/v1/games/{game_id}``)."""
    return _PARAMETER.sub(r"{\1}", rule)


@functools.cache
def _series(method: str, route: str, status: int) -> tuple[Any, Any]:
    """The request counter's and the latency histogram's series of one method, route and status,
    found once (``labels`` validates and locks at every call)."""
    return REQUESTS.labels(method, route, str(status)), DURATION.labels(method, route)


def count(request: flask.Request, response: flask.Response) -> None:
    """Count the answered ``request`` (its ``response``) in the series above."""
    route = _route(request.url_rule.rule) if request.url_rule is not None else "unmatched"
    if route == "/metrics":
        return
    started = request.environ.get(STARTED_KEY)
    requests, duration = _series(request.method, route, response.status_code)
    requests.inc()
    if started is not None:
        duration.observe(time.perf_counter() - started)
    if request.method == "POST":
        if request.endpoint == _SCORE_ENDPOINT and response.status_code == 200:
            SCORED.inc()
        elif (
            request.endpoint == _APPEND_ENDPOINT
            and response.status_code == 201
            and "Idempotent-Replayed" not in response.headers
        ):
            STORED.inc()
