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


def rows_made_before(targets: list[tuple[str, str]], model: str, rows: list[dict]):
    """Go back to ``targets``, make ``rows`` (field values) with ``model`` ("app.Model")
    as it was there, and migrate forward to the latest migrations, as a deployment would;
    returns the app registry of the latest state."""
    latest = latest_migrations()
    old_apps = migrate_to(targets)
    try:
        for row in rows:
            old_apps.get_model(model).objects.create(**row)
    finally:
        new_apps = migrate_to(latest)
    return new_apps


def alice_and_bob():
    """Two users made with the current model (the accounts app is not migrated back)."""
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    return (
        users.create_user("alice", "alice@example.com", "x"),
        users.create_user("bob", "bob@example.com", "x"),
    )
