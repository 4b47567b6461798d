"""The keeper's service worker at /sw.js: the app shell it keeps, and a version that changes with the files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from flask.testing import FlaskClient

from handfoot.server.keeper import KEEPER_STATIC, SERVICE_WORKER, service_worker_script, shell_version


def shell_of(script: str) -> dict[str, object]:
    head, _, _ = script.partition("\n")
    assert head.startswith("const SHELL = ") and head.endswith(";"), head
    shell = json.loads(head.removeprefix("const SHELL = ").removesuffix(";"))
    assert isinstance(shell, dict)
    return shell


def test_the_worker_is_served_at_the_root_uncached_with_every_shell_file(flask_client: FlaskClient) -> None:
    r = flask_client.get("/sw.js")
    assert r.status_code == 200
    assert r.mimetype == "text/javascript"
    assert r.headers["Cache-Control"] == "no-cache"  # a changed shell is seen at the next check
    script = r.get_data(as_text=True)
    shell = shell_of(script)
    files = shell["files"]
    assert isinstance(files, list)
    assert files[0] == "/" and {"/keeper/app.js", "/keeper/outbox.js", "/keeper/manifest.webmanifest"} <= set(files)
    assert f"/keeper/{SERVICE_WORKER}" not in files
    # the page at / and every file under /keeper/ but the worker itself
    assert len(files) == len(set(files)) == sum(1 for p in KEEPER_STATIC.rglob("*") if p.is_file())
    assert not any(f.startswith("/v1") for f in files)
    for url in files:
        assert flask_client.get(url).status_code == 200, url
    assert script.endswith((KEEPER_STATIC / SERVICE_WORKER).read_text(encoding="utf-8"))


def test_the_version_changes_with_any_file_of_the_shell_and_only_then(tmp_path: Path) -> None:
    folder = tmp_path / "keeper"
    shutil.copytree(KEEPER_STATIC, folder)
    version, urls = shell_version(folder)
    assert len(version) == 16 and int(version, 16) >= 0
    assert (version, urls) == shell_version(KEEPER_STATIC)  # the same bytes, the same version

    view = folder / "views" / "game.js"
    view.write_text(view.read_text(encoding="utf-8") + "\n// changed\n", encoding="utf-8")
    changed, same_urls = shell_version(folder)
    assert changed != version and same_urls == urls
    assert shell_of(service_worker_script(folder))["version"] == changed

    (folder / "extra.css").write_text("p {}\n", encoding="utf-8")
    added, more = shell_version(folder)
    assert added not in (version, changed) and set(more) - set(urls) == {"/keeper/extra.css"}

    worker = folder / SERVICE_WORKER
    worker.write_text(worker.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert shell_version(folder)[0] != added  # a new worker is a new version too
