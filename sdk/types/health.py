"""``GET /health``."""

from __future__ import annotations

from dataclasses import dataclass

from .._loader import Result

__all__ = ["Health"]


@dataclass(frozen=True, slots=True)
class Health(Result):
    """``GET /health``: ``status`` and ``database`` are ``"ok"`` on a healthy server."""

    status: str
    database: str

    @property
    def ok(self) -> bool:
        return self.status == "ok" and self.database == "ok"
