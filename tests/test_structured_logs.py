"""The log an operator reads: one JSON object a line (production's format), each line of a
request carrying its ``request_id`` and ``user_id`` (a table's also ``table_id`` and
``version``), the id a trusted proxy gave or a new one, and no secret anywhere: a whole
match played through the API (sign-up, sign-in, a share link, bots, notices and their
e-mails, tasks inline) is captured line by line and scanned for every tile name, hand,
seed, password, token and e-mail address it involved."""

from __future__ import annotations

import io
import json
import logging
import random
import re

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.core import mail
from django.test import override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.log_format import formatter
from tables.models import Hand
from tests.support.api import create_table, join, play_one, table

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-pass-phrase-for-the-log"
#: A tile as the service writes it ("6-4"), standing alone (not inside "2026-12-07" or a
#: UUID's "c3-4d").
TILE_NAME = re.compile(r"(?<![0-9A-Za-z])[0-9]-[0-9](?![0-9A-Za-z])")


class Lines:
    """Every record of every logger at INFO and above, rendered as production does
    (``LOG_FORMAT=json``), one parsed JSON object per line."""

    def __init__(self) -> None:
        self.stream = io.StringIO()
        options = formatter("json")
        self.handler = logging.StreamHandler(self.stream)
        self.handler.setFormatter(options.pop("()")(**options))
        self.handler.setLevel(logging.INFO)

    def __enter__(self) -> Lines:
        root = logging.getLogger()
        self.level = root.level
        root.addHandler(self.handler)
        root.setLevel(logging.INFO)
        return self

    def __exit__(self, *exc) -> None:
        root = logging.getLogger()
        root.removeHandler(self.handler)
        root.setLevel(self.level)

    @property
    def text(self) -> str:
        return self.stream.getvalue()

    def parsed(self) -> list[dict]:
        return [json.loads(line) for line in self.text.splitlines()]


