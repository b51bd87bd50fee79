"""``400 malformed_json``: its ``reason`` says what is wrong with the body in the request's
language (Spanish by default, English when asked), never the parser's English, and never
quotes the body (core.parsers)."""

from __future__ import annotations

import pytest

TOKEN = "/api/v1/accounts/token/"
DETAIL = "El cuerpo de la petición no es JSON válido."

CASES = [
    (
        b'{"username": "alice", "password": NaN}',
        "NaN, Infinity y -Infinity no son números de JSON.",
        "NaN, Infinity and -Infinity are not JSON numbers.",
    ),
    (
        b'{"username": -Infinity}',
        "NaN, Infinity y -Infinity no son números de JSON.",
        "NaN, Infinity and -Infinity are not JSON numbers.",
    ),
    (
        b"[" * 5000 + b"]" * 5000,
        "El JSON está anidado a demasiada profundidad.",
        "The JSON is nested too deeply.",
    ),
    (
        b'{\n "username": "secret-name"\n "password": "x"}',
        "No es JSON válido en la línea 3, columna 2: falta una coma.",
        "Not valid JSON at line 3, column 2: a comma is missing.",
    ),
    (
        b'{"username": ',
        "No es JSON válido en la línea 1, columna 14: se esperaba un valor.",
        "Not valid JSON at line 1, column 14: a value was expected.",
    ),
    (
        b'{"username": "\\q"}',
        "No es JSON válido en la línea 1, columna 15.",
        "Not valid JSON at line 1, column 15.",
    ),
    (
        b'{"username": "\xff\xfe"}',
        "El cuerpo no es texto utf-8 válido.",
        "The body is not valid utf-8 text.",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize("body, spanish, english", CASES)
def test_the_reason_says_what_is_wrong_in_the_requests_language(
    anonymous_client, body, spanish, english
):
    answer = anonymous_client.post(TOKEN, body, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json() == {"code": "malformed_json", "detail": DETAIL, "reason": spanish}

    answer = anonymous_client.post(
        TOKEN, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert answer.json()["reason"] == english
    assert "secret" not in answer.content.decode()
