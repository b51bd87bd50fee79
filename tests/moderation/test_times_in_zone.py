"""Moderation's dates in the reader's time zone: a player suspended in Havana read the
403 ``suspended``'s "hasta el 5 de marzo de 2030 a las 2:30" and the home page's banner
in UTC, a day after the evening his suspension really ended, without a word about the
zone; a moderator in Havana read the admin's log in UTC. Now the player reads his saved
zone, named as his notices name it, and the moderator his own, named in the admin's
header; the API's ``until`` stays ISO 8601 in UTC, for programs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.utils import dateformat, timezone

from moderation.models import ModerationAction
from notices.models import NoticePreferences

pytestmark = pytest.mark.django_db

HAVANA = ZoneInfo("America/Havana")
UNTIL = datetime(2030, 3, 5, 2, 30, tzinfo=UTC)  # 21:30 on 4 March in Havana (UTC-5)


def _in_havana(user) -> None:
    NoticePreferences.objects.create(user=user, time_zone="America/Havana", time_zone_chosen=True)


def _action(mod, user, kind: str, **fields) -> ModerationAction:
    return ModerationAction.objects.create(
        moderator=mod, user=user, kind=kind, reason="spam", **fields
    )


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _text(answer) -> str:
    return " ".join(answer.content.decode().split())


@pytest.mark.parametrize(
    ("havana", "written"),
    [
        (True, "4 de marzo de 2030 a las 21:30 (America/Havana)"),
        (False, "5 de marzo de 2030 a las 02:30 (UTC)"),
    ],
)
def test_the_403_suspended_ends_in_the_players_zone(api_client_for, dani, mod, havana, written):
    if havana:
        _in_havana(dani)
    _action(mod, dani, ModerationAction.Kind.SUSPEND, until=UNTIL)
    body = {"seats": 2, "target": 50, "others": ["nino"]}

    answer = api_client_for(dani).post("/api/v1/tables/", body, format="json")

    assert answer.status_code == 403
    assert answer.json() == {
        "code": "suspended",
        "detail": f"Tu cuenta está suspendida hasta el {written}: no puedes crear mesas, "
        "sentarte ni escribir en la charla. Puedes terminar tus partidas.",
        "until": "2030-03-05T02:30:00+00:00",
    }


def test_the_home_pages_banner_dates_in_the_players_zone(dani, mod):
    """The suspension's end named as in the 403; a warning's date in the same zone."""
    _in_havana(dani)
    _action(mod, dani, ModerationAction.Kind.SUSPEND, until=UNTIL)
    warned = _action(mod, dani, ModerationAction.Kind.WARN)
    at = (timezone.now() - timedelta(days=1)).replace(hour=2, minute=30, second=0)
    ModerationAction.objects.filter(pk=warned.pk).update(created_at=at)
    local = dateformat.format(at.astimezone(HAVANA), "j b Y, H:i")  # the evening before

    page = _text(_client(dani).get("/"))

    assert "suspendida hasta el 4 de marzo de 2030 a las 21:30 (America/Havana): spam." in page
    assert f"<li>{local} · Aviso de un moderador: spam</li>" in page


@pytest.mark.parametrize(
    ("havana", "zone", "logged"),
    [
        (True, "America/Havana", "4 de marzo de 2030 a las 21:30"),
        (False, "UTC", "5 de marzo de 2030 a las 02:30"),
    ],
)
def test_the_moderation_log_is_in_the_moderators_own_zone(dani, mod, havana, zone, logged):
    """The log's date at the moderator's clock (not the suspended player's: dani is in
    Havana either way), the zone named in the header; the server's zone is back (UTC)
    once the page is written."""
    if havana:
        _in_havana(mod)
    _in_havana(dani)
    action = _action(mod, dani, ModerationAction.Kind.SUSPEND, until=UNTIL + timedelta(days=7))
    ModerationAction.objects.filter(pk=action.pk).update(created_at=UNTIL)

    page = _text(_client(mod).get("/admin/moderation/moderationaction/"))

    assert f">{logged}</" in page
    assert f"Fechas en hora de {zone}." in page
    assert timezone.get_current_timezone_name() == "UTC"
