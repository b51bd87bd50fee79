"""The API proven by a generated client: ``openapi-python-client`` builds a Python client
from the schema the running server serves (uvicorn, as production runs it), into a
temporary folder; the test imports it and, only through it, signs up alice and bob,
creates a table, invites bob, plays a whole 2-seat match and a 4-seat match with bots,
with a refused move, a stale version, an idempotent retry, a long poll and a rematch.

Every answer is checked three ways: the generated client parses it (a status the
schema does not declare raises, a required key missing fails), schemathesis validates it
against its operation's schema (types, nullability, required keys), and no parsed object
holds a key the schema does not declare (``undeclared``).
"""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from tests.support.generated_client import (
    DOUBLE_SIX,
    api_error,
    changed,
    create,
    join,
    parsed,
    play,
    play_out,
    read,
    sign_up,
    undeclared,
)

pytest.importorskip("schemathesis")

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def _seated_friends(generated):
    """alice signs up, creates a 2-seat table for a friend and renews its link (the old one
    is then a typed 404); bob signs up and joins: ``(alice, bob, table id)``."""
    models = generated.models
    alice, bob = sign_up(generated, "alice"), sign_up(generated, "bob")
    table = create(generated, alice, 2, ["friend"])
    assert table.status == models.StatusEnum.WAITING and table.game is None
    waiting = generated.api("tables.tables_list").sync_detailed(client=alice)
    assert [row.status for row in parsed(waiting, models.TablePage).results] == [table.status]
    (old,) = table.invites
    renewed = generated.api("tables.tables_invites_renew_create").sync_detailed(
        table.id, old.seat, client=alice
    )
    (invite,) = parsed(renewed, models.Table).invites
    assert invite.token != old.token
    dead = generated.api("invites.invites_retrieve").sync_detailed(old.token, client=bob)
    api_error(generated, dead, 404, "invite_not_found")
    joined = join(generated, bob, invite.token)
    assert joined.status == models.StatusEnum.PLAYING
    again = generated.api("invites.invites_retrieve").sync_detailed(invite.token, client=bob)
    assert parsed(again, models.InvitePreview).joined is True
    assert joined.game.tiles and len(joined.game.tile_counts) == 2
    return alice, bob, table.id


def _rematch_declined(generated, alice, bob, table_id: int) -> None:
    """alice asks for the finished table's rematch (201, then 409 ``rematch_exists`` for
    bob with the rematch's id); bob sees the offer and declines it."""
    models = generated.models
    rematch_create = generated.api("tables.tables_rematch_create")
    rematch = parsed(rematch_create.sync_detailed(table_id, client=alice), models.Table, 201)
    assert rematch.rematch_of == table_id
    again = api_error(
        generated, rematch_create.sync_detailed(table_id, client=bob), 409, "rematch_exists"
    )
    assert again.table == rematch.id
    offered = read(generated, bob, table_id).rematch
    assert isinstance(offered, models.Rematch) and offered.id == rematch.id
    declined = generated.api("tables.tables_rematch_decline_create").sync_detailed(
        rematch.id, client=bob
    )
    assert parsed(declined, models.Table).outcome == "declined"


