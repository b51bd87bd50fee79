"""The one-click unsubscribe of every notice e-mail (RFC 8058): the link works signed out,
a mail client's POST ``List-Unsubscribe=One-Click`` turns that kind of e-mail off, and
nothing else changes; a forged link is refused."""

from __future__ import annotations

import pytest

from notices import email
from notices.models import NoticePreferences

pytestmark = pytest.mark.django_db


def _preferences(user) -> dict:
    row = NoticePreferences.objects.filter(user=user).values().first() or {}
    row.pop("id", None)
    return row


@pytest.mark.parametrize("kind", ["your_turn", "reminder", "match_over"])
def test_the_link_turns_off_that_email_only_signed_out(client, alice, bob, kind):
    path = f"/avisos/baja/{email.unsubscribe_token(alice.pk, kind)}/"
    page = client.get(path)
    assert page.status_code == 200
    assert "Darme de baja" in page.content.decode()
    assert NoticePreferences.objects.filter(user=alice).count() == 0  # a GET changes nothing
    answer = client.post(
        path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert answer.status_code == 200
    after = _preferences(alice)
    assert after[f"email_{kind}"] is False
    others = {f"email_{k}" for k in NoticePreferences.EMAIL_KINDS} - {f"email_{kind}"}
    assert all(after[name] is True for name in others)
    assert all(after[name] is True for name in after if name.startswith("push_"))
    alice.refresh_from_db()
    assert alice.email_notifications is True
    assert NoticePreferences.objects.filter(user=bob).count() == 0


@pytest.mark.parametrize(
    "token",
    ["nonsense", email.unsubscribe_token.__name__],
)
def test_a_forged_link_is_refused(client, alice, token):
    assert client.post(f"/avisos/baja/{token}/").status_code == 404
    assert NoticePreferences.objects.filter(user=alice).count() == 0


def test_a_token_for_a_kind_without_email_is_refused(client, alice):
    token = email.unsubscribe_token(alice.pk, "hand_over")
    assert client.post(f"/avisos/baja/{token}/").status_code == 404
