"""With the cache (Redis) down, sign-in is refused as ``503 unavailable``, never let
through uncounted: allauth's limits on guessing a password live in the cache, and unlike
play's rate limits (which fail open, config.throttling) they fail closed."""

import pytest
from django.core.cache import caches
from django.test import override_settings
from rest_framework.test import APIClient

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

DEAD_REDIS = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
}


@pytest.fixture
def cache_down():
    with override_settings(CACHES=DEAD_REDIS):
        yield
    caches["default"].close()


def test_a_token_sign_in_with_the_cache_down_is_503_and_gives_no_token(alice, cache_down):
    r = APIClient().post("/api/v1/accounts/token/", {"username": "alice", "password": PASSWORD})

    assert r.status_code == 503, r.content
    assert r.json()["code"] == "unavailable"
    assert "token" not in r.json()
