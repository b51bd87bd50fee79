"""Settings shared by every environment.

Every value that differs between machines comes from the environment, with a default that
is safe on a developer's machine; local.py, test.py and production.py only adjust. The
docs/configuration.md lists the variables.
"""

import logging
from pathlib import Path
from urllib.parse import urlsplit

from django.utils.translation import gettext_lazy as _

from config.settings.environment import (
    env,
    env_bool,
    env_count,
    env_database,
    env_redis_url,
    env_seconds,
)

BASE_DIR = Path(__file__).resolve().parent.parent.parent

DEBUG = env_bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# A form sent with an outdated token: the site's "La página ha caducado" (templates/403_csrf.html).
CSRF_FAILURE_VIEW = "core.csrf_page.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "django_structlog",
    "django_prometheus",
    "allauth",
    "allauth.account",
    "accounts",
    "tables",
    "notices",
    "moderation",
    "notices.phones_app.PushNotificationsConfig",  # django-push-notifications: FCM, APNs tokens
]

MIDDLEWARE = [
    # django-prometheus's request metrics: first and last (core.metrics, docs/operations.md)
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    # /healthz for the load balancer, before the host check and the HTTPS redirect.
    "core.health.HealthCheckMiddleware",
    # /metrics for Prometheus, with METRICS_TOKEN only (else 404), likewise early.
    "core.metrics.MetricsMiddleware",
    # A write's tasks and its version's publication wait for the answer to be sent.
    "core.after_response.AfterResponseMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "core.cache_control.PrivateApiAnswersMiddleware",
    "core.asgi_urlconf.AsgiUrlconfMiddleware",
    "core.request_size.RequestSizeLimitMiddleware",
    "core.static_files.AsyncCapableWhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "core.trailing_slash.ApiAwareCommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # request_id, user_id (and table_id, version) on every line of the request, and into
    # the tasks it sends: core.log_context
    "core.log_context.RequestLogMiddleware",
    "core.control_character_paths.ControlCharacterPathMiddleware",
    "core.cache_control.PrivatePagesMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "accounts.middleware.AdminTimeZoneMiddleware",  # the admin in the moderator's zone
    "allauth.account.middleware.AccountMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]

ROOT_URLCONF = "config.urls"
# Under ASGI (uvicorn): the same routes, the table's GET able to wait (config/urls_asgi.py).
ASGI_ROOT_URLCONF = "config.urls_asgi"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "notices.context_processors.unread_notices",
            ],
            # messages placed in a page's section (the settings' "Avisos"): base.html
            "libraries": {"section_messages": "core.section_messages"},
        },
    },
]

