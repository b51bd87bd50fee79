"""A choice among texts (the rule profile, a move's action, a bot in ``others``, a quick
phrase, a report's reason; in the accounts and notices bodies ``language``,
``time_zone``, ``platform``: ``bad_input_notice_types.py``) given a JSON number or boolean
says what a text field says, "Tiene que ser un texto.", where DRF alone answered that 5
"no es una de las opciones" as if it had been a text; 400 ``invalid`` naming the field,
and nothing changes."""

from __future__ import annotations

import pytest

from moderation.models import Report, TalkMessage
from tables.models import Move, Table
from tests.support.api import seated_clients, table

pytestmark = pytest.mark.django_db

TEXT = {"es": "Tiene que ser un texto.", "en": "A string is required."}

# (name, path under /api/v1/, body, the field refused); {id} is alice and bob's table
CASES = [
    ("create: rules number", "tables/", {"rules": 5, "seats": 2, "others": ["nino"]}, "rules"),
    ("create: rules true", "tables/", {"rules": True, "seats": 2, "others": ["nino"]}, "rules"),
    ("create: a bot as a number", "tables/", {"seats": 2, "others": [1]}, "others"),
    ("move: action number", "tables/{id}/moves/", {"action": 1, "version": 0}, "action"),
    ("move: action false", "tables/{id}/moves/", {"action": False, "version": 0}, "action"),
    ("talk: phrase number", "tables/{id}/talk/", {"phrase": 0}, "phrase"),
    ("report: reason true", "tables/{id}/reports/", {"reason": True, "seat": 1}, "reason"),
]


def _snapshot() -> tuple:
    return (
        Table.objects.count(),
        sorted(Table.objects.values_list("pk", "version")),
        Move.objects.count(),
        TalkMessage.objects.count(),
        Report.objects.count(),
    )


@pytest.mark.parametrize(
    ("path", "body", "field"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
@pytest.mark.parametrize("language", ["es", "en"])
def test_a_choice_given_a_number_or_a_boolean_wants_text(
    api_client_for, alice, bob, path, body, field, language
):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    client = clients[table(clients[0], table_id)["turn_seat"]]
    before = _snapshot()

    response = client.post(
        "/api/v1/" + path.format(id=table_id), body, format="json", HTTP_ACCEPT_LANGUAGE=language
    )

    assert response.status_code == 400, response.content[:300]
    assert response.json()["code"] == "invalid"
    assert response.json()["fields"] == {field: [TEXT[language]]}
    assert _snapshot() == before
