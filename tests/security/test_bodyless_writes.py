"""The writes that take no body refuse one that says something, as abandon and a move do:
``POST /tables/{id}/analysis/`` and ``public-replay/`` with ``{"bogus": 1}`` answered 200
and did their work, although docs/api.md promises 400 ``invalid`` for a field a body does
not take. Now each of them (the OpenAPI schema's writes with no request body) answers 400
``invalid`` naming the field and changes nothing; no body, ``{}`` and JSON ``null`` (what
the site's own pages send: ``static/js/replay/``, ``static/js/table/rematch.js``) still
pass."""

from __future__ import annotations

import random

import pytest
from django.contrib.sessions.models import Session

from moderation.models import TalkMute
from tables import services
from tables.models import MatchAnalysis, PublicReplay, Seat, Table
from tests.conftest import PASSWORD
from tests.security.account_world import snapshot as accounts_snapshot
from tests.support.api import play_until, seated_clients

pytestmark = pytest.mark.django_db

NOT_A_FIELD = "No es un campo de esta petición."


@pytest.fixture
def world(api_client_for, alice, bob) -> dict:
    """alice and bob's finished match (one hand played, then bob left: R26), alice's
    table waiting for a friend (dave's to take) and alice's mute of bob: something for
    each write to change."""
    finished, clients = seated_clients(api_client_for, [alice, bob])
    play_until(
        clients,
        finished,
        random.Random(3),
        lambda state: state["status"] != "playing" or state["game"]["hand_number"] > 1,
    )
    services.table_abandon(table_id=finished, user=bob)
    waiting = services.table_create(creator=alice, seats=2, target=50, others=["friend"])
    mute = TalkMute.objects.create(user=alice, muted_user=bob)
    invite = Seat.objects.get(table=waiting, index=1).invite_token
    return {"finished": finished, "waiting": waiting.pk, "invite": invite, "mute": mute.pk}


def _snapshot() -> tuple:
    return (
        accounts_snapshot(),
        sorted(Table.objects.values_list("pk", "status", "version", "outcome")),
        sorted(Seat.objects.values_list("table_id", "index", "user_id", "invite_token")),
        MatchAnalysis.objects.count(),
        sorted(PublicReplay.objects.values_list("table_id", "token")),
        sorted(TalkMute.objects.values_list("pk", "user_id", "muted_user_id")),
        Session.objects.count(),
    )


#: (who sends it, method, path with the world's facts): every write the schema lists
#: without a request body, sent by someone it would otherwise work for.
BODYLESS = [
    ("alice", "post", "/api/v1/tables/{finished}/analysis/"),
    ("alice", "post", "/api/v1/tables/{finished}/public-replay/"),
    ("alice", "delete", "/api/v1/tables/{finished}/public-replay/"),
    ("bob", "post", "/api/v1/tables/{finished}/rematch/"),
    ("alice", "post", "/api/v1/tables/{waiting}/invites/1/renew/"),
    ("dave", "post", "/api/v1/invites/{invite}/join/"),
    ("alice", "post", "/api/v1/tables/{waiting}/abandon/"),
    ("alice", "delete", "/api/v1/talk/mutes/{mute}/"),
    ("alice", "post", "/api/v1/accounts/email/resend/"),
    ("alice", "post", "/api/v1/accounts/sign-out-everywhere/"),
    ("alice", "post", "/api/v1/accounts/logout/"),
]
#: A field (alone, or beside one another write takes), then JSON that is no object.
REFUSED = ['{"bogus": 1}', '{"bogus": 1, "version": 3}', "[]", "0", '"x"']


def _send_refused(client, method: str, path: str) -> None:
    """Each of ``REFUSED`` is 400 ``invalid``, the field named where there is one."""
    for body in REFUSED:
        answer = getattr(client, method)(path, body, content_type="application/json")
        assert answer.status_code == 400, (method, path, body, answer.content[:300])
        assert answer.json()["code"] == "invalid", (path, body)
        if "bogus" in body:
            assert answer.json()["fields"]["bogus"] == [NOT_A_FIELD], (path, body)


def test_a_body_sent_to_a_write_that_takes_none_is_400_and_changes_nothing(
    world, api_client_for, request, alice, bob
):
    clients = {}
    for who in ("alice", "bob", "dave"):
        clients[who] = api_client_for(request.getfixturevalue(who))
        clients[who].login(username=who, password=PASSWORD)  # a session to keep
    before = _snapshot()

    for who, method, path in BODYLESS:
        _send_refused(clients[who], method, path.format(**world))

    assert _snapshot() == before
    # The rematch's answers, once there is an offer to answer.
    assert clients["bob"].post(f"/api/v1/tables/{world['finished']}/rematch/").status_code == 201
    rematch = Table.objects.get(rematch_of_id=world["finished"])
    before = _snapshot()
    for answer in ("accept", "decline"):
        _send_refused(clients["alice"], "post", f"/api/v1/tables/{rematch.pk}/rematch/{answer}/")
    assert _snapshot() == before


def test_a_stranger_learns_nothing_from_a_body_refused(world, api_client_for, mallory):
    """The body is read before the table is looked for, whoever asks: mallory's
    ``{"bogus": 1}`` is the same 400 at alice's table as at one that does not exist."""
    client = api_client_for(mallory)
    answers = [
        client.post(f"/api/v1/tables/{table_id}/analysis/", {"bogus": 1}, format="json")
        for table_id in (world["finished"], 99999)
    ]
    assert [a.json() for a in answers] == [answers[0].json()] * 2
    assert answers[0].status_code == 400
    assert client.post(f"/api/v1/tables/{world['finished']}/analysis/").status_code == 404


def test_what_the_sites_pages_send_still_passes(
    world, api_client_for, alice, django_capture_on_commit_callbacks
):
    """The replay page asks for the analysis and makes and revokes the public link with no
    body at all (``static/js/replay/``), the talk panel hears a person again with none
    (``static/js/table/talk.js``); an app may send ``{}`` or ``null``."""
    client = api_client_for(alice)
    analysis = f"/api/v1/tables/{world['finished']}/analysis/"
    public = f"/api/v1/tables/{world['finished']}/public-replay/"

    for body in (None, "{}", "null"):
        sent = {} if body is None else {"data": body, "content_type": "application/json"}
        with django_capture_on_commit_callbacks(execute=False):
            asked = client.post(analysis, **sent)
        assert asked.status_code == (202 if body is None else 200), body
        assert client.post(public, **sent).status_code == 201, body
        assert client.delete(public, **sent).status_code == 204, body
    assert client.delete(f"/api/v1/talk/mutes/{world['mute']}/").status_code == 204
    assert MatchAnalysis.objects.filter(table_id=world["finished"]).exists()
    assert not TalkMute.objects.exists()
