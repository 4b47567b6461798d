"""``Idempotency-Key`` on POSTs (draft-ietf-httpapi-idempotency-key-header; docs/games-api.md).

The value is a structured-field String (``"8e03..."``; unquoted accepted), 1 to 255 printable ASCII
characters. Keys are stored per API key (or per anonymous store) with a fingerprint of the request
(SHA-256 of method, path and the body's canonical JSON) and, once the request succeeded, its
response (status, ``Location``, ``ETag``, body):

- a new key: the request runs in one write transaction that claims the key (``INSERT ... ON
  CONFLICT DO NOTHING``), runs the write and stores its 2xx answer (the service that writes stores
  it, :class:`Completion`), committed once: a round is never stored without its key, nor twice,
  and a claim is never seen in flight by another request;
- the same key and body again: the stored response, with ``Idempotent-Replayed: true``, read
  without writing (before the write transaction; a request whose transaction began as a write, a
  table's action, finds it by its claim, and rolls that back); a request with the key that runs
  meanwhile waits for the first one's commit (SQLite's write lock, PostgreSQL's unique index) and
  then replays it;
- the same key with another method, path or body: 422 ``idempotency-key-reused``;
- a request that fails (4xx, 5xx) rolls its claim back with its write: sent again, it runs again.

A claim is never committed without its answer; a row without one (left by an earlier version, which
claimed in a transaction of its own) is free, and the next request with the key takes it.

Keys are kept ``HANDFOOT_IDEMPOTENCY_TTL_SECONDS`` (default 86400: 24 hours) after first use; a key
found expired is replaced, and expired keys are deleted by a sweep each process runs at most every
``HANDFOOT_IDEMPOTENCY_SWEEP_SECONDS`` (default 300), in a claim's transaction.

"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Generic, NoReturn, TypeVar, cast

import flask
from sqlalchemy import Connection, Row, bindparam, delete, select, update
from sqlalchemy import Table as SqlTable
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from handfoot.server.db import Database, get_db
from handfoot.server.models import IdempotencyKey
from handfoot.server.parsing import decode_json
from handfoot.server.problems import abort_invalid_header, abort_problem
from handfoot.server.services.store import retrying as store_retrying
from handfoot.server.services.store import run_again as store_run_again

log = logging.getLogger(__name__)

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


def ttl_seconds() -> float:
    return _setting(TTL_ENV, DEFAULT_TTL_SECONDS)


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _invalid(detail: str) -> NoReturn:
    abort_invalid_header(HEADER, detail)


def parse_key(raw: str) -> str:
    """The key from the header value: a structured-field String, or a bare token (422 otherwise)."""
    value = raw.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        inner, out, escaped = value[1:-1], [], False
        for char in inner:
            if escaped:
                if char not in '"\\':
                    _invalid('Idempotency-Key: only \\" and \\\\ may be escaped in a quoted string.')
                out.append(char)
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                _invalid("Idempotency-Key: an unescaped quote inside the quoted string.")
            else:
                out.append(char)
        if escaped:
            _invalid("Idempotency-Key: the quoted string ends in a lone backslash.")
        value = "".join(out)
    if not 1 <= len(value) <= MAX_KEY_LENGTH:
        _invalid(f"Idempotency-Key must be 1 to {MAX_KEY_LENGTH} characters.")
    if any(not " " <= c <= "~" for c in value):
        _invalid("Idempotency-Key must be printable ASCII.")
    return value


def fingerprint(method: str, path: str, body: bytes) -> str:
    """SHA-256 of method, path and the body (as canonical JSON when it parses, else raw bytes).

    The body is untrusted: it is decoded by the body parser's own :func:`decode_json` (whatever
    fails there is its ``JSONDecodeError``), and re-encoding a value nested deeper than the encoder
    allows (``RecursionError``) falls back to the raw bytes too; the schema then answers a 4xx."""
    try:
        canonical = json.dumps(decode_json(body), sort_keys=True, separators=(",", ":")).encode()
    except (ValueError, RecursionError):
        canonical = body
    return hashlib.sha256(method.encode() + b"\n" + path.encode() + b"\n" + canonical).hexdigest()


class _ReplayedError(Exception):
    """The claim found the key's stored answer: its transaction ends, rolled back, with it."""

    def __init__(self, response: flask.Response) -> None:
        super().__init__("replayed")
        self.response = response


