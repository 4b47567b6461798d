"""Every editable install of handfoot, in the Makefile and in what a reader is told to type, is the
strict one (``--config-settings editable_mode=strict``): setuptools' default editable install puts
an import hook in place of the package, which mypy and editors do not see (``import-not-found`` on
``handfoot.client``; tests/process/test_editable_install.py runs the README's). One install of the
default kind into ``.venv`` is enough to undo ``make install``'s: ``make notebooks`` installed its
extra that way (issue 44), and the stamp kept ``make install`` from putting it back."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers.readme import PROJECT_ROOT, planned_commands

#: A ``pip install`` command up to the end of its line, its backquoted span or its shell comment.
PIP_INSTALL = re.compile(r"pip install[^`\n#]*")
STRICT = "editable_mode=strict"


def editable_installs(text: str) -> list[str]:
    """The ``pip install`` commands in ``text`` that install something editable (``-e``)."""
    return [m.group(0).strip() for m in PIP_INSTALL.finditer(text) if re.search(r"\s-e\s", m.group(0) + " ")]


def test_make_installs_every_editable_distribution_strict(tmp_path: Path) -> None:
    """``make install`` and ``make notebooks`` on a fresh virtualenv: each editable install strict."""
    for target in ("install", "notebooks"):
        installs = editable_installs("\n".join(planned_commands(target, tmp_path / "venv")))
        assert installs, f"make -n {target} installs nothing editable"
        assert [c for c in installs if STRICT not in c] == [], target


def test_the_makefile_has_no_default_editable_install() -> None:
    """Every recipe line of the Makefile, not only the targets above."""
    makefile = (PROJECT_ROOT / "Makefile").read_text(encoding="utf-8")
    recipes = "\n".join(line for line in makefile.splitlines() if line.startswith("\t"))
    assert [c for c in editable_installs(recipes) if STRICT not in c] == []


def test_the_docs_tell_readers_the_strict_editable_install() -> None:
    """The README, docs/ and the examples' docstrings: what a reader copies into a shell."""
    files = [PROJECT_ROOT / "README.md", *sorted((PROJECT_ROOT / "docs").glob("*.md"))]
    files += sorted((PROJECT_ROOT / "examples").glob("*.py"))
    default = [
        f"{path.relative_to(PROJECT_ROOT)}: {command}"
        for path in files
        for command in editable_installs(path.read_text(encoding="utf-8"))
        if STRICT not in command
    ]
    assert default == [], "\n".join(default)


def test_the_search_sees_a_default_editable_install() -> None:
    """Why: the checks above pass on a text with no ``pip install`` in it; they must see one."""
    text = (
        "from a checkout `pip install -e '.[async]'`, from the wheels `pip install 'dist/x.whl[async]'`\n"
        "pip install --config-settings editable_mode=strict -e . -e ./api   # and handfoot-server\n"
        "\t$(PY) -m pip install --progress-bar off -e '.[notebooks]'\n"
    )
    assert editable_installs(text) == [
        "pip install -e '.[async]'",
        "pip install --config-settings editable_mode=strict -e . -e ./api",
        "pip install --progress-bar off -e '.[notebooks]'",
    ]
