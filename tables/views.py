"""Browser pages. Thin: forms and selectors in, services for every write.

The table page is drawn by ``static/js/table.js`` (ES modules under ``static/js/table/``)
from one JSON document, the same one the
API serves (``selectors.table_view_for_user``, built on ``dominoes.view_for``, R31): the
first paint reads it from the page (``json_script``), later ones from polling the API.
Nothing else about the game is put in the page.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts.selectors import verified_email
from accounts.time_zones import chosen_time_zone, time_zone_of
from core.log_context import bind
from dominoes import PROFILES
from tables import guards, listing, naming, replays, seating, selectors, services
from tables import history as history_reads
from tables.errors import TableError
from tables.forms import TableCreateForm
from tables.help import profile_facts
from tables.move_time import move_time_sentence, time_left_sentence
from tables.rematches import rematch_asker, rematch_pending
from tables.ui_strings import replay_strings, ui_strings


@never_cache  # the player's own tables and turns
@login_required
def home(request: HttpRequest) -> HttpResponse:
    """ "Mis mesas": a page of the user's tables, their turn first (``?cursor=`` from the
    "more tables" link: ``tables.listing``); a cursor no page gave shows the first page."""
    try:
        page, after = listing.tables_page_for_user(request.user, request.GET.get("cursor", ""))
    except TableError:
        page, after = listing.tables_page_for_user(request.user)
    tables = []
    for table in page:
        row = selectors.table_summary_for_user(table, request.user)
        row["rematch_pending"] = rematch_pending(table, request.user)
        row["rematch_by"] = rematch_asker(table) if row["rematch_pending"] else ""
        tables.append(row)
    now = timezone.now()
    for row in tables:
        me = row["players"][row["your_seat"]]
        # closed before its match began (cancelled, idle, a declined rematch): no names
        row["cancelled"] = row["status"] == "closed" and not row["started"]
        row["with_names"] = _with_names(row)
        row["my_score"] = me["score"]
        partners, _rivals = naming.partners_and_rivals(row["players"], row["your_seats"])
        row["with_partner"] = bool(partners)  # the score line's "Tu pareja y tú"
        row["other_scores"] = _other_scores(row)
        row["single_hand"] = PROFILES[row["rules"]].single_hand  # no target to name
        if row["deadline"]:  # as the table page writes it
            row["time_left"] = time_left_sentence((row["deadline"] - now).total_seconds())
        turn = row["turn_seat"]
        row["turn_name"] = row["players"][turn]["name"] if turn is not None else ""
        row["won"] = bool(row["winners"]) and row["your_seat"] in row["winners"]
        row["changed"] = row["changed_since_your_last_visit"]
    context = {
        "tables": tables,
        "next_cursor": after,
        # a suspended player is not offered a new table; the moderation banner says why
        "create_refused": guards.refusal(request.user, "create") is not None,
        # turn e-mails go only to a verified address: the page says so, with the button
        "email_missing": not request.user.email,
        "email_unverified": bool(request.user.email) and not verified_email(request.user),
    }
    return render(request, "tables/home.html", context)


def _with_names(row: dict) -> str:
    """Who else plays at a "Mis mesas" or "Partidas terminadas" row, after "Mesa N:"
    (``tables.naming``: "con bob y Nino"; in pairs "con carol (tu pareja) contra bob y
    dave"), in play order after the user, as the score line."""
    partners, rivals = naming.partners_and_rivals(row["players"], row["your_seats"])
    return naming.with_names(_names(partners, row), _names(rivals, row))


def _names(players: list[dict], row: dict) -> list[str]:
    """The players' names, each once, ``""`` for each person a free seat waits for (the
    two free seats of a pair one person takes in ``seven_plus_seven`` are one)."""
    people = {}
    for player in players:
        if player["open"]:
            seats = seating.hand_seats(row["rules"], row["seats"], player["seat"])
            people.setdefault(("open", seats[0]), "")
        else:
            people.setdefault(("name", player["name"]), player["name"])
    return list(people.values())


def _other_scores(row: dict) -> list[dict]:
    """The other sides' points on a "Mis mesas" row, after "Tú" (or "Tu pareja y tú"):
    ``[{"name", "score"}]``, in play order after the user (R3). A side that is one player
    (2 or 3 seats, 4 without pairs, the person or bot holding both hands of a pair in
    ``seven_plus_seven``) by name; a pair of two players, or one with a seat nobody holds
    yet, as "rivales". A seat nobody holds yet, alone, scores nothing and is left out."""
    mine = row["players"][row["your_seat"]]["team"]
    sides: dict[int, list[dict]] = {}
    for player in naming.after_seat(row["players"], row["your_seat"]):
        if player["team"] != mine:
            sides.setdefault(player["team"], []).append(player)
    shown = []
    for side in sides.values():
        if all(p["open"] for p in side):
            continue
        one = len({p["name"] for p in side}) == 1 and not any(p["open"] for p in side)
        shown.append({"name": side[0]["name"] if one else _("rivales"), "score": side[0]["score"]})
    return shown


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
                move_days=form.cleaned_data["move_days"],
            )
        except TableError as error:
            # the service's own answer: 400 invalid_table, or 403 suspended (a form drawn
            # before the suspension, or posted by hand), as the API's create answers
            return _create_page(request, form, error.status_code, str(error.detail))
        else:
            return redirect("tables:table", table_id=table.pk)
    return _create_page(request, form, 400 if request.method == "POST" else 200)


