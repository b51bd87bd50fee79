"""How log lines are written: structlog for every line, the standard library's included.

Every record, from a structlog logger (django-structlog's ``request_started``,
``request_finished``, ``task_started``, ...) or from ``logging.getLogger`` (Django, Celery,
the site's own modules), goes through one ``structlog.stdlib.ProcessorFormatter``, which
merges the context bound for the request or task (``request_id``, ``user_id``,
``table_id``, ``version``, ``task_id``: ``core.log_context``) into it and writes it as
one JSON object per line (``LOG_FORMAT=json``, production) or one readable line
(``LOG_FORMAT=console``, ``make run``). docs/operations.md lists the fields.
"""

from __future__ import annotations

import structlog

#: What every record passes through before it is rendered, structlog's and the standard
#: library's alike: the bound context, level, logger name, time, the message's %-args.
SHARED_PROCESSORS = [
    structlog.contextvars.merge_contextvars,
    structlog.stdlib.add_log_level,
    structlog.stdlib.add_logger_name,
    structlog.processors.TimeStamper(fmt="iso", utc=True),
    structlog.stdlib.ExtraAdder(allow=["status_code"]),
]

#: The renderers ``LOG_FORMAT`` chooses between.
FORMATS = ("json", "console")


def configure_structlog() -> None:
    """Point structlog's loggers at the standard library's, so both are formatted by the
    ``LOGGING`` formatters below (one handler, one format for every line)."""
    structlog.configure(
        processors=[
            structlog.stdlib.filter_by_level,
            *SHARED_PROCESSORS,
            structlog.stdlib.PositionalArgumentsFormatter(),
            structlog.processors.StackInfoRenderer(),
            structlog.processors.UnicodeDecoder(),
            structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )


def formatter(name: str) -> dict:
    """The ``LOGGING`` formatter ``name`` (``json`` or ``console``) as a dictConfig entry."""
    if name == "json":
        renderers = [structlog.processors.dict_tracebacks, structlog.processors.JSONRenderer()]
    elif name == "console":
        # Plain tracebacks: with rich installed (a dev tool's dependency) structlog would
        # draw each one with every frame's local variables, slowly, and print their values.
        renderer = structlog.dev.ConsoleRenderer(
            colors=False, exception_formatter=structlog.dev.plain_traceback
        )
        renderers = [renderer]
    else:
        raise ValueError(f"LOG_FORMAT must be one of {', '.join(FORMATS)}, not {name!r}")
    return {
        "()": structlog.stdlib.ProcessorFormatter,
        "processors": [structlog.stdlib.ProcessorFormatter.remove_processors_meta, *renderers],
        "foreign_pre_chain": SHARED_PROCESSORS,
    }


def logging_config(log_format: str, level: str) -> dict:
    """The ``LOGGING`` setting: one console handler in ``log_format``, root at ``level``.

    ``django.request``'s lines name the route, not the path as sent (a share link's
    token, a reset key), and an expected 403 is one line (``core.request_log``);
    ``django.server`` (runserver's own access line, which prints the path as sent) is
    off: ``request_finished`` says the same with the request's id."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"main": formatter(log_format)},
        "filters": {
            "route_paths": {"()": "core.request_log.RoutePaths"},
            "plain_refusals": {"()": "core.request_log.PlainRefusals"},
        },
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "main"}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            "django.request": {"filters": ["route_paths", "plain_refusals"]},
            "django.server": {"handlers": [], "propagate": False},
        },
    }
