"""The keeper's script files, read as text (no browser): each under 500 lines, and one module graph.

Issue 17: "no module of ... the keeper's scripts exceeds 500 lines"; the page's script is split by
view (``api/static/keeper/views/``) and loaded as ES modules from ``app.js``. These tests run where
Chromium is missing too (``conftest.py`` skips only the tests that start a browser).
"""

from __future__ import annotations

import re
from pathlib import Path

from handfoot.server.keeper import KEEPER_STATIC

#: STYLE.md: "A module over 500 lines is doing more than one thing"; issue 17 holds the keeper's scripts to it.
MAX_LINES = 500

#: `import ... from "./x.js"` and `export ... from "./x.js"`, the only way the keeper's modules load each other.
IMPORT_FROM = re.compile(r'^\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"', re.M | re.S)


def scripts() -> list[Path]:
    found = sorted(KEEPER_STATIC.rglob("*.js"))
    assert KEEPER_STATIC / "app.js" in found, f"no app.js under {KEEPER_STATIC}"
    return found


def imports_of(script: Path) -> list[Path]:
    """The files `script` imports, resolved against its folder; only this server's relative paths."""
    targets = IMPORT_FROM.findall(script.read_text(encoding="utf-8"))
    outside = [t for t in targets if not t.startswith(("./", "../"))]
    assert not outside, f"{script.name} imports from outside the keeper's folder: {outside}"
    return [(script.parent / t).resolve() for t in targets]


def test_no_keeper_script_exceeds_500_lines() -> None:
    lengths = {
        p.relative_to(KEEPER_STATIC).as_posix(): len(p.read_text(encoding="utf-8").splitlines()) for p in scripts()
    }
    too_long = {name: n for name, n in lengths.items() if n > MAX_LINES}
    assert not too_long, f"keeper scripts over {MAX_LINES} lines (split them by view or concern): {too_long}"


def test_every_keeper_script_is_imported_from_app_js_and_every_import_exists() -> None:
    root = (KEEPER_STATIC / "app.js").resolve()
    seen: set[Path] = set()
    todo = [root]
    while todo:
        script = todo.pop()
        if script in seen:
            continue
        seen.add(script)
        for target in imports_of(script):
            assert target.is_file(), f"{script.name} imports {target}, which does not exist"
            todo.append(target)
    unused = sorted(p.relative_to(KEEPER_STATIC).as_posix() for p in scripts() if p.resolve() not in seen)
    assert not unused, f"scripts that app.js never loads: {unused}"
