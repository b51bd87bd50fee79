"""R31, one guard: while a hand is being played no response shows a seat another seat's
tiles, a stock tile it has not drawn, the tile another seat drew, or the hand's seed.

Hands at 2, 3 and 4 seats are played through the API; after every move each seat fetches
every endpoint that talks about the table (detail and its long poll, my tables, the move
log, the record, the invite preview, the HTML table page) and each answer is searched for
the secrets, computed from the server's own engine state (``Table.state``). Tiles are
matched as whole JSON strings (``"6-4"``, and the reversed ``"4-6"`` too); the parts of an
answer that are about an earlier, finished hand (its summary, its log entries, its
record) are public (R19) and are checked structurally instead: they only ever describe
finished hands.
Once a hand ends, everything is shown: the holdings and the seed.

``seven_plus_seven`` (one person holds both seats of a pair) is checked the same way,
each person's secrets being what neither of their two seats may see.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from django.test import Client

from dominoes import Draw, Play, match_from_dict, seed_sha256
from tables.models import Hand, MatchAnalysis, PublicReplay, Table
from tables.models import Seat as SeatRow
from tables.seating import invite_sha256
from tests.support.api import play_one, seated_clients, seated_table, table

pytestmark = pytest.mark.django_db

SECOND_HAND_MOVES = 4
JSON_SCRIPT = re.compile(r'<script id="table-data" type="application/json">(.*?)</script>', re.S)


def _tile_tokens(name: str) -> set[str]:
    high, low = name.split("-")
    return {f'"{high}-{low}"', f'"{low}-{high}"'}


def _secrets_for(match, viewer: int | tuple[int, ...]) -> set[str]:
    """The tiles ``viewer`` (a seat, or every seat one person holds) must not see named
    anywhere, as tile names (high first)."""
    own = {viewer} if isinstance(viewer, int) else set(viewer)
    hand = match.hand
    public = {str(action.tile) for action in hand.actions if isinstance(action, Play)}
    public |= {str(tile) for seat in own for tile in hand.holdings[seat]}
    secret = {
        str(tile) for seat, tiles in enumerate(hand.holdings) if seat not in own for tile in tiles
    }
    secret |= {str(tile) for tile in hand.stock[hand.drawn :]}
    secret |= {
        str(action.tile)
        for action in hand.actions
        if isinstance(action, Draw) and action.seat not in own
    }
    return secret - public


def _scrub_view(view: dict | None, current: int) -> dict | None:
    """The table view without the summary of an earlier (finished) hand."""
    if not view or not view.get("game"):
        return view
    # Since your last visit: earlier hands' moves are scrubbed like their summary (their
    # tiles are public now and may be dealt again); this hand's moves are scanned.
    since = view.get("since_your_last_visit")
    if since is not None:
        moves = [move for move in since["moves"] if move["hand"] == current]
        view = {**view, "since_your_last_visit": {**since, "moves": moves}}
    last = view["game"].get("last_hand")
    if last is not None:
        assert last["number"] < current or view["game"]["turn"] is None
        if last["number"] < current:
            view = {**view, "game": {**view["game"], "last_hand": "<earlier hand>"}}
    return view


class Seat:
    """One seated player's ways in: the API client (token) and a browser (session)."""

    def __init__(self, index: int, user, client, indexes: tuple[int, ...] | None = None):
        self.index, self.user, self.api = index, user, client
        self.indexes = indexes or (index,)  # every seat this person holds
        self.browser = Client()
        self.browser.force_login(user)


def _check_since_last_visit(seat: Seat, detail: dict, log: list[dict]) -> None:
    """``since_your_last_visit`` holds only public moves: each one is in this seat's log,
    with the same tile or none (another seat's draw stays hidden there even after its
    hand)."""
    public = {(m["hand"], m["sequence"]): m for m in log}
    for move in detail["since_your_last_visit"]["moves"]:
        logged = public[(move["hand"], move["sequence"])]
        assert move["tile"] in (logged["tile"], None)
        assert {**move, "tile": logged["tile"]} == logged
        if move["kind"] == "draw" and move["seat"] not in seat.indexes:
            assert move["tile"] is None


def _invite_answers(seat: Seat, tokens: list[str]) -> dict[str, str]:
    """What each used invite link answers ``seat``: ``{where: text}``."""
    out: dict[str, str] = {}
    for token in tokens:
        preview = seat.api.get(f"/api/v1/invites/{token}/")
        taken_with_it = SeatRow.objects.filter(
            joined_invite_sha256=invite_sha256(token), user=seat.user
        ).exists()
        if taken_with_it:  # its taker is led back to the table (issue 16), no more
            assert preview.status_code == 200 and preview.json()["joined"] is True
        else:
            assert preview.status_code == 404  # the links die when the seats are taken
        out[f"invite {token[:6]}"] = preview.content.decode()
    return out


