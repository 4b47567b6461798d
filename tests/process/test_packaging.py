"""What installs: two distributions under one namespace, handfoot, and nothing else.

- ``handfoot`` (pyproject.toml): sdk/ as ``handfoot.client``, engine/ as ``handfoot.engine``, rl/
  as ``handfoot.rl`` (its dependencies the ``rl`` extra).
- ``handfoot-server`` (api/pyproject.toml): api/ as ``handfoot.server``, migrations/ inside it.

Both are built here as ``python -m build --no-isolation`` makes them (offline): the sdist, then
the wheel from the sdist. Read: every file sits under ``handfoot/``, the client's wheel holds no
server code, the server's holds its migrations, static files and command, ``check-wheel-contents``
passes both wheels (W009: one top-level name) and ``twine check --strict`` all four files. One
version source (sdk/_version.py); ``dev`` and ``bench`` are dependency groups, the PostgreSQL
driver the server's ``postgres`` extra.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLIENT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SERVER = tomllib.loads((ROOT / "api" / "pyproject.toml").read_text(encoding="utf-8"))


def package_folders(project: dict[str, Any], base: Path) -> dict[str, Path]:
    """``{package name: folder}`` for every package the project lists, by its package-dir."""
    mapping = project["tool"]["setuptools"]["package-dir"]
    found = {}
    for name in project["tool"]["setuptools"]["packages"]:
        parent = max((key for key in mapping if name == key or name.startswith(key + ".")), key=len)
        rest = name[len(parent) :].lstrip(".")
        found[name] = (
            (base / mapping[parent] / Path(*rest.split("."))).resolve() if rest else (base / mapping[parent]).resolve()
        )
    return found


def source_folders(*tops: Path) -> set[Path]:
    """Every folder under ``tops`` that holds Python or data files (not caches)."""
    folders = set()
    for top in tops:
        for path in top.rglob("*"):
            if (
                path.is_file()
                and "__pycache__" not in path.parts
                and not path.name.endswith(".toml")
                and ".egg-info" not in str(path)
                and "build" not in path.relative_to(ROOT).parts
            ):
                folders.add(path.parent.resolve())
    return folders


def test_every_folder_is_a_listed_package() -> None:
    listed = set(package_folders(CLIENT, ROOT).values()) | set(package_folders(SERVER, ROOT / "api").values())
    missing = source_folders(ROOT / "sdk", ROOT / "engine", ROOT / "rl", ROOT / "api", ROOT / "migrations") - listed
    assert not missing, "folders no distribution ships (add them to a [tool.setuptools] packages list):\n" + "\n".join(
        sorted(str(m.relative_to(ROOT)) for m in missing)
    )


def client_version() -> str:
    """``__version__`` of sdk/_version.py, the packages' one version source."""
    match = re.fullmatch(r'__version__ = "([^"]+)"\n', (ROOT / "sdk" / "_version.py").read_text(encoding="utf-8"))
    assert match, 'sdk/_version.py holds one line: __version__ = "X.Y.Z"'
    return match.group(1)


def test_one_version_source() -> None:
    version = client_version()
    assert "version" not in CLIENT["project"] and "version" in CLIENT["project"]["dynamic"]
    assert CLIENT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "handfoot.client._version.__version__"}
    # The server's static metadata: its own version and the two exact pins between the distributions.
    assert SERVER["project"]["version"] == version
    assert f"handfoot-server=={version}" in CLIENT["project"]["optional-dependencies"]["server"]
    assert f"handfoot=={version}" in SERVER["project"]["dependencies"]


def test_the_dev_group_installs_the_rl_extra() -> None:
    """``make install`` (the dev group) brings what handfoot.rl needs, so its tests run everywhere."""
    assert set(CLIENT["project"]["optional-dependencies"]["rl"]) <= set(CLIENT["dependency-groups"]["dev"])