@dataclass(frozen=True, slots=True)
class Answer:
    """A response to store with its key: status, the :data:`STORED_HEADERS`, the body (plain data).
    ``encoded``: the body as the app sends it, when the caller has encoded it already (for its own
    response: the body is then encoded once, not once more for storing)."""

    status: int
    headers: Mapping[str, str]
    body: Any
    encoded: bytes | None = None

    def sent(self) -> bytes:
        """The body as the app sends it (``app.json.response``: its encoder, its trailing newline)."""
        if self.encoded is not None:
            return self.encoded
        # flask types json.response as werkzeug's sans-IO Response; the app's is a flask.Response
        return cast(flask.Response, flask.current_app.json.response(self.body)).get_data()


@dataclass
class Claim:
    """A key this request holds, in its write transaction."""

    row_id: int
    completed: bool = field(default=False)

    def complete(self, session: Session, answer: Answer) -> None:
        """Store the answer, in the caller's write transaction. The body is stored as the app sends
        it (:meth:`Answer.sent`), so a replay is the first answer byte for byte."""
        values = {
            "row_id": self.row_id,
            "answer_status": answer.status,
            "answer_headers": dict(answer.headers),
            "answer_body": answer.sent().decode(),
        }
        session.connection().execute(_COMPLETE, values)
        self.completed = True


R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Completion(Generic[R]):
    """What a service needs to store a request's answer with its write: the request's claim, and
    ``answer``, which makes the answer from the service's result (a function of the result alone;
    the service's own transaction stores it, :meth:`store`)."""

    claim: Claim
    answer: Callable[[R], Answer]

    def store(self, session: Session, result: R) -> None:
        self.claim.complete(session, self.answer(result))


def completion(answer: Callable[[R], Answer]) -> Completion[R] | None:
    """The current request's :class:`Completion`, or ``None`` when it holds no key (most
    requests: the answer is then never made for storing)."""
    claim = current_claim()
    return None if claim is None else Completion(claim, answer)


def current_claim() -> Claim | None:
    """The key the current request holds, if it sent one."""
    claim: Claim | None = flask.g.get("idempotency_claim")
    return claim


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


def sweep_seconds() -> float:
    return _setting(SWEEP_ENV, DEFAULT_SWEEP_SECONDS)


def _sweep_if_due(session: Session, now: datetime) -> None:
    """Delete the expired keys, at most once every :func:`sweep_seconds` per process (a key found
    expired before then is replaced where it is found: :func:`_claim`)."""
    global _last_sweep
    moment = time.monotonic()
    if moment - _last_sweep >= sweep_seconds():
        session.connection().execute(_DELETE_EXPIRED, {"now": now})
        _last_sweep = moment


#: The statements every keyed request runs, built once, in Core on the table (no ORM on the path).
KEYS: SqlTable = IdempotencyKey.__table__  # type: ignore[assignment]
_ROW = ("id", "fingerprint", "status", "response_headers", "response_body", "created_at", "expires_at")
_FIND = select(*(KEYS.c[name] for name in _ROW)).where(
    KEYS.c.scope == bindparam("scope"), KEYS.c.key == bindparam("key")
)
_FIND_FOR_UPDATE = _FIND.with_for_update()
#: A row :data:`_FIND` reads.
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
#: ``INSERT ... ON CONFLICT (scope, key) DO NOTHING RETURNING id`` (``Database.insert_new``).
_INSERT_NEW = (KEYS, ("scope", "key"))


def _stored(session: Session, scope: str, key: str, print_: str) -> flask.Response | None:
    """The stored answer to the key, checked against this request (422 when it was another
    request), in the request's read transaction; ``None`` when there is none to replay."""
    row = session.connection().execute(_FIND, {"scope": scope, "key": key}).first()
    if row is None or _aware(row.expires_at) < datetime.now(UTC):
        return None
    _check_fingerprint(row, print_)
    return _replay(row) if row.status is not None else None


def _check_fingerprint(row: KeyRow, print_: str) -> None:
    if row.fingerprint != print_:
        abort_problem(
            422,
            "Idempotency-Key reused",
            "This Idempotency-Key was used for a different request (method, path or body); "
            "use a new key for a new request.",
            type_slug="idempotency-key-reused",
            errors=[
                {"parameter": HEADER, "code": "idempotency_key_reused", "detail": "the key belongs to another request"}
            ],
        )