def test_two_people_play_a_whole_match_through_the_generated_client(generated):
    models = generated.models
    anonymous = generated.api("tables.tables_list").sync_detailed(client=generated.client())
    api_error(generated, anonymous, 401, "not_authenticated")
    alice, bob, table_id = _seated_friends(generated)
    checked: set[str] = set()

    def on_turn(name: str, table) -> bool:
        client = {"alice": alice, "bob": bob}[name]
        other = bob if name == "alice" else alice  # not to move now
        if "refused" not in checked:
            checked.add("refused")
            mine = set(table.game.tiles) | {f"{a}-{b}" for a, b in table.game.line}
            elsewhere = next(tile for tile in DOUBLE_SIX if tile not in mine)
            refused = play(generated, client, table, tile=elsewhere)
            error = api_error(generated, refused, 400, "tile_not_in_hand")
            assert error.rule and error.reason
            return False
        if "stale" not in checked and table.version > 0:
            checked.add("stale")
            stale = play(generated, client, table, version=table.version - 1)
            error = api_error(generated, stale, 409, "stale_version")
            assert error.version == table.version
            return False
        if "retry" not in checked:
            checked.add("retry")
            key = str(uuid.uuid4())
            first = parsed(play(generated, client, table, key=key), models.Table)
            again = parsed(play(generated, client, table, key=key), models.Table)
            assert again.to_dict() == first.to_dict()
            assert read(generated, client, table.id).version == first.version  # played once
            reused = play(generated, client, table, key=key, version=table.version + 1)
            api_error(generated, reused, 422, "idempotency_key_reused")
            return True
        if "long poll" not in checked:
            checked.add("long poll")
            long_poll(generated, client, other, table)
            return True
        return False

    views = play_out(generated, {"alice": alice, "bob": bob}, table_id, on_turn)
    assert checked == {"refused", "stale", "retry", "long poll"}
    final = views["alice"]
    assert final.status == models.StatusEnum.FINISHED
    assert final.game.match_over and final.game.winners
    assert max(final.game.scores) >= 50
    assert final.rematch is None and final.rematch_possible
    _rematch_declined(generated, alice, bob, table_id)
    assert generated.failures == []


def long_poll(generated, mover, waiter, table) -> None:
    """The person not to move waits (``wait=20``) while ``mover`` plays: the wait answers
    the new version once it is made. Then a wait on a table nobody moves is a 304."""
    retrieve = generated.api("tables.tables_retrieve")
    answers = []

    def wait() -> None:
        started = time.monotonic()
        answer = retrieve.sync_detailed(
            table.id, client=waiter, since_version=table.version, wait=20
        )
        answers.append((answer, time.monotonic() - started))

    thread = threading.Thread(target=wait)
    thread.start()
    time.sleep(1)
    assert thread.is_alive(), "the long poll answered before anything moved"
    moved = parsed(play(generated, mover, table), generated.models.Table)
    thread.join(timeout=30)
    ((answer, seconds),) = answers
    woken = parsed(answer, generated.models.Table)
    assert woken.version == moved.version > table.version
    assert seconds < 15

    started = time.monotonic()
    unchanged = retrieve.sync_detailed(table.id, client=mover, since_version=moved.version, wait=1)
    assert unchanged.status_code == 304
    assert time.monotonic() - started >= 0.9


def test_a_four_seat_match_with_bots_through_the_generated_client(generated):
    models = generated.models
    alice, bob = sign_up(generated, "alice"), sign_up(generated, "bob")
    table = create(generated, alice, 4, ["garabato", "friend", "nino"])
    (invite,) = table.invites
    assert invite.seat == 2 and invite.partner
    join(generated, bob, invite.token)

    views = play_out(generated, {"alice": alice, "bob": bob}, table.id)
    final = views["bob"]
    assert final.status == models.StatusEnum.FINISHED and final.your_seat == 2
    assert [player.bot for player in final.players] == [None, "garabato", None, "nino"]
    assert isinstance(final.game.last_hand, models.HandSummary)
    assert isinstance(final.game.last_hand.explanation, models.HandReason)
    assert final.game.scores[0] == final.game.scores[2]  # partners carry one score

    log = generated.api("tables.tables_moves_list").sync_detailed(table.id, client=alice)
    assert log.status_code == 200 and all(isinstance(m, models.MoveLog) for m in log.parsed)
    assert not any(undeclared(move) for move in log.parsed)
    record = generated.api("tables.tables_record_retrieve").sync_detailed(table.id, client=bob)
    assert record.status_code == 200
    mine = generated.api("tables.tables_list").sync_detailed(client=alice)
    assert [row.id for row in parsed(mine, models.TablePage).results] == [table.id]
    after_the_match(generated, alice, table.id)
    assert generated.failures == []


