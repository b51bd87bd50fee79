"""Fixtures of the fault suite: a private Redis, the web app and a worker as real
processes (``tests/faults/processes.py``), stopped at the end of each test, also on
failure."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token

from tests.faults.processes import PrivateRedis


@pytest.fixture
def private_redis(tmp_path):
    redis = PrivateRedis(tmp_path / "redis.log")
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()


@pytest.fixture
def processes():
    """Register processes (``processes.append(p)``); all are stopped at the end."""
    started: list = []
    yield started
    for process in reversed(started):
        process.stop()


@pytest.fixture
def token_of(db):
    return lambda user: Token.objects.get_or_create(user=user)[0].key


@pytest.fixture(autouse=True)
def _fresh_connection(_django_db_helper):
    """This process's connection may have been terminated by the test: close it before
    pytest-django empties the tables, so that the flush reconnects."""
    from django.db import connection

    yield
    connection.close()
