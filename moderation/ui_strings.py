"""The words of table talk: the quick phrases (stored by key, shown in each reader's
language) and the talk panel's sentences for ``static/js/table/talk.js``."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

#: The quick phrases beside the text box, by key.
PHRASES = {
    "good_hand": gettext_lazy("¡Buena mano!"),
    "well_played": gettext_lazy("Bien jugado"),
    "good_luck": gettext_lazy("Suerte"),
    "thanks": gettext_lazy("Gracias"),
    "back_soon": gettext_lazy("Vuelvo en un rato"),
    "sorry_slow": gettext_lazy("Perdón por la demora"),
}


def phrases() -> list[dict[str, str]]:
    """``[{"key", "text"}]``: the quick phrases in the request's language."""
    return [{"key": key, "text": str(text)} for key, text in PHRASES.items()]


def talk_strings() -> dict[str, str]:
    """The talk panel's words, ``{key: text}`` (``%(name)s`` placeholders filled by the
    script), handed to the page as JSON (``json_script`` "talk-strings")."""
    return {
        "title": _("Charla de la mesa"),
        "placeholder": _("Escribe un mensaje (hasta 300 caracteres)"),
        "send": _("Enviar"),
        "phrases": _("Frases rápidas"),
        "empty": _("Aún no hay mensajes."),
        # The list is empty because the reader's mutes hide every message (talk.js
        # emptyText); %(names)s is "alice" or "alice y bob".
        "hidden_people": _("Los mensajes de %(names)s están ocultos."),
        "hidden_table": _("Los mensajes de esta mesa están ocultos: has silenciado su charla."),
        "hidden_some": _("Los mensajes de las personas que silenciaste están ocultos."),
        "held_rule": _(
            "Mesa de parejas: lo que escribas durante una mano no le llega a nadie hasta "
            "que la mano termina; entonces aparece tras la jugada a la que siguió. Así ni "
            "las palabras ni el momento pueden servir de seña."
        ),
        "open_rule": _("Los mensajes llegan al momento a los jugadores de la mesa."),
        "pending": _("se entregará al acabar la mano"),
        "after_move": _("tras la jugada %(n)s de la mano %(hand)s (%(move)s)"),
        "before_first": _("al empezar la mano %(hand)s"),
        "match_over": _("con la partida ya terminada"),
        "removed": _("Mensaje retirado por un moderador: %(reason)s"),
        "you": _("tú"),
        # the talk's zone, as templates/notices/_time_zone_note.html names it
        "time_zone": _("Fechas en hora de %(zone)s."),
        "mute_table": _("Silenciar la charla de esta mesa"),
        "unmute_table": _("Volver a oír la charla de esta mesa"),
        "mute_person": _("Silenciar a %(name)s"),
        "unmute_person": _("Volver a oír a %(name)s"),
        "mute_confirm": _(
            "¿Silenciar a %(name)s? Dejarás de ver sus mensajes en todas las mesas, no solo "
            "en esta. Puedes deshacerlo aquí o en Ajustes."
        ),
        "muted_note": _("Has silenciado a %(name)s en todas las mesas"),
        "hear_again": _("Volver a oír"),
        "unmuted_person": _("Vuelves a oír a %(name)s."),
        "unmute_failed": _("No se pudo deshacer. Inténtalo de nuevo."),
        "report": _("Reportar"),
        "report_player": _("Reportar a %(name)s"),
        # The "Reportar" button of one message, for screen readers: whose, and its start.
        "report_named": _("Reportar el mensaje de %(name)s: «%(text)s»"),
        "report_message": _("Reportar este mensaje"),
        "report_player_title": _("Reportar a un jugador"),
        "report_who": _("Jugador"),
        "suspended": _("Tu cuenta está suspendida: no puedes escribir en la charla."),
        "report_reason": _("Motivo"),
        "report_text": _("Cuéntanos qué pasó (opcional)"),
        "report_send": _("Enviar reporte"),
        "report_cancel": _("Cancelar"),
        "report_sent": _("Gracias: un moderador lo revisará."),
        "sent": _("Mensaje enviado."),
        "sent_held": _("Mensaje guardado: llegará al acabar la mano."),
        "refused": _("No se pudo enviar: %(detail)s"),
        "too_long": _("Hasta 300 caracteres."),
        # The API's refusal of a blank message (moderation.services.talk_post), said by the
        # page without asking the server.
        "empty_text": _("Escribe un mensaje o elige una frase."),
        "moderation": _("Moderación: %(action)s: %(reason)s"),
    }
