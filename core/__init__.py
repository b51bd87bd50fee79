"""Web plumbing shared by the apps: the API error contract, rate limits, request parsing
and size limits, the client's address, fault classification (503s), the health check and
the admin's lookup guard. It imports no app (``tables``, ``accounts``) and not ``config``,
the top floor (settings, URLs, the Celery app), so any layer may use it."""
