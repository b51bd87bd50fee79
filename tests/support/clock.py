"""The background-work tests' clock: every test starts at ``T0`` (UTC) with the clock
stopped (the ``clock`` fixture in tests/tasks/conftest.py), and moves it by these steps."""

from datetime import UTC, datetime, timedelta

T0 = datetime(2030, 3, 4, 9, 30, tzinfo=UTC)
H24 = timedelta(hours=24)  # a turn's reminder is due when 24 of its 48 hours are left
H48 = timedelta(hours=48)  # a turn's time limit (R27)
MINUTE = timedelta(minutes=1)
