"""Bodies sent with ``Transfer-Encoding: chunked`` (no ``Content-Length``).

Issue 13, finding 12: Django reads ``Content-Length`` bytes of a WSGI body and treats a
missing length as an empty body, so a chunked move arrived as ``{}`` (400 "version is
required") and a chunked login as no credentials. Now:

- under gunicorn (``config.wsgi``), which decodes the chunks and says so with
  ``wsgi.input_terminated``, and under uvicorn (``config.asgi``, the deployment), the body
  is read, up to the 64 KiB limit: past it ``413 request_too_large``;
- under a server that cannot (Django's runserver/live server), ``411 length_required``.

Both need a real socket: the test client always sends a ``Content-Length``.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings

from tests.conftest import PASSWORD

ROOT = Path(__file__).resolve().parents[2]


def _chunked_post(host: str, port: int, path: str, body: bytes, *, chunk: int = 7):
    """POST ``body`` in chunks of ``chunk`` bytes with no Content-Length; (status, json)."""
    connection = http.client.HTTPConnection(host, port, timeout=30)
    connection.putrequest("POST", path)
    connection.putheader("Content-Type", "application/json")
    connection.putheader("Transfer-Encoding", "chunked")
    connection.endheaders()
    pieces = [body[start : start + chunk] for start in range(0, len(body), chunk)]
    framed = b"".join(f"{len(piece):x}\r\n".encode() + piece + b"\r\n" for piece in pieces)
    try:
        connection.send(framed + b"0\r\n\r\n")
    except (BrokenPipeError, ConnectionResetError):
        pass  # a server that refuses the body (411) may answer and close before reading it
    reply = connection.getresponse()
    data = reply.read()
    headers = dict(reply.getheaders())
    connection.close()
    return reply.status, json.loads(data), headers


def _credentials() -> bytes:
    return json.dumps({"username": "alice", "password": PASSWORD}).encode()


@pytest.mark.django_db(transaction=True)
def test_finding_12_django_server_answers_411_to_a_chunked_body(live_server, alice):
    where = urlsplit(live_server.url)
    status, body, headers = _chunked_post(
        where.hostname, where.port, "/api/v1/accounts/token/", _credentials()
    )
    assert (status, body["code"]) == (411, "length_required"), body


def test_a_chunked_header_without_a_length_is_411_in_the_test_client(client):
    reply = client.post(
        "/api/v1/accounts/token/",
        b"",
        content_type="application/json",
        HTTP_TRANSFER_ENCODING="chunked",
    )
    assert (reply.status_code, reply.json()["code"]) == (411, "length_required")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


SERVERS = {
    "gunicorn": "gunicorn config.wsgi -w 1 -b 127.0.0.1:{port}",
    "uvicorn": "uvicorn config.asgi:application --workers 1 --host 127.0.0.1 --port {port}",
}


@pytest.fixture(params=sorted(SERVERS))
def gunicorn(request, transactional_db):
    """The deployed server on a free port, on this test's database (PostgreSQL): gunicorn
    ``config.wsgi`` and uvicorn ``config.asgi`` (the long poll's server) alike."""
    database = settings.DATABASES["default"]
    port = _free_port()
    url = f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": url,
    }
    process = subprocess.Popen(
        [sys.executable, "-m", *SERVERS[request.param].format(port=port).split()],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(process.stderr.read().decode()[-2000:]) from None
                time.sleep(0.1)
        yield port
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.mark.postgres
@pytest.mark.slow
def test_finding_12_gunicorn_reads_a_chunked_body(gunicorn, alice):
    status, body, _ = _chunked_post(
        "127.0.0.1", gunicorn, "/api/v1/accounts/token/", _credentials()
    )
    assert status == 200, body
    assert len(body["token"]) == 40

    status, body, _ = _chunked_post("127.0.0.1", gunicorn, "/api/v1/accounts/token/", b'{"user')
    assert (status, body["code"]) == (400, "malformed_json")


@pytest.mark.postgres
@pytest.mark.slow
def test_finding_12_gunicorn_refuses_a_chunked_body_past_the_limit(gunicorn, alice):
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    padded = json.dumps({"username": "alice", "password": PASSWORD, "pad": "x" * limit}).encode()
    status, body, _ = _chunked_post(
        "127.0.0.1", gunicorn, "/api/v1/accounts/token/", padded, chunk=4096
    )
    assert (status, body["code"]) == (413, "request_too_large")

    exact = json.dumps({"username": "alice", "password": PASSWORD}).encode()
    exact = exact[:-1] + b" " * (limit - len(exact)) + b"}"
    assert len(exact) == limit
    status, body, _ = _chunked_post(
        "127.0.0.1", gunicorn, "/api/v1/accounts/token/", exact, chunk=4096
    )
    assert status == 200, body


@pytest.mark.parametrize(
    ("terminated", "body", "expected_length", "expected_body"),
    [
        (True, b'{"a": 1}', "8", b'{"a": 1}'),
        (True, b"x" * 70000, str(64 * 1024 + 1), b"x" * (64 * 1024 + 1)),  # 413 follows
        (False, b'{"a": 1}', None, b'{"a": 1}'),  # the stream may not end: 411 follows
    ],
)
def test_the_reader_sets_the_length_of_what_the_server_decoded(
    terminated, body, expected_length, expected_body
):
    import io

    from core.chunked_bodies import ChunkedBodyReader

    seen = {}

    def application(environ, start_response):
        seen["length"] = environ.get("CONTENT_LENGTH")
        seen["body"] = environ["wsgi.input"].read()
        return [b""]

    environ = {
        "HTTP_TRANSFER_ENCODING": "gzip, Chunked",
        "wsgi.input": io.BytesIO(body),
        "wsgi.input_terminated": terminated,
    }
    ChunkedBodyReader(application)(environ, lambda *args: None)
    assert seen == {"length": expected_length, "body": expected_body}
