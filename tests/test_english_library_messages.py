"""The libraries' messages players reach read right in English for any number:
``POST /api/v1/tables/`` with ``others: []`` answered carol "Ensure this field has at
least 1 elements." (DRF builds its length messages without a plural form). As the
Spanish does in locale/es, the English re-words them in locale/en to read right for 1 as
for 5; their msgids are kept there by ``core.library_messages``."""

import pytest

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def test_the_api_counts_right_for_one_in_english(api_client_for, carol):
    client = api_client_for(carol)
    few = client.post("/api/v1/tables/", {"seats": 2, "target": 50, "others": []}, **EN)
    assert few.status_code == 400
    assert few.json()["fields"]["others"] == ["Too few items: the minimum is 1."]
    many = {"seats": 2, "target": 50, "others": ["nino"] * 4}
    too_many = client.post("/api/v1/tables/", many, format="json", **EN)
    assert too_many.json()["fields"]["others"] == ["Too many items: the maximum is 3."]
