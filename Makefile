# Two commands matter: `make run` and `make test`. Both create .venv on first use and
# reinstall only when the lock (requirements/dev.txt) or pyproject.toml changed
# (.venv/.install.stamp). Installs come from the lock with hashes; `make lock` refreshes it.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.install.stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint worker beat messages install lock

install: $(STAMP)

$(STAMP): pyproject.toml requirements/dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --require-hashes -r requirements/dev.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

# Re-resolve the lock from pyproject.toml's ranges (newest allowed versions), with hashes.
# requirements/base.txt is what the Docker image installs; dev.txt adds the test tools.
# Upgrade one package only: make lock UV_ARGS="--upgrade-package django".
lock: $(STAMP)
	$(VENV)/bin/uv pip compile pyproject.toml --generate-hashes --python-version 3.11 \
		--quiet $(UV_ARGS) -o requirements/base.txt
	$(VENV)/bin/uv pip compile pyproject.toml --extra dev --generate-hashes --python-version 3.11 \
		--quiet $(UV_ARGS) -o requirements/dev.txt

run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo_user
	SITE_URL="$${SITE_URL:-http://$(HOST):$(PORT)}" $(PY) manage.py runserver $(HOST):$(PORT)

# pytest's own exit code goes through: 5 ("no tests collected") fails the target.
test: $(STAMP)
	$(VENV)/bin/pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

worker: $(STAMP)
	$(VENV)/bin/celery -A config worker --loglevel=INFO

beat: $(STAMP)
	$(VENV)/bin/celery -A config beat --loglevel=INFO \
		--scheduler django_celery_beat.schedulers:DatabaseScheduler

# Spanish is the source language; this refreshes the English catalogue and compiles it.
messages: $(STAMP)
	$(PY) manage.py makemessages -l en --ignore=.venv --ignore=dominoes --ignore=tests --ignore=bench --ignore=artifacts
	$(PY) manage.py compilemessages -l en -l es --ignore=.venv
