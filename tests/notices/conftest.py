"""The stopped clock and ``run_tasks`` of the background-work tests serve here too."""

from tests.tasks.conftest import clock, run_tasks  # noqa: F401
