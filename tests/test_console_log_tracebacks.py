"""The readable log format (``LOG_FORMAT=console``, ``make run`` and the tests) writes a
traceback as Python does: with rich installed (a dependency of the test tools) structlog
drew each one as a table of every frame's local variables, which printed their values (a
hand, a token) and took minutes for a large request's error in the suite."""

from __future__ import annotations

import logging
import sys

import structlog

from config.log_format import SHARED_PROCESSORS, formatter


def test_a_console_traceback_prints_no_local_variable():
    record_formatter = structlog.stdlib.ProcessorFormatter(
        processors=formatter("console")["processors"], foreign_pre_chain=SHARED_PROCESSORS
    )
    hand = "6-4 5-5 secret-tile"  # noqa: F841 (a local the traceback must not print)
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", None, None)
        record.exc_info = sys.exc_info()
    line = record_formatter.format(record)
    assert "RuntimeError: boom" in line
    assert "Traceback (most recent call last)" in line
    assert "secret-tile" not in line