def test_dev_and_bench_are_groups_not_extras() -> None:
    extras = CLIENT["project"]["optional-dependencies"]
    assert not {"dev", "bench"} & set(extras), "published extras"
    assert {"dev", "bench"} <= set(CLIENT["dependency-groups"])
    assert SERVER["project"]["optional-dependencies"]["postgres"] == ["psycopg[binary]>=3.2,<4"]
    assert not [d for d in SERVER["project"]["dependencies"] if d.startswith("psycopg")]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "-e './api[postgres,gevent]'" in makefile and "--group dev" in makefile and "'pip>=25.1'" in makefile


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Both distributions as ``python -m build`` makes them: the sdist, then the wheel built from it."""
    out = tmp_path_factory.mktemp("dist")
    for source in (ROOT, ROOT / "api"):
        subprocess.run(
            [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(source)],
            check=True,
            capture_output=True,
            cwd=ROOT,
        )
    found = {path.name: path for path in out.iterdir()}
    version = client_version()
    assert set(found) == {
        f"handfoot-{version}.tar.gz",
        f"handfoot-{version}-py3-none-any.whl",
        f"handfoot_server-{version}.tar.gz",
        f"handfoot_server-{version}-py3-none-any.whl",
    }, found
    return found


@pytest.fixture(scope="module")
def wheels(built: dict[str, Path]) -> dict[str, Path]:
    return {name.split("-")[0]: path for name, path in built.items() if name.endswith(".whl")}


def names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return [name for name in archive.namelist() if ".dist-info/" not in name]


def test_wheels_install_only_under_handfoot(wheels: dict[str, Path]) -> None:
    for wheel in wheels.values():
        tops = {name.split("/")[0] for name in names(wheel)}
        assert tops == {"handfoot"}, (wheel.name, tops)
        assert "handfoot/__init__.py" not in names(wheel), "handfoot is a namespace shared by both wheels"


def test_client_wheel_ships_no_server_code(wheels: dict[str, Path]) -> None:
    files = names(wheels["handfoot"])
    assert "handfoot/client/__init__.py" in files and "handfoot/engine/__init__.py" in files
    assert "handfoot/client/py.typed" in files and "handfoot/engine/py.typed" in files
    assert "handfoot/rl/handfoot_v0.py" in files and "handfoot/rl/py.typed" in files
    assert not [name for name in files if name.startswith("handfoot/server/")]


def test_server_wheel_ships_migrations_static_files_and_command(wheels: dict[str, Path]) -> None:
    files = names(wheels["handfoot_server"])
    assert all(name.startswith("handfoot/server/") for name in files)
    versions = [name for name in files if name.startswith("handfoot/server/migrations/versions/2")]
    assert len(versions) == len(list((ROOT / "migrations" / "versions").glob("2*.py")))
    assert "handfoot/server/migrations/env.py" in files and "handfoot/server/migrations/script.py.mako" in files
    assert "handfoot/server/static/keeper/index.html" in files
    with zipfile.ZipFile(wheels["handfoot_server"]) as archive:
        entry_points = next(n for n in archive.namelist() if n.endswith("entry_points.txt"))
        assert "handfoot-server = handfoot.server.cli:main" in archive.read(entry_points).decode()


def test_check_wheel_contents_passes(wheels: dict[str, Path]) -> None:
    tool = Path(sys.executable).with_name("check-wheel-contents")
    # W004 (not an importable path) is the migration scripts' dated file names: alembic loads them
    # by path, never by import.
    result = subprocess.run([str(tool), "--ignore", "W004", *map(str, wheels.values())], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_twine_check_passes(built: dict[str, Path]) -> None:
    """What PyPI would refuse or render badly (metadata, the README as long description), on both
    wheels and sdists; --strict fails on warnings too."""
    tool = Path(sys.executable).with_name("twine")
    result = subprocess.run([str(tool), "check", "--strict", *map(str, built.values())], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("PASSED") == 4, result.stdout


def test_sdists_hold_what_the_wheels_are_built_from(built: dict[str, Path]) -> None:
    import tarfile

    server = next(path for name, path in built.items() if name.startswith("handfoot_server") and name.endswith("gz"))
    with tarfile.open(server) as archive:
        members = archive.getnames()
    assert [m for m in members if "/migrations/versions/2" in m], "the server's sdist lacks its migrations"
    assert any(m.endswith("/LICENSE") for m in members) and any(m.endswith("/README.md") for m in members)
