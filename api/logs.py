"""The server's log: every line of a request with the request's id, as text or JSON
(``HANDFOOT_LOG_FORMAT``), and one line per request.

A request's id is the client's ``X-Request-ID`` when it matches :data:`REQUEST_ID_PATTERN`, else
32 random hex digits; the answer's ``X-Request-ID`` carries it. ``lifecycle.begin`` stamps the
request's start and id, ``lifecycle.finish`` writes its line on :data:`requests_log` at INFO:
method, path, status, milliseconds. :func:`logging_config` is gunicorn's ``logconfig_dict`` (standard error, at
``HANDFOOT_LOG_LEVEL``).
"""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime
from typing import Any

from flask import has_request_context, request

#: What a client-sent ``X-Request-ID`` may be to be echoed (else the server makes one): short, and
#: safe to write in logs and headers as is.
REQUEST_ID_PATTERN = re.compile(r"[A-Za-z0-9._-]{1,64}")
#: ``HANDFOOT_LOG_FORMAT``'s values.
LOG_FORMATS = ("text", "json")
#: Where the request's id is kept in its WSGI environ (``api/lifecycle.py`` sets it).
REQUEST_ID_KEY = "handfoot.request_id"
#: Where the request's start (``time.perf_counter``) is kept in its WSGI environ.
STARTED_KEY = "handfoot.started"

requests_log = logging.getLogger("handfoot.server.requests")


class RequestIdFilter(logging.Filter):
    """Gives every record ``request_id``: the request's within one, else ``-``."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request.environ.get(REQUEST_ID_KEY, "-") if has_request_context() else "-"
        return True


#: The members a record has before any ``extra``: the JSON line names its own instead.
_RECORD_MEMBERS = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``,
    ``request_id``, any ``extra`` members (``method``, ``path``, ``status``, ``ms``), and
    ``exception`` (the traceback's text) when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", "-"),
        }
        line.update((k, v) for k, v in vars(record).items() if k not in _RECORD_MEMBERS and k not in line)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


TEXT_FORMAT = "%(asctime)s [%(process)d] %(levelname)s %(name)s [%(request_id)s] %(message)s"


def logging_config(log_format: str, level: str, access_log: str | None = None) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` document: gunicorn's loggers and ``handfoot.server`` on standard
    error as ``log_format`` (``text``, ``json``: else ``ValueError`` naming ``HANDFOOT_LOG_FORMAT``) at
    ``level``; gunicorn's access log only where ``access_log`` names a file or ``-``."""
    if log_format not in LOG_FORMATS:
        raise ValueError(f"HANDFOOT_LOG_FORMAT must be one of {', '.join(LOG_FORMATS)}, got {log_format!r}")
    formatter: dict[str, Any] = {"()": f"{__name__}.JsonFormatter"} if log_format == "json" else {"format": TEXT_FORMAT}
    handler = {
        "class": "logging.StreamHandler",
        "stream": "ext://sys.stderr",
        "formatter": "handfoot",
        "filters": ["request_id"],
    }
    handlers: dict[str, Any] = {"stderr": handler}
    logger = {"handlers": ["stderr"], "level": level.upper(), "propagate": False}
    access: dict[str, Any] = {"handlers": [], "level": "CRITICAL", "propagate": False}  # off
    if access_log == "-":
        handlers["access"] = {**handler, "stream": "ext://sys.stdout"}
    elif access_log:
        handlers["access"] = {**handler, "class": "logging.FileHandler", "filename": access_log}
        del handlers["access"]["stream"]
    if access_log:
        access = {"handlers": ["access"], "level": "INFO", "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": f"{__name__}.RequestIdFilter"}},
        "formatters": {"handfoot": formatter},
        "handlers": handlers,
        "root": {"handlers": ["stderr"], "level": "WARNING"},
        "loggers": {"gunicorn.error": logger, "gunicorn.access": access, "handfoot.server": logger},
    }
