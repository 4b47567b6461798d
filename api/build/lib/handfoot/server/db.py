"""Database: SQLAlchemy 2 engine and sessions, created lazily; ``Base`` for the models.

``create_app`` only builds a :class:`Database` holding the URL; the engine is created on first use
(so spec generation needs no database, and each gunicorn worker builds its own pool).

SQLite gets, on every new connection, ``journal_mode=WAL``, ``foreign_keys=ON`` and
``synchronous=NORMAL``; ``timeout=15`` makes a writer wait up to 15 s for the lock, and
``check_same_thread=False`` lets the pool hand a connection to another thread. PostgreSQL uses
psycopg 3 (``postgresql+psycopg://``).

SQLite transactions are begun by SQLAlchemy, not by the sqlite3 module (the documented pysqlite
recipe: ``isolation_level = None`` on connect, ``BEGIN`` emitted on the engine's ``begin`` event;
STYLE P2). :meth:`Database.write_session` begins with ``BEGIN IMMEDIATE``, so a write transaction
holds SQLite's write lock from its first statement: concurrent writers queue on the busy timeout
instead of failing with "database is locked" when a read lock cannot be upgraded.
:attr:`Database.read_engine` serves reads of one statement with no transaction around them
(autocommit), saving a ``BEGIN`` and a ``ROLLBACK`` (round trips, on PostgreSQL) per read.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import flask
from sqlalchemy import Connection, Engine, MetaData, create_engine, event, make_url, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

from handfoot.server import jsonio
from handfoot.server.config import normalize_database_url

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


SQLITE_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA foreign_keys=ON",
    "PRAGMA synchronous=NORMAL",
)


def _set_sqlite_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
    # Under Python 3.11's legacy transaction control the sqlite3 module opens a transaction only
    # before DML, so these PRAGMAs run outside one (inside one, foreign_keys and journal_mode are
    # no-ops).
    cursor = dbapi_connection.cursor()
    try:
        for pragma in SQLITE_PRAGMAS:
            cursor.execute(pragma)
    finally:
        cursor.close()
    # From here on, SQLAlchemy's begin event starts transactions (see _sqlite_begin).
    dbapi_connection.isolation_level = None


#: Execution option: begin the transaction with ``BEGIN IMMEDIATE`` (SQLite; ignored elsewhere).
SQLITE_IMMEDIATE = "handfoot_sqlite_immediate"


#: Execution option: emit no ``BEGIN``, so each statement is its own transaction (SQLite; for reads of
#: one statement, see :attr:`Database.read_engine`).
SQLITE_AUTOCOMMIT = "handfoot_sqlite_autocommit"


def _sqlite_begin(connection: Any) -> None:
    options = connection.get_execution_options()
    if options.get(SQLITE_AUTOCOMMIT, False):
        return
    connection.exec_driver_sql("BEGIN IMMEDIATE" if options.get(SQLITE_IMMEDIATE, False) else "BEGIN")


def make_engine(url: str, **kwargs: Any) -> Engine:
    """Create an engine for ``url`` with this project's per-dialect settings."""
    sa_url = make_url(normalize_database_url(url))
    connect_args: dict[str, Any] = dict(kwargs.pop("connect_args", {}))
    if sa_url.get_backend_name() == "sqlite":
        database = sa_url.database or ""
        in_memory = database in ("", ":memory:") or database.startswith("file::memory:")
        if not in_memory:
            try:
                Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
            except OSError:
                pass  # connecting fails with sqlite3's OperationalError: a 503, not a crash here
        connect_args.setdefault("timeout", 15)
        connect_args.setdefault("check_same_thread", False)
        engine = create_engine(sa_url, connect_args=connect_args, **_json_io(kwargs))
        event.listen(engine, "connect", _set_sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    if sa_url.get_backend_name() == "postgresql":
        if "connect_timeout" not in sa_url.query:
            connect_args.setdefault("connect_timeout", 10)
        kwargs.setdefault("pool_pre_ping", True)
    return create_engine(sa_url, connect_args=connect_args, **_json_io(kwargs))


def _json_io(kwargs: dict[str, Any]) -> dict[str, Any]:
    """JSON columns written by orjson (api/jsonio.py), unless the caller chose otherwise."""
    return {"json_serializer": jsonio.dumps, **kwargs}


class Database:
    """The app's database: holds the URL; builds engine and sessionmaker on first use."""

    def __init__(self, url: str, *, sqlite_timeout: float = 15) -> None:
        self.url = normalize_database_url(url)
        self.sqlite_timeout = sqlite_timeout
        self._is_sqlite: bool | None = None
        self._engine: Engine | None = None
        self._read_engine: Engine | None = None
        self._sessionmaker: sessionmaker[Session] | None = None
        self._queue: str | None = None
        self._write_engine: Engine | None = None

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            kwargs = {"connect_args": {"timeout": self.sqlite_timeout}} if self.is_sqlite else {}
            self._engine = make_engine(self.url, **kwargs)
        return self._engine

    @property
    def read_engine(self) -> Engine:
        """For reads of one statement each, which need no transaction around them (a statement
        reads one consistent snapshot): never for writes. On PostgreSQL the engine in autocommit
        (no ``BEGIN`` and ``ROLLBACK`` round trips around the statement, two of the four an API-key
        check made); on SQLite the engine without its ``BEGIN`` (not pysqlite's ``AUTOCOMMIT``
        isolation level: switching it back on check-in would undo ``isolation_level = None``)."""
        if self._read_engine is None:
            self._read_engine = self.engine.execution_options(
                **({SQLITE_AUTOCOMMIT: True} if self.is_sqlite else {"isolation_level": "AUTOCOMMIT"}))
        return self._read_engine

    @contextmanager
    def reader(self) -> Iterator[Connection]:
        """A :attr:`read_engine` connection shared by the reads of one request (an app context):
        checked out on first use, returned when the context ends (:meth:`release_reader`). On
        PostgreSQL each checkout is a ping (``pool_pre_ping``), so the API-key check and an append's
        read of its game share one. Outside an app context (the CLI, scripts), a connection of its
        own. A statement that fails drops the shared connection (it is returned to the pool), so the
        next read gets a fresh one. A write (:meth:`write_session`, :meth:`write_connection`) ends the
        request's hold on it: on SQLite the write runs on it, on PostgreSQL it is returned first."""
        if not flask.has_app_context():
            with self.read_engine.connect() as connection:
                yield connection
            return
        key = self._reader_key
        connection = flask.g.get(key)
        if connection is None:
            connection = self.read_engine.connect()
            setattr(flask.g, key, connection)
        in_use = f"{key}_in_use"
        setattr(flask.g, in_use, flask.g.get(in_use, 0) + 1)
        try:
            yield connection
        except BaseException:
            self.release_reader()
            raise
        finally:
            setattr(flask.g, in_use, flask.g.get(in_use, 1) - 1)

    def release_reader(self, _exc: BaseException | None = None) -> None:
        """Return the request's :meth:`reader` connection to the pool, if it took one."""
        if not flask.has_app_context():
            return
        connection = flask.g.pop(self._reader_key, None)
        if connection is not None:
            connection.close()

    def _reader_idle(self) -> bool:
        """In a request, and not inside a ``reader()`` block (which still uses the connection)."""
        return flask.has_app_context() and not flask.g.get(f"{self._reader_key}_in_use", 0)

    def _release_idle_reader(self) -> None:
        """:meth:`release_reader` before another connection is taken (a write, a read session),
        unless a ``reader()`` block still uses it."""
        if self._reader_idle():
            self.release_reader()

    def _take_idle_reader(self) -> Connection | None:
        """SQLite: the request's idle :meth:`reader` connection, taken from the request for a write
        (one pool checkout per append, not two); ``None`` when there is none, or on PostgreSQL (where
        it is returned to the pool: its connection is in autocommit)."""
        if not self.is_sqlite or not self._reader_idle():
            self._release_idle_reader()
            return None
        connection: Connection | None = flask.g.pop(self._reader_key, None)
        return connection

    @property
    def _reader_key(self) -> str:
        return f"handfoot_reader_{id(self)}"

    @property
    def sessionmaker(self) -> sessionmaker[Session]:
        """Sessions for :meth:`session`: on PostgreSQL in ``REPEATABLE READ``, so every statement of
        a read sees the snapshot its first one saw (a game's row and its rounds agree), as a SQLite
        read transaction in WAL mode does; ``READ COMMITTED`` gave each statement its own."""
        if self._sessionmaker is None:
            bind = self.engine if self.is_sqlite else self.engine.execution_options(isolation_level="REPEATABLE READ")
            self._sessionmaker = sessionmaker(bind, expire_on_commit=False)
        return self._sessionmaker

    @property
    def is_sqlite(self) -> bool:
        if self._is_sqlite is None:  # parsed on first use, like the engine (a bad URL fails there)
            self._is_sqlite = make_url(self.url).get_backend_name() == "sqlite"
        return self._is_sqlite

    @contextmanager
    def write_session(self) -> Iterator[Session]:
        """Like :meth:`session`, for a transaction that writes: on SQLite it begins with
        ``BEGIN IMMEDIATE`` (the write lock is taken first, so writers queue on the busy timeout).
        Flushed, then committed on success; rolled back on error (:meth:`write_connection`)."""
        with self.write_connection() as connection, Session(connection, expire_on_commit=False) as session:
            yield session
            session.flush()  # the connection's transaction commits; the session joined it, never ends it

    @contextmanager
    def write_connection(self) -> Iterator[Connection]:
        """:meth:`write_session` without the ORM: a Core connection in a write transaction,
        committed on success, rolled back on error (for writes made of Core statements: an append).

        The connection is in hand before the writers' turn is taken (:meth:`_writers_queue`), and
        returned to the pool after the turn is given back: whoever holds the turn never waits for
        the pool (threads holding connections while they wait for the turn would otherwise starve
        it), and holds it only from ``BEGIN IMMEDIATE`` to ``COMMIT``. On SQLite the request's idle
        :meth:`reader` connection is the one used (one pool checkout per append, not two); on
        PostgreSQL the reader, in autocommit, is returned first."""
        if self._write_engine is None:
            self._write_engine = self.engine.execution_options(**{SQLITE_IMMEDIATE: True})
        connection = self._take_idle_reader()
        if connection is None:
            connection = self._write_engine.connect()
        else:  # its reads left SQLAlchemy's (autobegun, never BEGUN) transaction open: end it, then
            # make it begin with BEGIN IMMEDIATE (execution_options changes a Connection in place)
            connection.rollback()
            connection.execution_options(**{SQLITE_AUTOCOMMIT: False, SQLITE_IMMEDIATE: True})
        with connection, self._writers_queue(), connection.begin():
            yield connection

    @contextmanager
    def _writers_queue(self, timeout: float | None = None) -> Iterator[None]:
        """SQLite on a file: take this database's writers' turn, an OS lock (``flock`` on
        ``<file>-writers.lock``), before ``BEGIN IMMEDIATE``, so the app's writers in every process
        and thread take turns and the next one starts within ~0.1 ms of the previous commit.

        SQLite's own busy handler sleeps 1, 2, 5, 10... ms between tries while a write transaction takes a
        few hundred µs, so two workers that collided lost milliseconds (docs/performance.md). A waiting
        writer first tries again at once, yielding the CPU between tries (``os.sched_yield``), for 0.5 ms: a
        turn lasts ~0.2-0.3 ms, and on a shared virtual machine a ``time.sleep(0.0001)`` lasted 0.18 ms, so
        a sleeping writer woke well after the turn was free. Then it tries every 0.1 ms until 20 ms, then
        every 1 ms. Turns are not handed out in order of arrival, as SQLite's are not either. SQLite's lock
        stays the guard: anything else writing (the ``flask keys`` CLI, alembic) does not take turns here,
        and a writer that has its turn can still wait for SQLite's lock up to the busy timeout. A writer
        waits at most ``timeout`` (default: the busy timeout) for its turn, then raises what SQLite raises
        when its own wait runs out (``OperationalError`` "database is locked": a 503 from the routes). A
        process that dies holding its turn releases it with its file."""
        limit = self.sqlite_timeout if timeout is None else timeout
        path = self._queue_path()
        if path is None:
            yield
            return
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)  # one open file per turn: threads queue too
        try:
            start = time.monotonic()
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    waited = time.monotonic() - start
                    if waited >= limit:  # what SQLite says when its busy timeout runs out
                        raise OperationalError("BEGIN IMMEDIATE", None,
                                               sqlite3.OperationalError("database is locked")) from None
                    if waited < 0.0005:  # within a turn's length: yield, as a sleep outlasts it
                        os.sched_yield()
                    else:
                        time.sleep(0.0001 if waited < 0.02 else 0.001)
            yield
        finally:
            os.close(fd)  # releases the flock

    def _queue_path(self) -> str | None:
        if self._queue is None:
            database = make_url(self.url).database or "" if self.is_sqlite else ""
            in_memory = database in ("", ":memory:") or database.startswith("file:")
            self._queue = "" if in_memory else str(Path(database).expanduser()) + "-writers.lock"
        return self._queue or None

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session in a transaction (one snapshot for all its reads: :attr:`sessionmaker`),
        committed on success, rolled back on error, then closed; for reads (writes take
        :meth:`write_session`).

        It returns the request's idle :meth:`reader` first, as writes do: a request holds one pooled
        connection at a time, so requests beyond the pool's size wait for a connection instead of
        each holding one and waiting for a second (tests/api/test_connections.py)."""
        self._release_idle_reader()
        with self.sessionmaker.begin() as session:
            yield session

    def ping(self) -> None:
        """Run ``SELECT 1``; raises ``sqlalchemy.exc.SQLAlchemyError`` if unreachable."""
        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    def probe_write_lock(self, timeout: float = 1.0) -> None:
        """SQLite: take the writers' turn and the write lock and let them go at once (``BEGIN
        IMMEDIATE; ROLLBACK``), waiting at most ``timeout`` seconds for each; raises
        ``sqlalchemy.exc.OperationalError`` ("database is locked") when either is held longer: what
        every write would meet. A no-op on other backends."""
        if not self.is_sqlite:
            return
        with self.engine.connect() as connection, self._writers_queue(timeout):
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
        """Close the pool (tests; gunicorn ``post_fork`` with ``--preload``)."""
        if self._engine is not None:
            self._engine.dispose()


EXTENSION_KEY = "handfoot.db"


def init_app(app: flask.Flask) -> Database:
    """Attach a :class:`Database` for ``app.config["DATABASE_URL"]``; no connection is made."""
    database = Database(app.config["DATABASE_URL"], sqlite_timeout=app.config.get("SQLITE_BUSY_TIMEOUT", 15))
    app.extensions[EXTENSION_KEY] = database
    app.teardown_appcontext(database.release_reader)
    return database


def get_db(app: flask.Flask | None = None) -> Database:
    """The :class:`Database` of ``app`` (default: the current app)."""
    target = app if app is not None else flask.current_app
    database: Database = target.extensions[EXTENSION_KEY]
    return database
