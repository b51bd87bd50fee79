"""The game's clock, the notices and the sweeps' schedule: part of ``base`` (which imports
it whole), kept apart to keep each settings file short. Every value from the environment,
as in ``base``; docs/configuration.md lists them."""

from config.settings.environment import env, env_bool, env_seconds

# --- Game timing (seconds) ------------------------------------------------------------
ABSENCE_SECONDS = env_seconds("ABSENCE_SECONDS", default=172800)  # 48 h to make a move
IDLE_SECONDS = env_seconds("IDLE_SECONDS", default=604800)  # a week without moves: close
BOT_DELAY_SECONDS = env_seconds("BOT_DELAY_SECONDS", default=1)
BOT_STUCK_SECONDS = env_seconds("BOT_STUCK_SECONDS", default=120)  # re-send a lost bot turn
# A finished match's analysis: Quelonia's simulations per judged move (no clock);
# None: her playing budget at the match's table (Quelonia.budget: 2000 at double-six, 3000
# at three seats, 4000 at double-nine).
ANALYSIS_ROLLOUTS = None
IDEMPOTENCY_SECONDS = env_seconds("IDEMPOTENCY_SECONDS", default=86400)  # keep retry answers
EMAIL_DELIVERY_SECONDS = env_seconds("EMAIL_DELIVERY_SECONDS", default=2592000)  # 30 days
# The outbox (tables.services.outbox): the beat relay delivers again an event still
# undelivered this long after its write (the commit's own kick had that long to succeed),
# and delivered rows are forgotten after a day.
OUTBOX_GRACE_SECONDS = env_seconds("OUTBOX_GRACE_SECONDS", default=10)
OUTBOX_KEEP_SECONDS = env_seconds("OUTBOX_KEEP_SECONDS", default=86400)
REMINDER_SECONDS = env_seconds("REMINDER_SECONDS", default=86400)  # remind with 24 h left
# Links in e-mails point here (the public address of the site, no trailing slash).
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")

# --- Notices (notices/, docs/notices.md) ---------------------------------------------------
# A player is at a table while a client of theirs read it this recently: its e-mails and
# pushes wait (decided when due: none once they saw it, docs/notices.md).
PRESENCE_SECONDS = env_seconds("PRESENCE_SECONDS", default=120)
# A delivery claimed (`sending`) longer ago than this was left by a process that died or
# lost its database: the beat's reclaim_deliveries marks it sent when the mail server or
# a push service had taken it, else sends it again (seconds; far longer than one send).
DELIVERY_LEASE_SECONDS = env_seconds("DELIVERY_LEASE_SECONDS", default=600)
# The "your turn" e-mail waits this long, then goes only if the turn is still unseen...
TURN_EMAIL_DELAY_SECONDS = env_seconds("TURN_EMAIL_DELAY_SECONDS", default=900)
# ...and at most one such e-mail (covering every table waiting) per player this often.
TURN_EMAIL_MIN_INTERVAL_SECONDS = env_seconds("TURN_EMAIL_MIN_INTERVAL_SECONDS", default=21600)
# Web Push (VAPID, RFC 8292): without both keys pushes are off and the settings switch is
# hidden. `manage.py vapid_keys` prints a new pair. The subject is a mailto: or https: URL.
VAPID_PUBLIC_KEY = env.str("VAPID_PUBLIC_KEY", default="")
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default="mailto:domino@localhost")
# How long a push service keeps a push for a device that is off (seconds).
PUSH_TTL_SECONDS = env_seconds("PUSH_TTL_SECONDS", default=86400)
# The hosts a browser's push endpoint may name (notices/push_endpoints.py): https only, the
# default port, no IP literal. An exact host, or ".domain" for it and every host under it
# (a dot boundary). The browsers' services: Google's FCM (Chrome, Edge on Android, Opera),
# Mozilla's autopush (Firefox), Apple's web push (Safari) and Microsoft's WNS (Edge).
WEB_PUSH_ALLOWED_HOSTS = env.list(
    "WEB_PUSH_ALLOWED_HOSTS",
    default=[
        "fcm.googleapis.com",
        "android.googleapis.com",
        "updates.push.services.mozilla.com",
        ".push.services.mozilla.com",
        "web.push.apple.com",
        ".push.apple.com",
        ".notify.windows.com",
    ],
)
# How long the sender waits for a push service (seconds, to connect and then to answer).
WEB_PUSH_TIMEOUT_SECONDS = env_seconds("WEB_PUSH_TIMEOUT_SECONDS", default=5)
# Native mobile push (FCM, APNs) through django-push-notifications: each platform is on only
# with its credentials (docs/configuration.md); the providers are not reached in tests.
FCM_CREDENTIALS_FILE = env.str("FCM_CREDENTIALS_FILE", default="")  # service-account JSON
FCM_PROJECT_ID = env.str("FCM_PROJECT_ID", default="")  # empty: the service account's
PUSH_NOTIFICATIONS_SETTINGS = {
    "UNIQUE_REG_ID": True,  # one row per device token (the library's migrations read it)
    "APNS_AUTH_KEY_PATH": env.str("APNS_KEY_FILE", default=""),  # the .p8 token key
    "APNS_AUTH_KEY_ID": env.str("APNS_KEY_ID", default=""),
    "APNS_TEAM_ID": env.str("APNS_TEAM_ID", default=""),
    "APNS_TOPIC": env.str("APNS_BUNDLE_ID", default=""),
    "APNS_USE_SANDBOX": env_bool("APNS_USE_SANDBOX", default=False),
}

# The sweeps (tables.tasks). DatabaseScheduler copies these into django-celery-beat's
# tables on start (overwriting an interval tuned in the admin); moderators see them there.
# A read never applies what has come due: an overdue turn (R27) reads as `overdue` until
# sweep-absences forfeits it, and a lost bot turn waits for sweep-stuck-bots, so both run
# every 30 s (each one range of a partial index).
CELERY_BEAT_SCHEDULE = {
    "relay-table-events": {"task": "tables.tasks.relay_table_events", "schedule": 30.0},
    "sweep-table-events": {"task": "tables.tasks.sweep_table_events", "schedule": 3600.0},
    "sweep-absences": {"task": "tables.tasks.sweep_absences", "schedule": 30.0},
    "sweep-reminders": {"task": "notices.tasks.sweep_reminders", "schedule": 300.0},
    "sweep-idle": {"task": "tables.tasks.sweep_idle", "schedule": 600.0},
    "sweep-stuck-bots": {"task": "tables.tasks.sweep_stuck_bots", "schedule": 30.0},
    "sweep-move-requests": {"task": "tables.tasks.sweep_move_requests", "schedule": 3600.0},
    "sweep-email-deliveries": {"task": "tables.tasks.sweep_email_deliveries", "schedule": 3600.0},
    "deliver-emails": {"task": "notices.tasks.deliver_emails", "schedule": 60.0},
    "deliver-pushes": {"task": "notices.tasks.deliver_pushes", "schedule": 60.0},
    "reclaim-deliveries": {"task": "notices.tasks.reclaim_deliveries", "schedule": 300.0},
}
