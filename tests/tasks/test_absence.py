"""Absence (R27): a human seat whose turn began more than 48 hours ago loses by
abandonment (R26), whether the beat sweep or a late move notices first; a read shows the
turn ``overdue`` and applies nothing (test_reads_write_nothing).

The clock is frozen at T0 and moved by hand (time-machine), so every deadline is exact.
"""

import random
from datetime import timedelta

import pytest

from tables import services, tasks
from tables.models import Seat, Table
from tests.support.api import create_table, play_one, play_turn_of, seated_clients, table
from tests.support.clock import T0
from tests.support.database import fresh, human_moves_until_bot_turn, move_count

pytestmark = pytest.mark.django_db

H48 = timedelta(hours=48)
MINUTE = timedelta(minutes=1)


def _assert_forfeited(table_id: int, *, absent: int, winners: list[int], at) -> Table:
    row = fresh(table_id)
    assert row.status == Table.Status.FINISHED
    assert row.outcome == Table.Outcome.ABSENT
    assert row.winners == winners
    assert row.finished_at == at
    assert row.deadline is None and row.turn_seat is None and row.turn_started_at is None
    match = services.match_of(row)
    assert match.abandoned_by == absent
    assert match.winners == tuple(winners)
    return row


def test_it_keeps_a_turn_playable_at_47h59m_and_forfeits_it_at_48h01m(
    clock, api_client_for, alice, bob
):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    first = fresh(table_id)
    assert first.status == Table.Status.PLAYING
    assert first.turn_started_at == T0
    assert first.deadline == T0 + H48

    # 47 h 59 min into the turn: the sweep finds nothing, the player may still play.
    clock.move_to(T0 + H48 - MINUTE)
    assert tasks.sweep_absences() == 0
    assert fresh(table_id).status == Table.Status.PLAYING
    played = play_turn_of(clients, table_id, random.Random(1))
    assert played["status"] == "playing"
    second = fresh(table_id)
    assert second.version > first.version
    turn_began = T0 + H48 - MINUTE
    assert second.turn_started_at == turn_began
    assert second.deadline == turn_began + H48

    # Exactly 48 h into the next turn: not "more than 48 hours" yet.
    clock.move_to(turn_began + H48)
    assert tasks.sweep_absences() == 0
    assert fresh(table_id).status == Table.Status.PLAYING

    # 48 h 01 min: the sweep forfeits the turn; the other player wins (2 seats).
    late = turn_began + H48 + MINUTE
    clock.move_to(late)
    absent = second.turn_seat
    assert tasks.sweep_absences() == 1
    row = _assert_forfeited(table_id, absent=absent, winners=[1 - absent], at=late)
    assert row.version == second.version + 1
    assert tasks.sweep_absences() == 0  # nothing left, nothing done twice
    assert fresh(table_id).version == row.version

    # The absent player's late move changes nothing.
    moves_before = move_count(table_id)
    view = table(clients[absent], table_id)
    assert view["status"] == "finished" and view["outcome"] == "absent"
    response = clients[absent].post(
        f"/api/v1/tables/{table_id}/moves/",
        {"tile": "6-6", "end": None, "version": second.version},
        format="json",
    )
    assert response.status_code == 409, response.json()
    assert fresh(table_id).version == row.version
    assert move_count(table_id) == moves_before


def test_it_refuses_a_late_move_with_turn_expired_when_the_move_comes_first(
    clock, api_client_for, alice, bob
):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    before = fresh(table_id)
    absent = before.turn_seat
    view = table(clients[absent], table_id)  # what the player saw in time
    moves_before = move_count(table_id)

    clock.move_to(T0 + H48 + MINUTE)
    response = play_one(clients[absent], view, random.Random(2))
    assert response.status_code == 409, response.json()
    body = response.json()
    assert body["code"] == "turn_expired"
    assert body["rule"] == "R27"
    assert body["detail"].startswith("Se acabó tu plazo de 2 días para jugar")  # in days
    # The refusal committed the forfeit (no sweep ran): the move itself was not played.
    _assert_forfeited(table_id, absent=absent, winners=[1 - absent], at=T0 + H48 + MINUTE)
    assert move_count(table_id) == moves_before
    assert tasks.sweep_absences() == 0


def test_it_refuses_a_late_move_with_turn_expired_after_the_sweep(
    clock, api_client_for, alice, bob
):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    absent = fresh(table_id).turn_seat
    view = table(clients[absent], table_id)
    clock.move_to(T0 + H48 + MINUTE)
    assert tasks.sweep_absences() == 1
    response = play_one(clients[absent], view, random.Random(3))
    assert response.status_code == 409
    assert response.json()["code"] == "turn_expired"


