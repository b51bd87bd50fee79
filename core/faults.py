"""What counts as a passing outage of a backing service, in one place.

- ``DATABASE_ERRORS``: the database connection dropped or refused (a restart, a failover,
  ``pg_terminate_backend``); the transaction that met it rolled back.
- ``CACHE_ERRORS``: the cache (Redis) did not answer.
- ``BROKER_ERRORS``: a task could not be published (Redis as Celery's broker).

A request that meets ``UNAVAILABLE`` is answered ``503 unavailable`` with ``Retry-After``
(``core.api_errors``); a task that meets ``TASK_RETRY`` is retried with backoff
(``tables.tasks``); the rate limits fail open on ``CACHE_ERRORS`` (``core.throttling``).
"""

from __future__ import annotations

import redis
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as KombuOperationalError

DATABASE_ERRORS: tuple[type[BaseException], ...] = (OperationalError, InterfaceError)
CACHE_ERRORS: tuple[type[BaseException], ...] = (redis.RedisError, ConnectionError, TimeoutError)
BROKER_ERRORS: tuple[type[BaseException], ...] = (KombuOperationalError, *CACHE_ERRORS)
UNAVAILABLE = DATABASE_ERRORS + CACHE_ERRORS
TASK_RETRY = DATABASE_ERRORS + BROKER_ERRORS
#: Seconds a client is told to wait (``Retry-After``) before trying again after a 503.
RETRY_AFTER_SECONDS = 5
