"""``Idempotency-Key`` on POSTs (draft-ietf-httpapi-idempotency-key-header; docs/games-api.md).

A key (a structured-field String, unquoted accepted) is stored per caller (``Actor.scope``) with
a fingerprint of the request. The request's unit of work (``services.store``) claims it first
(:meth:`Key.claim`) and stores its 2xx answer last (:meth:`Key.answer`), in its one transaction.
Keys are kept ``HANDFOOT_IDEMPOTENCY_TTL_SECONDS`` (86400) and swept at most every
``HANDFOOT_IDEMPOTENCY_SWEEP_SECONDS`` (300) per process.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Generic, NoReturn, TypeVar, cast

import flask
from sqlalchemy import Row, bindparam, delete, select, update
from sqlalchemy import Table as SqlTable
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from handfoot.server.auth import Actor
from handfoot.server.db import insert_new
from handfoot.server.models import IdempotencyKey
from handfoot.server.parsing import body_as_sent
from handfoot.server.problems import abort_invalid_header, abort_problem

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 255
DEFAULT_TTL_SECONDS = 24 * 60 * 60
TTL_ENV = "HANDFOOT_IDEMPOTENCY_TTL_SECONDS"


def _setting(name: str, default: float) -> float:
    """A positive number of seconds from the app's config or the environment; ``default`` when
    unset, not a number, or not positive."""
    configured = flask.current_app.config.get(name) or os.environ.get(name)
    try:
        value = float(configured) if configured else default
    except ValueError:
        value = default
    return value if value > 0 else default


#: Response headers stored with the body and sent again on a replay.
STORED_HEADERS = ("Location", "ETag")

HEADER_DOC = {
    "name": HEADER,
    "in": "header",
    "required": False,
    "description": "A unique value per logical request (a structured-field string, e.g. "
    '`"8e03978e-40d5-43e8-bc93-6894a57f9324"`; unquoted accepted; at most 255 characters). '
    "Sent again with the same body, the first response comes back (with `Idempotent-Replayed: "
    "true`) and nothing is stored twice; with another body it is a 422 (idempotency-key-reused); "
    "sent while the first request runs, it waits for it and replays its answer. Successful responses are kept "
    "24 hours (HANDFOOT_IDEMPOTENCY_TTL_SECONDS); a failed request releases its key.",
    "schema": {"type": "string", "maxLength": MAX_KEY_LENGTH},
}


def _invalid(detail: str) -> NoReturn:
    abort_invalid_header(HEADER, detail)


#: RFC 8941's sf-string: printable ASCII in quotes, ``"`` and the backslash escaped by a backslash.
_SF_STRING = re.compile(r'"((?:[ !#-\[\]-~]|\\["\\])*)"')


class Replayed(Exception):  # noqa: N818 (not an error: the stored answer, sent again)
    """The claim found the key's stored answer: the unit ends, rolled back, with it."""

    def __init__(self, response: flask.Response) -> None:
        super().__init__("replayed")
        self.response = response


@dataclass(frozen=True, slots=True)
class Answer:
    """A response to store with its key: status, the :data:`STORED_HEADERS`, the body (plain data) and,
    when the caller encoded it already, ``encoded`` (else :meth:`Key.answer` encodes it as the app
    sends it: ``app.json.response``, its encoder, its trailing newline)."""

    status: int
    headers: Mapping[str, str]
    body: Any
    encoded: bytes | None = None


R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Key(Generic[R]):
    """A request's Idempotency-Key, a parameter of its unit of work (``services.store.Unit.run``);
    ``answering`` makes the answer from the service's result."""

    scope: str
    value: str
    answering: Callable[[R], Answer]

    def claim(self, session: Session) -> int:
        """Claim the key in the unit's transaction: the claim's row id, or :class:`Replayed` with the stored
        answer, or a 422 when the key is another request's. A key inserted by a transaction this one
        cannot see raises ``StaleDataError``: the unit runs again and finds that request's answer.

        The request's fingerprint: SHA-256 of method, path and the body's canonical JSON (the body as
        decoded once by the body parser, ``parsing.body_as_sent``). Expired keys are swept at most
        every ``HANDFOOT_IDEMPOTENCY_SWEEP_SECONDS`` per process; one found expired before then is
        replaced where it is found."""
        global _last_sweep
        request, now, moment = flask.request, datetime.now(UTC), time.monotonic()
        canonical = json.dumps(body_as_sent(), sort_keys=True, separators=(",", ":")).encode()
        print_ = hashlib.sha256(f"{request.method}\n{request.path}\n".encode() + canonical).hexdigest()
        connection = session.connection()
        if moment - _last_sweep >= _setting(SWEEP_ENV, DEFAULT_SWEEP_SECONDS):
            connection.execute(_DELETE_EXPIRED, {"now": now})
            _last_sweep = moment
        new = {
            "scope": self.scope,
            "key": self.value,
            "fingerprint": print_,
            "created_at": now,
            "expires_at": now + timedelta(seconds=_setting(TTL_ENV, DEFAULT_TTL_SECONDS)),
            "token": "",  # unused: it named the claim's process in earlier versions
        }
        row_id: int | None = connection.execute(_INSERT_NEW, new).scalar_one_or_none()
        if row_id is not None:
            return row_id
        row = connection.execute(_FIND_FOR_UPDATE, {"scope": self.scope, "key": self.value}).first()
        if row is not None and row.expires_at < now:
            connection.execute(_DELETE_ROW, {"row_id": row.id})
            row, row_id = None, connection.execute(_INSERT_NEW, new).scalar()
        if row is None:
            if row_id is None:
                raise StaleDataError("another request claimed the Idempotency-Key meanwhile")
            return int(row_id)
        if row.fingerprint != print_:
            abort_problem(
                422,
                "Idempotency-Key reused",
                "This Idempotency-Key was used for a different request (method, path or body); "
                "use a new key for a new request.",
                type_slug="idempotency-key-reused",
                errors=[
                    {
                        "parameter": HEADER,
                        "code": "idempotency_key_reused",
                        "detail": "the key belongs to another request",
                    }
                ],
            )
        raise Replayed(_replay(row))

    def answer(self, session: Session, row_id: int, result: R) -> None:
        """Store the answer to ``result`` with the claim ``row_id``, as the app sends it (a replay is
        the first answer byte for byte)."""
        answer = self.answering(result)
        body = answer.encoded
        if body is None:
            # flask types json.response as werkzeug's sans-IO Response; the app's is a flask.Response
            body = cast(flask.Response, flask.current_app.json.response(answer.body)).get_data()
        values = {
            "row_id": row_id,
            "answer_status": answer.status,
            "answer_headers": dict(answer.headers),
            "answer_body": body.decode(),
        }
        session.connection().execute(_COMPLETE, values)


