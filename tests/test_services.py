"""The real backing services, where the run has them (see the markers in conftest)."""

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection


@pytest.mark.postgres
@pytest.mark.django_db
def test_it_runs_on_postgresql_in_utc():
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SHOW TIME ZONE")
        assert cursor.fetchone()[0] == "UTC"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_it_can_lock_a_row_for_update(alice):
    from django.db import transaction

    from accounts.models import User

    with transaction.atomic():
        locked = User.objects.select_for_update(nowait=True).get(pk=alice.pk)
        assert locked.username == "alice"


@pytest.mark.redis
def test_the_cache_is_redis():
    assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")
    cache.set("ping", "pong", 5)
    assert cache.get("ping") == "pong"


@pytest.mark.redis
def test_the_celery_broker_answers():
    from config import celery_app

    assert celery_app.conf.broker_url.startswith("redis://")
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1)
