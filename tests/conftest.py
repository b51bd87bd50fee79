"""Shared fixtures and the postgres/redis marker policy.

Actors (healthchecks style): alice and bob are ordinary players who will share tables,
carol and dave fill four-seat tables, mallory tries what she should not be allowed to.
Every actor's password is PASSWORD.

Markers: a test marked `postgres` needs DATABASE_URL to point at PostgreSQL, one marked
`redis` needs a reachable REDIS_URL. Elsewhere they are skipped with the reason printed
(`-rs`); with CI=true a missing service fails them instead, so CI cannot go green by
quietly skipping what it was meant to check.
"""

import os

import pytest
from django.conf import settings
from django.core.cache import cache
from django.utils import translation
from rest_framework.test import APIClient

PASSWORD = "correct-horse-battery-9"


def _postgres_missing() -> str | None:
    engine = settings.DATABASES["default"]["ENGINE"]
    if "postgresql" in engine:
        return None
    return f"needs PostgreSQL: DATABASE_URL is {engine.rsplit('.', 1)[-1]}, set postgres://..."


def _redis_missing() -> str | None:
    url = os.environ.get("REDIS_URL", "")
    if not url:
        return "needs Redis: REDIS_URL is unset (e.g. redis://127.0.0.1:6379/0)"
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1).ping()
    except redis.RedisError as exc:
        return f"needs Redis: {url} does not answer ({exc})"
    return None


_SERVICE_CHECKS = {"postgres": _postgres_missing, "redis": _redis_missing}
_MUST_FAIL = pytest.StashKey[str]()


def pytest_collection_modifyitems(config, items):
    in_ci = os.environ.get("CI", "").lower() == "true"
    reasons: dict[str, str | None] = {}
    for item in items:
        for marker, check in _SERVICE_CHECKS.items():
            if item.get_closest_marker(marker) is None:
                continue
            if marker not in reasons:
                reasons[marker] = check()
            reason = reasons[marker]
            if reason is None:
                continue
            if in_ci:
                item.stash[_MUST_FAIL] = f"CI=true but this test {reason}"
            else:
                item.add_marker(pytest.mark.skip(reason=reason))


def pytest_runtest_setup(item):
    reason = item.stash.get(_MUST_FAIL, None)
    if reason is not None:
        pytest.fail(reason, pytrace=False)


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Throttle counters live in the cache: each test starts with none used.

    With REDIS_URL set this flushes that Redis database, so point tests at a scratch one.
    """
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _site_language():
    """Each test starts in the site's language (``LANGUAGE_CODE``): a request's
    LocaleMiddleware leaves its language active in the thread after the answer, so a test
    that asked in English would otherwise make the next one read its messages in English."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fixed_deals(request, monkeypatch):
    """Each test meets the same deals and bot choices on every run (tests/support/seeds.py),
    so a test that depends on a deal fails every time or never."""
    from tests.support.seeds import fix_deals

    return fix_deals(monkeypatch, request.node.nodeid)


def _make_user(django_user_model, username: str, **fields):
    """An actor with a verified address (allauth's EmailAddress), as after sign-up and
    the verification link: notices are mailed only to verified addresses."""
    from allauth.account.models import EmailAddress

    user = django_user_model.objects.create_user(
        username=username, email=f"{username}@example.com", password=PASSWORD, **fields
    )
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    return user


@pytest.fixture
def alice(django_user_model):
    return _make_user(django_user_model, "alice")


@pytest.fixture
def bob(django_user_model):
    return _make_user(django_user_model, "bob")


@pytest.fixture
def carol(django_user_model):
    return _make_user(django_user_model, "carol", language="en")


@pytest.fixture
def dave(django_user_model):
    return _make_user(django_user_model, "dave", email_notifications=False)


@pytest.fixture
def mallory(django_user_model):
    return _make_user(django_user_model, "mallory")


@pytest.fixture
def anonymous_client() -> APIClient:
    return APIClient()


@pytest.fixture
def api_client_for(db):
    """api_client_for(user) -> an APIClient sending that user's token."""
    from rest_framework.authtoken.models import Token

    def make(user) -> APIClient:
        token, _ = Token.objects.get_or_create(user=user)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    return make


@pytest.fixture
def generous_rates(monkeypatch):
    """Lift every rate limit, for tests about something else that send many writes
    quickly (a whole match played in seconds would pass 120 moves a minute)."""
    from rest_framework.throttling import SimpleRateThrottle

    scopes = ("moves", "tables", "signup", "login", "talk", "reports")
    rates = {scope: "100000/min" for scope in scopes}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
