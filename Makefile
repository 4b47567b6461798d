# handfoot: `make run` serves the API on 127.0.0.1:8000; `make test` runs every check.
# Everything runs from the project's virtualenv, created on first use.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

PYTHON3 ?= python3
VENV    ?= .venv
PY      := $(VENV)/bin/python
STAMP   := $(VENV)/.installed-dev

HOST ?= 127.0.0.1
PORT ?= 8000
WORKERS ?= 2
PYTEST_ARGS ?=
# make run: requests per API key (else per address) on /v1; HANDFOOT_RATE_LIMIT in the environment wins.
RATE_LIMIT ?= 600/minute
FUZZ_EXAMPLES ?= 300

.PHONY: help install node-tools run serve test check lint typecheck pytest openapi openapi-check migrate dist dist-check \
        migrations-check revision clean bench bench-check bench-profile bench-limiter bench-listing bench-table bench-handover bench-waiting multihost fuzz simulate \
        notebooks

help:
	@echo "make run      install, migrate the database, serve on http://$(HOST):$(PORT) (docs: /docs)"
	@echo "make check    the loop after each change: engine, API, SDK, cases and contract tests in process"
	@echo "              (no servers, browsers, builds or fuzzing), Hypothesis dev profile, on every core"
	@echo "make test     install, then ruff (lint and format), mypy --strict, pytest (every test, every core, Hypothesis ci"
	@echo "              profile), OpenAPI freshness, alembic check"
	@echo "make openapi  regenerate openapi/openapi.json"
	@echo "make fuzz     schemathesis on every operation, FUZZ_EXAMPLES (300) each; make test runs 12 each"
	@echo "make migrate  alembic upgrade head (DATABASE_URL, default var/handfoot.sqlite3)"
	@echo "make revision m='message'   autogenerate a migration (review it by hand)"
	@echo "make dist     build both wheels and sdists into dist/ (handfoot, handfoot-server); make dist-check installs them"
	@echo "make bench    benchmarks against floors measured in the same run (~20 min; BENCH_ARGS='--runs 1 --duration 3')"
	@echo "make bench-check     the benchmark's own tests (bench/tests; make bench runs them first)"
	@echo "make bench-profile   profile POST /v1/rounds/score in process (pyinstrument)"
	@echo "make bench-limiter   what the rate limiter costs the score endpoint (a ratio in one run)"
	@echo "make multihost       3 API hosts in network namespaces on one private PostgreSQL + Redis, appends and tables, hosts killed (~90 s)"
	@echo "make bench-listing   the games list's pages (50,000 games) and a game's reads, both databases"
	@echo "make bench-table     one action at a table against the stateless checks of the same action"
	@echo "make bench-handover  an action accepted -> the other seats' long-polls answer, p50/p99 (BENCH_HANDOVER_ARGS='--serve')"
	@echo "make bench-waiting   POST /v1/rounds/score throughput while 200 seats wait (BENCH_WAITING_ARGS='--slowloris 40 --writers 4')"
	@echo "make simulate        bot rounds under every preset, every invariant checked (SIMULATE_ROUNDS=1000)"
	@echo "make notebooks       run examples/*.ipynb against a throwaway server, their outputs written back in"

# Re-install only when a pyproject.toml changes (the stamp is newer otherwise). Two distributions,
# both editable: handfoot (the client and the engine, ./, with its async extra) and handfoot-server
# (./api, with its postgres extra for the PostgreSQL tests and its gevent extra for bench-waiting); then the `dev` dependency group
# (PEP 735, pyproject.toml), which pip installs from 25.1 on: hence the upgrade first.
# pip shows what it collects and installs: a first install takes a few minutes, and says so as it goes.
# Strict editable installs (setuptools' link tree in build/__editable__*): mypy and editors see
# handfoot.client, .engine, .rl and .server as installed, which the default import hook hides from
# them. The tree links each file, so a module added or removed needs the install again: the stamp
# depends on the package folders too (a folder changes when a file in it is added or removed).
PACKAGE_DIRS := $(shell find sdk engine rl api migrations -type d -not -name __pycache__ -not -path '*/static*' \
                  -not -name '*.egg-info' 2>/dev/null)
$(STAMP): pyproject.toml api/pyproject.toml $(PACKAGE_DIRS)
	@echo "== installing handfoot, handfoot-server and their tools into $(VENV) (first run, a pyproject.toml changed, or a module was added)"
	@test -x $(PY) || { echo "== creating $(VENV) with $(PYTHON3)"; $(PYTHON3) -m venv $(VENV); }
	$(PY) -m pip install --quiet --upgrade 'pip>=25.1'
	$(PY) -m pip install --progress-bar off --config-settings editable_mode=strict -e './api[postgres,gevent]' -e '.[async]' --group dev
	@touch $(STAMP)
	@echo "== installed"

install: $(STAMP)

