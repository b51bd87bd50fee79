"""The stopped clock and ``run_tasks`` fixtures of the background-work tests serve here
too, and so do test_push's loopback push service and VAPID keys and test_native_push's
FCM and APNs stand-ins (fixtures, not helpers: the helpers are tests/support)."""

from tests.notices.test_native_push import apns, fcm  # noqa: F401
from tests.notices.test_push import push_service, vapid  # noqa: F401
from tests.tasks.conftest import clock, run_tasks  # noqa: F401
