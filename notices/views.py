"""Notice pages: the inbox (``/avisos/``) and the one-click unsubscribe (signed out)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from notices import email, selectors, services
from notices.models import Notification


@login_required
def inbox(request: HttpRequest) -> HttpResponse:
    """My notices, newest first, 30 a page; each links to its table."""
    page = Paginator(selectors.inbox(request.user), 30).get_page(request.GET.get("page"))
    return render(request, "notices/inbox.html", {"page": page})


@csrf_exempt  # the signed token is the credential: mail clients POST without a session
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """``GET``: what the link turns off, with one button. ``POST`` (the button, or a mail
    client's RFC 8058 one-click ``List-Unsubscribe=One-Click``): turn off that kind of
    e-mail for that player, and nothing else. No sign-in needed; a bad token is 404."""
    try:
        user_id, kind = email.read_unsubscribe_token(token)
    except (signing.BadSignature, ValueError, TypeError):
        return render(request, "notices/unsubscribe.html", {"invalid": True}, status=404)
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        return render(request, "notices/unsubscribe.html", {"invalid": True}, status=404)
    label = Notification.Kind(kind).label
    done = request.method == "POST"
    if done:
        services.preference_set(user=user, field=f"email_{kind}", value=False)
    return render(request, "notices/unsubscribe.html", {"kind": label, "done": done})
