"""The Celery application: `celery -A config worker` / `celery -A config beat`.

Configuration comes from Django settings named CELERY_* (config/settings/base.py): JSON-only
serialization, time limits, and django-celery-beat's DatabaseScheduler for periodic tasks.

Logging is the site's (``LOGGING``, config/log_format.py), not Celery's own: the worker's
lines are JSON or console lines like the web's, and django-structlog's worker step binds
each task's ``task_id`` and the ``request_id`` (and the rest) of the request that sent it.
"""

import logging.config
import os

from celery import Celery
from celery.signals import setup_logging
from django_structlog.celery.steps import DjangoStructLogInitStep

from core.metrics import connect_task_signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("domino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.steps["worker"].add(DjangoStructLogInitStep)
connect_task_signals()  # the queue's lag; a worker's metrics on METRICS_PORT (core.metrics)


@setup_logging.connect
def _site_logging(**kwargs) -> None:
    """The worker and beat log through the site's ``LOGGING`` (a receiver here keeps
    Celery from installing its own handlers and format)."""
    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)
