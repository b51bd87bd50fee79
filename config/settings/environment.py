"""Strict readers for settings that come from the environment.

django-environ parses the URLs; this module adds the loud failures it leaves out: a
malformed boolean ("ture") or a database URL with an unknown scheme stops the process at
start-up with a message naming the variable, instead of silently meaning something else.
"""

import environ
from django.core.exceptions import ImproperlyConfigured

env = environ.Env()

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}
_DATABASE_ENGINES = {"django.db.backends.sqlite3", "django.db.backends.postgresql"}


def env_bool(name: str, *, default: bool) -> bool:
    """Read a boolean; accept 1/0, true/false, yes/no, on/off (any case), refuse the rest."""
    raw = env.str(name, default=None)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean: use true or false.")


def env_seconds(name: str, *, default: int) -> int:
    """Read a non-negative whole number of seconds."""
    return _non_negative_whole_number(name, default, "a whole number of seconds")


def env_count(name: str, *, default: int) -> int:
    """Read a non-negative whole number (how many of something, e.g. NUM_PROXIES)."""
    return _non_negative_whole_number(name, default, "a whole number")


def _non_negative_whole_number(name: str, default: int, kind: str) -> int:
    try:
        value = env.int(name, default=default)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be {kind}.") from exc
    if value < 0:
        raise ImproperlyConfigured(f"{name}={value} must not be negative.")
    return value


def env_database(name: str, *, default: str) -> dict:
    """Read a database URL (postgres://user@host:5432/name or sqlite:////abs/path)."""
    url = env.str(name, default=default)
    config = env.db_url_config(url)
    if config.get("ENGINE") not in _DATABASE_ENGINES:
        raise ImproperlyConfigured(
            f"{name}={url!r} is not a supported database URL: "
            "use postgres://USER@HOST:PORT/NAME or sqlite:////absolute/path.sqlite3."
        )
    return config


def env_redis_url(name: str) -> str:
    """Read an optional redis:// or rediss:// URL; empty means no Redis."""
    url = env.str(name, default="").strip()
    if url and not url.startswith(("redis://", "rediss://")):
        raise ImproperlyConfigured(f"{name}={url!r} must start with redis:// or rediss://.")
    return url
