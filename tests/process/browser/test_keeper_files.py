"""The keeper's files, read as text (no browser): each under 500 lines, one module graph, every stylesheet linked.

Issue 17: "no module of ... the keeper's scripts exceeds 500 lines"; the page's script is split by
view (``api/static/keeper/views/``) and loaded as ES modules from ``app.js``, and its stylesheet
likewise (``keeper.css`` for the page, ``views/<view>.css``). These tests run where Chromium is
missing too (``conftest.py`` skips only the tests that start a browser).
"""

from __future__ import annotations

import re
from pathlib import Path

from handfoot.server.keeper import KEEPER_STATIC, SERVICE_WORKER

#: STYLE.md: "A module over 500 lines is doing more than one thing"; issue 17 holds the keeper's scripts to it.
MAX_LINES = 500

#: `import {a} from "./x.js"`, `import "./x.js"`, `export {a} from "./x.js"`: how the keeper's modules load each other.
IMPORT_FROM = re.compile(r'^\s*(?:import|export)\s+(?:[\w*{}\s,$]+?\s+from\s+)?"([^"]+)"', re.M)

#: `<link rel="stylesheet" href="/keeper/...">` in index.html (the blueprint serves the folder at /keeper).
STYLESHEET = re.compile(r'<link rel="stylesheet" href="/keeper/([^"]+)">')


def files(pattern: str) -> list[Path]:
    return sorted(KEEPER_STATIC.rglob(pattern))


def relative(path: Path) -> str:
    return path.resolve().relative_to(KEEPER_STATIC.resolve()).as_posix()


def imports_of(script: Path) -> list[Path]:
    """The files `script` imports, resolved against its folder; only this server's relative paths."""
    targets = IMPORT_FROM.findall(script.read_text(encoding="utf-8"))
    outside = [t for t in targets if not t.startswith(("./", "../"))]
    assert not outside, f"{relative(script)} imports from outside the keeper's folder: {outside}"
    return [(script.parent / t).resolve() for t in targets]


def test_no_keeper_script_or_stylesheet_exceeds_500_lines() -> None:
    found = files("*.js") + files("*.css")
    assert {"app.js", "keeper.css"} <= {relative(p) for p in found}, f"the keeper's files are not under {KEEPER_STATIC}"
    lengths = {relative(p): len(p.read_text(encoding="utf-8").splitlines()) for p in found}
    too_long = {name: n for name, n in lengths.items() if n > MAX_LINES}
    assert not too_long, f"keeper files over {MAX_LINES} lines (split them by view or concern): {too_long}"


def test_every_keeper_script_is_imported_from_app_js_and_every_import_exists() -> None:
    seen: set[Path] = set()
    todo = [(KEEPER_STATIC / "app.js").resolve()]
    while todo:
        script = todo.pop()
        if script in seen:
            continue
        seen.add(script)
        for target in imports_of(script):
            assert target.is_file(), f"{relative(script)} imports {target}, which does not exist"
            todo.append(target)
    assert len(seen) > 1, "app.js imports nothing: the views are not loaded"
    # The service worker is no module of the page: app.js registers it, as /sw.js (api/keeper.py).
    assert 'register("/sw.js"' in (KEEPER_STATIC / "app.js").read_text(encoding="utf-8")
    unused = sorted(relative(p) for p in files("*.js") if p.resolve() not in seen and p.name != SERVICE_WORKER)
    assert not unused, f"scripts that app.js never loads: {unused}"


def test_every_stylesheet_is_linked_from_the_page_and_every_link_exists() -> None:
    linked = STYLESHEET.findall((KEEPER_STATIC / "index.html").read_text(encoding="utf-8"))
    assert linked and linked[0] == "keeper.css", f"keeper.css (the page's own rules) must come first: {linked}"
    missing = [name for name in linked if not (KEEPER_STATIC / name).is_file()]
    assert not missing, f"index.html links stylesheets that do not exist: {missing}"
    unlinked = sorted(set(map(relative, files("*.css"))) - set(linked))
    assert not unlinked, f"stylesheets index.html never links: {unlinked}"
