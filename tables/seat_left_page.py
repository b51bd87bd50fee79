"""The page a guest's browser goes to after "Dejar el asiento" (the abandon API answers
``{left: true}``: no table view, they sit there no more): it says so on "Mis mesas",
where it lands. Beside ``tables.views``, in the same layer."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tables.models import Seat, Table


@login_required
@require_GET
def seat_left(request: HttpRequest, table_id: int) -> HttpResponse:
    """Home, with "Dejaste tu asiento en la mesa N." for a player no longer seated at the
    waiting table ``table_id`` whom the table page sent here (``Sec-Fetch-Site:
    same-origin``, or a browser that does not say): a link from elsewhere, or typed, goes
    home without it. Still seated there: back to the table."""
    if Seat.objects.filter(table_id=table_id, user=request.user).exists():
        return redirect("tables:table", table_id=table_id)
    sent_by_the_page = request.headers.get("Sec-Fetch-Site", "same-origin") == "same-origin"
    waiting = Table.objects.filter(pk=table_id, status=Table.Status.WAITING).exists()
    if sent_by_the_page and waiting:
        messages.success(request, _("Dejaste tu asiento en la mesa %(id)s.") % {"id": table_id})
    return redirect("tables:home")
