"""Two sign-ups of look-alike names at the same instant (a review of the look-alike
sign-up rules): both pass the form's look-alike check before either has inserted its
user, as two requests on two servers can; only one account may come of it, and the
other sign-up gets the usual ``400 invalid`` with the look-alike message
(``accounts.validators.lock_look_alikes``). Real PostgreSQL, one connection a thread.

Each sign-up waits, after its form's check and before its save, for the other to get
there too (a barrier in ``SignupForm.save``), so the race is the same on every run."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from accounts.forms import SignupForm
from accounts.models import User
from tests.support.signup import LOOK_ALIKE_ES, signup_api, signup_page


def _sign_up_together(monkeypatch, signups) -> list[object]:
    """Run ``signups`` (``(channel, username)``, channel "api" or "page") in threads, each
    from its own address and e-mail, all past their form's check before any saves;
    returns each one's response (or the error it raised)."""
    all_checked = threading.Barrier(len(signups))
    save = SignupForm.save

    def save_once_all_checked(form, request):
        all_checked.wait(timeout=30)
        return save(form, request)

    monkeypatch.setattr(SignupForm, "save", save_once_all_checked)
    results: list[object] = [None] * len(signups)

    def run(index: int, channel: str, username: str) -> None:
        address = f"198.51.100.{index + 1}"
        email = f"racer{index}@example.com"
        try:
            if channel == "api":
                results[index] = signup_api(APIClient(REMOTE_ADDR=address), username, email=email)
            else:
                results[index] = signup_page(Client(REMOTE_ADDR=address), username, email=email)
        except BaseException as error:  # shown by the test with the sign-up's index
            results[index] = error
        finally:
            connection.close()

    threads = [
        threading.Thread(target=run, args=(index, *signup)) for index, signup in enumerate(signups)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def _refusal(channel: str, response) -> list[str]:
    """The username errors of a refused sign-up, checked to be a clean 400."""
    assert response.status_code == 400, (channel, response.status_code)
    if channel == "api":
        assert response.json()["code"] == "invalid"
        return response.json()["fields"]["username"]
    page = response.content.decode().replace("&#x27;", "'")
    return [LOOK_ALIKE_ES] if LOOK_ALIKE_ES in page else [page[-600:]]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "signups",
    [
        [("api", "alice"), ("api", "\u1d00lice")],  # ᴀlice: a small capital A
        [("page", "B\u00d6B"), ("api", "bob")],  # BÖB
        [("api", "carol"), ("page", "\u1d04\u1d00\u0280\u1d0f\u029f"), ("api", "C\u00e1rol")],
        [("api", "dave"), ("page", "d.a.v.e"), ("api", "d\u0251ve")],  # dɑve: a Latin alpha
    ],
)
def test_look_alike_sign_ups_at_one_instant_create_one_account(monkeypatch, signups):
    results = _sign_up_together(monkeypatch, signups)

    refused = []
    for index, ((channel, username), response) in enumerate(zip(signups, results, strict=True)):
        assert not isinstance(response, BaseException | None), (index, response)
        if response.status_code in (201, 302):
            winner = username
        else:
            refused.append(_refusal(channel, response))
    assert refused == [[LOOK_ALIKE_ES]] * (len(signups) - 1)
    assert list(User.objects.values_list("username", flat=True)) == [winner]
