"""``GET /health``, ``/health/ready`` and ``/health/live``."""

from __future__ import annotations

from dataclasses import dataclass

from .._loader import Result

__all__ = ["Health", "Liveness"]


@dataclass(frozen=True, slots=True)
class Health(Result):
    """``GET /health``: ``status`` and ``database`` are ``"ok"`` on a healthy server."""

    status: str
    database: str

    @property
    def ok(self) -> bool:
        return self.status == "ok" and self.database == "ok"


@dataclass(frozen=True, slots=True)
class Liveness(Result):
    """``GET /health/live``: ``status`` is ``"ok"`` whenever the server process answers."""

    status: str

    @property
    def ok(self) -> bool:
        return self.status == "ok"