def test_it_shows_an_overdue_turn_on_a_read_and_leaves_the_forfeit_to_the_sweep(
    clock, api_client_for, alice, bob
):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    absent = fresh(table_id).turn_seat
    other = 1 - absent

    clock.move_to(T0 + H48 + MINUTE)
    view = table(clients[other], table_id)
    assert (view["status"], view["overdue"], view["your_turn"]) == ("playing", True, False)
    assert fresh(table_id).status == Table.Status.PLAYING  # the read applied nothing
    clock.move_to(T0 + H48 + 2 * MINUTE)
    assert tasks.sweep_absences() == 1
    view = table(clients[other], table_id)
    assert view["status"] == "finished"
    assert view["outcome"] == "absent"
    assert view["winners"] == [other]
    assert view["your_turn"] is False
    assert view["deadline"] is None
    _assert_forfeited(table_id, absent=absent, winners=[other], at=T0 + H48 + 2 * MINUTE)
    assert tasks.sweep_absences() == 0


def test_it_lets_the_list_of_tables_show_the_overdue_turn_then_the_forfeit(
    clock, api_client_for, alice, bob
):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    clock.move_to(T0 + H48 - MINUTE)
    assert table(clients[0], table_id)["overdue"] is False
    clock.move_to(T0 + H48 + MINUTE)
    listing = clients[1].get("/api/v1/tables/").json()["results"]
    assert [(row["id"], row["status"], row["overdue"]) for row in listing] == [
        (table_id, "playing", True)
    ]
    assert tasks.sweep_absences() == 1
    listing = clients[1].get("/api/v1/tables/").json()["results"]
    assert [(row["id"], row["status"], row["outcome"], row["overdue"]) for row in listing] == [
        (table_id, "finished", "absent", False)
    ]


def test_it_never_times_out_a_bot(clock, api_client_for, alice, run_tasks):
    # The bot's task is never run here (on_commit callbacks are dropped): its turn waits.
    created = create_table(api_client_for(alice), 2, ["garabato"])
    row = human_moves_until_bot_turn(created["id"], alice, random.Random(4))
    assert row.deadline is None
    clock.move_to(T0 + H48 * 3)
    assert tasks.sweep_absences() == 0
    assert fresh(created["id"]).version == row.version  # the sweep left it alone
    # Reading the table neither forfeits nor resumes it; the stuck-bot sweep resumes it
    # (its event commits with the sweep's claim, and the bot's subscriber queues the turn).
    assert table(api_client_for(alice), created["id"])["status"] == "playing"
    assert fresh(created["id"]).version == row.version
    with run_tasks():
        assert tasks.sweep_stuck_bots() == 1
    assert fresh(created["id"]).outcome == ""
    assert fresh(created["id"]).version > row.version


def test_it_applies_absence_before_an_abandon_once_the_deadline_passed(
    clock, api_client_for, alice, bob
):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    absent = fresh(table_id).turn_seat
    other = 1 - absent
    clock.move_to(T0 + H48 + MINUTE)
    # The player who did nothing wrong leaves after the deadline: the absence came first.
    response = clients[other].post(f"/api/v1/tables/{table_id}/abandon/")
    assert response.status_code == 200, response.json()
    assert response.json()["outcome"] == "absent"
    _assert_forfeited(table_id, absent=absent, winners=[other], at=T0 + H48 + MINUTE)


