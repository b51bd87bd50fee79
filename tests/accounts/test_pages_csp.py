"""The account pages (ours and django-allauth's in the site's frame) under the
Content-Security-Policy: the header on each, and no inline script, handler or style."""

import pytest
from allauth.account.models import EmailAddress

from tests.security.test_content_security_policy import assert_no_inline_code

pytestmark = pytest.mark.django_db

ANONYMOUS = [
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/accounts/password/reset/done/",
    "/accounts/password/reset/key/1-spent-token/",
    "/accounts/confirm-email/not-a-key/",
]
SIGNED_IN = [
    "/accounts/settings/",
    "/accounts/settings/delete/",
    "/accounts/email/",
    "/accounts/password/change/",
]


def test_every_account_page_carries_the_policy_and_no_inline_code(client, alice):
    EmailAddress.objects.create(user=alice, email="alice.new@example.com")  # a change pending
    for signed_in, paths in ((False, ANONYMOUS), (True, SIGNED_IN)):
        if signed_in:
            client.force_login(alice)
        for path in paths:
            reply = client.get(path, follow=True)
            assert reply.status_code == 200, (path, reply.status_code)
            assert reply.headers.get("Content-Security-Policy"), path
            assert_no_inline_code(reply.content.decode(), path)