#: What a match in play refuses (issue 20, 16): its analysis and its public link.
REFUSED_WHILE_PLAYING = ("get analysis", "post analysis", "post public-replay")


def _refused_while_playing(seat: Seat, table_id: int) -> dict[str, str]:
    """The answers of ``REFUSED_WHILE_PLAYING``, each checked to be a 409
    ``table_not_finished`` that changes nothing: ``{name: text}``."""
    out = {}
    for name in REFUSED_WHILE_PLAYING:
        method, path = name.split()
        answer = getattr(seat.api, method)(f"/api/v1/tables/{table_id}/{path}/")
        assert answer.status_code == 409 and answer.json()["code"] == "table_not_finished"
        out[name] = answer.content.decode()
    return out


def _answers(seat: Seat, table_id: int, current: int, tokens: list[str]) -> dict[str, str]:
    """Every answer ``seat`` can get about the table: ``{where: text}`` with earlier hands
    scrubbed out, plus ``"raw"``: all of them unscrubbed (for the seed search)."""
    out: dict[str, str] = {}
    raw: list[str] = []
    detail = seat.api.get(f"/api/v1/tables/{table_id}/")
    assert detail.status_code == 200
    raw.append(detail.content.decode())
    out["detail"] = json.dumps(_scrub_view(detail.json(), current))
    # The long poll answers the same view (tables.api.waits); asked from the version
    # before, it answers at once (here a WSGI client: no wait, the same code path).
    waited = seat.api.get(
        f"/api/v1/tables/{table_id}/", {"since_version": detail.json()["version"] - 1, "wait": 5}
    )
    assert waited.status_code == 200
    raw.append(waited.content.decode())
    out["wait"] = json.dumps(_scrub_view(waited.json(), current))
    listing = seat.api.get("/api/v1/tables/")
    assert listing.status_code == 200
    out["list"] = listing.content.decode()
    raw.append(out["list"])
    moves = seat.api.get(f"/api/v1/tables/{table_id}/moves/")
    assert moves.status_code == 200
    _check_since_last_visit(seat, detail.json(), moves.json())
    raw.append(moves.content.decode())
    out["moves"] = json.dumps([m for m in moves.json() if m["hand"] == current])
    record = seat.api.get(f"/api/v1/tables/{table_id}/record/")
    assert record.status_code == 200
    raw.append(record.content.decode())
    finished = Hand.objects.filter(table_id=table_id, ended_at__isnull=False).count()
    assert len(record.json()["hands"]) == finished  # the hand in play is never exported
    for hand in record.json()["hands"]:
        assert "seed" in hand  # only finished hands, each with its seed revealed
    talk = seat.api.get(f"/api/v1/tables/{table_id}/talk/")
    assert talk.status_code == 200
    raw.append(talk.content.decode())
    # The move each message of this hand followed, as the log shows it (earlier hands are
    # over, their tiles public: left out, as the move log's are).
    out["talk"] = json.dumps(
        {**talk.json(), "messages": [m for m in talk.json()["messages"] if m["hand"] == current]}
    )
    out.update(_invite_answers(seat, tokens))
    out.update(_refused_while_playing(seat, table_id))
    raw.extend(out[name] for name in REFUSED_WHILE_PLAYING)
    page = seat.browser.get(f"/mesas/{table_id}/")
    if page.status_code != 404:
        assert page.status_code == 200
        html = page.content.decode()
        raw.append(html)
        embedded = JSON_SCRIPT.search(html)
        if embedded:
            data = json.loads(embedded.group(1))
            out["page data"] = json.dumps(_scrub_view(data, current))
            html = html.replace(embedded.group(0), "")
        out["page"] = html
    out["raw"] = "\n".join(raw)
    return out


def _check_everyone(seats: list[Seat], table_id: int, tokens: list[str]) -> int:
    """Check every seat's answers against the server's state; returns the hand number."""
    match = match_from_dict(Table.objects.get(pk=table_id).state)
    hand = match.hand
    if hand.is_over or match.is_over:
        return hand.number
    seed = hand.seed.hex()
    for seat in seats:
        secrets_ = _secrets_for(match, seat.indexes)
        answers = _answers(seat, table_id, hand.number, tokens)
        full = answers.pop("raw")
        for where, text in answers.items():
            for tile in secrets_:
                for token in _tile_tokens(tile):
                    assert token not in text, (
                        f"seat {seat.index} sees {tile} in {where} (hand {hand.number})"
                    )
        assert seed not in full, f"seat {seat.index} sees the seed of hand {hand.number}"
        assert seed_sha256(hand.seed) in full  # the commitment is published (R6)
    return hand.number


def _check_shown_after_the_hand(seats: list[Seat], table_id: int, number: int) -> None:
    row = Hand.objects.get(table_id=table_id, number=number)
    match = match_from_dict(Table.objects.get(pk=table_id).state)
    finished = match.hands[number]
    for seat in seats:
        game = table(seat.api, table_id)["game"]
        last = game["last_hand"]
        assert last["number"] == number
        assert last["seed"] == row.seed
        assert last["holdings"] == [[str(t) for t in tiles] for tiles in finished.holdings]
        record = seat.api.get(f"/api/v1/tables/{table_id}/record/").json()
        assert record["hands"][number]["dealt"] == row.dealt
        assert record["hands"][number]["seed"] == row.seed
        log = seat.api.get(f"/api/v1/tables/{table_id}/moves/").json()
        for move in log:
            if move["hand"] == number and move["kind"] != "pass":
                assert move["tile"] is not None  # every draw shown once the hand is over


@pytest.mark.parametrize("size", [2, 3, 4])
def test_no_seat_ever_sees_a_hidden_tile_or_the_seed(
    size, api_client_for, alice, bob, carol, dave, mallory, generous_rates
):
    users = [alice, bob, carol, dave][:size]
    table_id, clients, tokens = seated_table(api_client_for, users)
    seats = [Seat(index, user, clients[index]) for index, user in enumerate(users)]
    stranger = api_client_for(mallory)
    rng = random.Random(1000 + size)
    number = _check_everyone(seats, table_id, tokens)
    assert number == 0
    moves = second_hand_moves = 0
    while moves < 80 and second_hand_moves < SECOND_HAND_MOVES:
        state = table(clients[0], table_id)
        if state["status"] != "playing":
            break
        before = state["game"]["hand_number"]
        mover = table(clients[state["turn_seat"]], table_id)
        response = play_one(clients[state["turn_seat"]], mover, rng)
        assert response.status_code == 200, response.json()
        moves += 1
        # Each seat in turn talks after a move (and after automatic draws): the talk names
        # the move each message followed, never a tile another seat drew (R31).
        talker = clients[moves % size]
        said = talker.post(f"/api/v1/tables/{table_id}/talk/", {"text": f"m{moves}"})
        assert said.status_code == 201, said.json()
        after = table(clients[0], table_id)
        if after["game"]["hand_number"] != before or after["game"]["turn"] is None:
            _check_shown_after_the_hand(seats, table_id, before)
        if after["game"]["hand_number"] >= 1:
            second_hand_moves += 1  # a few moves of the next hand, with the last one public
        _check_everyone(seats, table_id, tokens)
        for path in (
            f"/api/v1/tables/{table_id}/",
            f"/api/v1/tables/{table_id}/moves/",
            f"/api/v1/tables/{table_id}/record/",
            f"/api/v1/tables/{table_id}/talk/",
            f"/api/v1/tables/{table_id}/analysis/",
        ):
            assert stranger.get(path).status_code == 404
        for path in ("analysis", "public-replay"):
            assert stranger.post(f"/api/v1/tables/{table_id}/{path}/").status_code == 404
        assert not MatchAnalysis.objects.exists() and not PublicReplay.objects.exists()
    assert second_hand_moves > 0 or table(clients[0], table_id)["status"] != "playing"


def test_the_used_invite_link_shows_nothing(api_client_for, alice, bob, mallory):
    from tests.support.api import create_table, join

    created = create_table(api_client_for(alice), 2, ["friend"])
    token = created["invites"][0]["token"]
    preview = api_client_for(mallory).get(f"/api/v1/invites/{token}/")
    assert preview.status_code == 200
    assert "game" not in preview.json()
    join(api_client_for(bob), token)
    for user in (alice, mallory):
        again = api_client_for(user).get(f"/api/v1/invites/{token}/")
        assert (again.status_code, again.json()["code"]) == (404, "invite_not_found")
    # Its taker is told it is theirs and which table (issue 16), and nothing of the game.
    theirs = api_client_for(bob).get(f"/api/v1/invites/{token}/")
    assert (theirs.status_code, theirs.json()["joined"]) == (200, True)
    assert "game" not in theirs.json() and "tiles" not in theirs.content.decode()


