"""A moderator acts on players, never on the staff, a superuser or themselves.

mallory is a moderator (staff, in "Moderadores") who tries to warn, suspend, deactivate,
or remove the talk of boss (a superuser), of mod (another moderator) and of herself; each
try is refused with a reason (403 ``protected_account`` from ``moderation.services``, a
message on the admin pages) and written to the moderation log as a refused action. Every
path goes through the services: the acting page, the users list's bulk action and the
services themselves. boss, a superuser, may still act on a moderator; mallory on carla,
a player, as before.
"""

from __future__ import annotations

import pytest
from django.test import Client

from moderation import selectors, services
from moderation.models import ModerationAction, Report, TalkMessage
from tables.errors import TableError
from tests.conftest import _make_user
from tests.moderation.conftest import moderators_group, say
from tests.support.api import seated_clients

pytestmark = pytest.mark.django_db

REFUSED = ModerationAction.Kind.REFUSED
USER_ACTIONS = ["warn", "suspend", "deactivate", "remove_message", "dismiss_report"]


@pytest.fixture
def mallory(django_user_model):
    user = _make_user(django_user_model, "mallory", is_staff=True)
    user.groups.add(moderators_group())
    return user


@pytest.fixture
def boss(django_user_model):
    return _make_user(django_user_model, "boss", is_staff=True, is_superuser=True)


@pytest.fixture
def targets(mallory, boss, mod):
    return {"superuser": boss, "staff": mod, "herself": mallory}


