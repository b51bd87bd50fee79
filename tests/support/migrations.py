"""Migration tests: take the database back to an older schema, make rows there with the
models of that time, then migrate forward as a deployment would (``migrate_to``)."""

from __future__ import annotations

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def latest_migrations() -> list[tuple[str, str]]:
    """The leaf migration of every app: where ``migrate_to`` goes back to afterwards."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def migrate_to(targets: list[tuple[str, str]]):
    """Migrate the test database to ``targets`` (``[(app, migration name)]``) and return
    the app registry of that state, whose ``get_model`` gives the models of the time."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def alice_and_bob():
    """Two users made with the current model (the accounts app is not migrated back)."""
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    return (
        users.create_user("alice", "alice@example.com", "x"),
        users.create_user("bob", "bob@example.com", "x"),
    )
