"""Production: secrets and hosts are required, HTTPS everywhere.

`manage.py check --deploy --settings=config.settings.production` must report nothing;
tests/test_deploy_check.py runs it.
"""

from config.log_format import logging_config
from config.settings.base import *  # noqa: F403
from config.settings.base import LOG_LEVEL
from config.settings.environment import env, env_bool, env_seconds

DEBUG = False
SECRET_KEY = env.str("SECRET_KEY")  # no default: refuse to start without one
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS")  # no default either

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "config.static_storage.ModuleStaticFilesStorage"},
}

# TLS ends at the proxy in front of gunicorn, which says so in X-Forwarded-Proto.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
SECURE_HSTS_SECONDS = env_seconds("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SESSION_COOKIE_HTTPONLY = True
# The language cookie: HTTPS only, and not sent on cross-site subrequests (Django's default
# for it is neither).
LANGUAGE_COOKIE_SECURE = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"

# One JSON object a line, for the log collector (LOG_FORMAT=console to read them by eye).
LOG_FORMAT = env.str("LOG_FORMAT", default="json")
LOGGING = logging_config(LOG_FORMAT, LOG_LEVEL)
