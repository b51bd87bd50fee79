"""The stopped clock and ``run_tasks`` fixtures of the background-work tests serve here
too (fixtures, not helpers: the helpers are tests/support)."""

from tests.tasks.conftest import clock, run_tasks  # noqa: F401
