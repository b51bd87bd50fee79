"""The libraries' messages players reach, in the site's Spanish ("tú", and right for any
number): a list field's ``min_length=1`` said "Al menos 1 elementos." (as ``others: []``
once answered; DRF's message has no plural form, so it is worded to read right for 1 as
for 5), the create form "Escoja una opción válida. 5 no es una de las opciones
disponibles." and the notice preferences "Introduzca una hora válida." (Django's
"usted"): locale/es overrides them as it does allauth's and DRF's."""

import re

import pytest
from django.test import Client
from django.utils import translation
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

pytestmark = pytest.mark.django_db

ES = {"HTTP_ACCEPT_LANGUAGE": "es"}
USTED = re.compile(r"Escoja|Introduzca|Asegúrese|elementos\.|caracteres\.")


def test_the_api_counts_right_for_one(api_client_for, alice):
    client = api_client_for(alice)
    # no entry at all: the table's own refusal, which says how many it needs
    few = client.post("/api/v1/tables/", {"seats": 2, "target": 50, "others": []}, **ES)
    assert few.json()["fields"]["others"] == [
        "Esta mesa tiene 1 asiento más: indica 1 en others, «friend» o un bot (garabato, nino, "
        "quelonia); has indicado 0."
    ]
    many = {"seats": 2, "target": 50, "others": ["nino"] * 9}
    too_many = client.post("/api/v1/tables/", many, format="json", **ES)
    assert too_many.json()["fields"]["others"] == ["Sobran elementos: el máximo es 8."]
    with translation.override("es"), pytest.raises(ValidationError) as refused:
        serializers.ListField(min_length=1).run_validation([])
    assert refused.value.detail == ["Faltan elementos: el mínimo es 1."]


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
