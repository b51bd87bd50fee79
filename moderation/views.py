"""Moderation's browser pages: hearing a muted player again from the settings page's
"Jugadores silenciados" section (``{% muted_players %}``), a plain form that works
without the page's scripts. The talk panel undoes a mute through the API instead."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.section_messages import in_section
from moderation import services
from tables.errors import TableError


@login_required
@require_POST
def mute_undo(request: HttpRequest, mute_id: int) -> HttpResponse:
    """``POST``: undo the signed-in player's mute ``mute_id`` (``services.talk_unmute``)
    and go back to the settings page's section; anyone else's mute, or none, is a 404."""
    try:
        name = services.talk_unmute(user=request.user, mute_id=mute_id)
    except TableError:
        raise Http404 from None
    if name:
        said = _("Vuelves a oír a %(name)s.") % {"name": name}
    else:
        said = _("Vuelves a oír la charla de esa mesa.")
    messages.success(request, said, extra_tags=in_section("silenciados"))
    return redirect(reverse("accounts:settings") + "#silenciados")
