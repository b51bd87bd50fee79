"""Test run: fast hashing, no bot delay, mail kept in memory, tasks run inline.

DATABASE_URL and REDIS_URL are honoured, so the same suite runs on SQLite and, in CI, on
PostgreSQL and Redis; the tests marked postgres/redis need those (see tests/conftest.py).

Under pytest-xdist (``pytest -n 2``) each worker uses the Redis database after the one
REDIS_URL names, by its number (``gw0`` the named one, ``gw1`` the next): every test
flushes its Redis database (tests/conftest.py) and the table-version channel is named by
it, so two workers never see each other's keys, tasks or messages. PostgreSQL needs
nothing: pytest-django gives each worker its own test database.
"""

import os
from urllib.parse import urlsplit, urlunsplit


def _worker_redis_url(url: str, worker: str) -> str:
    """``url`` with its database number moved up by the xdist worker's number ("gw1": +1);
    ``url`` unchanged outside xdist or without Redis."""
    if not url or not worker.startswith("gw"):
        return url
    parts = urlsplit(url)
    database = int(parts.path.strip("/") or 0) + int(worker[2:])
    return urlunsplit(parts._replace(path=f"/{database}"))


# Set before the base settings read it, once per xdist worker: the processes tests start
# (web, worker) read these settings again with the worker's name in their environment and
# the REDIS_URL they were given (the worker's, or a test's private Redis), which they must
# keep: REDIS_URL_SHIFTED_FOR says it is done, or a worker started by gw1 would listen on
# gw2's database.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if os.environ.get("REDIS_URL_SHIFTED_FOR") != _WORKER:
    os.environ["REDIS_URL"] = _worker_redis_url(os.environ.get("REDIS_URL", ""), _WORKER)
    os.environ["REDIS_URL_SHIFTED_FOR"] = _WORKER

from config.settings.base import *  # noqa: E402, F403
from config.settings.environment import env_bool  # noqa: E402

SECRET_KEY = "test-only-secret-key-not-for-any-real-deployment"
DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
BOT_DELAY_SECONDS = 0
# A match's analysis with a small, clock-free Quelonia: fast, and just as deterministic.
ANALYSIS_ROLLOUTS = 32
# Tasks run in the test process even when REDIS_URL names a broker: no worker is running.
# The one test that starts a real worker (tests/tasks/test_celery_worker.py) turns this off
# for itself and starts the worker with CELERY_TASK_ALWAYS_EAGER=false.
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", default=True)
# Serve static files from the source folders; tests never run collectstatic.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
# Inline task failures are raised in tests (tables.services.outbox), logged elsewhere.
TESTING = True
