"""Browser pages. Thin: forms and selectors in, services for every write."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from tables import selectors, services
from tables.errors import TableError


@login_required
def home(request: HttpRequest) -> HttpResponse:
    tables = [
        selectors.table_summary_for_user(table, request.user)
        for table in selectors.tables_for_user(request.user)
    ]
    return render(request, "tables/home.html", {"tables": tables})


@login_required
@require_http_methods(["GET", "POST"])
def table_create(request: HttpRequest) -> HttpResponse:
    return render(request, "tables/create.html", {})


@login_required
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table, seat = selectors.table_for_user(table_id, request.user)
    view = selectors.table_view_for_user(table, seat, request.user)
    return render(request, "tables/table.html", {"table": view})


@login_required
@require_http_methods(["GET", "POST"])
def invite(request: HttpRequest, token: str) -> HttpResponse:
    if request.method == "POST":
        try:
            seat = services.seat_join(token=token, user=request.user)
        except TableError as error:
            return render(
                request, "tables/invite.html", {"error": error.detail}, status=error.status_code
            )
        return redirect("tables:table", table_id=seat.table_id)
    return render(request, "tables/invite.html", {"invite": selectors.invite_preview(token)})
