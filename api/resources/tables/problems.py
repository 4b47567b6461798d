"""Who a request of the tables resource is: an API key, or a seat by its token (its errors are
answered by ``handfoot.server.problems``)."""

from __future__ import annotations

from dataclasses import dataclass

import flask

from handfoot.server import auth, security
from handfoot.server.blueprint import Blueprint
from handfoot.server.db import get_db
from handfoot.server.services import tables as tables_svc

SEAT_HEADER = security.SEAT_HEADER
#: The operations a seat makes with its token (no API key).
SEAT_ENDPOINTS = frozenset({"Tables.SeatView", "Tables.SeatEvents", "Tables.ActionCollection"})
#: The operation either may make.
EITHER_ENDPOINTS = frozenset({"Tables.TableRound"})
#: The seat operation that writes: its transaction begins as a write, before the Seat-Token's read.
ACTION_ENDPOINT = "Tables.ActionCollection"


@dataclass(frozen=True, slots=True)
class SeatActor(auth.Actor):
    """A seat of a table, by its token: its Idempotency-Keys are its own (scope ``seat:<table>:<seat>``),
    so no seat can replay another's answer (which holds that seat's hand)."""

    table_id: int = 0
    seat: int = 0

    @property
    def scope(self) -> str:
        return f"seat:{self.table_id}:{self.seat}"


def _authenticate() -> None:
    """A seat operation: the Seat-Token's seat (``flask.g.seat``) and the table read to find it
    (``flask.g.table``, which the operation uses: :func:`read_table`); the rest: the API key. An
    action's transaction begins as the write it will be (``Database.begin_request_write``): the token's
    read, the action's check, its Idempotency-Key and its write are one transaction."""
    endpoint = flask.request.endpoint or ""
    headers = flask.request.headers
    if endpoint in SEAT_ENDPOINTS or (endpoint in EITHER_ENDPOINTS and SEAT_HEADER in headers):
        table_id = int((flask.request.view_args or {})["table_id"])
        db = get_db()
        if endpoint == ACTION_ENDPOINT and flask.request.method == "POST":
            db.begin_request_write()
        token = headers.get(SEAT_HEADER)
        seat, flask.g.table = tables_svc.seat_at(db, table_id, token)
        security.seat_accepted(str(token))  # its next requests count against the seat's allowance
        flask.g.seat = seat
        flask.g.actor = SeatActor(table_id=table_id, seat=seat)
    else:
        flask.g.seat = None
        flask.g.actor = auth.authenticate()


def read_table() -> tables_svc.TableData | None:
    """The table the Seat-Token's check read, once: a second call (an operation run again after a
    lost race) gets ``None`` and reads it anew."""
    data: tables_svc.TableData | None = flask.g.pop("table", None)
    return data


def _no_store(response: flask.Response) -> flask.Response:
    """A seat's answers hold its hand, a creation's the tokens: no cache keeps them."""
    response.headers["Cache-Control"] = "no-store"
    return response


def guard(blp: Blueprint) -> None:
    """Authenticate every request of ``blp``; ``Cache-Control: no-store`` on every answer."""
    blp.before_request(_authenticate)
    blp.after_request(_no_store)
