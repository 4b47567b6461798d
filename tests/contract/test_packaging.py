"""What installs: two distributions under one namespace, handfoot, and nothing else.

- ``handfoot`` (pyproject.toml): sdk/ as ``handfoot.client``, engine/ as ``handfoot.engine``.
- ``handfoot-server`` (api/pyproject.toml): api/ as ``handfoot.server``, migrations/ inside it.

The wheels are built here (``python -m build --no-isolation``, offline) and read: every file sits
under ``handfoot/``, the client's wheel holds no server code, the server's holds its migrations,
static files and command, and ``check-wheel-contents`` passes both (W009: one top-level name).
"""

from __future__ import annotations

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
        rest = name[len(parent):].lstrip(".")
        found[name] = (base / mapping[parent] / Path(*rest.split("."))).resolve() if rest else \
            (base / mapping[parent]).resolve()
    return found


def source_folders(*tops: Path) -> set[Path]:
    """Every folder under ``tops`` that holds Python or data files (not caches)."""
    folders = set()
    for top in tops:
        for path in top.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and not path.name.endswith(".toml") \
                    and ".egg-info" not in str(path) and "build" not in path.relative_to(ROOT).parts:
                folders.add(path.parent.resolve())
    return folders


def test_every_folder_is_a_listed_package() -> None:
    listed = set(package_folders(CLIENT, ROOT).values()) | set(package_folders(SERVER, ROOT / "api").values())
    missing = source_folders(ROOT / "sdk", ROOT / "engine", ROOT / "api", ROOT / "migrations") - listed
    assert not missing, "folders no distribution ships (add them to a [tool.setuptools] packages list):\n" + \
        "\n".join(sorted(str(m.relative_to(ROOT)) for m in missing))


def test_versions_move_together() -> None:
    version = CLIENT["project"]["version"]
    assert SERVER["project"]["version"] == version
    assert f"handfoot-server=={version}" in CLIENT["project"]["optional-dependencies"]["server"]
    assert f"handfoot=={version}" in SERVER["project"]["dependencies"]


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("dist")
    for source in (ROOT, ROOT / "api"):
        subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out),
                        str(source)], check=True, capture_output=True, cwd=ROOT)
    built = {path.name.split("-")[0]: path for path in out.glob("*.whl")}
    assert set(built) == {"handfoot", "handfoot_server"}, built
    return built


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
    result = subprocess.run([str(tool), "--ignore", "W004", *map(str, wheels.values())],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
