"""The table page's words: every sentence the script (``static/js/table.js`` and its
modules under ``static/js/table/``) shows, written in Spanish and translated through
Django's catalogue, so the page needs no translations of its own."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tables.help import summary_strings
from tables.plurals import Words, plural_forms


def ui_strings() -> Words:
    """The table page's words, ``{key: text}`` in the request's language (Django's
    catalogue), handed to the page as JSON (``json_script`` "table-strings"); the script
    (``static/js/table/``) fills in the ``%(name)s`` placeholders. ``%(rule)s`` becomes
    a link to that rule on ``/reglas/``. A counted text comes in both forms
    (``plurals.plural_forms``)."""
    return {
        "your_turn": _("Te toca jugar."),
        # Said to screen readers when the turn comes, and before the page's title.
        "turn_announce": _("Te toca"),
        "turn_of": _("Le toca a %(name)s."),
        # The verb agrees with the number the time starts with: "Queda 1 día y 23 h".
        "time_left": plural_forms(
            lambda n: ngettext("Queda %(time)s para jugar.", "Quedan %(time)s para jugar.", n)
        ),
        "hours_minutes": _("%(h)s h %(m)s min"),
        "day_hours": plural_forms(
            lambda n: ngettext("%(d)s día y %(h)s h", "%(d)s días y %(h)s h", n)
        ),
        "minutes": _("%(m)s min"),
        "under_a_minute": _("menos de un minuto"),
        # The deadline has passed (R27): the server forfeits the turn within a minute.
        "overdue": _("por vencer"),
        "overdue_sentence": _("Turno por vencer: se acabó el tiempo para jugar."),
        "hand_n": _("Mano %(n)s"),
        "stock": _("Pozo: %(n)s"),
        "tiles": plural_forms(lambda n: ngettext("%(n)s ficha", "%(n)s fichas", n)),
        "open_seat": _("Asiento libre"),
        "open_seats": plural_forms(
            lambda n: ngettext("un asiento libre", "%(n)s asientos libres", n)
        ),
        "team_a": _("Pareja A"),
        "team_b": _("Pareja B"),
        "points": plural_forms(lambda n: ngettext("%(n)s punto", "%(n)s puntos", n)),
        "target": _("Meta: %(n)s puntos"),
        "to_play": _("juega ahora"),
        "team_score": _("%(team)s: %(n)s"),
        "seat_number": _("Asiento %(n)s"),
        "turn_order": _("Orden de juego: %(names)s"),
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
        # A seat's consecutive draws, counted; the reader's own in the second person (the
        # rest: seat_words).
        "log_draws": plural_forms(
            lambda n: ngettext("%(name)s robó %(n)s ficha", "%(name)s robó %(n)s fichas", n)
        ),
        "log_draws_you": plural_forms(
            lambda n: ngettext("Robaste %(n)s ficha", "Robaste %(n)s fichas", n)
        ),
        "log_empty": _("Aún no hay jugadas en esta mano."),
        "hand_result": _("Resultado de la mano %(n)s"),
        "count": _("cuenta %(n)s"),
        "no_tiles": _("sin fichas"),
        "match_won": _("%(names)s gana la partida."),
        "match_won_many": _("%(names)s ganan la partida."),
        "you_won": _("¡Has ganado la partida!"),
        "you_lost": _("Has perdido la partida."),
        "no_winner": _("La partida terminó sin ganador."),
        "outcome_target": _("Se alcanzó la meta."),
        "outcome_abandoned": _("Un jugador abandonó."),
        "outcome_absent": _("Un jugador no jugó a tiempo y perdió por ausencia."),
        "outcome_abandoned_by": _("%(name)s abandonó la partida."),
        "outcome_absent_by": _("%(name)s no jugó a tiempo y perdió por ausencia."),
        # To the reader who left or ran out of time, in the second person.
        "outcome_abandoned_you": _("Abandonaste la partida."),
        "outcome_absent_you": _("No jugaste a tiempo y perdiste por ausencia."),
        "cancelled_title": _("Mesa cancelada"),
        "cancelled": _("Se cerró antes de empezar la partida: nadie gana ni pierde."),
        "match_over_title": _("Fin de la partida"),
        "hands_played": _("Manos jugadas: %(n)s."),
        # A match that ended (left, timed out) before its first hand did.
        "no_hand_played": _("Manos jugadas: ninguna; la partida terminó durante la primera mano."),
        "my_tables": _("Mis mesas"),
        "see_match": _("Ver la partida"),
        "hand_over_title": _("Fin de la mano %(n)s"),
        "final_hand_title": _("La última mano: mano %(n)s"),
        "hand_ended": _("Terminó la mano %(n)s"),
        "next_hand": _("Siguiente mano"),
        "rematch": _("Revancha"),
        "rematch_open": _("Ir a la revancha"),
        "rematch_title": _("Revancha"),
        "rematch_offer": _("Te proponen la revancha: los mismos jugadores, las mismas reglas."),
        "rematch_offer_by": _(
            "%(name)s te propone la revancha: los mismos jugadores, las mismas reglas."
        ),
        "rematch_accept": _("Aceptar la revancha"),
        "rematch_decline": _("Rechazar"),
        "rematch_accepted": _("Has aceptado la revancha."),
        "rematch_declined_you": _("Has rechazado la revancha."),
        "rematch_waiting": _("Revancha: esperando a que acepte %(names)s."),
        "rematch_was_declined": _("La revancha no se jugó: la rechazaron."),
        "rematch_of": _("Revancha de la mesa %(id)s"),
        "rematch_impossible": _("No hay revancha: un jugador de esta mesa borró su cuenta."),
        "since_visit": _("Desde tu última visita: %(moves)s."),
        "since_your_turn": _("te toca"),
        "since_mark": _("(nueva desde tu última visita)"),
        "next_hand_yours": _("En la mano siguiente te toca a ti."),
        "next_hand_turn": _("En la mano siguiente le toca a %(name)s."),
        "next_hand_led_yours": _("En la mano siguiente ya salió %(name)s; ahora te toca a ti."),
        "next_hand_led_turn": _(
            "En la mano siguiente ya salió %(name)s; ahora le toca a %(turn)s."
        ),
        "outcome_idle": _("La mesa estuvo inactiva."),
        "outcome_moderator": _("Cerrada por un moderador."),
        "waiting": _("Esperando jugadores. Envía este enlace a tu amigo:"),
        "waiting_many": _("Esperando jugadores. Envía estos enlaces a tus amigos:"),
        "waiting_other": _("Esperando a que se sienten todos los jugadores."),
        "invite_seat": _("Asiento %(n)s"),
        "invite_partner": _("Asiento %(n)s (tu pareja)"),
        "invite_pair": _("Asientos %(n)s y %(m)s (la otra pareja: las dos manos)"),
        "copy": _("Copiar enlace"),
        "copied": _("Enlace copiado."),
        "copy_failed": _("No se pudo copiar: selecciona el enlace y cópialo."),
        "share": _("Compartir"),
        "share_text": _("¿Jugamos al dominó?"),
        # What abandoning would do (static/js/table/abandon.js, dominoes/leaving.py, R26).
        "abandon_confirm_rival": _(
            "¿Seguro que quieres abandonar? Perderás la partida y la ganará %(name)s."
        ),
        "abandon_confirm_pairs": _(
            "¿Seguro que quieres abandonar? Tu pareja y tú perderán la partida y la ganará "
            "la pareja de %(names)s."
        ),
        "abandon_confirm_leader": _(
            "¿Seguro que quieres abandonar? Perderás la partida y la ganará %(name)s, que "
            "tiene más puntos que %(other)s."
        ),
        "abandon_confirm_tie": _(
            "¿Seguro que quieres abandonar? Perderás la partida y, como %(names)s tienen "
            "los mismos puntos, terminará sin ganador."
        ),
        "abandon_confirm_sit_out": _(
            "¿Seguro que quieres abandonar? Perderás la partida: la mano sigue sin ti entre "
            "%(names)s y tus fichas ya no cuentan."
        ),
        "abandon": _("Abandonar la partida"),
        "cancel_table": _("Cancelar la mesa"),
        "cancel_confirm": _(
            "¿Cancelar la mesa? Aún no ha empezado: nadie pierde. Los que ya se sentaron "
            "recibirán un aviso."
        ),
        # A guest at a waiting table gives up the seat (R30): it opens with a new link.
        "leave_seat": _("Dejar el asiento"),
        "leave_confirm": _(
            "¿Dejar tu asiento? La mesa seguirá esperando jugadores y quien la creó "
            "recibirá un aviso."
        ),
        "renew": _("Cambiar el enlace"),
        "renew_confirm": _(
            "¿Cambiar el enlace del asiento %(n)s? El enlace actual dejará de funcionar: "
            "tendrás que enviar el nuevo."
        ),
        "renewed": _("Enlace nuevo listo: el anterior ya no funciona."),
        "sending": _("Enviando…"),
        "offline": _("Sin conexión. Lo intentamos de nuevo en unos segundos."),
        "refused": _("No se pudo hacer: %(detail)s"),
        "played": _("Jugaste %(tile)s."),
        "led": _("Saliste con %(tile)s."),
        "updated": _("La mesa ha cambiado."),
        # A move refused as stale (409 stale_version): the table moved before it arrived.
        "move_lost": _("Tu jugada no se hizo: la mesa cambió antes."),
        "move_lost_elsewhere": _(
            "Tu jugada no se hizo: ya jugaste en otra pestaña o dispositivo. "
            "Cuenta esta: %(change)s"
        ),
        "move_lost_changed": _("Tu jugada no se hizo: la mesa cambió antes. %(change)s"),
        "single_hand": _("Una sola mano decide la partida"),
        "outcome_single_hand": _("Una sola mano decidía la partida."),
        "out_of_play": _("Fuera del juego: %(n)s fichas"),
        "lead_pair": _("Sale la pareja de %(names)s: puede salir cualquiera de los dos."),
        "lead_pair_you": _("Salen ustedes: puedes salir tú o tu compañero."),
        # Cuban, the person's partner a bot: she chooses who leads (a pass lets the bot).
        "lead_pair_you_bot": _(
            "Salen ustedes: elige quién sale. Juega una ficha para salir tú, o deja que "
            "salga tu compañero (%(name)s)."
        ),
        "lead_you_or_partner": _(
            "Sal tú con una de tus fichas marcadas, o deja que salga %(name)s."
        ),
        "let_partner_lead": _("Que salga %(name)s"),
        "partner_leads": _("Le dejaste la salida a %(name)s."),
        "choose_hint": _("No tienes ficha que encaje: roba del pozo o pasa."),
        "choice_draw": _("Robar"),
        "choice_pass": _("Pasar"),
        "you_drew": _("Has robado una ficha."),
        "you_passed": _("Has pasado."),
        "zapato": _("¡Zapato!"),
        "zapato_why": _("Los perdedores no sumaron ni un punto."),
        # seven_plus_seven: one person plays both hands of a pair (two seats).
        "your_turn_hand": _("Te toca jugar con tu mano del asiento %(n)s."),
        "hand_title_seat": _("Tu mano del asiento %(n)s"),
        "hand_plays_now": _("Juega esta mano: toca una ficha marcada con ▲."),
        "other_hand_title": _("Tu otra mano (asiento %(n)s)"),
        "other_hand_waits": _("Esta mano juega en su turno; ahora no se puede mover."),
        "other_hand_label": _("Fichas de tu mano del asiento %(n)s: %(tiles)s"),
        **seat_words(),  # who did what, the reader's own moves as "tú"
        **hand_end_words(),  # how the last hand ended, explained with its numbers
    }


def hand_end_words() -> Words:
    """The words the table page and the replay both say a finished hand with
    (``static/js/table/summary.js``, ``explain.js``): how it ended (R17, R18), the rule
    and its numbers (R20-R23, ``help.summary_strings``), who scored; the reader's own seat
    in the second person where the page knows it ("Dominaste", "Te anotas 37 puntos")."""
    return {
        "domino": _("%(name)s dominó: se quedó sin fichas."),
        "domino_you": _("Dominaste: te quedaste sin fichas."),
        "blocked": _("Mesa cerrada: nadie podía jugar ni robar."),
        "blocked_no_stock": _("Mesa cerrada: nadie podía jugar."),
        # One winner, then two (a pair): each by the points it scored.
        "scored": plural_forms(
            lambda n: ngettext(
                "%(names)s se anota %(points)s punto.", "%(names)s se anota %(points)s puntos.", n
            )
        ),
        "scored_many": plural_forms(
            lambda n: ngettext(
                "%(names)s se anotan %(points)s punto.",
                "%(names)s se anotan %(points)s puntos.",
                n,
            )
        ),
        "scored_you": plural_forms(
            lambda n: ngettext("Te anotas %(points)s punto.", "Te anotas %(points)s puntos.", n)
        ),
        # The reader's pair (R2) scored.
        "scored_pair_you": plural_forms(
            lambda n: ngettext(
                "Tu pareja y tú se anotan %(points)s punto.",
                "Tu pareja y tú se anotan %(points)s puntos.",
                n,
            )
        ),
        "nobody_scored": _("Nadie suma puntos en esta mano."),
        "rule": _("Regla %(id)s"),
        "and": _(" y "),
        "capicua": _("¡Capicúa!"),
        "capicua_why": _("La última ficha encajaba en las dos puntas: la mano puntúa doble."),
        "profile_scoring": _("Los puntos se cuentan con las reglas de la mesa:"),
        **summary_strings(),  # the rule that decided, with its numbers (R20-R23)
    }


def seat_words() -> dict[str, str]:
    """The words the table page and the replay both name the seats with
    (``static/js/table/names.js``, ``log.js``; ``static/js/replay/names.js``): a move by
    name ("Nino jugó 6-4"), the reader's own in the second person ("Jugaste 6-4"), which
    seat when one person holds two (``seven_plus_seven``: "alice (asiento 1)"), and the
    tags beside a name ("tú", "tu pareja", "bot")."""
    return {
        "you": _("tú"),
        "partner": _("tu pareja"),
        "bot": _("bot"),
        # Translators: a no-break space (U+00A0) keeps "(asiento 2)" on one line.
        "seat_name": _("%(name)s (asiento %(n)s)"),
        "log_play": _("%(name)s jugó %(tile)s"),
        "log_lead": _("%(name)s salió con %(tile)s"),
        "log_pass": _("%(name)s pasó"),
        "log_play_you": _("Jugaste %(tile)s"),
        "log_lead_you": _("Saliste con %(tile)s"),
        "log_pass_you": _("Pasaste"),
        # Translators: a no-break space (U+00A0) joins the seat number to the word before it,
        # so "asiento 1)" never breaks across two lines.
        "log_your_hand": _("%(move)s (tu mano del asiento %(n)s)"),
    }


def replay_strings() -> Words:
    """The replay page's words (``static/js/replay.js``), like ``ui_strings``."""
    return {
        "position": _("Mano %(hand)s de %(hands)s · jugada %(move)s de %(moves)s"),
        "dealt": _("Reparto de la mano %(n)s."),
        "log_draw": _("%(name)s robó %(tile)s"),
        # The viewer's own draw, in the second person (the rest: seat_words).
        "log_draw_you": _("Robaste %(tile)s"),
        **seat_words(),
        "count": plural_forms(lambda n: ngettext("%(n)s ficha", "%(n)s fichas", n)),
        "stock": _("Pozo: %(n)s"),
        # A seat's points beside its name, as on the table page.
        "points": plural_forms(lambda n: ngettext("%(n)s punto", "%(n)s puntos", n)),
        # In pairs (R2) each seat shows its pair's points, named as on the table page.
        "team_a": _("Pareja A"),
        "team_b": _("Pareja B"),
        "team_score": _("%(team)s: %(n)s"),
        "seed": _("Semilla: %(seed)s"),
        "seed_sha256": _("SHA-256 publicado: %(hash)s"),
        "seed_ok": _("El barajado se comprobó: la semilla da su hash y reparte estas fichas (R6)."),
        "line_empty": _("La fila está vacía."),
        # The step after a hand's last move: how it ended, as the table page says it.
        "position_end": _("Mano %(hand)s de %(hands)s · fin de la mano"),
        "hand_over_title": _("Fin de la mano %(n)s"),
        "hand_count": _("cuenta %(n)s"),
        **hand_end_words(),
        **analysis_strings(),
    }


