"""The Redis cache (``core.redis_cache``) makes one redis-py client per pool, not one per
call, and is Django's cache in everything else (issue 19, "the move path")."""

import pytest
import redis
from django.conf import settings
from django.core.cache import caches

pytestmark = pytest.mark.redis


def test_the_cache_reuses_its_client_and_still_works(monkeypatch):
    assert settings.CACHES["default"]["BACKEND"] == "core.redis_cache.ReusedClientRedisCache"
    cache = caches["default"]
    made = []
    real = redis.Redis.__init__

    def counted(self, *args, **kwargs):
        made.append(1)
        real(self, *args, **kwargs)

    monkeypatch.setattr(redis.Redis, "__init__", counted)
    cache.set("reused-client", {"ñ": 1}, timeout=30)
    for _ in range(5):
        assert cache.get("reused-client") == {"ñ": 1}
    assert cache.add("reused-client", 2) is False
    cache.delete("reused-client")
    assert cache.get("reused-client", "gone") == "gone"
    assert len(made) <= 1  # at most the first call made it; Django's own made 9 here
