"""The sign-up limits per client address: accounts made, 20 an hour; attempts, refused
ones too, 20 a minute. The per-address limit used to count attempts for the hour, so
after 20 refused tries (a weak password, a taken name) one address could not sign up for
most of an hour (46 minutes in the attack). Both the page and the API, one bucket."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import User
from tests.support.signup import signup_api, signup_page

pytestmark = pytest.mark.django_db


def _refused_api(client, i: int):
    return client.post(
        "/api/v1/accounts/signup/",
        {"username": f"try{i}", "password": "123", "email": f"try{i}@example.com"},
        format="json",
    )


def test_refused_attempts_block_for_a_minute_not_an_hour(db):
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        client = APIClient()
        for i in range(20):
            assert _refused_api(client, i).status_code == 400
        assert _refused_api(client, 20).status_code == 429  # the short window
        clock.shift(timedelta(minutes=2))
        made = signup_api(client, "newbie", email="newbie@example.com")
        assert made.status_code == 201, made.json()


def test_refused_attempts_on_the_page_do_not_use_up_the_hour(db):
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        page = Client()
        for i in range(20):
            weak = {"username": f"try{i}", "email": f"try{i}@example.com"}
            refused = page.post(
                "/accounts/signup/", {**weak, "password1": "123", "password2": "123"}
            )
            assert refused.status_code == 400
        clock.shift(timedelta(minutes=2))
        assert signup_page(Client(), "newbie").status_code == 302
        assert User.objects.filter(username="newbie").exists()


def test_twenty_accounts_an_hour_from_one_address(db):
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        for i in range(20):
            clock.shift(timedelta(seconds=4))  # under 20 attempts a minute
            client = APIClient() if i % 2 else Client()
            made = (signup_api if i % 2 else signup_page)(
                client, f"player{i}", email=f"player{i}@example.com"
            )
            assert made.status_code in (201, 302), i
        clock.shift(timedelta(minutes=2))
        refused = signup_api(APIClient(), "one_more", email="one_more@example.com")
        assert refused.status_code == 429
        assert refused.json()["code"] == "throttled"
        page = signup_page(Client(), "one_more", email="one_more@example.com")
        assert page.status_code == 429
        assert "Demasiadas cuentas nuevas desde aquí" in page.content.decode()
        assert not User.objects.filter(username="one_more").exists()
        clock.shift(timedelta(hours=1))
        assert signup_api(APIClient(), "one_more", email="one_more@example.com").status_code == 201