# The spec's outside tools (tests/process/test_spec_tools.py): openapi-typescript, tsc and Redocly's
# linter, pinned by tests/contract/typescript/package-lock.json, installed with npm ci (Node.js 18+).
NODE_TOOLS := tests/contract/typescript
NODE_STAMP := $(NODE_TOOLS)/node_modules/.installed
$(NODE_STAMP): $(NODE_TOOLS)/package.json $(NODE_TOOLS)/package-lock.json
	@command -v npm >/dev/null || { echo "make test needs npm (Node.js 18+) for the spec's generator tests: apt-get install -y nodejs npm" >&2; exit 1; }
	npm ci --prefix $(NODE_TOOLS) --no-audit --no-fund
	@touch $(NODE_STAMP)

node-tools: $(NODE_STAMP)

# handfoot-server serve migrates, then serves under gunicorn (api/gunicorn_conf.py: gevent workers,
# which close clients slow to send their headers, so HOST=0.0.0.0 is safe; docs/deploy.md).
run: install
	HANDFOOT_RATE_LIMIT="$${HANDFOOT_RATE_LIMIT-$(RATE_LIMIT)}" \
	$(VENV)/bin/handfoot-server serve -w $(WORKERS) -b $(HOST):$(PORT)

serve: run

test: install node-tools lint typecheck pytest openapi-check migrations-check

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# mypy reads the source tree under the names it installs as: build/typecheck/handfoot/ (a namespace
# package, as installed) links client -> sdk/, engine -> engine/, rl -> rl/ and server -> api/ (the editable
# install's import hook is invisible to mypy). Checked: the client, the engine, the RL environment, the
# server and the examples.
TYPECHECK := build/typecheck
typecheck: install
	@rm -rf $(TYPECHECK) && mkdir -p $(TYPECHECK)/handfoot
	@ln -s "$$PWD/sdk" $(TYPECHECK)/handfoot/client && ln -s "$$PWD/engine" $(TYPECHECK)/handfoot/engine
	@ln -s "$$PWD/api" $(TYPECHECK)/handfoot/server && ln -s "$$PWD/rl" $(TYPECHECK)/handfoot/rl
	MYPYPATH=$(TYPECHECK) $(VENV)/bin/mypy --strict -p handfoot.client -p handfoot.engine -p handfoot.rl -p handfoot.server
	MYPYPATH=$(TYPECHECK) $(VENV)/bin/mypy --strict examples

# pytest exits 5 when it collected no tests: that is a failure too, said out loud.
# PYTEST_WORKERS: pytest-xdist processes (`auto`: one a core; 0 runs in this process). --dist loadfile
# keeps each test module on one worker: the schema fuzz's per-operation 2xx check needs all its cases
# in one process (pytest 9 ignores the node-id suffix that xdist_group relies on).
# HYPOTHESIS_PROFILE (tests/conftest.py): ci runs each property test's full count.
PYTEST_WORKERS ?= auto
pytest: install
	@rc=0; HYPOTHESIS_PROFILE="$${HYPOTHESIS_PROFILE-ci}" \
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS) || rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest: no tests ran (exit 5)" >&2; fi; \
	exit $$rc

# The developer's loop: the in-process tests only. Deselected: `process` (a test that starts a server
# process: those using the session's gunicorn `live_server`) and `fuzz` (schemathesis); tests/process
# (crash, durability, packaging, browser, README runs) is not collected at all.
CHECK_PATHS := tests/engine tests/rl tests/api tests/sdk tests/cases tests/contract
check: install
	@rc=0; HYPOTHESIS_PROFILE="$${HYPOTHESIS_PROFILE-dev}" \
	$(PY) -m pytest -n $(PYTEST_WORKERS) -m "not process and not fuzz" $(CHECK_PATHS) $(PYTEST_ARGS) || rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest: no tests ran (exit 5)" >&2; fi; \
	exit $$rc

# The long schemathesis run (tests/contract/test_schema_fuzz.py; also on PostgreSQL when TEST_DATABASE_URL is set).
fuzz: install
	HANDFOOT_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest tests/contract/test_schema_fuzz.py -p no:logging $(PYTEST_ARGS)

openapi: install
	$(VENV)/bin/flask --app 'handfoot.server:create_app' openapi write openapi/openapi.json
	@echo "wrote openapi/openapi.json"

openapi-check: install
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(VENV)/bin/flask --app 'handfoot.server:create_app' openapi write "$$tmp/openapi.json"; \
	if ! diff -u openapi/openapi.json "$$tmp/openapi.json"; then \
	  echo "openapi/openapi.json is stale: run 'make openapi' and commit it" >&2; exit 1; \
	fi; \
	echo "openapi/openapi.json is up to date"

migrate: install
	$(VENV)/bin/handfoot-server migrate

