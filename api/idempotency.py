"""``Idempotency-Key`` on POSTs (draft-ietf-httpapi-idempotency-key-header; docs/games-api.md).

The value is a structured-field String (``"8e03..."``; unquoted accepted), 1 to 255 printable ASCII
characters. Keys are stored per API key (or per anonymous store) with a fingerprint of the request
(SHA-256 of method, path and the body's canonical JSON) and, once the request succeeded, its
response (status, ``Location``, ``ETag``, body):

- a new key: the request runs; its 2xx answer is stored **in the same transaction** as the write,
  by the service that owns that transaction (:class:`Completion`), so a round can never be stored
  without its key, nor twice;
- the same key and body again: the stored response, with ``Idempotent-Replayed: true``;
- the same key with another method, path or body: 422 ``idempotency-key-reused``;
- the same key while its first request is still running: 409 ``idempotency-in-flight`` (retry it);
- a request that fails (4xx, 5xx) releases its key: sent again, it runs again.

Keys are kept ``HANDFOOT_IDEMPOTENCY_TTL_SECONDS`` (default 86400: 24 hours) after first use, then
purged. A key left in flight by a request that died is free at once: the claim's ``token`` names
the process that holds it (:func:`process_marker`: host, pid, start time), and a claim whose
process is gone, so whose transactions are gone, is taken over by the next request with the key
(:func:`holder_alive`). A claim held by a process on another host (several API hosts on one
PostgreSQL) is checked through the database: every claiming process holds an advisory lock named
after its marker (:mod:`handfoot.server.liveness`), so a free lock is a dead holder. Where neither can
tell (SQLite has one host; a token from before markers), the claim is taken over after
:data:`IN_FLIGHT_TAKEOVER_SECONDS`. Either way the dead request, if it ever resumed, could not
complete it (its token no longer matches).
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import secrets
import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Generic, TypeVar

import flask
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session

from handfoot.server import liveness
from handfoot.server.db import Database, get_db
from handfoot.server.models import IdempotencyKey
from handfoot.server.parsing import decode_json
from handfoot.server.problems import abort_problem

log = logging.getLogger(__name__)

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 255
DEFAULT_TTL_SECONDS = 24 * 60 * 60
TTL_ENV = "HANDFOOT_IDEMPOTENCY_TTL_SECONDS"
#: An in-flight key whose holder cannot be checked (:func:`claim_holder_alive` answers ``None``) and
#: older than this belongs to a request that died; a new request takes it over.
#: ``HANDFOOT_IDEMPOTENCY_TAKEOVER_SECONDS`` sets it (keep it above the slowest request: gunicorn's
#: ``timeout``).
IN_FLIGHT_TAKEOVER_SECONDS = 120
TAKEOVER_ENV = "HANDFOOT_IDEMPOTENCY_TAKEOVER_SECONDS"


def _setting(name: str, default: float) -> float:
    """A positive number of seconds from the app's config or the environment; ``default`` when
    unset, not a number, or not positive."""
    configured = flask.current_app.config.get(name) or os.environ.get(name)
    try:
        value = float(configured) if configured else default
    except ValueError:
        value = default
    return value if value > 0 else default


def takeover_seconds() -> float:
    return _setting(TAKEOVER_ENV, IN_FLIGHT_TAKEOVER_SECONDS)


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
    "while the first request runs, a 409 (idempotency-in-flight). Successful responses are kept "
    "24 hours (HANDFOOT_IDEMPOTENCY_TTL_SECONDS); a failed request releases its key.",
    "schema": {"type": "string", "maxLength": MAX_KEY_LENGTH},
}


def _host_id() -> str:
    """This host's id in a claim: its name and boot (so one machine's namespaces share it, and a
    reboot, after which every pid is new, changes it)."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        boot = ""
    return hashlib.sha256(f"{socket.gethostname()}\n{boot}".encode()).hexdigest()[:12]


def _start_time(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot, /proc/<pid>/stat field 22): a pid
    reused by a new process has another. ``"dead"`` for a process that has exited and not yet
    been reaped (state Z or X); ``None`` where /proc cannot say."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()  # the fields after "(comm)": state is field 3
    return "dead" if fields[0] in ("Z", "X") else fields[19]


@functools.cache
def _marker_of(pid: int) -> str:
    return f"{_host_id()}-{pid}-{_start_time(pid) or 0}"


def process_marker() -> str:
    """``<host id>-<pid>-<start time>`` of this process: the first part of every token it claims
    with (a forked worker has its own pid, hence its own marker)."""
    return _marker_of(os.getpid())


def new_token() -> str:
    """A claim's token: this process's marker and 16 random hex digits (at most 64 characters)."""
    return f"{process_marker()}.{secrets.token_hex(8)}"


def holder_alive(token: str) -> bool | None:
    """Whether the process that claimed with ``token`` is still running: ``False`` when it is
    gone (its pid is free, or now another process's), ``True`` when it runs, ``None`` when this
    host cannot tell (another host's claim, or a token from before markers)."""
    marker, _, _random = token.rpartition(".")
    host, _, rest = marker.partition("-")
    pid_text, _, started = rest.partition("-")
    if host != _host_id() or not pid_text.isdigit():
        return None
    pid = int(pid_text)
    try:
        os.kill(pid, 0)  # signal 0: no signal sent, only whether the pid exists
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # it exists, run by another user
    now_started = _start_time(pid)
    return not (now_started is not None and started not in ("0", now_started))


