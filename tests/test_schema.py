import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.django_db
def test_the_schema_is_served_without_login(anonymous_client):
    r = anonymous_client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    assert r.status_code == 200
    assert "/api/v1/me/" in r.json()["paths"]


def test_the_schema_generates_without_warnings():
    result = subprocess.run(
        [sys.executable, "manage.py", "spectacular", "--validate", "--fail-on-warn"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"},
    )

    assert result.returncode == 0, result.stderr
