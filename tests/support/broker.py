"""Stand-ins for the Celery broker in tests that must see what would be queued."""

from __future__ import annotations


def recording_apply_async(sent: list):
    """An ``apply_async`` that only appends its positional ``args`` (a tuple) to ``sent``: a
    broker with no worker, so nothing runs."""

    def apply_async(args, kwargs=None, **options):
        sent.append(tuple(args))

    return apply_async
