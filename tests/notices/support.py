"""Helpers of the notice tests: what each person was mailed, and time passing with the
beat's tasks running (the debounced e-mails, the reminders, the absence sweep)."""

from __future__ import annotations

from datetime import timedelta

from django.core import mail

from notices import tasks as notice_tasks
from tables import tasks as table_tasks


def mails_to(user) -> list:
    return [message for message in mail.outbox if message.to == [user.email]]


def html_of(message) -> str:
    (html, mimetype) = message.alternatives[0]
    assert mimetype == "text/html"
    return html


def let_time_pass(clock, run_tasks, start, until, step=timedelta(minutes=5)) -> None:
    """Move the stopped clock from ``start`` to ``until`` in ``step``s, running what Celery
    beat runs at each (e-mails due, reminders, absences)."""
    now = start
    while now <= until:
        clock.move_to(now)
        with run_tasks():
            notice_tasks.deliver_emails()
            notice_tasks.sweep_reminders()
            table_tasks.sweep_absences()
        now += step
