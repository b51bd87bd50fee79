"""The header's bell when the database fails its query: a signed-in 404 page is still the
404, drawn without the count of unread notices, not a 503 (``notices.context_processors``).
Outside a test transaction, as a page is served."""

import pytest
from django.db import OperationalError

from notices import selectors

pytestmark = pytest.mark.django_db(transaction=True)


def _dropped(user, **_shown):
    raise OperationalError("server closed the connection unexpectedly")


def test_a_signed_in_404_is_a_404_when_the_bell_cannot_be_counted(client, alice, monkeypatch):
    client.force_login(alice)
    monkeypatch.setattr(selectors, "unread_count", _dropped)
    page = client.get("/mesas/99999/")
    assert page.status_code == 404
    assert b"bell-count" not in page.content


def test_the_bell_counts_when_the_database_answers(client, alice):
    client.force_login(alice)
    page = client.get("/mesas/99999/")
    assert page.status_code == 404
    assert b'class="bell' in page.content
