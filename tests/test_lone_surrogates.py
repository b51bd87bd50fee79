"""A lone surrogate (``"\\ud800"`` in a JSON text, which no UTF-8 text holds) is refused
with a 400 in the request's language: DRF's own sentence was English in a Spanish answer
("Surrogate characters are not allowed: U+D800."), and a field whose refusal quotes the
input (a choice) could not write its answer at all (500)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

ES = "El texto lleva un carácter no válido (un sustituto suelto): U+D800."
EN = "Surrogate characters are not allowed: U+D800."


def _send(client, method: str, path: str, body: bytes, **headers):
    return client.generic(method, path, body, content_type="application/json", **headers)


@pytest.fixture
def table_id(api_client_for, alice, bob):
    from tests.support.api import seated_clients

    table, _clients = seated_clients(api_client_for, [alice, bob])
    return table


@pytest.mark.parametrize(("language", "sentence"), [("es", ES), ("en", EN)])
def test_a_talk_text_with_a_lone_surrogate(api_client_for, alice, table_id, language, sentence):
    answer = _send(
        api_client_for(alice),
        "POST",
        f"/api/v1/tables/{table_id}/talk/",
        b'{"text": "hola \\ud800"}',
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid"
    assert answer.json()["fields"]["text"] == [sentence]


def test_spanish_is_the_default(anonymous_client):
    answer = _send(
        anonymous_client,
        "POST",
        "/api/v1/accounts/signup/",
        b'{"username": "ana\\ud800", "email": "ana@example.com", "password": "x-long-pass-1"}',
    )
    assert answer.status_code == 400
    assert answer.json()["fields"]["username"] == [ES]


def test_a_choice_quoting_a_lone_surrogate_is_a_400(api_client_for, alice):
    answer = _send(api_client_for(alice), "PATCH", "/api/v1/me/", b'{"language": "\\ud800"}')
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid"
    assert "\ufffd" in answer.json()["fields"]["language"][0]
    alice.refresh_from_db()
    assert alice.language == "es"
