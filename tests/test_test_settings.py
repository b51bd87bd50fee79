"""The test settings give each pytest-xdist worker its own Redis database
(config/settings/test.py): two workers flushing one database would wipe each other's
keys mid-test."""

import os

import pytest
from django.conf import settings

from config.settings.test import _worker_redis_url


@pytest.mark.parametrize(
    ("url", "worker", "expected"),
    [
        ("redis://127.0.0.1:6379/0", "gw0", "redis://127.0.0.1:6379/0"),
        ("redis://127.0.0.1:6379/0", "gw1", "redis://127.0.0.1:6379/1"),
        ("redis://127.0.0.1:6379/5", "gw2", "redis://127.0.0.1:6379/7"),
        ("redis://127.0.0.1:6379", "gw1", "redis://127.0.0.1:6379/1"),
        ("redis://:secret@cache:6380/3", "gw1", "redis://:secret@cache:6380/4"),
        ("redis://127.0.0.1:6379/4", "", "redis://127.0.0.1:6379/4"),
        ("redis://127.0.0.1:6379/4", "master", "redis://127.0.0.1:6379/4"),
        ("", "gw1", ""),
    ],
)
def test_each_worker_gets_the_database_after_the_named_one(url, worker, expected):
    assert _worker_redis_url(url, worker) == expected


def test_the_processes_tests_start_see_the_settings_database():
    """The Celery worker and web server some tests start read REDIS_URL from the
    environment: it must name the database the settings (and the flush) use."""
    if not settings.REDIS_URL:
        pytest.skip("no REDIS_URL: the suite runs without Redis")
    assert os.environ["REDIS_URL"] == settings.REDIS_URL == settings.CELERY_BROKER_URL
