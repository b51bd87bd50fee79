"""Browser pages. Thin: forms and selectors in, services for every write.

The table page is drawn by ``static/js/table.js`` from one JSON document, the same one the
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
from tables.help import profile_facts, summary_strings


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
        table, seat = selectors.table_for_user(table_id, request.user)
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


def ui_strings() -> dict[str, str]:
    """The table page's words, translated here (Django's catalogue) and handed to
    ``table.js``; ``%(name)s`` placeholders are filled in by the script."""
    return {
        "your_turn": _("Te toca jugar."),
        "turn_of": _("Le toca a %(name)s."),
        "time_left": _("Quedan %(time)s para jugar."),
        "hours_minutes": _("%(h)s h %(m)s min"),
        "minutes": _("%(m)s min"),
        "under_a_minute": _("menos de un minuto"),
        "hand_n": _("Mano %(n)s"),
        "stock": _("Pozo: %(n)s"),
        "tiles_one": _("1 ficha"),
        "tiles_many": _("%(n)s fichas"),
        "you": _("tú"),
        "partner": _("tu pareja"),
        "open_seat": _("Asiento libre"),
        "team_a": _("Pareja A"),
        "team_b": _("Pareja B"),
        "points": _("%(n)s puntos"),
        "target": _("Meta: %(n)s puntos"),
        "to_play": _("juega ahora"),
        "left_end": _("Punta izquierda: %(pip)s"),
        "right_end": _("Punta derecha: %(pip)s"),
        "line_label": _("La fila: %(tiles)s"),
        "line_empty": _("La fila está vacía."),
        "lead_you": _("Sales tú: juega cualquiera de tus fichas marcadas."),
        "playable": _("se puede jugar"),
        "playable_hint": _("Toca una ficha marcada con ▲ para jugarla."),
        "waiting_turn": _("Espera tu turno."),
        "choose_end": _("¿En qué punta juegas %(tile)s?"),
        "on_left": _("A la izquierda (%(pip)s)"),
        "on_right": _("A la derecha (%(pip)s)"),
        "cancel": _("Cancelar"),
        "log_play": _("%(name)s jugó %(tile)s"),
        "log_lead": _("%(name)s salió con %(tile)s"),
        "log_draw_one": _("%(name)s robó 1 ficha"),
        "log_draw_many": _("%(name)s robó %(n)s fichas"),
        "log_pass": _("%(name)s pasó"),
        "log_empty": _("Aún no hay jugadas en esta mano."),
        "hand_result": _("Resultado de la mano %(n)s"),
        "domino": _("%(name)s dominó: se quedó sin fichas."),
        "blocked": _("Mesa cerrada: nadie podía jugar ni robar."),
        "scored": _("%(names)s suma %(points)s puntos."),
        "nobody_scored": _("Nadie suma puntos en esta mano."),
        "count": _("cuenta %(n)s"),
        "no_tiles": _("sin fichas"),
        "rule": _("Regla %(id)s"),
        "and": _(" y "),
        "match_won": _("%(names)s gana la partida."),
        "you_won": _("¡Has ganado la partida!"),
        "you_lost": _("Has perdido la partida."),
        "no_winner": _("La partida terminó sin ganador."),
        "outcome_target": _("Se alcanzó la meta."),
        "outcome_abandoned": _("Un jugador abandonó."),
        "outcome_absent": _("Un jugador no jugó a tiempo (48 horas)."),
        "outcome_idle": _("La mesa estuvo inactiva."),
        "outcome_moderator": _("Cerrada por un moderador."),
        "waiting": _("Esperando jugadores. Envía este enlace a tu amigo:"),
        "waiting_other": _("Esperando a que se sienten todos los jugadores."),
        "invite_seat": _("Asiento %(n)s"),
        "invite_partner": _("Asiento %(n)s (tu pareja)"),
        "invite_pair": _("Asientos %(n)s y %(m)s (la otra pareja: las dos manos)"),
        "copy": _("Copiar enlace"),
        "copied": _("Enlace copiado."),
        "copy_failed": _("No se pudo copiar: selecciona el enlace y cópialo."),
        "share": _("Compartir"),
        "share_text": _("¿Jugamos al dominó?"),
        "abandon_confirm": _("¿Seguro que quieres abandonar? Perderás la partida."),
        "sending": _("Enviando…"),
        "offline": _("Sin conexión. Lo intentamos de nuevo en unos segundos."),
        "refused": _("No se pudo hacer: %(detail)s"),
        "played": _("Has jugado %(tile)s."),
        "updated": _("La mesa ha cambiado."),
        "single_hand": _("Una sola mano decide la partida"),
        "outcome_single_hand": _("Una sola mano decidía la partida."),
        "out_of_play": _("Fuera del juego: %(n)s fichas"),
        "lead_pair": _("Sale la pareja de %(names)s: puede salir cualquiera de los dos."),
        "lead_pair_you": _("Sale vuestra pareja: puedes salir tú o tu compañero."),
        "choose_hint": _("No tienes ficha que encaje: roba del pozo o pasa."),
        "choice_draw": _("Robar"),
        "choice_pass": _("Pasar"),
        "you_drew": _("Has robado una ficha."),
        "you_passed": _("Has pasado."),
        "capicua": _("¡Capicúa!"),
        "capicua_why": _("La última ficha encajaba en las dos puntas: la mano puntúa doble."),
        "zapato": _("¡Zapato!"),
        "zapato_why": _("Los perdedores no sumaron ni un punto."),
        "profile_scoring": _("Los puntos se cuentan con las reglas de la mesa:"),
        # seven_plus_seven: one person plays both hands of a pair (two seats).
        "seat_name": _("%(name)s (asiento %(n)s)"),
        "your_turn_hand": _("Te toca jugar con tu mano del asiento %(n)s."),
        "hand_title_seat": _("Tu mano del asiento %(n)s"),
        "hand_plays_now": _("Juega esta mano: toca una ficha marcada con ▲."),
        "other_hand_title": _("Tu otra mano (asiento %(n)s)"),
        "other_hand_waits": _("Esta mano juega en su turno; ahora no se puede mover."),
        "other_hand_label": _("Fichas de tu mano del asiento %(n)s: %(tiles)s"),
        **summary_strings(),  # the last hand explained with its numbers (R20-R23)
    }