def test_it_gives_abandon_and_absence_the_same_two_seat_outcome(clock, api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    response = clients[0].post(f"/api/v1/tables/{table_id}/abandon/")
    assert response.status_code == 200, response.json()
    row = fresh(table_id)
    assert (row.status, row.outcome, row.winners) == ("finished", "abandoned", [1])
    assert services.match_of(row).abandoned_by == 0


# --- three seats: the remaining player with more points wins, level means no winner ------


def _three_seat_table_where(api_client_for, users, condition, rng):
    """Play random legal moves until ``condition(turn_seat, scores)`` holds after the
    first hand is over; return the table id, the clients and that moment's row."""
    table_id, clients = seated_clients(api_client_for, users)
    for _ in range(400):
        row = fresh(table_id)
        assert row.status == Table.Status.PLAYING
        match = services.match_of(row)
        if len(match.hands) > 1 and condition(row.turn_seat, list(match.scores)):
            return table_id, clients, row
        play_turn_of(clients, table_id, rng)
    raise AssertionError("the condition never held")


def _others(seat: int) -> list[int]:
    return [s for s in range(3) if s != seat]


def test_it_gives_a_three_seat_absence_to_the_remaining_player_with_more_points(
    clock, api_client_for, alice, bob, carol
):
    def unequal(turn, scores):
        a, b = (scores[s] for s in _others(turn))
        return a != b

    table_id, _clients, row = _three_seat_table_where(
        api_client_for, [alice, bob, carol], unequal, random.Random(5)
    )
    absent = row.turn_seat
    scores = [seat.score for seat in Seat.objects.filter(table_id=table_id).order_by("index")]
    assert scores == list(services.match_of(row).scores)
    expected = max(_others(absent), key=lambda s: scores[s])

    clock.move_to(row.turn_started_at + H48 + MINUTE)
    assert tasks.sweep_absences() == 1
    _assert_forfeited(table_id, absent=absent, winners=[expected], at=T0 + H48 + MINUTE)
    # The scoreboard is what it was: absence ends the match, it scores nothing.
    after = [seat.score for seat in Seat.objects.filter(table_id=table_id).order_by("index")]
    assert after == scores


def test_it_ends_a_three_seat_absence_with_no_winner_when_the_others_are_level(
    clock, api_client_for, alice, bob, carol
):
    # The first turn of the match: everyone is at 0.
    table_id, _clients = seated_clients(api_client_for, [alice, bob, carol])
    absent = fresh(table_id).turn_seat
    clock.move_to(T0 + H48 + MINUTE)
    assert tasks.sweep_absences() == 1
    row = _assert_forfeited(table_id, absent=absent, winners=[], at=T0 + H48 + MINUTE)
    assert list(services.match_of(row).scores) == [0, 0, 0]


def test_it_ends_with_no_winner_even_when_the_absent_player_led_the_scoreboard(
    clock, api_client_for, alice, bob, carol
):
    def absent_leads_others_level(turn, scores):
        a, b = (scores[s] for s in _others(turn))
        return scores[turn] > 0 and a == b

    table_id, _clients, row = _three_seat_table_where(
        api_client_for, [alice, bob, carol], absent_leads_others_level, random.Random(6)
    )
    absent = row.turn_seat
    clock.move_to(row.turn_started_at + H48 + MINUTE)
    assert tasks.sweep_absences() == 1
    _assert_forfeited(table_id, absent=absent, winners=[], at=T0 + H48 + MINUTE)


def test_it_makes_the_absent_players_team_lose_with_four_seats(
    clock, api_client_for, alice, bob, carol, dave
):
    table_id, clients = seated_clients(api_client_for, [alice, bob, carol, dave])
    rng = random.Random(7)
    for _ in range(3):  # a few turns in, so that not only the leader can be absent
        play_turn_of(clients, table_id, rng)
    row = fresh(table_id)
    absent = row.turn_seat
    seats = {seat.index: seat.team for seat in Seat.objects.filter(table_id=table_id)}
    winners = sorted(s for s, team in seats.items() if team != seats[absent])
    assert len(winners) == 2 and absent not in winners

    clock.move_to(T0 + H48 + MINUTE)
    assert tasks.sweep_absences() == 1
    _assert_forfeited(table_id, absent=absent, winners=winners, at=T0 + H48 + MINUTE)
    # Every seat, the absent player's partner included, sees the same result.
    for client in clients.values():
        view = table(client, table_id)
        assert view["winners"] == winners
        assert view["outcome"] == "absent"


def test_it_resends_a_lost_bot_turn(api_client_for, alice, run_tasks):
    """A bot turn whose task was lost (broker down) is sent again by the stuck-bot sweep."""
    from datetime import timedelta

    from django.utils import timezone

    from tables import services, tasks
    from tables.models import Table

    for _ in range(50):  # the 6-6 decides who leads (R7): wait for a deal the bot leads
        table = services.table_create(creator=alice, seats=2, target=50, others=["garabato"])
        table.refresh_from_db()
        if table.turn_seat == 1:
            break
    assert table.turn_seat == 1
    Table.objects.filter(pk=table.pk).update(turn_started_at=timezone.now() - timedelta(minutes=10))
    with run_tasks():  # the sweep records the lost turn; its subscriber queues it on commit
        assert tasks.sweep_stuck_bots() == 1
    table.refresh_from_db()
    assert table.turn_seat == 0 or table.status != "playing"
