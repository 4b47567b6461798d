"""Database: SQLAlchemy 2 engine and sessions, created lazily (spec generation needs no database;
each gunicorn worker builds its own pool); ``Base`` for the models.

SQLite: on every connection ``journal_mode=WAL``, ``foreign_keys=ON`` and ``synchronous``
(:func:`sqlite_pragmas`); ``timeout`` (``HANDFOOT_SQLITE_BUSY_TIMEOUT``, seconds) bounds a writer's
wait for the lock ("database is locked": a 503). Transactions are begun by SQLAlchemy, not the
sqlite3 module (the pysqlite recipe; STYLE P2), so a write can begin with ``BEGIN IMMEDIATE``.
PostgreSQL: psycopg 3, ``REPEATABLE READ``.

One session per request or app context: :meth:`Database.session` for reads,
:meth:`Database.write_session` for a write transaction, closed when the context ends. Every
backend difference of the server is in this package: here (:attr:`Database.is_sqlite`), and the
table wake-ups' channels between processes (:mod:`handfoot.server.db.channels`).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import flask
from sqlalchemy import (
    Connection,
    Engine,
    Insert,
    MetaData,
    Table,
    bindparam,
    create_engine,
    event,
    insert,
    make_url,
    select,
    text,
    union_all,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

from handfoot.server import jsonio
from handfoot.server.config import normalize_database_url, sqlite_synchronous_from_env
from handfoot.server.db import channels

#: Stable constraint names, so migrations are reviewable and IntegrityErrors can be mapped by name
#: (STYLE P3).
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base of every model; its metadata is alembic's ``target_metadata``."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


def sqlite_pragmas(synchronous: str | None = None) -> tuple[str, ...]:
    """The PRAGMAs of every new SQLite connection. ``synchronous`` (default ``HANDFOOT_SQLITE_SYNCHRONOUS``,
    else ``FULL``): ``FULL`` syncs the WAL before ``COMMIT`` returns (an acknowledged write survives a
    power cut); ``NORMAL`` only at checkpoints (the last commits may be lost on power loss, never on a
    process crash). Raises ``ValueError`` for another level."""
    level = sqlite_synchronous_from_env(None if synchronous is None else {"HANDFOOT_SQLITE_SYNCHRONOUS": synchronous})
    return ("PRAGMA journal_mode=WAL", "PRAGMA foreign_keys=ON", f"PRAGMA synchronous={level}")


def _pragma_setter(pragmas: tuple[str, ...]) -> Callable[[Any, Any], None]:
    def set_sqlite_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
        # sqlite3 opens a transaction only before DML (Python 3.11's legacy control), so these run
        # outside one (inside one, foreign_keys and journal_mode are no-ops).
        cursor = dbapi_connection.cursor()
        try:
            for pragma in pragmas:
                cursor.execute(pragma)
        finally:
            cursor.close()
        # From here on, SQLAlchemy's begin event starts transactions (see _sqlite_begin).
        dbapi_connection.isolation_level = None

    return set_sqlite_pragmas


#: The errors of a database that is down, unreachable, locked past its busy timeout, or whose pool is
#: exhausted: each a 503 with Retry-After (``problems.database_down``), at any point of a request.
DATABASE_DOWN = (OperationalError, InterfaceError, PoolTimeoutError)

failures_log = logging.getLogger("handfoot.server.database")
_LOGGED = "handfoot.database_failure_logged"


def failure_reason(error: BaseException) -> str:
    """The first line of the driver's message for a database error, else the error's type's name."""
    text = str(getattr(error, "orig", None) or error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def log_failure(error: BaseException) -> None:
    """Log a database failure once per request (WARNING on ``handfoot.server.database``, the driver's
    first line: never sent to the client)."""
    in_request = flask.has_request_context()
    if in_request and flask.request.environ.get(_LOGGED):
        return
    if in_request:
        flask.request.environ[_LOGGED] = True
    cause = getattr(error, "orig", None) or error
    failures_log.warning("database unavailable: %s: %s", type(cause).__name__, failure_reason(cause))


def close_quietly(session: Session) -> None:
    """Close ``session`` once its answer is sent: a failed rollback is logged (:func:`log_failure`)."""
    try:
        _close(session)
    except DATABASE_DOWN as err:
        log_failure(err)


def _close(session: Session) -> None:
    """Close ``session``; a rollback failed by a dead database drops the connection and raises."""
    try:
        session.close()
    except DATABASE_DOWN:
        with contextlib.suppress(Exception):
            session.invalidate()
        raise


#: ``Session.info`` key of the :class:`Database` a session belongs to.
SESSION_DATABASE = "handfoot_database"

#: Execution option: begin the transaction with ``BEGIN IMMEDIATE`` (SQLite; ignored elsewhere).
SQLITE_IMMEDIATE = "handfoot_sqlite_immediate"


def _sqlite_begin(connection: Any) -> None:
    immediate = connection.get_execution_options().get(SQLITE_IMMEDIATE, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def make_engine(url: str, *, sqlite_synchronous: str | None = None, **kwargs: Any) -> Engine:
    """Create an engine for ``url`` with this project's per-dialect settings (SQLite: the PRAGMAs
    of :func:`sqlite_pragmas` for ``sqlite_synchronous``; raises ``ValueError`` for a bad level)."""
    sa_url = make_url(normalize_database_url(url))
    connect_args: dict[str, Any] = dict(kwargs.pop("connect_args", {}))
    if sa_url.get_backend_name() == "sqlite":
        file = sqlite_file(url)
        if file is not None:
            # on OSError, connecting fails with sqlite3's OperationalError: a 503, not a crash here
            with contextlib.suppress(OSError):
                file.parent.mkdir(parents=True, exist_ok=True)
        connect_args.setdefault("timeout", 15)
        connect_args.setdefault("check_same_thread", False)
        pragmas = sqlite_pragmas(sqlite_synchronous)
        engine = create_engine(sa_url, connect_args=connect_args, **_json_io(kwargs))
        event.listen(engine, "connect", _pragma_setter(pragmas))
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    if sa_url.get_backend_name() == "postgresql":
        if "connect_timeout" not in sa_url.query:
            connect_args.setdefault("connect_timeout", 10)
        kwargs.setdefault("pool_pre_ping", True)
    return create_engine(sa_url, connect_args=connect_args, **_json_io(kwargs))


def sqlite_file(url: str) -> Path | None:
    """The file of the SQLite database ``url``, a path or SQLite's URI filename (``file:PATH`` with
    ``uri=true``); ``None`` for another backend or an in-memory database."""
    sa_url = make_url(normalize_database_url(url))
    database = sa_url.database or ""
    if sa_url.get_backend_name() != "sqlite":
        return None
    if sa_url.query.get("uri") == "true" and database.startswith("file:"):
        if sa_url.query.get("mode") == "memory":
            return None
        database = urlsplit(database).path
    if database in ("", ":memory:"):
        return None
    return Path(database).expanduser()


def describe_database(url: str) -> str:
    """One line naming the database: the SQLite file's path, or the URL without its password."""
    sa_url = make_url(normalize_database_url(url))
    if sa_url.get_backend_name() == "sqlite":
        return f"SQLite database file: {sa_url.database}"
    return f"database: {sa_url.render_as_string(hide_password=True)}"


def _json_io(kwargs: dict[str, Any]) -> dict[str, Any]:
    """JSON columns written and read by orjson (api/jsonio.py), unless the caller chose otherwise."""
    return {"json_serializer": jsonio.dumps, "json_deserializer": jsonio.loads, **kwargs}


class Database:
    """The app's database: holds the URL; builds engine and sessionmaker on first use."""

    def __init__(self, url: str, *, sqlite_timeout: float = 15, sqlite_synchronous: str | None = None) -> None:
        self.url = normalize_database_url(url)
        self.sqlite_timeout = sqlite_timeout
        self.sqlite_synchronous = sqlite_synchronous
        self._engine: Engine | None = None
        self._key = f"handfoot_session_{id(self)}"  # flask.g's name of the context's session

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            kwargs: dict[str, Any] = {}
            if self.is_sqlite:
                kwargs = {
                    "connect_args": {"timeout": self.sqlite_timeout},
                    "sqlite_synchronous": self.sqlite_synchronous,
                }
            self._engine = make_engine(self.url, **kwargs)
        return self._engine

    @functools.cached_property
    def is_sqlite(self) -> bool:
        """Parsed on first use, like the engine (a bad URL fails there)."""
        return make_url(self.url).get_backend_name() == "sqlite"

    @functools.cached_property
    def sessionmaker(self) -> sessionmaker[Session]:
        """Sessions in ``REPEATABLE READ`` on PostgreSQL: every statement of a transaction sees its first
        one's snapshot, as in SQLite's WAL mode."""
        bind = self.engine if self.is_sqlite else self.engine.execution_options(isolation_level="REPEATABLE READ")
        return sessionmaker(bind, expire_on_commit=False, info={SESSION_DATABASE: self})

    def _context_session(self) -> Session | None:
        """The app context's session (made on first use); ``None`` outside an app context."""
        if not flask.has_app_context():
            return None
        session: Session | None = flask.g.get(self._key)
        if session is None:
            session = self.sessionmaker()
            setattr(flask.g, self._key, session)
        return session

    def end_session(self, _exc: BaseException | None = None, *, quietly: bool = False) -> None:
        """End the context's session (rolled back, its connection returned); raises one of
        :data:`DATABASE_DOWN` when its rollback fails, unless ``quietly`` (after the answer: logged)."""
        session: Session | None = flask.g.pop(self._key, None) if flask.has_app_context() else None
        if session is not None:
            (close_quietly if quietly else _close)(session)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """For reads: the app context's session (one snapshot until a write or the context's end), else
        a session of its own. A failed statement rolls back."""
        session = self._context_session()
        if session is None:
            with self.sessionmaker.begin() as own:
                yield own
            return
        try:
            yield session
        except BaseException:
            session.rollback()
            raise

    @contextmanager
    def write_session(self, *, locked: bool = False) -> Iterator[Session]:
        """One write transaction on the context's session (else one of its own), committed at the
        block's end, rolled back on error (``services.store.write`` runs it again after a lost race).

        SQLite: ``BEGIN IMMEDIATE`` (a read transaction held is rolled back first: SQLite cannot turn
        it into a write once another writer committed), waiting up to the busy timeout, then
        ``OperationalError`` "database is locked". PostgreSQL: the session's ``REPEATABLE READ``
        transaction, where a row changed since the snapshot fails with a serialization failure.
        ``locked`` (PostgreSQL): ``READ COMMITTED``, so a ``FOR UPDATE`` read waiting for a writer
        reads what it committed (in ``REPEATABLE READ`` that wait ends in a serialization failure)."""
        session = self._context_session()
        own = session is None
        if session is None:
            session = self.sessionmaker()
        try:
            if session.in_transaction() and self.is_sqlite:
                connection = session.connection()
                connection.exec_driver_sql("ROLLBACK")
                connection.exec_driver_sql("BEGIN IMMEDIATE")
                session.expire_all()
            else:
                if session.in_transaction() and locked:
                    session.rollback()  # it only read: its snapshot would fail the locked read
                if not session.in_transaction():
                    options = {SQLITE_IMMEDIATE: True} if self.is_sqlite else {"isolation_level": "READ COMMITTED"}
                    session.connection(execution_options=options if self.is_sqlite or locked else None)
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise
        finally:
            if own:
                session.close()

    def channel(self) -> channels.Channel:
        """A new channel of table wake-ups between processes (``wakeups.Wakeups``'): PostgreSQL's
        ``LISTEN``/``NOTIFY``, datagrams beside a SQLite file, none for an in-memory database."""
        if not self.is_sqlite:
            return channels.PostgresChannel(self.engine)
        file = sqlite_file(self.url)
        return channels.Channel() if file is None else channels.SocketChannel(channels.socket_folder(file))

    def ping(self) -> None:
        """Run ``SELECT 1``; raises ``sqlalchemy.exc.SQLAlchemyError`` if unreachable."""
        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    def probe_write_lock(self, timeout: float = 1.0) -> None:
        """SQLite: take the write lock and let it go (``BEGIN IMMEDIATE; ROLLBACK``) within ``timeout``
        seconds, else ``OperationalError`` ("database is locked"): what a write would meet. Else a no-op."""
        if not self.is_sqlite:
            return
        with self.engine.connect() as connection:
            raw = connection.connection.dbapi_connection
            assert raw is not None
            try:
                raw.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
                raw.execute("BEGIN IMMEDIATE")
                raw.execute("ROLLBACK")
            except sqlite3.OperationalError as err:
                raise OperationalError("BEGIN IMMEDIATE", None, err) from err
            finally:
                raw.execute(f"PRAGMA busy_timeout={int(self.sqlite_timeout * 1000)}")

    def dispose(self) -> None:
        """Close the pool and stop the table wake-ups' listener (tests; gunicorn ``post_fork`` with
        ``--preload``)."""
        from handfoot.server import wakeups  # it imports this module

        wakeups.close(self)
        if self._engine is not None:
            self._engine.dispose()


def insert_new(table: Table, keys: tuple[str, ...]) -> Insert:
    """``INSERT ... ON CONFLICT (keys) DO NOTHING RETURNING id`` into ``table`` (no row where one holds
    the keys already): one statement for both databases, whose SQLAlchemy compilers write this clause
    alike (SQLite 3.24+, PostgreSQL 9.5+; every keyed test runs on both)."""
    return pg_insert(table).on_conflict_do_nothing(index_elements=list(keys)).returning(table.c.id)


def insert_rows(connection: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """Insert ``rows`` (each a mapping of ``table``'s columns, all with the same members) into
    ``table`` as one statement: a driver's executemany is a round trip a row on PostgreSQL."""
    columns = tuple(rows[0])
    params = {f"{column}_{k}": row[column] for k, row in enumerate(rows) for column in columns}
    connection.execute(_insert_rows(table, columns, len(rows)), params)


@functools.cache
def _insert_rows(table: Table, columns: tuple[str, ...], count: int) -> Insert:
    """``INSERT INTO table (columns) SELECT ... UNION ALL SELECT ...``, ``count`` rows whose values
    are bound as ``<column>_<row>``: standard SQL on both databases, built once per shape and
    compiled once (SQLAlchemy caches no multi-row ``VALUES`` clause)."""
    rows = [select(*(bindparam(f"{c}_{k}", type_=table.c[c].type) for c in columns)) for k in range(count)]
    return insert(table).from_select(columns, union_all(*rows) if count > 1 else rows[0])


EXTENSION_KEY = "handfoot.db"


def init_app(app: flask.Flask) -> Database:
    """Attach a :class:`Database` for ``app.config["DATABASE_URL"]``; no connection is made."""
    database = Database(
        app.config["DATABASE_URL"],
        sqlite_timeout=app.config.get("SQLITE_BUSY_TIMEOUT", 15),
        sqlite_synchronous=app.config.get("SQLITE_SYNCHRONOUS"),
    )
    app.extensions[EXTENSION_KEY] = database
    # A request's session ends with it, also when it shares an app context pushed around it (tests,
    # scripts: Flask reuses that context for the request); a CLI command's ends with its context.
    close = functools.partial(database.end_session, quietly=True)
    app.teardown_request(close)
    app.teardown_appcontext(close)
    return database


def get_db(app: flask.Flask | None = None) -> Database:
    """The :class:`Database` of ``app`` (default: the current app)."""
    target = app if app is not None else flask.current_app
    database: Database = target.extensions[EXTENSION_KEY]
    return database
