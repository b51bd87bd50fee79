"""Fixtures for the background-work tests: a frozen clock that the tests move by hand.

Every test here starts at ``T0`` (UTC) with the clock stopped (``tick=False``), so a turn's
deadline is exactly ``T0 + 48 h`` and "47 h 59 min later" means just that.
"""

from datetime import UTC, datetime

import pytest
import time_machine

T0 = datetime(2030, 3, 4, 9, 30, tzinfo=UTC)


@pytest.fixture
def clock():
    """The stopped clock at ``T0``; ``clock.move_to(T0 + timedelta(...))`` moves it."""
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller
