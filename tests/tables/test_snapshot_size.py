"""The snapshot (``Table.state``) does not grow with the match: it holds the current hand,
the one before it and the scores; finished hands live in their Hand and Move rows, and
the record is built from them (issue 19). Tables saved before that, with every hand in
the snapshot, still load and play, and migration 0012 trims them."""

import importlib
import random

import pytest
from django.apps import apps

from dominoes import match_to_dict, match_to_record, view_for
from tables import selectors, services
from tables.models import Hand, Table
from tables.services.transitions import SNAPSHOT_HANDS
from tests.support.database import fresh, human_table
from tests.support.log import assert_replays

pytestmark = pytest.mark.django_db

trim = importlib.import_module("tables.migrations.0012_hand_departures_and_short_snapshot")


def _play_until_hand(table: Table, users: dict, number: int, rng: random.Random) -> Table:
    """Random legal moves through the service until hand ``number`` is being played."""
    for _ in range(2000):
        row = fresh(table.pk)
        match = services.match_of(row)
        if match.hand.number >= number or row.status != Table.Status.PLAYING:
            return row
        play = rng.choice(view_for(match, row.turn_seat).legal_moves)
        services.move_play(
            table_id=row.pk,
            user=users[row.turn_seat],
            tile=str(play.tile),
            end=play.end,
            version=row.version,
        )
    raise AssertionError("the match did not reach that hand")


def _long_match(alice, bob, rng: random.Random, hands: int = 3) -> Table:
    for _ in range(10):  # a match to 100 can end before its fourth hand: take another
        row = _play_until_hand(human_table(alice, bob), {0: alice, 1: bob}, hands, rng)
        if row.status == Table.Status.PLAYING:
            return row
    raise AssertionError("no match lasted that many hands")


def test_the_snapshot_keeps_two_hands_and_the_rows_keep_the_rest(alice, bob):
    row = _long_match(alice, bob, random.Random(19))
    numbers = [hand["number"] for hand in row.state["hands"]]
    assert numbers == [row.state["hands"][-1]["number"] - 1, row.state["hands"][-1]["number"]]
    assert len(numbers) == SNAPSHOT_HANDS and numbers[-1] >= 3
    assert Hand.objects.filter(table=row).count() == numbers[-1] + 1
    assert_replays(row.pk)  # the log has every hand; the snapshot's two are its last two
    rebuilt = selectors.match_from_log(row)
    assert list(rebuilt.scores) == row.state["scores"]
    record = selectors.table_record(row)
    assert record == match_to_record(rebuilt, finished_hands_only=True)
    assert len(record["hands"]) == numbers[-1]


def test_a_table_saved_with_every_hand_still_loads_and_plays(alice, bob, api_client_for):
    row = _long_match(alice, bob, random.Random(7))
    full = match_to_dict(selectors.match_from_log(row))  # the snapshot as it used to be
    Table.objects.filter(pk=row.pk).update(state=full)
    assert len(fresh(row.pk).state["hands"]) > SNAPSHOT_HANDS
    client = api_client_for(alice)
    seen = client.get(f"/api/v1/tables/{row.pk}/").json()
    assert seen["game"]["hand_number"] == full["hands"][-1]["number"]
    assert seen["game"]["last_hand"]["number"] == full["hands"][-2]["number"]
    assert client.get(f"/api/v1/tables/{row.pk}/record/").json()["hands"]
    played = _play_until_hand(
        fresh(row.pk), {0: alice, 1: bob}, seen["game"]["hand_number"] + 1, random.Random(1)
    )
    if played.status == Table.Status.PLAYING:
        assert len(played.state["hands"]) == SNAPSHOT_HANDS  # the next write trimmed it
        assert_replays(played.pk)


def test_migration_0012_trims_old_snapshots_and_keeps_departures(alice, bob):
    row = _long_match(alice, bob, random.Random(3))
    full = match_to_dict(selectors.match_from_log(row))
    first = full["hands"][0]
    full["hands"][0] = {**first, "departures": [[1, len(first["actions"])]]}
    Table.objects.filter(pk=row.pk).update(state=full)
    trim.trim_snapshots(apps, None)
    trimmed = fresh(row.pk).state
    assert trimmed["hands"] == full["hands"][-SNAPSHOT_HANDS:]
    assert {key: trimmed[key] for key in trimmed if key != "hands"} == {
        key: full[key] for key in full if key != "hands"
    }
    assert Hand.objects.get(table=row, number=0).departures == [[1, len(first["actions"])]]
