"""The API's error details speak Spanish as the site does, with "tú" and plain words:
Django REST framework's own Spanish ("Asegúrese de que...", "Introduzca...", "Las
credenciales de autenticación no se proveyeron", "Solicitud fue regulada (throttled)")
is replaced by the catalogue in locale/es/, and the strict bodies' unknown fields are
refused in Spanish too, not in English."""

import json
import re

import pytest

from tests.support.api import create_table, table

pytestmark = pytest.mark.django_db

#: DRF's "usted" Spanish and the English it left.
LIBRARY_WORDS = re.compile(
    r"Asegúrese|Introduzca|proveyeron|regulada|throttled|requerido|Unknown field|"
    r"Se espera que|elección válida|Debe ser|No data provided|no list|no str|Give either|"
    r"\bUse\b|formato erróneo"
)
ES = {"HTTP_ACCEPT_LANGUAGE": "es"}


def test_a_refused_move_and_a_signed_out_request_read_in_the_sites_spanish(
    api_client_for, anonymous_client, alice
):
    client = api_client_for(alice)
    created = create_table(client, 2, ["nino"])
    version = table(client, created["id"])["version"]
    moves = f"/api/v1/tables/{created['id']}/moves/"
    answers = {
        "unknown field": client.post(moves, {"tile": "6-6", "version": version, "zzz": 1}, **ES),
        "negative version": client.post(moves, {"tile": "6-6", "version": -1}, **ES),
        "not a number": client.post(moves, {"tile": "6-6", "version": "x"}, **ES),
        "missing": client.post(moves, {"tile": "6-6"}, **ES),
        "signed out": anonymous_client.get("/api/v1/tables/", **ES),
        # the last look (session 6): DRF's English and Python's type names came through
        "null body": client.post(moves, "null", content_type="application/json", **ES),
        "list body": client.post(moves, "[]", content_type="application/json", **ES),
        "read both": client.post("/api/v1/notifications/read/", {"ids": [1], "table": 1}, **ES),
        "huge id": client.post("/api/v1/notifications/read/", {"ids": [2**80]}, **ES),
        # the last look (session 7): DRF's "usted" in a time and an e-mail address
        "bad time": client.patch(
            "/api/v1/notifications/preferences/", {"quiet_start": "25:99"}, format="json", **ES
        ),
        "bad email": anonymous_client.post(
            "/api/v1/accounts/signup/",
            {"username": "zoe", "email": "bad", "password": "clave-segura-123"},
            format="json",
            **ES,
        ),
    }
    for name, answer in answers.items():
        assert 400 <= answer.status_code < 500, (name, answer.status_code)
        text = json.dumps(answer.json(), ensure_ascii=False)
        assert not LIBRARY_WORDS.search(text), (name, text)
    fields = answers["unknown field"].json()["fields"]
    assert fields["zzz"] == ["No es un campo de esta petición."]
    assert answers["negative version"].json()["fields"]["version"] == [
        "Tiene que ser mayor o igual que 0."
    ]
    assert answers["missing"].json()["fields"]["version"] == ["Falta este campo."]
    assert "inicia sesión" in answers["signed out"].json()["detail"]
    assert answers["null body"].json()["fields"]["non_field_errors"] == [
        "No se enviaron datos: el cuerpo es null."
    ]
    assert answers["huge id"].json()["code"] == "invalid"
    assert "Usa uno de estos" in json.dumps(answers["bad time"].json(), ensure_ascii=False)
    assert answers["bad email"].json()["fields"]["email"] == [
        "Escribe una dirección de correo válida."
    ]


def test_a_throttled_answer_says_when_to_try_again_in_spanish(
    api_client_for, alice, settings, monkeypatch
):
    from rest_framework.throttling import SimpleRateThrottle

    rates = dict(SimpleRateThrottle.THROTTLE_RATES, tables="1/hour")
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    client = api_client_for(alice)
    body = {"seats": 2, "target": 100, "others": ["nino"]}
    client.post("/api/v1/tables/", body, format="json", **ES)
    refused = client.post("/api/v1/tables/", body, format="json", **ES)
    assert refused.status_code == 429
    detail = refused.json()["detail"]
    assert detail.startswith("Demasiadas peticiones.") and "Vuelve a probar en" in detail
    assert not LIBRARY_WORDS.search(detail), detail


def test_the_api_says_peticion_as_everywhere_else(api_client_for, alice):
    """DRF's Spanish said "Tipo de medio "text/plain" incompatible en la solicitud." (415)
    and "No se ha podido satisfacer la solicitud de cabecera de Accept." (406), where
    every other answer says "petición"."""
    client = api_client_for(alice)
    body = {"seats": 2, "target": 50, "others": ["nino"]}
    answers = {
        "text": client.post("/api/v1/tables/", "seats=2", content_type="text/plain", **ES),
        "form": client.post("/api/v1/tables/", body, format="multipart", **ES),
        "xml": client.get("/api/v1/me/", HTTP_ACCEPT="application/xml", **ES),
    }

    assert answers["text"].status_code == 415
    assert answers["text"].json() == {
        "code": "unsupported_media_type",
        "detail": "El tipo de contenido «text/plain» no se admite en esta petición.",
    }
    assert answers["form"].json()["detail"].startswith("El tipo de contenido «multipart/")
    assert (answers["xml"].status_code, answers["xml"].json()["detail"]) == (
        406,
        "No se puede responder en el formato que pide la cabecera Accept de esta petición.",
    )
    for name, answer in answers.items():
        assert "solicitud" not in answer.json()["detail"], name
