"""A draw or a pass asked for by a player (``first_double``: drawing is a choice) is judged
by the engine: the refusal is the engine's code and rule (RECORD.md), never one the
service derives on its own."""

from __future__ import annotations

import pytest

from dominoes import IllegalMove, apply
from dominoes.state import Draw, Pass
from tables import services
from tables.models import Table


def _first_double_tables(alice, capture, count: int = 12):
    """``count`` new first_double tables (alice against Garabato), the bot's turn never
    played (its task is captured, not run)."""
    for _ in range(count):
        with capture(execute=False):
            yield services.table_create(
                creator=alice, seats=2, others=["garabato"], rules="first_double"
            )


def _engine_refusal(table: Table, action) -> IllegalMove:
    with pytest.raises(IllegalMove) as refused:
        apply(services.match_of(table), action)
    return refused.value


@pytest.mark.parametrize("choice", ["draw", "pass"])
def test_a_refused_choice_carries_the_engines_code_and_rule(
    alice, django_capture_on_commit_callbacks, choice
):
    seen = set()
    for table in _first_double_tables(alice, django_capture_on_commit_callbacks):
        table.refresh_from_db()
        match = services.match_of(table)
        hand = match.hand
        action = Draw(0, hand.stock[hand.drawn]) if choice == "draw" else Pass(0)
        expected = _engine_refusal(table, action)  # at the lead every tile "fits"
        with pytest.raises(services.TableError) as refused:
            services.move_play(table_id=table.pk, user=alice, version=table.version, action=choice)
        error = refused.value
        assert (error.code, error.rule) == (expected.code, expected.rule)
        assert error.extra["reason"] == expected.message
        assert error.status_code == (409 if expected.code == "not_your_turn" else 400)
        assert Table.objects.get(pk=table.pk).version == table.version  # nothing changed
        seen.add(expected.code)
    # Alice leads some deals (she holds a play) and Garabato others (not her turn).
    assert seen == {f"cannot_{choice}_with_play", "not_your_turn"}, seen
