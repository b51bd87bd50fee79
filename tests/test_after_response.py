"""A write's side effects wait for its answer (``core.after_response``, issue 19): the
Celery tasks and the version's publication of a move are sent when the response is
closed, after its body, not inside the view; outside a request they go at once."""

import asyncio
import random

import pytest
from django.http import HttpResponse
from django.http.response import HttpResponseBase
from django.test import RequestFactory

from config.celery_app import app as celery_app
from core.after_response import AfterResponseMiddleware, run_after_response
from tables.services import outbox
from tests.support.api import create_table, play_one, table


def _view(events):
    def view(request):
        run_after_response(lambda: events.append("after"))
        events.append("view")
        return HttpResponse("ok")

    return view


# A response's close() sends request_finished, whose receiver checks the database
# connection: these tests need the database though they write nothing.
@pytest.mark.django_db
def test_a_callback_waits_for_the_response_to_be_closed():
    events = []
    response = AfterResponseMiddleware(_view(events))(RequestFactory().get("/"))
    assert events == ["view"]
    response.close()
    assert events == ["view", "after"]
    run_after_response(lambda: events.append("no request: now"))
    assert events[-1] == "no request: now"


@pytest.mark.django_db
def test_the_same_under_asgi_and_a_failing_callback_stops_no_other(caplog):
    events = []

    async def view(request):
        run_after_response(lambda: 1 / 0)
        return _view(events)(request)

    response = asyncio.run(AfterResponseMiddleware(view)(RequestFactory().get("/")))
    assert events == ["view"]
    response.close()
    assert events == ["view", "after"]
    assert "a callback after the response failed" in caplog.text


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)  # the write commits, as in production
def test_a_moves_tasks_are_queued_once_its_answer_is_closed(
    api_client_for, alice, bob, monkeypatch
):
    """With a broker, a move's turn notice is queued while the response closes, once."""
    client, other = api_client_for(alice), api_client_for(bob)
    created = create_table(client, 2, ["friend"])
    other.post(f"/api/v1/invites/{created['invites'][0]['token']}/join/")
    events = []
    real_close = HttpResponseBase.close

    def close(response):
        events.append("close")
        real_close(response)

    def send(delivery):
        events.append(("send", delivery.event.kind))

    monkeypatch.setattr(HttpResponseBase, "close", close)
    monkeypatch.setattr(outbox, "_send", send)
    mover = client if table(client, created["id"])["your_turn"] else other
    state = table(mover, created["id"])
    events.clear()
    celery_app.conf.task_always_eager = False  # a broker: the tasks are queued, not run
    try:
        assert play_one(mover, state, random.Random(1)).status_code == 200
    finally:
        celery_app.conf.task_always_eager = True
    sent = [event for event in events if event != "close"]
    assert sent == [("send", "turn_started")], events
    assert events.index(sent[0]) > events.index("close")  # inside close(), after the view
