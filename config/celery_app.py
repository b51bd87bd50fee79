"""The Celery application: `celery -A config worker` / `celery -A config beat`.

Configuration comes from Django settings named CELERY_* (config/settings/base.py): JSON-only
serialization, time limits, and django-celery-beat's DatabaseScheduler for periodic tasks.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("domino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