def _create_page(
    request: HttpRequest, form: TableCreateForm, status: int, error: str = ""
) -> HttpResponse:
    """The "Nueva mesa" page with ``form`` and, where the form has none of its own,
    ``error`` (a refusal's sentence) at the top, where the form's errors go. A player a
    guard refuses (suspended) reads why there and is offered neither "Crear la mesa" nor
    "Jugar ya contra los bots" (``create_refused``)."""
    refusal = guards.refusal(request.user, "create")
    context = {
        "form": form,
        "profiles": {name: profile_facts(name) for name in services.offered_profiles()},
        "create_refused": refusal is not None,
        "create_error": error or (str(refusal.detail) if refusal else ""),
    }
    return render(request, "tables/create.html", context, status=status)


@login_required
@require_http_methods(["POST"])
def play_bots_now(request: HttpRequest) -> HttpResponse:
    """ "Jugar ya contra los bots": one click makes a classic 2-seat table against Nino, to
    50 points (the create form's defaults), and opens it; the match starts at once (R30).
    A refusal (403 ``suspended``: the button was on a page drawn before the suspension)
    shows the "Nueva mesa" page with its sentence, as the create form does."""
    try:
        table = services.table_create(creator=request.user, seats=2, target=50, others=["nino"])
    except TableError as error:
        return _create_page(request, TableCreateForm(), error.status_code, str(error.detail))
    return redirect("tables:table", table_id=table.pk)


@never_cache  # the page embeds the player's tiles (R31): not kept by any cache
@login_required
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    bind(table_id=table_id)
    try:
        table, seat = services.table_for_user(table_id, request.user)
    except TableError:
        raise Http404 from None
    bind(version=table.version)
    view = selectors.table_view_for_user(table, seat, request.user)
    services.table_read(table, request.user)
    for link in view["invites"]:
        link["url"] = request.build_absolute_uri(link["path"])
    context = {
        "table": view,
        "profile": profile_facts(view["rules"]),
        "move_time": move_time_sentence(table.move_seconds),
        "ui": ui_strings(),
        "pip_colour": request.user.pip_colour,
        # the talk writes its times in the zone the inbox and e-mails use (else the browser's)
        "time_zone": chosen_time_zone(request.user),
        "rematch_refused": _rematch_refused(request.user, view),
        "rematch_by": rematch_asker(table),  # the offer's box names who asked
        # closed before its match began (cancelled, idle): nothing to talk about any more
        "cancelled": view["status"] == "closed" and view["game"] is None,
    }
    return render(request, "tables/table.html", context)


