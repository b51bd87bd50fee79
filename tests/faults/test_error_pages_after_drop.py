"""Error pages after a dropped database connection, under uvicorn (``config.asgi``, as
production runs it).

Under ASGI Django renders a 404, 403 or 500 page in a thread of its own pool
(``convert_exception_to_response``: ``sync_to_async(thread_sensitive=False)``), not in the
request's thread, so the end of the request never closes that thread's connection: the
page's query (the bell's count of unread notices) left one idle connection per pool
thread, and once PostgreSQL terminated those backends every signed-in 404 answered 503,
for as long as the process lived.

Here the web app's backends are terminated once; then signed-in 404s answer 404, and the
test database's connections come back to their count before the pages.
"""

from __future__ import annotations

import httpx
import psycopg
import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from tests.faults.processes import service_env, start_uvicorn, wait_for

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

MISSING_TABLE = "/mesas/99999/"
PAGES = 50


def _admin():
    """An autocommit connection to the server's ``postgres`` database, so that counting and
    terminating never count or terminate themselves."""
    db = connection.settings_dict
    return psycopg.connect(
        host=db["HOST"] or "localhost",
        port=db["PORT"] or 5432,
        user=db["USER"],
        password=db["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    )


def _app_connections(admin, database: str) -> int:
    """Client backends connected to ``database`` (the web app's: this process closed its own)."""
    connection.close()
    (count,) = admin.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = %s "
        "AND backend_type = 'client backend'",
        [database],
    ).fetchone()
    return count


def _terminate(admin, database: str) -> int:
    connection.close()
    rows = admin.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s "
        "AND backend_type = 'client backend'",
        [database],
    ).fetchall()
    return sum(1 for (done,) in rows if done)


def _signed_in(base: str, user) -> httpx.Client:
    """An HTTP client with ``user``'s session cookie (a session saved in the database)."""
    pages = Client()
    pages.force_login(user)
    cookie = pages.cookies[settings.SESSION_COOKIE_NAME].value
    return httpx.Client(base_url=base, cookies={settings.SESSION_COOKIE_NAME: cookie}, timeout=30)


def test_signed_in_404s_answer_404_after_the_backends_are_terminated_and_leak_nothing(
    private_redis, processes, alice, tmp_path
):
    web, base = start_uvicorn(service_env(private_redis.url), tmp_path / "web.log")
    processes.append(web)
    browser = _signed_in(base, alice)
    database = connection.settings_dict["NAME"]
    with _admin() as admin:
        assert browser.get("/avisos/").status_code == 200  # signed in: the bell is counted
        before = _app_connections(admin, database)
        warm = [browser.get(MISSING_TABLE).status_code for _ in range(PAGES)]
        assert warm == [404] * PAGES
        _back_to(admin, database, before)
        # Whatever the app still holds (before the fix: the pool threads' connections).
        _terminate(admin, database)
        after_drop = [browser.get(MISSING_TABLE).status_code for _ in range(PAGES)]
        assert after_drop == [404] * PAGES, web.output()
        assert browser.get("/api/v1/tables/99999/").status_code == 404
        assert browser.get("/avisos/").status_code == 200
        _back_to(admin, database, before)


def _back_to(admin, database: str, before: int) -> None:
    """Wait until the app holds no more connections than ``before`` (a closed connection's
    backend may take a moment to leave pg_stat_activity)."""
    wait_for(
        lambda: _app_connections(admin, database) <= before,
        lambda: f"{_app_connections(admin, database)} connections to {database}, {before} before",
        timeout=10,
    )
