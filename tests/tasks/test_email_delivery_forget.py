"""The e-mail delivery records (``EmailDelivery``, the guard against a retried task
sending an e-mail twice) are kept ``EMAIL_DELIVERY_SECONDS`` (30 days) and then deleted
by the hourly ``sweep_email_deliveries``: kept for ever they grow with every e-mail."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tables import tasks
from tables.models import EmailDelivery
from tables.services import deliveries
from tests.support.api import create_table
from tests.support.clock import T0

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


def test_records_older_than_30_days_go_and_the_rest_stay(clock, api_client_for, alice, monkeypatch):
    created = create_table(api_client_for(alice), 2, ["nino"])
    ages = {"old": 31 * DAY, "older": 200 * DAY, "recent": 29 * DAY, "new": timedelta(0)}
    for key, age in ages.items():
        row = EmailDelivery.objects.create(
            table_id=created["id"], recipient=alice, kind="turn", key=key
        )
        EmailDelivery.objects.filter(pk=row.pk).update(created_at=T0 - age)
    monkeypatch.setattr(deliveries, "FORGET_BATCH", 1)  # the batches loop to the end
    assert tasks.sweep_email_deliveries() == 2
    assert set(EmailDelivery.objects.values_list("key", flat=True)) == {"recent", "new"}
    assert tasks.sweep_email_deliveries() == 0


def test_the_sweep_is_on_the_beat_schedule(settings):
    schedule = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "tables.tasks.sweep_email_deliveries" in schedule
