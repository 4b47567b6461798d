"""``handfoot-server``: the server's command, for a checkout and for an installed wheel alike.

    handfoot-server migrate            alembic upgrade head on DATABASE_URL (default: the SQLite file)
    handfoot-server serve [-b ADDR]    migrate, then serve under gunicorn with the production settings
    handfoot-server backup PATH        an online copy of the SQLite database (PostgreSQL: pg_dump)
    handfoot-server keys create NAME   API keys (also: keys list, keys revoke)
    handfoot-server openapi write F    the OpenAPI document (flask-smorest's command)
    handfoot-server --version          the server's version (handfoot-server X.Y.Z)

It is Flask's own command group over ``create_app`` (``flask --app handfoot.server:create_app``
works the same), with ``migrate``, ``serve`` and ``backup`` added.
"""

from __future__ import annotations

import errno
import importlib.util
import os
import socket
import sys
import tempfile
from pathlib import Path

import click
from flask.cli import FlaskGroup

from handfoot.server import create_app
from handfoot.server.config import database_url_from_env
from handfoot.server.db import describe_database, failure_reason, sqlite_file
from handfoot.server.db.backup import copy_sqlite
from handfoot.server.metrics import METRICS_DIR_PREFIX


@click.group(cls=FlaskGroup, create_app=create_app, add_default_commands=False, add_version_option=False)
@click.version_option(package_name="handfoot-server", message="%(package)s %(version)s")
def main() -> None:
    """Serve and manage the handfoot API (DATABASE_URL picks the database)."""


@main.command("migrate")
def migrate_command() -> None:
    """Bring the database to the newest schema (alembic upgrade head)."""
    from sqlalchemy.exc import DBAPIError

    from handfoot.server import migrate

    click.echo(describe_database(database_url_from_env()), err=True)
    try:
        migrate.upgrade(database_url_from_env())
    except DBAPIError as exc:  # unreachable, refused, no such file or folder: one line, not a traceback
        raise click.ClickException(unreachable(exc)) from exc
    click.echo("database at head", err=True)


def unreachable(exc: BaseException) -> str:
    """One line for a database that cannot be reached: which (its password hidden), the driver's own
    reason (its first line), and what to check."""
    where = describe_database(database_url_from_env())
    return (
        f"cannot reach the {where} ({failure_reason(exc)}); check that the database server runs and that "
        "DATABASE_URL names it (docs/configuration.md)"
    )


def port_in_use(bind: str) -> str | None:
    """Why ``bind`` (``HOST:PORT``) cannot be listened on, or ``None`` (a unix socket is not
    checked): so ``serve`` says it in one line instead of gunicorn's retries and tracebacks."""
    if bind.startswith(("unix:", "fd://")):
        return None
    host, _, port = bind.rpartition(":")
    host = host.strip("[]") or "0.0.0.0"
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds
            probe.bind((host, int(port)))
    except ValueError:
        return f"{bind} is not HOST:PORT"
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            return f"{bind} is in use (another server listens there): stop it, or serve on another port with -b"
        return f"cannot listen on {bind}: {exc.strerror or exc}"
    return None


@main.command("backup")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Overwrite PATH if it exists.")
def backup_command(path: Path, force: bool) -> None:
    """Copy the SQLite database to PATH while the server runs (sqlite3's online backup API): one
    consistent snapshot, writers waiting a few pages at a time. PostgreSQL is refused: use ``pg_dump``."""
    url = database_url_from_env()
    source_path = sqlite_file(url)
    if source_path is None:
        raise click.UsageError(
            f"backup copies a SQLite database file; {describe_database(url)}: use pg_dump (see docs/deploy.md)"
        )
    if not source_path.is_file():
        raise click.UsageError(f"no SQLite database at {source_path}")
    if path.exists() and not force:
        raise click.UsageError(f"{path} exists (use --force to overwrite it)")
    if path.exists():
        path.unlink()
    path.parent.mkdir(parents=True, exist_ok=True)
    check = copy_sqlite(source_path, path)
    if check != "ok":
        raise click.ClickException(f"the copy at {path} failed its integrity check: {check}")
    click.echo(f"backed up {source_path} to {path} (integrity_check ok)", err=True)


@main.command("serve", context_settings={"ignore_unknown_options": True})
@click.option("-b", "--bind", default="127.0.0.1:8000", show_default=True, help="Address to listen on.")
@click.option("-w", "--workers", type=int, default=None, help="Worker processes (default WEB_CONCURRENCY or 2).")
@click.option("--no-migrate", is_flag=True, help="Do not migrate before serving.")
@click.argument("gunicorn_args", nargs=-1, type=click.UNPROCESSED)
def serve_command(bind: str, workers: int | None, no_migrate: bool, gunicorn_args: tuple[str, ...]) -> None:
    """Migrate, then serve under gunicorn (api/gunicorn_conf.py); extra arguments go to gunicorn."""
    problem = port_in_use(bind)
    if problem is not None:
        raise click.ClickException(problem)
    if not no_migrate:
        migrate_command.callback()  # type: ignore[misc]
    env = dict(os.environ)  # gunicorn's; this process's own is left as it is
    if "PROMETHEUS_MULTIPROC_DIR" not in env:  # the workers' metrics, added up by /metrics
        env["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix=METRICS_DIR_PREFIX)
    args = ["gunicorn", "-c", "python:handfoot.server.gunicorn_conf", "-b", bind]
    if workers is not None:
        args += ["-w", str(workers)]
    args += [*gunicorn_args, "handfoot.server:create_app()"]
    click.echo(f"serving on http://{bind}  (docs: http://{bind}/docs)", err=True)
    if not os.environ.get("HANDFOOT_WORKER_CLASS") and importlib.util.find_spec("gevent") is None:
        click.echo(
            "gevent is not installed: serving with gthread, whose threads slow clients can hold "
            "(pip install 'handfoot-server[gevent]'; docs/deploy.md, \"Slow clients\")",
            err=True,
        )
    sys.stdout.flush()
    os.execvpe(sys.executable, [sys.executable, "-m", "gunicorn", *args[1:]], env)


if __name__ == "__main__":
    main()