def claim_holder_alive(db: Database, token: str) -> bool | None:
    """Whether the claim ``token``'s process runs: :func:`holder_alive` on this host; on PostgreSQL,
    another host's holder through its liveness lock; ``None`` where neither can tell."""
    alive = holder_alive(token)
    marker = token.rpartition(".")[0]
    if alive is not None or db.is_sqlite or marker.count("-") != 2:
        return alive
    return liveness.for_engine(db.engine).alive(marker)


def _new_claim_token(db: Database) -> str:
    """A token for a claim by this process; on PostgreSQL, first the process's liveness lock."""
    if not db.is_sqlite:
        liveness.for_engine(db.engine).hold(process_marker())
    return new_token()


def ttl_seconds() -> float:
    return _setting(TTL_ENV, DEFAULT_TTL_SECONDS)


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _invalid(detail: str) -> None:
    abort_problem(422, "Invalid Idempotency-Key", detail, type_slug="validation-error",
                  errors=[{"parameter": HEADER, "code": "invalid_value", "detail": detail}])


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


class IdempotencyLostError(Exception):
    """The claimed key was taken over by another request: this one must not commit."""


@dataclass(frozen=True, slots=True)
class Answer:
    """A response to store with its key: status, the :data:`STORED_HEADERS`, the body (plain data)."""

    status: int
    headers: Mapping[str, str]
    body: Any


@dataclass
class Claim:
    """A key this request holds in flight."""

    row_id: int
    token: str
    completed: bool = field(default=False)

    def complete(self, session: Session, answer: Answer) -> None:
        """Store the answer, in the caller's write transaction. The body is stored as the app sends
        it (``app.json.response``: its encoder, its trailing newline), so a replay is the first
        answer byte for byte. Raises :class:`IdempotencyLostError` when the key was taken over."""
        sent = flask.current_app.json.response(answer.body).get_data(as_text=True)
        result = session.execute(
            update(IdempotencyKey)
            .where(IdempotencyKey.id == self.row_id, IdempotencyKey.token == self.token,
                   IdempotencyKey.status.is_(None))
            .values(status=answer.status, response_headers=dict(answer.headers), response_body=sent)
        )
        if result.rowcount != 1:  # type: ignore[attr-defined]
            raise IdempotencyLostError()
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


def _replay(row: IdempotencyKey) -> flask.Response:
    response = flask.current_app.response_class(row.response_body, status=row.status, mimetype="application/json")
    for name, value in (row.response_headers or {}).items():
        response.headers[name] = value
    response.headers["Idempotent-Replayed"] = "true"
    return response


def _claim(db: Database, scope: str, key: str, print_: str) -> Claim | flask.Response:
    now = datetime.now(UTC)
    for _attempt in range(3):
        try:
            with db.write_session() as session:
                session.execute(delete(IdempotencyKey).where(IdempotencyKey.expires_at < now))
                row = session.scalars(
                    select(IdempotencyKey).where(IdempotencyKey.scope == scope, IdempotencyKey.key == key)
                    .with_for_update()
                ).first()
                if row is None:
                    token = _new_claim_token(db)
                    row = IdempotencyKey(scope=scope, key=key, fingerprint=print_, token=token, created_at=now,
                                         expires_at=now + timedelta(seconds=ttl_seconds()))
                    session.add(row)
                    session.flush()
                    return Claim(row.id, token)
                if row.fingerprint != print_:
                    abort_problem(
                        422, "Idempotency-Key reused",
                        "This Idempotency-Key was used for a different request (method, path or body); "
                        "use a new key for a new request.", type_slug="idempotency-key-reused",
                        errors=[{"parameter": HEADER, "code": "idempotency_key_reused",
                                 "detail": "the key belongs to another request"}])
                if row.status is not None:
                    return _replay(row)
                alive = claim_holder_alive(db, row.token)
                timed_out = now - _aware(row.created_at) >= timedelta(seconds=takeover_seconds())
                if alive or (alive is None and not timed_out):
                    abort_problem(
                        409, "Request in flight",
                        "The first request with this Idempotency-Key is still running; retry shortly.",
                        type_slug="idempotency-in-flight", retry_after=1,
                        errors=[{"parameter": HEADER, "code": "idempotency_in_flight",
                                 "detail": "a request with this key is running"}])
                row.token = _new_claim_token(db)  # its holder is gone: this request takes the key over
                row.created_at = now
                return Claim(row.id, row.token)
        except IntegrityError:
            continue  # another request inserted the same key first: read it again
    abort_problem(409, "Request in flight", "Another request with this Idempotency-Key is running.",
                  type_slug="idempotency-in-flight", retry_after=1)


def _release(db: Database, claim: Claim) -> None:
    try:
        with db.write_session() as session:
            session.execute(delete(IdempotencyKey).where(
                IdempotencyKey.id == claim.row_id, IdempotencyKey.token == claim.token,
                IdempotencyKey.status.is_(None)))
    except SQLAlchemyError:  # the database is down: the key is taken over after the timeout
        log.warning("could not release Idempotency-Key %s", claim.row_id, exc_info=True)


def idempotent(view: Callable[..., Any] | None = None, *,
               before: Callable[..., None] | None = None,
               replayed: Callable[[Any], None] | None = None) -> Any:
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
        outcome = _claim(db, flask.g.actor.scope, key, fingerprint(request.method, request.path, request.get_data()))
        if isinstance(outcome, flask.Response):
            if replayed is not None and outcome.status_code < 300:
                replayed(outcome.get_json())
            return outcome
        flask.g.idempotency_claim = outcome
        try:
            response = view(*args, **kwargs)
        except BaseException:
            _release(db, outcome)
            raise
        if not outcome.completed:
            _release(db, outcome)
        return response

    return wrapper