def _rematch_refused(user, view: dict) -> str:
    """Why ``user`` may neither ask for nor accept a rematch here (a player guard's
    refusal, e.g. the 403 ``suspended``'s sentence), else ``""``: the page then shows
    that sentence instead of "Revancha" and "Aceptar la revancha" (``rematch.js``).
    Asked only where one of them may be offered, a finished table or an offer to answer."""
    if view["rematch_pending"]:
        refusal = guards.refusal(user, "join")
    elif view["status"] in ("playing", "finished"):  # a running match may finish meanwhile
        refusal = guards.refusal(user, "create")
    else:
        return ""
    return str(refusal.detail) if refusal else ""


@require_http_methods(["GET", "POST"])
def invite(request: HttpRequest, token: str) -> HttpResponse:
    """Who invites you to which table; one tap takes the seat. A visitor who is signed out
    sees the invitation too, with sign-up and sign-in links that come back here. A player
    a guard refuses (suspended) reads why (``join_refused``, the refusal's sentence) and
    is not offered "Sentarme y jugar" (disabled), as "Nueva mesa" does."""
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            seat = services.seat_join(token=token, user=request.user)
        except TableError as error:
            return _invite_error(request, error)
        return redirect("tables:table", table_id=seat.table_id)
    try:
        preview = selectors.invite_preview(token, request.user)
    except TableError as error:
        return _invite_error(request, error)
    if preview["joined"]:  # your own link, re-opened: back to your table
        return redirect("tables:table", table_id=preview["table"])
    if request.user.is_authenticated:
        mine = selectors.tables_for_user(request.user).filter(pk=preview["table"]).exists()
        if mine:
            return redirect("tables:table", table_id=preview["table"])
    context = {
        "invite": preview,
        "next": request.path,
        "profile": profile_facts(preview["rules"]),  # the table page's rules line
        "move_time": move_time_sentence(preview["move_seconds"]),
        "join_refused": _refusal_sentence(request.user, "join"),
    }
    return render(request, "tables/invite.html", context)


def _refusal_sentence(user, action: str) -> str:
    """The sentence of the refusal ``user`` would get doing ``action`` (``guards``), or
    ``""``: none, or a visitor who is signed out (the sign-in comes first)."""
    if not user.is_authenticated:
        return ""
    refusal = guards.refusal(user, action)
    return str(refusal.detail) if refusal else ""


def _invite_error(request: HttpRequest, error: TableError) -> HttpResponse:
    return render(
        request, "tables/invite.html", {"error": str(error.detail)}, status=error.status_code
    )


FINISHED = ("finished", "closed")


@never_cache
@login_required
def history(request: HttpRequest) -> HttpResponse:
    """ "Partidas terminadas": the user's finished matches in pages of
    ``tables.history.PAGE_SIZE`` (20), newest first, filtered by ``?result=won|lost`` and
    ``?opponent=<name>`` (any other player's name, bots too; the recent ones offered),
    each dated in the player's time zone (UTC while none is saved), as the inbox is.

    "Más antiguas" leads to ``?cursor=`` (the page after the last row), "Más recientes"
    to ``?newer=`` (the page before the first), both keeping the filters: keyset pages of
    "my tables" (``tables.history``, ``tables.listing``), so a page costs the same
    queries and time for 2 finished tables as for 2,000. A cursor no page gave (changed
    by hand, or from "Mis mesas") shows the first page, as "Mis mesas" does: an old link
    is not an error page."""
    result = request.GET.get("result", "")
    result = result if result in ("won", "lost") else ""
    opponent = request.GET.get("opponent", "").replace("\x00", "").strip()[:150]
    where = history_reads.history_filter(request.user, result, opponent)
    newer = request.GET.get("newer", "")
    cursor = newer or request.GET.get("cursor", "")
    try:
        page = history_reads.history_page(request.user, cursor, newer=bool(newer), where=where)
    except TableError:
        page = history_reads.history_page(request.user, where=where)
    rows = [_history_row(table, request.user) for table in page.tables]
    kept = {name: value for name, value in (("result", result), ("opponent", opponent)) if value}
    context = {
        "rows": rows,
        "result": result,
        "opponent": opponent,
        "names": history_reads.recent_opponents(request.user),
        "older": f"?{urlencode({**kept, 'cursor': page.older})}" if page.older else "",
        "newer": f"?{urlencode({**kept, 'newer': page.newer})}" if page.newer else "",
        "filtered": bool(kept),
        "time_zone": time_zone_of(request.user),  # the dates in it, as the inbox's
    }
    return render(request, "tables/history.html", context)