def _admin(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def talk_of(api_client_for, carla):
    """``talk_of(user)``: a message ``user`` wrote at a table with carla, and carla's
    report of it: ``(message, report)``."""

    def make(user):
        table_id, clients = seated_clients(api_client_for, [user, carla])
        assert say(clients[0], table_id, "hola a todos").status_code == 201
        message = TalkMessage.objects.get(table_id=table_id, author=user)
        reported = clients[1].post(
            f"/api/v1/tables/{table_id}/reports/",
            {"message": message.pk, "reason": "spam"},
            format="json",
        )
        assert reported.status_code == 201, reported.json()
        return message, Report.objects.get(pk=reported.json()["id"])

    return make


def _call(action: str, moderator, target, message, report):
    """The service for ``action``, on ``target`` (or their message, or a report of it)."""
    common = {"moderator": moderator, "reason": "prueba"}
    if action == "warn":
        return services.user_warn(user_id=target.pk, **common)
    if action == "suspend":
        return services.user_suspend(user_id=target.pk, days=3, **common)
    if action == "deactivate":
        return services.user_deactivate(user_id=target.pk, **common)
    if action == "remove_message":
        return services.message_remove(message_id=message.pk, **common)
    return services.report_dismiss(report=report, **common)


def _untouched(target, message, report) -> None:
    target.refresh_from_db()
    message.refresh_from_db()
    report.refresh_from_db()
    assert target.is_active
    assert selectors.active_suspension(target) is None
    assert message.removed_at is None
    assert report.status == Report.Status.OPEN
    done = ModerationAction.objects.filter(user=target).exclude(kind=REFUSED)
    assert not done.exists(), list(done)


@pytest.mark.parametrize("action", USER_ACTIONS)
@pytest.mark.parametrize("who", ["superuser", "staff", "herself"])
def test_the_service_refuses_and_logs_it(mallory, targets, talk_of, action, who):
    target = targets[who]
    message, report = talk_of(target)
    with pytest.raises(TableError) as refused:
        _call(action, mallory, target, message, report)
    assert (refused.value.code, refused.value.status_code) == ("protected_account", 403)
    assert refused.value.detail
    _untouched(target, message, report)
    line = ModerationAction.objects.get(kind=REFUSED)
    assert (line.moderator, line.user) == (mallory, target)
    assert line.reason.startswith(f"{action}: ")
    assert "prueba" in line.reason


@pytest.mark.parametrize("action", USER_ACTIONS)
def test_a_superuser_may_act_on_a_moderator(boss, mod, talk_of, action):
    message, report = talk_of(mod)
    assert _call(action, boss, mod, message, report) is not None
    assert not ModerationAction.objects.filter(kind=REFUSED).exists()


def test_a_superuser_may_not_act_on_a_superuser_nor_on_themselves(boss, django_user_model):
    other = _make_user(django_user_model, "root", is_staff=True, is_superuser=True)
    for target in (other, boss):
        with pytest.raises(TableError) as refused:
            services.user_deactivate(moderator=boss, user_id=target.pk, reason="x")
        assert refused.value.code == "protected_account"
        target.refresh_from_db()
        assert target.is_active


@pytest.mark.parametrize("action", USER_ACTIONS)
def test_a_moderator_still_acts_on_a_player(mallory, carla, django_user_model, talk_of, action):
    dani = _make_user(django_user_model, "dani")
    message, report = talk_of(dani)
    assert _call(action, mallory, dani, message, report) is not None
    assert not ModerationAction.objects.filter(kind=REFUSED).exists()


def _form(action: str) -> dict:
    body = {"action": action, "reason": "prueba"}
    if action == "suspend":
        body["days"] = "3"
    return body


@pytest.mark.parametrize("action", USER_ACTIONS)
@pytest.mark.parametrize("who", ["superuser", "staff", "herself"])
def test_the_acting_page_refuses_with_a_message(mallory, targets, talk_of, action, who):
    target = targets[who]
    message, report = talk_of(target)
    admin = _admin(mallory)
    if action in ("remove_message", "dismiss_report"):
        url = f"/admin/moderation/report/{report.pk}/change/"
    else:
        url = f"/admin/moderation/moderationaction/act/?user={target.pk}"
    page = admin.get(url).content.decode()
    assert "No puedes actuar sobre esta cuenta" in page, page
    answer = admin.post(url, _form(action), follow=True)
    assert answer.status_code == 200
    said = [str(m) for m in answer.context["messages"]]
    assert any("No puedes actuar sobre esta cuenta" in m for m in said), said
    _untouched(target, message, report)
    assert ModerationAction.objects.filter(kind=REFUSED, moderator=mallory, user=target).exists()


def test_the_acting_page_in_english(mallory, boss):
    admin = _admin(mallory)
    admin.cookies["django_language"] = "en"
    url = f"/admin/moderation/moderationaction/act/?user={boss.pk}"
    answer = admin.post(url, _form("deactivate"), follow=True)
    said = [str(m) for m in answer.context["messages"]]
    assert any("You cannot act on this account" in m for m in said), said


@pytest.mark.parametrize("who", ["superuser", "staff", "herself"])
def test_the_users_bulk_action_goes_through_the_rule(mallory, targets, carla, who):
    """The users list's "Desactivar los usuarios seleccionados" was open to anyone who
    could see the list (a moderator: ``accounts.view_user``), wrote nothing to the log and
    took superusers too."""
    target = targets[who]
    admin = _admin(mallory)
    selected = {"action": "deactivate_users", "_selected_action": [target.pk, carla.pk]}
    asked = admin.post("/admin/accounts/user/", selected)
    assert asked.status_code == 200  # first the reason
    target.refresh_from_db()
    carla.refresh_from_db()
    assert target.is_active and carla.is_active
    done = admin.post(
        "/admin/accounts/user/", {**selected, "reason": "spam", "apply": "1"}, follow=True
    )
    said = " ".join(str(m) for m in done.context["messages"])
    assert "No puedes actuar sobre esta cuenta" in said, said
    target.refresh_from_db()
    carla.refresh_from_db()
    assert target.is_active
    assert not carla.is_active
    assert ModerationAction.objects.filter(kind=REFUSED, moderator=mallory, user=target).exists()
    line = ModerationAction.objects.get(kind=ModerationAction.Kind.DEACTIVATE)
    assert (line.moderator, line.user, line.reason) == (mallory, carla, "spam")


def test_the_bulk_action_needs_the_right_to_act(django_user_model, carla):
    viewer = _make_user(django_user_model, "viewer", is_staff=True)
    from django.contrib.auth.models import Permission

    viewer.user_permissions.add(Permission.objects.get(codename="view_user"))
    admin = _admin(viewer)
    selected = {"action": "deactivate_users", "_selected_action": [carla.pk]}
    admin.post("/admin/accounts/user/", {**selected, "reason": "spam", "apply": "1"})
    carla.refresh_from_db()
    assert carla.is_active
    assert not ModerationAction.objects.exists()


def test_a_refused_try_is_no_notice_for_its_target(mallory, boss, api_client_for):
    with pytest.raises(TableError):
        services.user_warn(moderator=mallory, user_id=boss.pk, reason="prueba")
    assert api_client_for(boss).get("/api/v1/moderation/notices/").json() == []
