"""Browser pages. Thin: forms and selectors in, services for every write.

The table page is drawn by ``static/js/table.js`` (ES modules under ``static/js/table/``)
from one JSON document, the same one the
API serves (``selectors.table_view_for_user``, built on ``dominoes.view_for``, R31): the
first paint reads it from the page (``json_script``), later ones from polling the API.
Nothing else about the game is put in the page.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from tables import selectors, services
from tables.errors import TableError
from tables.forms import TableCreateForm
from tables.help import profile_facts
from tables.ui_strings import ui_strings


@never_cache  # the player's own tables and turns
@login_required
def home(request: HttpRequest) -> HttpResponse:
    tables = [
        selectors.table_summary_for_user(table, request.user)
        for table in selectors.tables_for_user(request.user)
    ]
    for row in tables:
        me = row["players"][row["your_seat"]]
        rivals = [p for p in row["players"] if p["team"] != me["team"]]
        others = [p for p in row["players"] if p["seat"] not in row["your_seats"]]
        # A person holding two seats (seven_plus_seven) is named once.
        row["names"] = list(dict.fromkeys(p["name"] or _("asiento libre") for p in others))
        row["my_score"] = me["score"]
        row["best_rival"] = max((p["score"] for p in rivals), default=0)
        turn = row["turn_seat"]
        row["turn_name"] = row["players"][turn]["name"] if turn is not None else ""
        row["won"] = bool(row["winners"]) and row["your_seat"] in row["winners"]
    return render(request, "tables/home.html", {"tables": tables})


@login_required
@require_http_methods(["GET", "POST"])
def table_create(request: HttpRequest) -> HttpResponse:
    form = TableCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            table = services.table_create(
                creator=request.user,
                seats=form.cleaned_data["seats"],
                target=form.cleaned_data["target"],
                others=form.others(),
                rules=form.cleaned_data["rules"],
            )
        except TableError as error:
            form.add_error(None, str(error.detail))
        else:
            return redirect("tables:table", table_id=table.pk)
    status = 400 if request.method == "POST" else 200
    context = {
        "form": form,
        "profiles": {name: profile_facts(name) for name in services.offered_profiles()},
    }
    return render(request, "tables/create.html", context, status=status)


@never_cache  # the page embeds the player's tiles (R31): not kept by any cache
@login_required
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    try:
        table, seat = services.table_for_user(table_id, request.user)
    except TableError:
        raise Http404 from None
    view = selectors.table_view_for_user(table, seat, request.user)
    for link in view["invites"]:
        link["url"] = request.build_absolute_uri(link["path"])
    context = {
        "table": view,
        "profile": profile_facts(view["rules"]),
        "ui": ui_strings(),
        "pip_colour": request.user.pip_colour,
    }
    return render(request, "tables/table.html", context)


@require_http_methods(["GET", "POST"])
def invite(request: HttpRequest, token: str) -> HttpResponse:
    """Who invites you to which table; one tap takes the seat. A visitor who is signed out
    sees the invitation too, with sign-up and sign-in links that come back here."""
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            seat = services.seat_join(token=token, user=request.user)
        except TableError as error:
            return _invite_error(request, error)
        return redirect("tables:table", table_id=seat.table_id)
    try:
        preview = selectors.invite_preview(token)
    except TableError as error:
        return _invite_error(request, error)
    if request.user.is_authenticated:
        mine = selectors.tables_for_user(request.user).filter(pk=preview["table"]).exists()
        if mine:
            return redirect("tables:table", table_id=preview["table"])
    return render(request, "tables/invite.html", {"invite": preview, "next": request.path})


def _invite_error(request: HttpRequest, error: TableError) -> HttpResponse:
    return render(
        request, "tables/invite.html", {"error": str(error.detail)}, status=error.status_code
    )
