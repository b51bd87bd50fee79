"""The moderation tests' actors: ana and bruno are partners at four seats (seats 0 and 2),
carla and dani the rival pair (seats 1 and 3); mallory is seated nowhere and tries to read
what is not hers; mod is a moderator (the "Moderadores" group, not a superuser)."""

from __future__ import annotations

import pytest

from tests.conftest import _make_user as _user
from tests.support.api import seated_table
from tests.tasks.conftest import run_tasks  # noqa: F401  (runs what commits scheduled)


@pytest.fixture
def ana(django_user_model):
    return _user(django_user_model, "ana")


@pytest.fixture
def bruno(django_user_model):
    return _user(django_user_model, "bruno")


@pytest.fixture
def carla(django_user_model):
    return _user(django_user_model, "carla")


@pytest.fixture
def dani(django_user_model):
    return _user(django_user_model, "dani")


def moderators_group():
    """The "Moderadores" group as its data migration makes it; made again when a
    transactional test (the browser's) flushed the database after the migrations ran."""
    import importlib

    from django.apps import apps
    from django.contrib.auth.models import Group

    migration = importlib.import_module("moderation.migrations.0002_moderators_group")
    if not Group.objects.filter(name=migration.GROUP).exists():
        migration.create_group(apps, None)
        phones = importlib.import_module("moderation.migrations.0003_moderators_see_phones")
        phones.add_permissions(apps, None)
    return Group.objects.get(name=migration.GROUP)


@pytest.fixture
def mod(django_user_model):
    user = _user(django_user_model, "mod", is_staff=True)
    user.groups.add(moderators_group())
    return user


@pytest.fixture
def four_seats(api_client_for, ana, carla, bruno, dani):
    """A running four-seat table: ``(table_id, {"ana": client, ...})``; ana (0) and bruno
    (2) are partners, carla (1) and dani (3) the other pair."""
    table_id, clients, _tokens = seated_table(api_client_for, [ana, carla, bruno, dani])
    names = ["ana", "carla", "bruno", "dani"]
    return table_id, {names[seat]: client for seat, client in clients.items()}


def talk(client, table_id: int) -> dict:
    response = client.get(f"/api/v1/tables/{table_id}/talk/")
    assert response.status_code == 200, response.json()
    return response.json()


def say(client, table_id: int, text: str = "", **body):
    payload = {"text": text, **body} if text else body
    return client.post(f"/api/v1/tables/{table_id}/talk/", payload, format="json")
