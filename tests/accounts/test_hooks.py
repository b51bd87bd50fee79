"""accounts.hooks: the apps above accounts add their parts to /me, the data download and
an account's deletion through it, since accounts may not import them (the app-layer
contract in pyproject.toml). Each app registers from its AppConfig.ready."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from accounts import hooks, time_zones
from moderation import account_data
from notices import departures as notice_departures
from notices import selectors as notice_selectors
from tables import departures as table_departures


def test_every_app_registered_its_part_at_startup():
    assert hooks._me_facts == {
        "unread_notifications": notice_selectors.unread_count,
        "suspended_until": account_data.suspended_until,
    }
    assert list(hooks._export_parts) == ["tables", "talk_messages", "reports_made"]
    assert hooks._deletion_steps == {
        "leave": [table_departures.abandon_every_table],
        "forget": [notice_departures.unname_deleted_player],
        "let_go": [table_departures.let_go_of_seats],
    }
    assert time_zones._readers == [notice_selectors.saved_time_zone]


def test_deletion_steps_run_stage_by_stage_whatever_the_order_they_came_in(monkeypatch):
    monkeypatch.setattr(hooks, "_deletion_steps", {stage: [] for stage in hooks.DELETION_STAGES})
    ran = []
    hooks.add_deletion_step("let_go", lambda user: ran.append(("let_go", user)))
    hooks.add_deletion_step("forget", lambda user: ran.append(("forget", user)))
    leave = lambda user: ran.append(("leave", user))  # noqa: E731
    hooks.add_deletion_step("leave", leave)
    hooks.add_deletion_step("leave", leave)  # once, however often

    hooks.run_deletion_steps("u")

    assert ran == [("leave", "u"), ("forget", "u"), ("let_go", "u")]


def test_an_unknown_stage_is_refused():
    with pytest.raises(ValueError, match="unknown deletion stage"):
        hooks.add_deletion_step("later", print)


def test_a_fact_no_app_registered_is_a_configuration_error(monkeypatch):
    monkeypatch.setattr(hooks, "_me_facts", {})
    with pytest.raises(ImproperlyConfigured, match="unread_notifications"):
        hooks.me_fact("unread_notifications", None)


def test_a_time_zone_without_a_reader_is_a_configuration_error(monkeypatch):
    monkeypatch.setattr(time_zones, "_readers", [])
    with pytest.raises(ImproperlyConfigured, match="notices"):
        time_zones.time_zone_of(1)


def test_export_parts_keep_their_first_place_when_registered_again(monkeypatch):
    monkeypatch.setattr(hooks, "_export_parts", {})
    hooks.add_export_part("a", lambda user: 1)
    hooks.add_export_part("b", lambda user: 2)
    hooks.add_export_part("a", lambda user: 3)

    assert hooks.export_parts(None) == {"a": 3, "b": 2}