def _sign_up(name: str) -> tuple[APIClient, str]:
    """A new account through the API with a verified address; its client (token) and
    the token."""
    client = APIClient()
    email = f"{name}@example.com"
    body = {"username": name, "password": PASSWORD, "email": email}
    assert client.post("/api/v1/accounts/signup/", body).status_code == 201
    EmailAddress.objects.filter(email=email).update(verified=True)
    answer = client.post("/api/v1/accounts/token/", {"username": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.json()
    token = answer.json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client, token


def _play_match() -> tuple[int, list[str]]:
    """ana and beto sign up; ana makes a 3-seat table with Garabato, beto joins through
    the share link, and they play to the end (the bot's turns run inline). The table's
    id and its share links' tokens."""
    ana, _token = _sign_up("ana")
    beto, _token = _sign_up("beto")
    created = create_table(ana, 3, ["friend", "garabato"], target=50)
    invite = next(link for link in created["invites"] if link["seat"] == 1)
    join(beto, invite["token"])
    clients = {0: ana, 1: beto}
    rng = random.Random(5)
    for _turn in range(2000):
        state = table(ana, created["id"])
        if state["status"] != "playing":
            return created["id"], [link["token"] for link in created["invites"]]
        mover = clients[state["turn_seat"]]
        answer = play_one(mover, table(mover, created["id"]), rng)
        assert answer.status_code == 200, answer.json()
    raise AssertionError("the match did not end")


def _secrets(table_id: int, invites: list[str]) -> list[str]:
    """Every secret the match involved, as text a line could hold."""
    found = [PASSWORD, *invites]
    found += list(Token.objects.values_list("key", flat=True))
    found += [row.email for row in EmailAddress.objects.all()]
    for hand in Hand.objects.filter(table_id=table_id):
        found += [str(hand.seed)]
        found += [json.dumps(tiles) for tiles in hand.dealt]
        found += [json.dumps(hand.stock)]
    return [text for text in found if text]


@pytest.mark.django_db(transaction=True)  # commits: the start's bot turn is sent on commit
def test_a_whole_match_logs_every_request_with_its_ids_and_no_secret():
    with Lines() as lines:
        table_id, invites = _play_match()

    assert len(mail.outbox) > 0  # the notices' e-mails went out while it was captured
    records = lines.parsed()
    assert len(records) > 100
    for secret in _secrets(table_id, invites):
        assert secret not in lines.text, f"a log line holds {secret!r}"
    for line in lines.text.splitlines():
        assert not TILE_NAME.search(line), f"a log line names a tile: {line}"

    finished = [r for r in records if r["event"] == "request_finished"]
    assert finished and all(r["request_id"] for r in finished)
    assert len({r["request_id"] for r in finished}) == len(finished)  # one id per request
    moves = [r for r in finished if r["request"] == f"POST /api/v1/tables/{table_id}/moves/"]
    assert moves and all(r["code"] == 200 for r in moves)
    for record in moves:
        assert record["user_id"] is not None
        assert record["table_id"] == table_id
        assert isinstance(record["version"], int)
    joins = [r for r in finished if r["request"].startswith("POST /api/v1/invites/")]
    assert [r["request"] for r in joins] == ["POST /api/v1/invites/<token>/join/"]
    # Each line written inside a request carries that request's id (the bot's turns and
    # the notices' tasks ran inline, within the request whose move gave them the turn).
    started = {r["request_id"] for r in records if r["event"] == "request_started"}
    inside = [r for r in records if r.get("request_id")]
    assert {r["request_id"] for r in inside} == started


@pytest.mark.django_db(transaction=True)  # a bot's lead is played on commit
def test_the_scan_finds_a_hand_logged_on_purpose(monkeypatch):
    """The check above can fail: a service that logged the mover's hand is caught."""
    from tables.services import play

    real = play.play_turn

    def logging_the_hand(match, action):
        logging.getLogger("tables.services.play").info(
            "hand %s", [str(tile) for tile in match.hand.holdings[match.hand.turn]]
        )
        return real(match, action)

    monkeypatch.setattr(play, "play_turn", logging_the_hand)
    with Lines() as lines:
        ana, _token = _sign_up("ana")
        created = create_table(ana, 2, ["garabato"], target=50)
        state = table(ana, created["id"])
        assert state["your_turn"], state  # the bot's lead, if it had it, is played
        assert play_one(ana, state, random.Random(1)).status_code == 200
    assert TILE_NAME.search(lines.text)


def _request_id_of(lines: Lines, path: str) -> str:
    (record,) = [r for r in lines.parsed() if r["event"] == "request_finished"]
    assert record["request"] == f"GET {path}"
    return record["request_id"]


def test_a_request_id_sent_by_the_client_itself_is_not_used(alice, api_client_for):
    client = api_client_for(alice)
    with Lines() as lines:
        client.get("/api/v1/me/", HTTP_X_REQUEST_ID="chosen-by-the-client")
    assert _request_id_of(lines, "/api/v1/me/") != "chosen-by-the-client"


def test_a_trusted_proxys_request_id_is_used(alice, api_client_for):
    client = api_client_for(alice)
    behind_a_proxy = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    with override_settings(REST_FRAMEWORK=behind_a_proxy), Lines() as lines:
        client.get("/api/v1/me/", HTTP_X_REQUEST_ID="f3b0c442-98fc-1c14-b39f-92d1282048c0")
    assert _request_id_of(lines, "/api/v1/me/") == "f3b0c442-98fc-1c14-b39f-92d1282048c0"


def test_a_proxys_request_id_that_is_no_plain_id_is_replaced(alice, api_client_for):
    client = api_client_for(alice)
    behind_a_proxy = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    with override_settings(REST_FRAMEWORK=behind_a_proxy), Lines() as lines:
        client.get("/api/v1/me/", HTTP_X_REQUEST_ID='x" forged=1')
    assert _request_id_of(lines, "/api/v1/me/") != 'x" forged=1'
