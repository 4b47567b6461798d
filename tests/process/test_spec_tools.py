"""The committed openapi/openapi.json as tools nobody here wrote read it, each with its defaults:
openapi-typescript's types compiled by ``tsc --strict`` in a client on openapi-fetch, and Redocly's
linter. The tools are pinned in tests/contract/typescript (``make node-tools``, which ``make test``
runs; npm ci). The Python generator is tests/process/test_generated_client.py."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPEC_FILE = ROOT / "openapi" / "openapi.json"
TOOLS = ROOT / "tests" / "contract" / "typescript"
BIN = TOOLS / "node_modules" / ".bin"

#: What an integrator writes in TypeScript. It leaves out every tally count that is zero and
#: ``went_out`` (the server fills them in), names a preset by its literal, reads a check's problem
#: pointer as a string, and a misspelt preset does not compile (``@ts-expect-error``).
CLIENT = """\
import createClient from "openapi-fetch";
import type { components, paths } from "./api";

type Score = components["schemas"]["RoundScoreRequest"];

export const worked: Score = {
  preset: "pagat",
  teams: [
    { name: "Team 1", went_out: true, tally: { clean_books: 2, dirty_books: 2, wild_books: 1, table_points: 465 } },
    { name: "Team 2", tally: { clean_books: 1, red_threes_caught: 1, points_left: 185 } },
  ],
};

// @ts-expect-error: not a preset id
export const misspelt: Score = { preset: "pagatt", teams: [] };

export async function firstTotal(baseUrl: string): Promise<number | undefined> {
  const client = createClient<paths>({ baseUrl });
  const { data, error } = await client.POST("/v1/rounds/score", { body: worked });
  if (error) {
    return undefined;
  }
  return data.teams[0].total;
}

export async function meldPointers(baseUrl: string): Promise<string[]> {
  const client = createClient<paths>({ baseUrl });
  const { data } = await client.POST("/v1/melds/validate", { body: { preset: "bga", cards: ["9D", "2S"] } });
  return (data?.problems ?? []).map((problem) => problem.pointer);
}
"""


def run(*command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def tools() -> Path:
    assert BIN.is_dir(), "the spec's tools are not installed: run `make node-tools` (npm ci)"
    return BIN


def test_openapi_typescript_types_compile_a_strict_client(tools: Path, tmp_path: Path) -> None:
    generated = run(str(tools / "openapi-typescript"), str(SPEC_FILE), "-o", str(tmp_path / "api.d.ts"), cwd=tmp_path)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    (tmp_path / "client.ts").write_text(CLIENT, encoding="utf-8")
    (tmp_path / "node_modules").symlink_to(TOOLS / "node_modules")
    compiled = run(
        str(tools / "tsc"),
        "--strict",
        "--noEmit",
        "--target",
        "es2022",
        "--module",
        "esnext",
        "--moduleResolution",
        "bundler",
        "client.ts",
        cwd=tmp_path,
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr


def test_the_spec_linter_finds_no_error(tools: Path, tmp_path: Path) -> None:
    linted = run(str(tools / "redocly"), "lint", str(SPEC_FILE), "--format", "summary", cwd=tmp_path)
    assert linted.returncode == 0, linted.stdout + linted.stderr
