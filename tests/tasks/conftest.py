"""Fixtures for the background-work tests: a frozen clock that the tests move by hand,
and ``run_tasks`` to run what a block's commits scheduled.

Every test here starts at ``T0`` (UTC) with the clock stopped (``tick=False``), so a turn's
deadline is exactly ``T0 + 48 h`` and "47 h 59 min later" means just that.
"""

import pytest
import time_machine

from tests.support.clock import T0


@pytest.fixture
def clock():
    """The stopped clock at ``T0``; ``clock.move_to(T0 + timedelta(...))`` moves it."""
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


@pytest.fixture
def run_tasks(django_capture_on_commit_callbacks):
    """``with run_tasks(): ...`` runs what the block's commits scheduled, tasks included."""
    return lambda: django_capture_on_commit_callbacks(execute=True)
