"""Real processes for the fault tests: a private ``redis-server`` that a test may stop and
start again, the web app under gunicorn or uvicorn and a Celery worker, all pointed at the test
PostgreSQL database (``DATABASE_URL`` names pytest-django's test database; the data they
must see is committed: ``transaction=True``).

The shared Redis is never stopped: each test starts its own on a free port.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import httpx
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_database_url() -> str:
    """A ``postgres://`` URL naming the database this test process uses."""
    db = connection.settings_dict
    user = quote(db["USER"] or "", safe="")
    password = quote(db["PASSWORD"] or "", safe="")
    auth = f"{user}:{password}@" if password else f"{user}@"
    host, port = db["HOST"] or "localhost", db["PORT"] or "5432"
    return f"postgres://{auth}{host}:{port}/{db['NAME']}"


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


class PrivateRedis:
    """``redis-server`` on a port of its own, no persistence: ``stop()`` and ``start()``
    again on the same port (a Redis outage and its end)."""

    def __init__(self, log: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log = log
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        server = shutil.which("redis-server")
        assert server, "redis-server is not installed"
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [
                    server,
                    "--port",
                    str(self.port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--daemonize",
                    "no",
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        wait_for(lambda: _answers(self.port), f"redis-server on {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()  # an outage, not a clean shutdown
            self.process.wait(timeout=10)
            self.process = None


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def wait_for(condition, what, timeout: float = 30.0, every: float = 0.1):
    """Poll ``condition()`` until it is truthy (returned) or ``timeout`` seconds pass;
    ``what`` (text, or a function giving it, e.g. a process's log) names the wait."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(
        f"timed out after {timeout}s waiting for {what() if callable(what) else what}"
    )


def service_env(redis_url: str, **extra: str) -> dict[str, str]:
    """The environment of the web and worker processes: test settings, the test
    database, ``redis_url`` as cache and broker, tasks sent to the broker."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": test_database_url(),
        "REDIS_URL": redis_url,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        **extra,
    }


class Process:
    """A child process with its output in a log file; ``stop()`` is safe to repeat."""

    def __init__(self, command: list[str], env: dict[str, str], log: Path) -> None:
        self.log = log
        with log.open("ab") as out:
            self.popen = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
            )

    def output(self, tail: int = 6000) -> str:
        return self.log.read_text(errors="replace")[-tail:]

    def alive(self) -> bool:
        return self.popen.poll() is None

    def kill(self) -> None:
        """SIGKILL: the process dies where it is, nothing is cleaned up."""
        self.popen.kill()
        self.popen.wait(timeout=10)

    def stop(self) -> None:
        _stop(self.popen)


def start_worker(env: dict[str, str], log: Path) -> Process:
    """``celery -A config worker`` (solo pool, one task at a time) on ``env``'s broker."""
    return Process(
        [
            str(BIN / "celery"),
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--concurrency=1",
            "-Q",
            "celery",
            "--without-heartbeat",
            "--without-mingle",
            "--without-gossip",
            "--loglevel=INFO",
        ],
        env,
        log,
    )


def send_task(env: dict[str, str], name: str) -> None:
    """Queue task ``name`` on ``env``'s broker, as beat does (``celery -A config call``):
    a worker on that broker runs it."""
    subprocess.run(
        [str(BIN / "celery"), "-A", "config", "call", name],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=60,
    )


def start_web(env: dict[str, str], log: Path, workers: int = 2) -> tuple[Process, str]:
    """The app under gunicorn on a free port; returns the process and its base URL once
    it answers."""
    port = free_port()
    web = Process(
        [
            str(BIN / "gunicorn"),
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--timeout",
            "60",
            "--log-level",
            "info",
        ],
        env,
        log,
    )
    base = f"http://127.0.0.1:{port}"

    def up() -> bool:
        assert web.alive(), f"gunicorn died:\n{web.output()}"
        try:
            return httpx.get(f"{base}/api/v1/schema/", timeout=2).status_code < 500
        except httpx.HTTPError:
            return False

    wait_for(up, "gunicorn", timeout=60, every=0.2)
    return web, base


def start_uvicorn(env: dict[str, str], log: Path, workers: int = 1) -> tuple[Process, str]:
    """The app under uvicorn (``config.asgi``, as the Dockerfile and docker-compose run
    it) on a free port; returns the process and its base URL once it answers."""
    port = free_port()
    web = Process(
        [
            str(BIN / "uvicorn"),
            "config.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            str(workers),
            "--no-proxy-headers",
        ],
        env,
        log,
    )
    base = f"http://127.0.0.1:{port}"

    def up() -> bool:
        assert web.alive(), f"uvicorn died:\n{web.output()}"
        try:
            return httpx.get(f"{base}/api/v1/schema/", timeout=2).status_code < 500
        except httpx.HTTPError:
            return False

    wait_for(up, "uvicorn", timeout=60, every=0.2)
    return web, base


def fresh_row(table_id: int):
    """The table's row read afresh (the connection closed first: no transaction's
    snapshot), as the separate web and worker processes left it."""
    from tables.models import Table

    connection.close()
    return Table.objects.get(pk=table_id)


def token_client(base: str, token: str) -> httpx.Client:
    """An HTTP client for the app at ``base`` sending the API ``token`` (30 s timeout)."""
    return httpx.Client(base_url=base, headers={"Authorization": f"Token {token}"}, timeout=30)


def create_bot_table(client: httpx.Client, bot: str) -> int:
    """A two-seat table to 100 against ``bot``, created through the API; returns its id."""
    created = client.post("/api/v1/tables/", json={"seats": 2, "target": 100, "others": [bot]})
    assert created.status_code == 201, created.text
    return created.json()["id"]


def play_random_move(client: httpx.Client, table_id: int, rng) -> httpx.Response:
    """Read the table as ``client``'s seat and post one of its legal moves chosen by ``rng``
    (a ``random.Random``) with the version read; returns the answer."""
    state = client.get(f"/api/v1/tables/{table_id}/").json()
    move = rng.choice(state["game"]["legal_moves"])
    return client.post(
        f"/api/v1/tables/{table_id}/moves/",
        json={"tile": move["tile"], "end": move["end"], "version": state["version"]},
    )