def _history_row(table, user) -> dict:
    """One finished match as the history lists it: ``with_names`` (who else played, as
    "Mis mesas" says it: "con carol (tu pareja) contra bob y dave"), ``won`` (the user's
    first seat among the winners) and ``replayable``."""
    row = selectors.table_summary_for_user(table, user)
    row["with_names"] = _with_names(row)
    row["won"] = bool(row["winners"]) and row["your_seat"] in row["winners"]
    row["replayable"] = table.replayable
    return row


@never_cache
@login_required
def replay_page(request: HttpRequest, table_id: int) -> HttpResponse:
    """The replay of a finished match for a seated player: every hand, move by move, drawn
    from its record through the engine (``dominoes.steps.replay_steps``), with each deal's
    seed and its hash checked (R6) and the record to download; the "Analizar la partida"
    button and the analysis once done; the public link."""
    try:
        table, seat = services.table_for_user(table_id, request.user)
    except TableError:
        raise Http404 from None
    if table.status not in FINISHED or table.state is None:
        raise Http404
    try:
        data = replays.replay_data(table, viewer=request.user)
    except TableError:
        raise Http404 from None
    view = selectors.table_view_for_user(table, seat, request.user)
    data["analysis"] = replays.analysis_state(table)
    data["public_link"] = replays.public_link_of(table)
    data["api"] = {
        "analysis": reverse("api-analysis", args=[table.pk]),
        "public_replay": reverse("api-public-replay", args=[table.pk]),
    }
    context = {
        "table": view,
        "replay": data,
        "ui": replay_strings(),
        "profile": profile_facts(table.rules),
        "record_url": reverse("api-record", args=[table.pk]),
    }
    return render(request, "tables/replay.html", context)


@never_cache
def public_replay(request: HttpRequest, token: str) -> HttpResponse:
    """A finished match's replay opened by its public link (``/partida/<token>/``, issue
    16): the same page for anyone, signed in or not (a player of the match signed in
    reads their own seats as "tú", as on the replay behind the table), with the analysis
    once done and nothing to change. An unknown or revoked token is a 404."""
    try:
        table = replays.public_table(token)
        data = replays.replay_data(table, viewer=request.user)
    except TableError:
        raise Http404 from None
    analysis = replays.analysis_state(table)
    data["analysis"] = analysis if analysis["status"] == "done" else None
    context = {
        "table": {"id": table.pk},
        "replay": data,
        "ui": replay_strings(),
        "profile": profile_facts(table.rules),
        "public": True,
        "record_url": reverse("tables:public-record", args=[token]),
    }
    return render(request, "tables/replay.html", context)


@never_cache
def public_record(request: HttpRequest, token: str) -> JsonResponse:
    """The ``dominoes-record/1`` of a match with a public replay link (with its
    ``analysis`` once done), as a download."""
    try:
        table = replays.public_table(token)
    except TableError:
        raise Http404 from None
    response = JsonResponse(replays.record_with_analysis(table))
    response["Content-Disposition"] = f'attachment; filename="mesa-{table.pk}.json"'
    return response
