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


@pytest.mark.django_db
def test_the_game_and_every_error_answer_are_typed_components(anonymous_client):
    """A generated client gets types, not ``Any``: the game, the legal moves and the
    rematch are components, and every operation declares the error contract (``ApiError``)
    on each 4xx it answers and on its 503."""
    served = anonymous_client.get(
        "/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
    ).json()
    schemas = served["components"]["schemas"]
    error = schemas["ApiError"]
    assert error["required"] == ["code", "detail"]
    contract = {"code", "detail", "rule", "reason", "fields", "version", "retry_after"}
    assert contract <= set(error["properties"])
    table = schemas["Table"]["properties"]
    assert table["game"]["allOf"] == [{"$ref": "#/components/schemas/Game"}]
    assert table["rematch"]["allOf"] == [{"$ref": "#/components/schemas/Rematch"}]
    legal = {"$ref": "#/components/schemas/LegalMove"}
    assert schemas["Hand"]["properties"]["legal_moves"]["items"] == legal
    assert schemas["Game"]["properties"]["legal_moves"]["items"] == legal
    assert {"line", "ends", "scores", "tile_counts", "choices"} <= set(
        schemas["Game"]["properties"]
    )
    ref = {"$ref": "#/components/schemas/ApiError"}
    for path, operations in served["paths"].items():
        for method, operation in operations.items():
            answers = operation["responses"]
            errors = [status for status in answers if status.startswith("4") or status == "503"]
            assert "503" in errors, (method, path)
            for status in errors:
                assert answers[status]["content"]["application/json"]["schema"] == ref
    moves = served["paths"]["/api/v1/tables/{table_id}/moves/"]["post"]["responses"]
    assert {"400", "401", "403", "404", "409", "422", "429"} <= set(moves)