# alembic check needs a database at head: use a throwaway SQLite file.
migrations-check: install
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	export DATABASE_URL="sqlite:///$$tmp/check.sqlite3"; \
	$(VENV)/bin/alembic upgrade head && $(VENV)/bin/alembic check

revision: install
	@test -n "$(m)" || { echo "usage: make revision m='what changes'" >&2; exit 2; }
	$(VENV)/bin/alembic revision --autogenerate -m "$(m)"

# Benchmarks (not part of `make test`): the table is printed and written to bench/results/latest.json.
# wrk comes from Debian's packages; the profiler from the `bench` dependency group. The benchmark's own tests
# (bench/tests: its plan of appends, its servers and floors) run first, in bench-check.
BENCH_STAMP := $(VENV)/.installed-bench
BENCH_ARGS ?=

$(BENCH_STAMP): pyproject.toml $(STAMP)
	$(PY) -m pip install --quiet --group bench
	@touch $(BENCH_STAMP)

bench-check: $(BENCH_STAMP)
	@command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; } || \
	  { echo "make bench needs wrk: apt-get install -y wrk" >&2; exit 1; }
	$(PY) -m pytest bench/tests -q

bench: bench-check
	$(PY) -m bench.run $(BENCH_ARGS)

# The notebooks (examples/run_notebooks.py): the `notebooks` extra (Jupyter, pandas, matplotlib),
# then each notebook in a fresh kernel against a throwaway server on a temporary SQLite file; each
# must leave the server's games as it found them. `.venv/bin/jupyter lab examples` opens them.
# The extra is installed strict editable, as `make install` installs: a default editable install of
# handfoot would replace the link tree with an import hook that mypy and editors do not see.
NOTEBOOKS_STAMP := $(VENV)/.installed-notebooks
$(NOTEBOOKS_STAMP): pyproject.toml $(STAMP)
	$(PY) -m pip install --progress-bar off --config-settings editable_mode=strict -e '.[notebooks]'
	@touch $(NOTEBOOKS_STAMP)

notebooks: $(NOTEBOOKS_STAMP)
	$(PY) examples/run_notebooks.py

# Bot rounds in process under every preset with every invariant checked (not part of `make test`):
# prints rounds/s, actions per round, how rounds ended and the greedy bot's win rate per preset.
SIMULATE_ROUNDS ?= 1000
SIMULATE_ARGS ?=
simulate: install
	$(PY) -m bench.simulate --rounds $(SIMULATE_ROUNDS) $(SIMULATE_ARGS)

# One action at a table (POST /v1/tables/{id}/actions) against the stateless checks of the same
# action, in process on a temporary SQLite file (BENCH_TABLE_ARGS: --games N, --database-url URL).
bench-table: install
	$(PY) -m bench.table_cost $(BENCH_TABLE_ARGS)

bench-handover: install
	$(PY) -m bench.handover $(BENCH_HANDOVER_ARGS)

bench-waiting: install
	$(PY) -m bench.waiting_load $(BENCH_WAITING_ARGS)

bench-profile: $(BENCH_STAMP)
	$(PY) -m bench.profile

# What the rate limiter costs POST /v1/rounds/score: off against on (shared file, Redis), one run.
LIMITER_ARGS ?= --runs 5 --duration 3
bench-limiter: bench-check
	$(PY) -m bench.limiter $(LIMITER_ARGS)

# Several API hosts on one PostgreSQL, each in its own network namespace, one SIGKILLed mid-run
# (bench/multihost.py; root, ip netns, PostgreSQL's server binaries and redis-server).
MULTIHOST_ARGS ?=
multihost: install
	@command -v redis-server >/dev/null || { apt-get update -qq && apt-get install -y -qq redis-server; }
	$(PY) -m bench.multihost $(MULTIHOST_ARGS)

# The games list (first and last page of 50,000 games against a list of 100) and a game's reads
# (50 rounds against 1), in process, on SQLite and on the PostgreSQL of TEST_DATABASE_URL (or
# BENCH_PG_URL). BENCH_LISTING_ARGS='--databases sqlite --games 20000 --requests 50' for a quick look.
BENCH_LISTING_ARGS ?=
bench-listing: install
	$(PY) -m bench.listing $(BENCH_LISTING_ARGS)

# Both distributions' wheels and sdists in dist/: handfoot and handfoot-server, checked as PyPI
# would take them (twine check) and as a wheel should hold (check-wheel-contents).
dist: install
	rm -rf dist && $(PY) -m build --outdir dist . && $(PY) -m build --outdir dist api
	$(VENV)/bin/twine check --strict dist/*
	$(VENV)/bin/check-wheel-contents --ignore W004 dist/*.whl  # W004: the migrations' dated file names

# Both wheels installed in fresh venvs outside the checkout (.ci/run runs it after make test).
dist-check: install
	.ci/dist-check $(PY)

clean:
	rm -rf .pytest_cache .mypy_cache .ruff_cache build dist api/build
