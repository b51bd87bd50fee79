"""Notice pages: the inbox (``/avisos/``), the preferences (the settings page's section
posts here), the one-click unsubscribe (signed out), and the Progressive Web App's
manifest and service worker (served from the site's root, so the worker's scope is the
whole site)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.core import signing
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from accounts.time_zones import time_zone_of
from core.section_messages import in_section
from notices import email, selectors, services
from notices.forms import NoticePreferencesForm
from notices.models import Notification


@login_required
def inbox(request: HttpRequest) -> HttpResponse:
    """My notices, newest first, 30 a page, their times in my time zone; each links to
    its table. A notice of no table (a moderator's warning or suspension) is read once
    this page has shown it."""
    page = Paginator(selectors.inbox(request.user), 30).get_page(request.GET.get("page"))
    zone = time_zone_of(request.user)
    response = render(request, "notices/inbox.html", {"page": page, "time_zone": zone})
    shown = [n.pk for n in page.object_list if n.table_id is None and n.read_at is None]
    if shown:
        services.notifications_read(user=request.user, ids=shown)
    return response


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    """``POST``: save the notice preferences, back to the settings page's section; a bad
    value shows the form again (400). ``GET``: the form alone."""
    form = NoticePreferencesForm(
        request.POST or None,
        instance=services.preferences_for(request.user),
        push=bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY),
    )
    if request.method == "POST" and form.is_valid():
        services.preferences_update(user=request.user, changes=form.preference_changes())
        services.email_switch(user=request.user, on=form.cleaned_data["email_notifications"])
        messages.success(request, _("Avisos guardados."), extra_tags=in_section("avisos"))
        return redirect(reverse("accounts:settings") + "#avisos")
    status = 400 if request.method == "POST" else 200
    context = {"form": form, "push_key": _push_key()}
    return render(request, "notices/preferences.html", context, status=status)


def _push_key() -> str:
    """The VAPID public key browsers subscribe with; ``""`` when pushes are off."""
    return settings.VAPID_PUBLIC_KEY if settings.VAPID_PRIVATE_KEY else ""


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
        services.preferences_update(user=user, changes={f"email_{kind}": False})
    return render(request, "notices/unsubscribe.html", {"kind": label, "done": done})


@cache_control(max_age=3600, public=True)
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: installable on Android and iOS home screens. In the
    request's language (the language cookie, else ``Accept-Language``, else Spanish),
    which its ``lang`` names; cached apart per language (``Vary``)."""
    body = {
        "name": "Dominó",
        "short_name": "Dominó",
        "description": _("Dominó por correspondencia: juega tu turno cuando quieras."),
        "lang": translation.get_language(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#fbfaf7",
        "theme_color": "#0b5a3a",
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("icons/icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    response = JsonResponse(body, content_type="application/manifest+json")
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: the service worker (static/js/sw.js), from the root so that it may
    control every page; browsers re-check it on each visit (``no-cache``)."""
    with open(finders.find("js/sw.js"), encoding="utf-8") as source:
        script = source.read()
    return HttpResponse(script, content_type="text/javascript; charset=utf-8")