def _replay(row: KeyRow) -> flask.Response:
    response = flask.current_app.response_class(row.response_body, status=row.status, mimetype="application/json")
    for name, value in (row.response_headers or {}).items():
        response.headers[name] = value
    response.headers["Idempotent-Replayed"] = "true"
    return response


#: Seconds between two sweeps of expired keys by a process (``HANDFOOT_IDEMPOTENCY_SWEEP_SECONDS``,
#: docs/deploy.md): a claim runs the sweep when the last one is older, not on every request.
DEFAULT_SWEEP_SECONDS = 300
SWEEP_ENV = "HANDFOOT_IDEMPOTENCY_SWEEP_SECONDS"
_last_sweep = -float("inf")  # time.monotonic() of this process's last sweep


#: The statements every keyed request runs, built once, in Core on the table (no ORM on the path).
KEYS: SqlTable = IdempotencyKey.__table__  # type: ignore[assignment]
_ROW = ("id", "fingerprint", "status", "response_headers", "response_body", "created_at", "expires_at")
_FIND_FOR_UPDATE = (
    select(*(KEYS.c[name] for name in _ROW))
    .where(KEYS.c.scope == bindparam("scope"), KEYS.c.key == bindparam("key"))
    .with_for_update()
)
#: A row :data:`_FIND_FOR_UPDATE` reads.
KeyRow = Row[*tuple[Any, ...]]
_DELETE_EXPIRED = delete(KEYS).where(KEYS.c.expires_at < bindparam("now"))
_DELETE_ROW = delete(KEYS).where(KEYS.c.id == bindparam("row_id"))
_COMPLETE = (
    update(KEYS)
    .where(KEYS.c.id == bindparam("row_id"))
    .values(
        status=bindparam("answer_status"),
        response_headers=bindparam("answer_headers"),
        response_body=bindparam("answer_body"),
    )
)
#: ``INSERT ... ON CONFLICT (scope, key) DO NOTHING RETURNING id``.
_INSERT_NEW = insert_new(KEYS, ("scope", "key"))


def idempotent(
    view: Callable[..., Any] | None = None,
    *,
    before: Callable[..., None] | None = None,
    replayed: Callable[..., None] | None = None,
) -> Any:
    """Decorate a POST view taking its caller as ``actor``: the view gets ``request_key``, which makes the
    request's :class:`Key` from an answer function (``None`` without the header). The header's value: a
    structured-field String, or a bare token (422 otherwise). ``before(actor, **view_kwargs)`` runs
    first and raises when the target is gone; ``replayed(actor, body)`` runs on a replay's body and
    raises when what it created is gone (a 404, never a 201 to a 404)."""
    if view is None:
        return functools.partial(idempotent, before=before, replayed=replayed)

    @functools.wraps(view)
    def wrapper(*args: Any, actor: Actor, **kwargs: Any) -> Any:
        raw = flask.request.headers.get(HEADER)
        if raw is None:
            return view(*args, actor=actor, request_key=_no_key, **kwargs)
        if before is not None:
            before(actor, **kwargs)
        value = raw.strip()
        if len(value) >= 2 and value[0] == value[-1] == '"':
            quoted = _SF_STRING.fullmatch(value)
            if quoted is None:
                _invalid('Idempotency-Key: a quoted string holds printable ASCII, with only \\" and \\\\ escaped.')
            value = re.sub(r'\\(["\\])', r"\1", quoted.group(1))
        if not 1 <= len(value) <= MAX_KEY_LENGTH:
            _invalid(f"Idempotency-Key must be 1 to {MAX_KEY_LENGTH} characters.")
        if any(not " " <= c <= "~" for c in value):
            _invalid("Idempotency-Key must be printable ASCII.")
        try:
            return view(*args, actor=actor, request_key=functools.partial(Key, actor.scope, value), **kwargs)
        except Replayed as replay:
            if replayed is not None and replay.response.status_code < 300:
                replayed(actor, replay.response.get_json())
            return replay.response

    return wrapper


#: What a view of :func:`idempotent` gets as ``request_key``: its answer function to the request's key.
RequestKey = Callable[[Callable[[Any], Answer]], "Key[Any] | None"]


def _no_key(_answering: Callable[[Any], Answer]) -> None:
    return None