def test_a_stranger_learns_nothing(api_client_for, alice, bob, mallory):
    table_id, _clients = seated_clients(api_client_for, [alice, bob])
    stranger = api_client_for(mallory)
    for path in (
        f"/api/v1/tables/{table_id}/",
        f"/api/v1/tables/{table_id}/moves/",
        f"/api/v1/tables/{table_id}/record/",
        f"/api/v1/tables/{table_id}/talk/",
    ):
        reply = stranger.get(path)
        assert (reply.status_code, reply.json()["code"]) == (404, "not_found")
    missing = stranger.get("/api/v1/tables/999999/")
    assert missing.json() == stranger.get(f"/api/v1/tables/{table_id}/").json()
    assert stranger.get("/api/v1/tables/").json() == {"next": None, "results": []}
    browser = Client()
    browser.force_login(mallory)
    assert browser.get(f"/mesas/{table_id}/").status_code == 404


def test_seven_plus_seven_each_person_sees_both_own_hands_and_nothing_else(
    api_client_for, alice, bob, mallory
):
    """alice holds seats 0 and 2, bob (one link) 1 and 3: after every move each sees the
    tiles of both their hands, and no endpoint or page names a tile of the other pair's,
    a seed, or anything to mallory."""
    first = api_client_for(alice)
    created = first.post(
        "/api/v1/tables/",
        {"rules": "seven_plus_seven", "seats": 4, "target": 150, "others": ["friend"]},
        format="json",
    ).json()
    table_id = created["id"]
    tokens = [invite["token"] for invite in created["invites"]]
    second = api_client_for(bob)
    assert second.post(f"/api/v1/invites/{tokens[0]}/join/").status_code == 200
    clients = {0: first, 2: first, 1: second, 3: second}
    people = [Seat(0, alice, first, (0, 2)), Seat(1, bob, second, (1, 3))]
    stranger = api_client_for(mallory)
    rng = random.Random(77)
    moves = second_hand_moves = 0
    _check_everyone(people, table_id, tokens)
    while moves < 80 and second_hand_moves < SECOND_HAND_MOVES:
        state = table(first, table_id)
        if state["status"] != "playing":
            break
        match = match_from_dict(Table.objects.get(pk=table_id).state)
        for person in people:  # both own hands, in full, and only those
            view = table(clients[person.index], table_id)
            assert [hand["seat"] for hand in view["hands"]] == list(person.indexes)
            for hand in view["hands"]:
                assert sorted(hand["tiles"]) == sorted(
                    str(tile) for tile in match.hand.holdings[hand["seat"]]
                )
        before = state["game"]["hand_number"]
        mover = table(clients[state["turn_seat"]], table_id)
        response = play_one(clients[state["turn_seat"]], mover, rng)
        assert response.status_code == 200, response.json()
        moves += 1
        after = table(first, table_id)
        if after["game"]["hand_number"] != before or after["game"]["turn"] is None:
            _check_shown_after_the_hand(people, table_id, before)
        if after["game"]["hand_number"] >= 1:
            second_hand_moves += 1
        _check_everyone(people, table_id, tokens)
        for path in ("", "moves/", "record/"):
            assert stranger.get(f"/api/v1/tables/{table_id}/{path}").status_code == 404
    assert second_hand_moves > 0 or table(first, table_id)["status"] != "playing"
    browser = Client()
    browser.force_login(mallory)
    assert browser.get(f"/mesas/{table_id}/").status_code == 404


def test_the_replay_and_rematch_answers_show_no_hand_in_play(api_client_for, client, alice, bob):
    # issue 16: the replay exists only once a match is over (every hand then public); a
    # rematch answer is a table whose match has not begun: no tiles, no stock, no seed.
    from tables import services
    from tests.support.api import create_table, join

    created = create_table(api_client_for(alice), 2, ["friend"])
    join(api_client_for(bob), created["invites"][0]["token"])
    client.force_login(alice)
    assert client.get(f"/mesas/{created['id']}/partida/").status_code == 404  # still playing
    services.table_abandon(table_id=created["id"], user=bob)
    asked = api_client_for(alice).post(f"/api/v1/tables/{created['id']}/rematch/")
    assert asked.status_code == 201
    body = asked.json()
    assert body["game"] is None and body["hands"] == []
    assert not re.search(r'"\d-\d"', json.dumps(body))  # no tile named anywhere


def test_no_public_link_ever_shows_a_match_in_play(api_client_for, alice, bob):
    """Even a link row for a running table (none can be made: 409) shows nothing: the
    public page and its record answer 404 while the match is on (R31)."""
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    PublicReplay.objects.create(table_id=table_id, token="t" * 43, created_by=alice)
    for path in ("/partida/" + "t" * 43 + "/", "/partida/" + "t" * 43 + "/registro/"):
        assert Client().get(path).status_code == 404