def _insert_claim(
    db: Database, connection: Connection, scope: str, key: str, print_: str, now: datetime
) -> Claim | None:
    """A new claim of the key (``INSERT ... ON CONFLICT DO NOTHING``); ``None`` when a row holds the
    key already."""
    row_id = connection.execute(
        db.insert_new(*_INSERT_NEW),
        {
            "scope": scope,
            "key": key,
            "fingerprint": print_,
            "token": "",  # named the claim's process in earlier versions, which took claims over
            "created_at": now,
            "expires_at": now + timedelta(seconds=ttl_seconds()),
        },
    ).scalar()
    return None if row_id is None else Claim(row_id)


def _claim(db: Database, session: Session, scope: str, key: str, print_: str) -> Claim | flask.Response:
    """Claim the key in the request's write transaction ``session`` (``INSERT ... ON CONFLICT DO
    NOTHING``), or the stored answer to replay. The key is inserted first: a new key (the usual case)
    costs that one statement; one already there is then read, locked. A key inserted by a
    transaction this one cannot see (a concurrent request with the key) raises ``StaleDataError``
    (PostgreSQL: a serialization failure): the request's write runs again and finds that request's
    answer (``api/services/store.py`` retries)."""
    now = datetime.now(UTC)
    _sweep_if_due(session, now)
    connection = session.connection()
    claim = _insert_claim(db, connection, scope, key, print_, now)
    if claim is not None:
        return claim
    row = connection.execute(_FIND_FOR_UPDATE, {"scope": scope, "key": key}).first()
    if row is not None and (_aware(row.expires_at) < now or row.status is None):
        # expired, or claimed without an answer by an earlier version (a claim of this one is never
        # committed without its answer): the key is free
        connection.execute(_DELETE_ROW, {"row_id": row.id})
        row, claim = None, _insert_claim(db, connection, scope, key, print_, now)
    if row is None:
        if claim is None:
            raise StaleDataError("another request claimed the Idempotency-Key meanwhile")
        return claim
    _check_fingerprint(row, print_)
    return _replay(row)


def idempotent(
    view: Callable[..., Any] | None = None,
    *,
    before: Callable[..., None] | None = None,
    replayed: Callable[[Any], None] | None = None,
) -> Any:
    """Decorate a POST view (outermost): honour ``Idempotency-Key`` as described above.

    The view passes :func:`completion` to its service, which stores the answer inside its write
    transaction when the request succeeds; a request that does not complete its claim releases it.
    Needs ``flask.g.actor`` (set by the blueprint's authentication) for the key's scope.
    ``before(**view_kwargs)`` runs first, even for a replay: it raises when the request's target
    is gone (e.g. a deleted game: a replay must not answer 201 for it). ``replayed(body)`` runs on
    a replay with the stored answer's JSON body, and raises when what it created is gone (a game
    created with the key and since deleted: a 404, never a 201 whose ``Location`` is a 404).
    """
    if view is None:
        return functools.partial(idempotent, before=before, replayed=replayed)

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        raw = flask.request.headers.get(HEADER)
        if raw is None:
            return view(*args, **kwargs)
        if before is not None:
            before(**kwargs)
        key = parse_key(raw)
        db = get_db()
        request = flask.request
        scope = flask.g.actor.scope
        print_ = fingerprint(request.method, request.path, request.get_data())
        stored = None
        if not db.write_begun():  # else the claim finds a stored answer, in the transaction begun
            with db.session() as session:
                stored = _stored(session, scope, key, print_)  # a replay writes nothing

        def unit() -> Any:
            try:
                # run again after a lost race: a write whose reads lock the game (store.run_again)
                with db.write_session(locked=store_run_again()) as session:
                    outcome = _claim(db, session, scope, key, print_)
                    if isinstance(outcome, flask.Response):
                        raise _ReplayedError(outcome)  # rolled back: a replay commits nothing
                    flask.g.idempotency_claim = outcome
                    try:
                        response = view(*args, **kwargs)
                    finally:
                        flask.g.pop("idempotency_claim", None)
                    if not outcome.completed:  # no answer to keep (the view stored none): the key is free
                        session.connection().execute(_DELETE_ROW, {"row_id": outcome.row_id})
                    return response
            except _ReplayedError as replay:
                return replay.response

        if stored is None:
            stored = store_retrying(unit, db)
            if not isinstance(stored, flask.Response) or stored.headers.get("Idempotent-Replayed") != "true":
                return stored
        if replayed is not None and stored.status_code < 300:
            replayed(stored.get_json())
        return stored

    return wrapper
