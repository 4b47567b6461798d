"""Alembic environment: target ``handfoot.server.db.Base.metadata``; URL from ``DATABASE_URL``.

The URL comes from, in order: ``-x url=...`` on the command line, ``DATABASE_URL``, then the
default SQLite file ``var/handfoot.sqlite3`` (its directory is created if needed).
``render_as_batch=True`` lets autogenerate write ALTERs that SQLite can run.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection

import handfoot.server.models  # noqa: F401  (registers the tables on Base.metadata)
from handfoot.server.config import database_url_from_env, normalize_database_url
from handfoot.server.db import Base, make_engine

config = context.config

if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def database_url() -> str:
    url = context.get_x_argument(as_dictionary=True).get("url")
    return normalize_database_url(url) if url else database_url_from_env()


def run_migrations_offline() -> None:
    """Emit SQL to stdout (``alembic upgrade head --sql``) without a database."""
    context.configure(
        url=database_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Run against the database (SQLite pragmas applied as in the app)."""
    from sqlalchemy import pool

    connectable = config.attributes.get("connection")
    if connectable is not None:  # a connection handed over by a caller (tests)
        _run(connectable)
        return
    engine = make_engine(database_url(), poolclass=pool.NullPool)
    try:
        with engine.connect() as connection:
            _run(connection)
    finally:
        engine.dispose()


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
    )
    with _sqlite_foreign_keys_off(connection), context.begin_transaction():
        context.run_migrations()


@contextmanager
def _sqlite_foreign_keys_off(connection: Connection) -> Iterator[None]:
    """SQLite: foreign keys off while migrating, checked before they are on again (SQLite's own
    procedure for changing a table's schema). A batch migration rebuilds a table by dropping the
    old one, and with foreign keys on dropping ``games`` deletes every round (ON DELETE CASCADE).
    The PRAGMA is a no-op inside a transaction, so it goes to the driver's connection before any."""
    if connection.dialect.name != "sqlite":
        yield
        return
    raw = connection.connection.dbapi_connection
    if raw is None:  # only a closed or invalidated connection has none
        raise RuntimeError("the migration's connection has no driver connection")
    raw.execute("PRAGMA foreign_keys=OFF")
    try:
        yield
        broken = raw.execute("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise RuntimeError(f"foreign keys broken by the migration: {broken[:5]}")
    finally:
        raw.execute("PRAGMA foreign_keys=ON")


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