def analysis_strings() -> Words:
    """The words of the replay page's analysis and share panels
    (``static/js/replay/``); ``%(chance)s`` arrives as "42 %", ``%(points)s`` as "+3.5"
    with one decimal always, so "puntos" stays plural ("1,0 puntos", "1.0 points")."""
    return {
        "analysis_none": _(
            "Abuela Quelonia puede juzgar cada jugada de la partida en la que había elección."
        ),
        "analysis_public_none": _("Esta partida aún no tiene análisis."),
        "analysis_queued": _("Análisis en cola…"),
        "analysis_running": _("Analizando: %(done)s de %(total)s jugadas…"),
        "analysis_failed": _("El análisis falló. Puedes pedirlo otra vez."),
        "analysis_done": plural_forms(
            lambda n: ngettext(
                "Análisis hecho: %(n)s jugada juzgada.",
                "Análisis hecho: %(n)s jugadas juzgadas.",
                n,
            )
        ),
        # The actions the analysis leaves out: a single legal play, a draw, a pass.
        "analysis_forced": plural_forms(
            lambda n: ngettext(
                "No se juzga %(n)s jugada obligada (una sola ficha posible, robar o pasar).",
                "No se juzgan %(n)s jugadas obligadas (una sola ficha posible, robar o pasar).",
                n,
            )
        ),
        "mark_inaccuracy": _("Imprecisión"),
        "mark_error": _("Error"),
        "mark_blunder": _("Error grave"),
        "mark_none": _("Casi igual"),
        "move_on_end": _("%(tile)s en el %(end)s"),
        **judgement_strings(),
        "summary_loss": _("%(chance)s de la mano, %(points)s puntos"),
        # A blunder in the summary, a link to its place in the replay.
        "blunder_at": _("mano %(hand)s, jugada %(move)s"),
        "share_none": _("Solo los jugadores de la mesa ven esta partida."),
        "share_public": _("Cualquiera con este enlace ve la partida y su análisis:"),
        "failed": _("No se pudo: %(detail)s"),
    }


