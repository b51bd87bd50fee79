"""Property-based API fuzzing (schemathesis): cases generated from our own OpenAPI schema
(``/api/v1/schema/``) for the tables endpoints, sent through the WSGI app as a seated
player with a running table, positive and negative data, checked for ``not_a_server_error``.
Afterwards the table must still replay from its log to its snapshot."""

from __future__ import annotations

from collections import Counter
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from rest_framework.authtoken.models import Token

from tests.support.api import seated_clients
from tests.support.log import assert_replays

schemathesis = pytest.importorskip("schemathesis")

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

MAX_EXAMPLES = 25


@contextmanager
def keep_connection():
    """The WSGI app closes "old" database connections at the start and end of each request
    (Django's test client switches that off around its own requests, and switches it back
    on after each); inside the test's transaction that would close the connection under
    it. Use after the last test-client request."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def test_generated_requests_never_get_a_server_error(generous_rates, api_client_for, alice, bob):
    from config.wsgi import application

    table_id, _clients = seated_clients(api_client_for, [alice, bob])
    token = Token.objects.get(user=alice).key
    auth = {"Authorization": f"Token {token}"}
    with keep_connection():
        failures, ran, operations = _fuzz(application, auth, table_id)
    assert not failures, "\n\n".join(failures)
    assert len(ran) >= 2 * len(operations)
    assert_replays(table_id)


def _fuzz(application, auth: dict, table_id: int) -> tuple[list[str], list[str], list]:
    from schemathesis.checks import not_a_server_error
    from schemathesis.generation import GenerationMode

    schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", application).include(
        path_regex=r"^/api/v1/(tables|invites)/"
    )
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 8
    failures: list[str] = []
    ran: list[str] = []
    current = {"label": ""}
    statuses: Counter[int] = Counter()
    for operation in operations:
        has_table = any(p.name == "table_id" for p in operation.path_parameters)
        variants = [(GenerationMode.POSITIVE, None), (GenerationMode.NEGATIVE, None)]
        if has_table:
            variants += [
                (GenerationMode.POSITIVE, {"table_id": table_id}),
                (GenerationMode.NEGATIVE, {"table_id": table_id}),
            ]
        for mode, path_parameters in variants:
            current["label"] = f"{operation.label} {mode.value}"
            if path_parameters:
                current["label"] += " (our table)"
            strategy = operation.as_strategy(mode, path_parameters=path_parameters)

            @settings(
                max_examples=MAX_EXAMPLES,
                deadline=None,
                database=None,
                derandomize=True,
                suppress_health_check=list(HealthCheck),
            )
            @given(case=strategy, authenticated=st.sampled_from([True, True, True, False]))
            def run(case, authenticated):
                response = case.call(headers=auth if authenticated else None)
                statuses[response.status_code] += 1
                try:
                    case.validate_response(response, checks=[not_a_server_error])
                except AssertionError as error:
                    failures.append(f"{current['label']}: {error}"[:2000])
                    raise

            try:
                run()
            except AssertionError:
                pass  # collected above; keep fuzzing the other operations
            except Unsatisfiable:
                pass  # e.g. no negative value exists for a parameterless operation
            ran.append(current["label"])
    print("schemathesis answers by status:", dict(sorted(statuses.items())))
    assert statuses[200] > 0 and statuses[404] > 0 and statuses[400] > 0  # it got somewhere
    return failures, ran, operations
