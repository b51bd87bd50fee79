""" "Abandonar la partida" asks what would really happen (dominoes/leaving.py, R26). It
said "Perderás la partida." at every table, and at 3 seats the result then read "Sin
ganador" when the two others had the same points. Now: at 2 seats the other player wins;
in pairs the other pair wins; at 3 seats the other with more points wins, or with level
points nobody does; where leavers sit out (first_double) the hand goes on without you.
The question's text is read from a stubbed ``window.confirm`` that answers "no": nothing
is abandoned."""

from __future__ import annotations

from tables import services
from tables.models import Table
from tables.seating import player_name
from tests.support.browser import BROWSER_MARKS, signed_in

pytestmark = BROWSER_MARKS


def _asked(page, base: str, table_id: int) -> str:
    page.goto(f"{base}/mesas/{table_id}/")
    page.wait_for_selector("#abandon:not([hidden])")
    page.evaluate("window.confirm = (text) => { window.asked = text; return false; }")
    page.click("#abandon")
    page.wait_for_function("window.asked !== undefined")
    return page.evaluate("window.asked")


def _names(table: Table) -> list[str]:
    """Each seat's name as the page shows it ("Nino", "Nino II")."""
    seats = list(table.seat_set.order_by("index"))
    return [player_name(seat, seats, table.rules) for seat in seats]


def _with_scores(table: Table, scores: list[int]) -> None:
    """The match's points set to ``scores`` (per seat), as if hands had been played."""
    table.refresh_from_db()
    table.state = {**table.state, "scores": scores}
    table.save(update_fields=["state"])
    for seat, score in zip(table.seat_set.order_by("index"), scores, strict=True):
        seat.score = score
        seat.save(update_fields=["score"])


def test_at_two_seats_the_other_player_wins(live_server, new_page, alice):
    table = services.table_create(creator=alice, seats=2, target=50, others=["nino"])
    page = signed_in(new_page, live_server.url, "alice")

    asked = _asked(page, live_server.url, table.pk)

    rival = _names(table)[1]
    assert asked == f"¿Seguro que quieres abandonar? Perderás la partida y la ganará {rival}."
    assert Table.objects.get(pk=table.pk).status == "playing"


def test_at_three_seats_level_points_mean_no_winner(live_server, new_page, alice):
    table = services.table_create(creator=alice, seats=3, target=100, others=["nino", "nino"])
    _with_scores(table, [0, 0, 0])
    page = signed_in(new_page, live_server.url, "alice")

    asked = _asked(page, live_server.url, table.pk)

    one, two = _names(table)[1:]
    assert asked == (
        f"¿Seguro que quieres abandonar? Perderás la partida y, como {one} y {two} tienen "
        "los mismos puntos, terminará sin ganador."
    )


def test_at_three_seats_the_other_with_more_points_wins(live_server, new_page, alice):
    table = services.table_create(creator=alice, seats=3, target=100, others=["nino", "nino"])
    _with_scores(table, [30, 4, 12])
    page = signed_in(new_page, live_server.url, "alice")

    asked = _asked(page, live_server.url, table.pk)

    _me, fewer, more = _names(table)
    assert asked == (
        f"¿Seguro que quieres abandonar? Perderás la partida y la ganará {more}, que tiene "
        f"más puntos que {fewer}."
    )


def test_in_pairs_the_other_pair_wins(live_server, new_page, alice):
    table = services.table_create(
        creator=alice, seats=4, target=100, others=["nino", "quelonia", "garabato"]
    )
    page = signed_in(new_page, live_server.url, "alice")

    asked = _asked(page, live_server.url, table.pk)

    names = _names(table)
    assert asked == (
        "¿Seguro que quieres abandonar? Tu pareja y tú perderán la partida y la ganará la "
        f"pareja de {names[1]} y {names[3]}."
    )


def test_where_leavers_sit_out_the_hand_goes_on(live_server, new_page, alice):
    table = services.table_create(
        creator=alice, seats=3, others=["nino", "quelonia"], rules="first_double"
    )
    page = signed_in(new_page, live_server.url, "alice")

    asked = _asked(page, live_server.url, table.pk)

    one, two = _names(table)[1:]
    assert asked == (
        "¿Seguro que quieres abandonar? Perderás la partida: la mano sigue sin ti entre "
        f"{one} y {two} y tus fichas ya no cuentan."
    )


def test_in_english(live_server, new_page, alice):
    table = services.table_create(creator=alice, seats=3, target=100, others=["nino", "nino"])
    _with_scores(table, [0, 0, 0])
    page = signed_in(new_page, live_server.url, "alice")
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])

    asked = _asked(page, live_server.url, table.pk)

    one, two = _names(table)[1:]
    assert asked == (
        f"Are you sure you want to abandon? You will lose the match and, as {one} and {two} "
        "have the same points, it will end with no winner."
    )
