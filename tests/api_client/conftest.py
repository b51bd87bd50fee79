"""The fixtures of the generated-client tests: uvicorn serving the app on the test
database, and the client package generated from the schema it serves."""

from __future__ import annotations

import importlib
import subprocess
import sys

import httpx
import pytest
from django.conf import settings

from tests.faults.processes import BIN, service_env, start_uvicorn
from tests.support.generated_client import PACKAGE, Generated

schemathesis = pytest.importorskip("schemathesis")


@pytest.fixture(scope="module")
def server(django_db_setup, tmp_path_factory):
    """uvicorn serving the app on the test database; bots play inside the requests."""
    log = tmp_path_factory.mktemp("web") / "uvicorn.log"
    env = service_env(settings.REDIS_URL, CELERY_TASK_ALWAYS_EAGER="true", MOVES_RATE="100000/min")
    web, base = start_uvicorn(env, log)
    try:
        yield base
    finally:
        web.stop()


@pytest.fixture(scope="module")
def generated(server, tmp_path_factory):
    """The client package generated from the served schema, imported, and the schema
    loaded by schemathesis to validate every answer."""
    folder = tmp_path_factory.mktemp("client")
    answer = httpx.get(
        f"{server}/api/v1/schema/", headers={"Accept": "application/vnd.oai.openapi+json"}
    )
    assert answer.status_code == 200, answer.text
    (folder / "schema.json").write_bytes(answer.content)
    (folder / "config.yaml").write_text(f"package_name_override: {PACKAGE}\npost_hooks: []\n")
    made = subprocess.run(
        [
            str(BIN / "openapi-python-client"),
            "generate",
            "--path",
            str(folder / "schema.json"),
            "--config",
            str(folder / "config.yaml"),
            "--meta",
            "none",
            "--output-path",
            str(folder / PACKAGE),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    assert "Warning" not in made.stdout + made.stderr, made.stdout + made.stderr
    sys.path.insert(0, str(folder))
    try:
        package = importlib.import_module(PACKAGE)
        yield Generated(package, schemathesis.openapi.from_dict(answer.json()), server)
    finally:
        sys.path.remove(str(folder))
        for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
            del sys.modules[name]
