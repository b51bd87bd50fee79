"""The accounts' and notices' world, for the bad-input tests of their bodies; the
loopback push service, the VAPID keys, the stopped clock and ``run_tasks`` for the Web
Push SSRF table (fixtures, not helpers)."""

from tests.notices.test_push import push_service, vapid  # noqa: F401
from tests.security.account_world import account_world  # noqa: F401 (a fixture)
from tests.tasks.conftest import clock, run_tasks  # noqa: F401
