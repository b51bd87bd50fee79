"""The test settings give each pytest-xdist worker its own Redis database
(config/settings/test.py): two workers flushing one database would wipe each other's
keys mid-test."""

import os
import subprocess
import sys

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


@pytest.mark.parametrize(
    ("shifted_for", "expected"),
    [("gw1", "redis://127.0.0.1:6379/7"), (None, "redis://127.0.0.1:6379/8")],
)
def test_a_process_a_test_starts_keeps_the_redis_url_it_is_given(shifted_for, expected):
    """A Celery worker started by a test on xdist's gw1 reads the test settings again,
    with gw1 in its environment: given the worker's (already moved) database, or a test's
    private Redis, it keeps it; only a process not yet moved moves (the first CI run under
    -n 2 had the worker listening on /2 while gw1's tests sent to /1)."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "PYTEST_XDIST_WORKER": "gw1",
        "REDIS_URL": "redis://127.0.0.1:6379/7",
    }
    env.pop("REDIS_URL_SHIFTED_FOR", None)
    if shifted_for is not None:
        env["REDIS_URL_SHIFTED_FOR"] = shifted_for
    read = subprocess.run(
        [sys.executable, "-c", "from django.conf import settings; print(settings.REDIS_URL)"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert read.stdout.strip() == expected
