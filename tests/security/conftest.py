"""The accounts' and notices' world, for the bad-input tests of their bodies."""

from tests.security.account_world import account_world  # noqa: F401 (a fixture)
