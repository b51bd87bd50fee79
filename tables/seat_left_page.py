"""The page a guest's browser goes to after "Dejar el asiento" (the abandon API answers
``{left: true}``: no table view, they sit there no more): it says so on "Mis mesas",
where it lands. Only the person who gave up that seat, in the browser they did it from
(the session the abandon API marked, ``remember_seat_left``), is told; the address is a
404 for anyone else. Below the API and the pages, which both use it."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tables.models import Seat

#: The session key listing the ids of the tables whose seat this session's user gave up.
SEATS_LEFT = "tables_seats_left"
#: How many such table ids a session keeps (the oldest go first).
MOST_REMEMBERED = 20


def remember_seat_left(request: HttpRequest, table_id: int) -> None:
    """Note in ``request``'s session that its user just gave up their seat at the waiting
    table ``table_id`` (``services.table_abandon`` answered so), for ``seat_left``."""
    left = [i for i in request.session.get(SEATS_LEFT, []) if i != table_id]
    request.session[SEATS_LEFT] = [*left, table_id][-MOST_REMEMBERED:]


@require_GET
def seat_left(request: HttpRequest, table_id: int) -> HttpResponse:
    """Home, with "Dejaste tu asiento en la mesa N." once, for the signed-in player whose
    session gave up a seat at table ``table_id`` (``remember_seat_left``) and who does not
    sit there again, when the table page sent them (``Sec-Fetch-Site: same-origin``, or a
    browser that does not say): a link from elsewhere, or typed, goes home without it.
    Anyone else (signed out, another player of the table, a stranger, the same person
    once told or seated there again) gets 404: the table's seats are nobody else's
    business."""
    user = request.user
    left = request.session.get(SEATS_LEFT, []) if user.is_authenticated else []
    if table_id not in left or Seat.objects.filter(table_id=table_id, user=user).exists():
        raise Http404
    if request.headers.get("Sec-Fetch-Site", "same-origin") == "same-origin":
        request.session[SEATS_LEFT] = [i for i in left if i != table_id]
        messages.success(request, _("Dejaste tu asiento en la mesa %(id)s.") % {"id": table_id})
    return redirect("tables:home")