def after_the_match(generated, client, table_id: int) -> None:
    """The rest of a player's day through the client: the finished table's analysis and
    public link, its talk, the profile, the notices and their preferences, the e-mail,
    the phones; leaving a finished table is refused."""
    models, api = generated.models, generated.api
    asked = api("tables.tables_analysis_create").sync_detailed(table_id, client=client)
    assert parsed(asked, models.Analysis, asked.status_code).status in (
        models.AnalysisStatusEnum.QUEUED,
        models.AnalysisStatusEnum.DONE,
    )
    parsed(
        api("tables.tables_analysis_retrieve").sync_detailed(table_id, client=client),
        models.Analysis,
    )
    link = api("tables.tables_public_replay_create").sync_detailed(table_id, client=client)
    assert parsed(link, models.PublicReplay, 201).path.startswith("/partida/")
    gone = api("tables.tables_public_replay_destroy").sync_detailed(table_id, client=client)
    assert gone.status_code == 204
    said = api("tables.tables_talk_create").sync_detailed(
        table_id, client=client, body=models.TalkPostRequest(text="¡Buena partida!")
    )
    parsed(said, models.Talk, said.status_code)
    parsed(api("tables.tables_talk_retrieve").sync_detailed(table_id, client=client), models.Talk)
    parsed(api("me.me_retrieve").sync_detailed(client=client), models.Me)
    parsed(api("accounts.accounts_email_retrieve").sync_detailed(client=client), models.EmailStatus)
    prefs = api("notifications.notifications_preferences_retrieve").sync_detailed(client=client)
    parsed(prefs, models.NoticePreferences)
    inbox = api("notifications.notifications_list").sync_detailed(client=client, page_size=5)
    assert parsed(inbox, models.NotificationPage).results
    marked = api("notifications.notifications_read_create").sync_detailed(
        client=client, body=models.ReadInputRequest(table=table_id)
    )
    assert marked.status_code == 200
    assert api("talk.talk_mutes_list").sync_detailed(client=client).status_code == 200
    assert api("push.push_devices_list").sync_detailed(client=client).status_code == 200
    left = api("tables.tables_abandon_create").sync_detailed(table_id, client=client)
    assert left.status_code == 409 and isinstance(left.parsed, models.ApiError), left.content


PROFILE_TABLES = [
    ("first_double", 2, ["garabato"]),  # game.choices: draw or pass
    ("cuban", 4, ["garabato", "nino", "garabato"]),  # double-nine, game.lead_seats
    ("seven_plus_seven", 4, ["garabato"]),  # two hands of one person
    ("three_player", 3, ["garabato", "nino"]),
]


def test_each_profiles_first_hand_parses_through_the_generated_client(generated):
    """The keys only some profiles send (choices, lead_seats, zapato, two hands) parse as
    the schema declares them; a guest who leaves a waiting table gets ``SeatLeft``."""
    models, api = generated.models, generated.api
    alice, bob = sign_up(generated, "alice"), sign_up(generated, "bob")
    wrong = models.TableCreateRequest(
        seats=models.SeatsEnum(2),
        others=[models.OthersEnum("nino")],
        rules=models.RulesEnum("first_double"),
        target=50,
    )
    refused = api("tables.tables_create").sync_detailed(client=alice, body=wrong)
    assert api_error(generated, refused, 400, "invalid_table").rule == "R25"
    for rules, seats, others in PROFILE_TABLES:
        body = models.TableCreateRequest(
            seats=models.SeatsEnum(seats),
            others=[models.OthersEnum(other) for other in others],
            rules=models.RulesEnum(rules),
        )
        table = parsed(
            api("tables.tables_create").sync_detailed(client=alice, body=body), models.Table, 201
        )
        for _turn in range(200):
            if table.game.last_hand is not None or table.status != models.StatusEnum.PLAYING:
                break
            if not table.your_turn:
                table = changed(generated, alice, table)
                continue
            hand = next(hand for hand in table.hands if hand.to_play)
            if hand.legal_moves:
                answer = play(generated, alice, table)
            else:
                choice = models.MoveKindEnum(table.game.choices[0].value)
                move = models.MovePlayRequest(version=table.version, action=choice, seat=hand.seat)
                answer = api("tables.tables_moves_create").sync_detailed(
                    table.id, client=alice, body=move
                )
            table = parsed(answer, models.Table)
        assert table.game.last_hand is not None, rules
        assert len(table.hands) == (2 if rules == "seven_plus_seven" else 1)

    waiting = create(generated, alice, 3, ["friend", "friend"])
    join(generated, bob, waiting.invites[0].token)
    left = api("tables.tables_abandon_create").sync_detailed(waiting.id, client=bob)
    assert parsed(left, models.SeatLeft).left is True
    assert generated.failures == []
