"""An expected refusal is one line in the log, a real error keeps its traceback.

Django logs each ``PermissionDenied`` it answers with a 403 as a ``django.request``
WARNING carrying the exception, so mallory (signed in, not staff) opening ``/admin/``
printed a traceback through allauth's ``secure_admin_login``, and the test run showed it
twice (the console handler's stderr and the captured log): one record per refusal, with a
stack that said nothing the line does not (``core.request_log``)."""

from __future__ import annotations

import logging

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client

from tables import listing

pytestmark = pytest.mark.django_db

FORMAT = logging.Formatter("%(levelname)s %(name)s %(message)s")


def _request_log(caplog) -> list[str]:
    """The ``django.request`` records as the console prints them (with any traceback)."""
    return [FORMAT.format(r) for r in caplog.records if r.name == "django.request"]


@pytest.mark.parametrize("path", ["/admin/", "/admin/accounts/user/", "/admin/tables/table/"])
def test_mallory_opening_the_admin_is_one_warning_line_without_a_traceback(
    client, mallory, caplog, path
):
    client.force_login(mallory)

    with caplog.at_level(logging.INFO):
        response = client.get(path, follow=True)

    assert response.status_code == 403
    assert _request_log(caplog) == [
        "WARNING django.request Forbidden (Permission denied): /admin/login/"
    ]


def test_a_staff_member_without_the_permission_is_one_line_too(client, django_user_model, caplog):
    """Staff but in no group: the admin itself refuses the users' list."""
    clerk = django_user_model.objects.create_user("clerk", password="pw", is_staff=True)
    client.force_login(clerk)

    with caplog.at_level(logging.INFO):
        response = client.get("/admin/accounts/user/")

    assert response.status_code == 403
    assert _request_log(caplog) == [
        "WARNING django.request Forbidden (Permission denied): /admin/accounts/user/"
    ]


def test_a_refusals_own_reason_stays_on_its_line(alice, caplog, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionDenied("Unable to determine client IP address")

    monkeypatch.setattr(listing, "page_query", refuse)
    browser = Client()
    browser.force_login(alice)

    with caplog.at_level(logging.INFO):
        assert browser.get("/").status_code == 403

    assert _request_log(caplog) == [
        "WARNING django.request Forbidden (Permission denied): / "
        "(Unable to determine client IP address)"
    ]


def test_a_real_error_keeps_its_traceback(alice, caplog, monkeypatch):
    def fail(*args, **kwargs):
        raise RuntimeError("the listing broke")

    monkeypatch.setattr(listing, "page_query", fail)
    browser = Client(raise_request_exception=False)
    browser.force_login(alice)

    with caplog.at_level(logging.INFO):
        assert browser.get("/").status_code == 500

    [line] = _request_log(caplog)
    assert line.startswith("ERROR django.request Internal Server Error: /\nTraceback")
    assert "RuntimeError: the listing broke" in line
