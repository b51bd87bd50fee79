"""The libraries' messages players reach, in the site's Spanish ("tú", and right for any
number): ``POST /api/v1/tables/`` with ``others: []`` answered "Al menos 1 elementos."
(DRF's message has no plural form, so it is worded to read right for 1 as for 5), the
create form "Escoja una opción válida. 5 no es una de las opciones disponibles." and the
notice preferences "Introduzca una hora válida." (Django's "usted"): locale/es overrides
them as it does allauth's and DRF's."""

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

ES = {"HTTP_ACCEPT_LANGUAGE": "es"}
USTED = re.compile(r"Escoja|Introduzca|Asegúrese|elementos\.|caracteres\.")


def test_the_api_counts_right_for_one(api_client_for, alice):
    client = api_client_for(alice)
    few = client.post("/api/v1/tables/", {"seats": 2, "target": 50, "others": []}, **ES)
    assert few.json()["fields"]["others"] == ["Faltan elementos: el mínimo es 1."]
    many = {"seats": 2, "target": 50, "others": ["nino"] * 4}
    too_many = client.post("/api/v1/tables/", many, format="json", **ES)
    assert too_many.json()["fields"]["others"] == ["Sobran elementos: el máximo es 3."]


def test_the_sites_forms_speak_with_tu(alice):
    client = Client()
    client.force_login(alice)
    create = client.post("/mesas/nueva/", {"seats": 5, "target": 50, "seat_1": "friend"}, **ES)
    assert create.status_code == 400
    text = create.content.decode()
    assert "Elige una opción válida: 5 no es una de las que hay." in text
    form = {"time_zone": "UTC", "quiet_start": "25:99", "quiet_end": "08:00"}
    preferences = client.post("/avisos/preferencias/", form, **ES)
    assert preferences.status_code == 400
    text += preferences.content.decode()
    assert "Escribe una hora válida (por ejemplo, 22:30)." in preferences.content.decode()
    assert not USTED.search(text), USTED.search(text)
