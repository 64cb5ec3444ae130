# Chancery: `make test` sets up everything it needs on a fresh machine (a virtual environment
# in .venv with the project and its dev tools) and runs the whole suite.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin

.PHONY: venv test test-slow test-integration lint fmt simulate bench bench-move-path clean run worker beat migrate

# Where the integration and e2e tests find their services; they fail (never skip) without them.
CHANCERY_TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/test
CHANCERY_TEST_REDIS_URL ?= redis://127.0.0.1:6379/15
export CHANCERY_TEST_DATABASE_URL CHANCERY_TEST_REDIS_URL

$(BIN)/python:
	$(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

venv: $(VENV)/.installed

# The site on http://127.0.0.1:$(PORT) (`PORT=8100 make run`) with SQLite, the in-memory channel
# layer and in-process tasks; mail links point at the same address unless SITE_URL says otherwise.
PORT ?= 8000
run: export SITE_URL ?= http://127.0.0.1:$(PORT)
run: migrate
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

migrate: venv
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py bootstrap

worker: venv
	$(BIN)/celery -A config worker -l info

beat: venv
	$(BIN)/celery -A config beat -l info

# Test processes side by side, one per core (at most 4): each has its own SQLite database.
PARALLEL := -n auto --maxprocesses 4

# The unit suite: SQLite, no other service (pyproject's addopts leave out `slow`, `integration`
# and `e2e`).
test: venv lint
	$(BIN)/python -m pytest -q $(PARALLEL)

# The long random playouts of every engine, many seeds looped inside a few tests.
test-slow: venv
	$(BIN)/python -m pytest -q $(PARALLEL) -m slow

# Real PostgreSQL (a fresh database chancery_it on that server), Redis, daphne servers, a Celery
# worker and Debian's chromium (Playwright drives it; no browser download). .ci/run starts the
# services, installs chromium and always runs this after `make test`.
test-integration: venv
	$(BIN)/python -m pytest -q -m "integration or e2e" tests/integration tests/e2e

# ruff, the formatting, migrations in step with the models, and mypy over rules/, games/ and
# config/ (--strict; pyproject's [tool.mypy] says where games/ is still checked more lightly).
lint: venv
	$(BIN)/ruff check rules games config tests bench
	$(BIN)/ruff format --check rules games config tests bench
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/mypy

fmt: venv
	$(BIN)/ruff format rules games config tests bench
	$(BIN)/ruff check --fix rules games config tests bench

simulate: venv
	for p in 2 3 4; do $(BIN)/python -m rules simulate hre --players $$p --games 100 --seed 1 > /dev/null || exit 1; done

bench: venv
	$(BIN)/python bench/engines.py

# The move path over PostgreSQL, Redis and two daphne servers, next to a trivial view.
bench-move-path: venv
	$(BIN)/python bench/move_path.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