# --- Data -----------------------------------------------------------------------------
DATABASES = {
    "default": env_database("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
# django-prometheus's wrappers of the same backends count queries, errors and connections.
DATABASES["default"]["ENGINE"] = DATABASES["default"]["ENGINE"].replace(
    "django.db.backends.", "django_prometheus.db.backends.", 1
)
DATABASES["default"]["CONN_MAX_AGE"] = env_seconds("CONN_MAX_AGE", default=0)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # SQLite (make run without a server): writers queue for the lock instead of failing
    # with "database is locked" when two players, or a player and a bot, write at once.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Unset REDIS_URL means "no Redis on this machine": Celery runs tasks inline and the cache
# lives in process memory, so `make run` needs no server at all.
REDIS_URL = env_redis_url("REDIS_URL")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "core.redis_cache.ReusedClientRedisCache",
            "LOCATION": REDIS_URL,
            # A Redis that does not answer costs a request one second, not the OS's TCP
            # timeout: the rate limits then fail open (core.throttling).
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Long polling (GET /api/v1/tables/{id}/?since_version=N&wait=S, docs/scaling.md): the
# services publish "table_id:version" on this Redis channel when a write commits, and
# each ASGI process holds one subscription that wakes its waiting requests. Pub/sub
# ignores Redis's database number, so the channel names it: two sites (or test runs)
# sharing one Redis server on different databases do not wake each other.
TABLE_VERSIONS_CHANNEL = env.str(
    "TABLE_VERSIONS_CHANNEL",
    default="domino:table-versions:" + (urlsplit(REDIS_URL).path.strip("/") or "0"),
)
# The longest wait a client may ask for (seconds; more is cut to this).
TABLE_WAIT_MAX_SECONDS = env_seconds("TABLE_WAIT_MAX_SECONDS", default=30)
# How many waiting requests of one process read the database at once (the first look and
# the answer after a wake): a move watched by a thousand pages costs that many reads, in
# this many threads and database connections at a time, not a thousand.
TABLE_WAIT_READERS = max(1, env_count("TABLE_WAIT_READERS", default=4))

# --- Accounts and sessions ------------------------------------------------------------
# django-allauth runs sign-up, sign-in (username or e-mail), e-mail verification, password
# reset and change, with its rate limits; accounts.adapter fits it to this site.
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
SESSION_COOKIE_AGE = 60 * 60 * 24 * 30  # correspondence games last weeks: stay signed in
# A reset link works once (it hashes the password and last login) and for this long.
PASSWORD_RESET_TIMEOUT = env_seconds("PASSWORD_RESET_SECONDS", default=60 * 60)
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_FORMS = {
    "signup": "accounts.forms.SignupForm",
    "login": "accounts.forms.LoginForm",
    "add_email": "accounts.forms.AddEmailForm",
    "change_password": "accounts.forms.ChangePasswordForm",
    "reauthenticate": "accounts.forms.ReauthenticateForm",
}
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
# New usernames: Django's characters less "@" (no name that reads as an e-mail address).
ACCOUNT_USERNAME_VALIDATORS = "accounts.validators.username_validators"
# Play is allowed before the address is verified; notices wait for it (notices.services).
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_EMAIL_CONFIRMATION_EXPIRE_DAYS = 3
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True  # a new address replaces the old one once verified
ACCOUNT_EMAIL_NOTIFICATIONS = True  # the old address is told of a change, and of resets
# "strict": a sign-up with an address another account has is accepted (unverified there;
# its owner is told), so no answer says whether an e-mail has an account.
ACCOUNT_PREVENT_ENUMERATION = "strict"
ACCOUNT_SESSION_REMEMBER = True
ACCOUNT_LOGOUT_ON_GET = False
ACCOUNT_LOGIN_ON_PASSWORD_RESET = False
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False  # this session stays, every other one ends
ACCOUNT_EMAIL_SUBJECT_PREFIX = "Dominó · "
# Rate limits (allauth's, in the cache), per client address and per account or e-mail:
# a rotating address does not help guessing one player's password.
ACCOUNT_RATE_LIMITS = {
    "login": "30/m/ip",
    "login_failed": "20/m/ip,5/5m/key",  # per address as the API's "login" scope
    # Sign-up attempts, refused ones included, in a short window; the accounts made, in
    # the long one (counted once made: accounts.views.SignupView, accounts.api.SignupApi).
    "signup": "20/m/ip",
    "signup_created": "20/h/ip",
    "reset_password": "20/m/ip,3/h/key",
    "reset_password_from_key": "20/m/ip",
    "confirm_email": "1/3m/key",
    "change_password": "5/m/user",
    "manage_email": "10/m/user",
    "reauthenticate": "10/m/user",
}
# The client address for those limits is core.client_address's, as for DRF's throttles
# (accounts.adapter.AccountAdapter.get_client_ip): the socket's unless NUM_PROXIES.

# --- Internationalisation ---------------------------------------------------------------
LANGUAGE_CODE = "es"
LANGUAGES = [("es", _("Español")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"
# The short date formats name the month ("3 dic 2026, 18:09"): config/formats/.
FORMAT_MODULE_PATH = ["config.formats"]

# --- Static files -----------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# WhiteNoise sends "Access-Control-Allow-Origin: *" with every file by default; the site
# sends no CORS header at all (README, Security).
WHITENOISE_ALLOW_ALL_ORIGINS = False

# --- E-mail -----------------------------------------------------------------------------
# EMAIL_URL: consolemail:// (default), smtp+tls://user:password@host:587, filemail:////var/mail
_email = env.email_url("EMAIL_URL", default="consolemail://")
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST = _email.get("EMAIL_HOST") or "localhost"
EMAIL_PORT = _email.get("EMAIL_PORT") or 25
EMAIL_HOST_USER = _email.get("EMAIL_HOST_USER") or ""
EMAIL_HOST_PASSWORD = _email.get("EMAIL_HOST_PASSWORD") or ""
EMAIL_USE_TLS = bool(_email.get("EMAIL_USE_TLS", False))
EMAIL_USE_SSL = bool(_email.get("EMAIL_USE_SSL", False))
EMAIL_FILE_PATH = _email.get("EMAIL_FILE_PATH")  # filemail: the folder (four slashes: absolute)
SERVER_EMAIL = DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", "Dominó <domino@localhost>")

# --- Requests ---------------------------------------------------------------------------
# Every request this service accepts is a small JSON document or form; a larger body is
# refused with 413 by core.request_size.RequestSizeLimitMiddleware before anything reads it.
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = DATA_UPLOAD_MAX_MEMORY_SIZE

# --- Content-Security-Policy (django-csp) ----------------------------------------------
# Every response carries the policy. No page runs inline script or inline style: scripts
# and styles are our own static files (the table page's data sits in json_script blocks,
# which are data, not script), the API is same-origin, nothing may frame a page. Swagger UI
# (/api/v1/docs/) loads its start-up script from a URL (SpectacularSwaggerSplitView) and
# its few page styles from static/css/swagger.css; the admin has no inline script.
# tests/security/test_content_security_policy.py checks the header, and
# tests/web/test_browser_csp.py that Chromium reports no violation on the main pages.
from csp.constants import NONE, SELF  # noqa: E402

INSTALLED_APPS += ["csp"]
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
    "csp.middleware.CSPMiddleware",
)
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# --- API --------------------------------------------------------------------------------
REST_FRAMEWORK = {
    # Token first, so that an anonymous API call gets 401 with "WWW-Authenticate: Token".
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "core.log_context.TokenAuthentication",  # DRF's, binding user_id for the log
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["core.parsers.BoundedJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "core.api_schema.ErrorContractSchema",  # errors declared
    # Views opt in with `throttle_scope = "<scope>"`; only their writes are counted.
    "DEFAULT_THROTTLE_CLASSES": ["core.throttling.ScopedWriteRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "moves": env.str("MOVES_RATE", default="120/min"),  # per player
        "tables": "60/hour",
        "signup": "20/min",  # attempts; accounts made: ACCOUNT_RATE_LIMITS' signup_created
        "login": "20/min",
        # Table talk (messages and mutes) and reports: moderation.api.
        "talk": "12/min",
        "reports": "20/hour",
    },
    # Proxies in front of the app that append to X-Forwarded-For (core.client_address):
    # 0 counts anonymous clients by the socket's address and ignores the header.
    "NUM_PROXIES": env_count("NUM_PROXIES", default=0),
    "EXCEPTION_HANDLER": "core.api_errors.api_exception_handler",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Dominó API",
    "DESCRIPTION": "Correspondence dominoes: tables, seats and moves, one turn at a time.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    # A move's kind in the log and the action a player posts are one choice set.
    "ENUM_NAME_OVERRIDES": {
        "MoveKindEnum": ["play", "draw", "pass"],
        "MoveChoiceEnum": ["draw", "pass"],  # game.choices
        "StatusEnum": "tables.models.Table.Status",  # the name it always had
        "ReportStatusEnum": "moderation.models.Report.Status",
        "ReportReasonEnum": "moderation.models.Report.Reason",
    },
    # Swagger UI's scripts and styles come from our own static files, not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Background work ------------------------------------------------------------------
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_RESULT_EXPIRES = 60 * 60 * 24
# Nothing reads task results: without this, sending a task while Redis is down blocks on
# the result store's reconnect loop (about 20 s) and then raises.
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_TIME_LIMIT = 60
CELERY_TASK_SOFT_TIME_LIMIT = 50
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"

# --- Game timing, notices and the sweeps' schedule: config/settings/game.py ------------
# --- Logging ----------------------------------------------------------------------------
# structlog for every line (config.log_format): LOG_FORMAT=json (one JSON object a line,
# production's default) or console (readable, the default elsewhere); every line of a
# request or task carries its request_id (core.log_context). docs/operations.md: the fields.
from config.log_format import configure_structlog, logging_config  # noqa: E402
from config.settings.game import *  # noqa: E402, F403

LOG_FORMAT = env.str("LOG_FORMAT", default="console")
LOG_LEVEL = env.str("LOG_LEVEL", default="INFO")
configure_structlog()
LOGGING = logging_config(LOG_FORMAT, LOG_LEVEL)
DJANGO_STRUCTLOG_CELERY_ENABLED = True  # the request's fields travel in each task's headers
DJANGO_STRUCTLOG_IP_LOGGING_ENABLED = False  # core.log_context binds core.client_address's
DJANGO_STRUCTLOG_STATUS_4XX_LOG_LEVEL = logging.INFO  # a refused move is no warning

# --- Metrics ----------------------------------------------------------------------------
# GET /metrics answers only "Authorization: Bearer <METRICS_TOKEN>"; empty: always 404
# (core.metrics). docs/operations.md lists the metrics.
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
PROMETHEUS_EXPORT_MIGRATIONS = False  # (django-prometheus would read them at every start)

# --- Error tracking ---------------------------------------------------------------------
# SENTRY_DSN set: errors of the web, worker and beat processes go to Sentry, scrubbed of
# hands, stocks, seeds, snapshots, tokens, passwords, cookies and bodies
# (config.error_tracking). Unset: nothing is sent anywhere.
SENTRY_DSN = env.str("SENTRY_DSN", default="")
if SENTRY_DSN:
    from config.error_tracking import init_error_tracking

    init_error_tracking(SENTRY_DSN, environment=env.str("SENTRY_ENVIRONMENT", default="production"))