def judgement_strings() -> dict[str, str]:
    """The sentence of one judged move on the replay (``static/js/replay/analysis.js``),
    by name and, for the viewer's own move, in the second person. The better move is the
    one that wins the hand most often (``dominoes.analysis``; ties: the most expected
    points), its chance shown with the decimals it takes to differ from the move played."""
    return {
        "judged": _(
            "%(mark)s: con %(move)s ganaba la mano %(chance)s de las veces (%(points)s puntos"
            " esperados); la jugada que más veces la ganaba era %(best)s: %(best_chance)s"
            " (%(best_points)s)."
        ),
        # As often as the move played, with more expected points (the tie's rule).
        "judged_tie": _(
            "%(mark)s: con %(move)s ganaba la mano %(chance)s de las veces (%(points)s puntos"
            " esperados); %(best)s la ganaba igual de veces y con más puntos esperados"
            " (%(best_points)s)."
        ),
        "judged_best": _(
            "La mejor jugada: con %(move)s ganaba la mano %(chance)s de las veces"
            " (%(points)s puntos esperados)."
        ),
        # The viewer's own move, in the second person.
        "judged_you": _(
            "%(mark)s: con %(move)s ganabas la mano %(chance)s de las veces (%(points)s"
            " puntos esperados); la jugada que más veces la ganaba era %(best)s:"
            " %(best_chance)s (%(best_points)s)."
        ),
        "judged_tie_you": _(
            "%(mark)s: con %(move)s ganabas la mano %(chance)s de las veces (%(points)s"
            " puntos esperados); %(best)s la ganaba igual de veces y con más puntos esperados"
            " (%(best_points)s)."
        ),
        "judged_best_you": _(
            "La mejor jugada: con %(move)s ganabas la mano %(chance)s de las veces"
            " (%(points)s puntos esperados)."
        ),
    }
