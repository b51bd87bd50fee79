"""The libraries' messages players reach read right in English for any number: a list
field's ``min_length=1`` (what ``POST /api/v1/tables/`` with ``others: []`` once answered
carol: "Ensure this field has at least 1 elements."; DRF builds its length messages
without a plural form). As the Spanish does in locale/es, the English re-words them in
locale/en to read right for 1 as for 5; their msgids are kept there by
``core.library_messages``."""

import pytest
from django.utils import translation
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def test_the_api_counts_right_for_one_in_english(api_client_for, carol):
    client = api_client_for(carol)
    # no entry at all: the table's own refusal, which says how many it needs
    few = client.post("/api/v1/tables/", {"seats": 2, "target": 50, "others": []}, **EN)
    assert few.json()["fields"]["others"] == [
        "This table has 1 more seat: give 1 in others, “friend” or a bot "
        "(garabato, nino, quelonia); you gave 0."
    ]
    many = {"seats": 2, "target": 50, "others": ["nino"] * 9}
    too_many = client.post("/api/v1/tables/", many, format="json", **EN)
    assert too_many.json()["fields"]["others"] == ["Too many items: the maximum is 8."]
    with translation.override("en"), pytest.raises(ValidationError) as refused:
        serializers.ListField(min_length=1).run_validation([])
    assert refused.value.detail == ["Too few items: the minimum is 1."]
