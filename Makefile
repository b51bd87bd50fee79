# Two commands matter: `make run` and `make test`. Both create .venv on first use and
# reinstall only when pyproject.toml changed (.venv/.install.stamp).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.install.stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint worker beat messages install

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo_user
	$(PY) manage.py runserver $(HOST):$(PORT)

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
	$(PY) manage.py compilemessages -l en --ignore=.venv
