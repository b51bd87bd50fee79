"""Test run: fast hashing, no bot delay, mail kept in memory, tasks run inline.

DATABASE_URL and REDIS_URL are honoured, so the same suite runs on SQLite and, in CI, on
PostgreSQL and Redis; the tests marked postgres/redis need those (see tests/conftest.py).
"""

from config.settings.base import *  # noqa: F403
from config.settings.environment import env_bool

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
