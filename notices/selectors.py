"""Reading notices: the inbox, the unread count, and a notice's sentence in the active
language (the inbox, the API and the push all say the same)."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from django.db.models import QuerySet
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.time_zones import time_zone_of, written_in_zone
from notices.models import NoticePreferences, Notification
from tables import naming
from tables.models import Table

Kind = Notification.Kind


def inbox(user, *, unread: bool = False) -> QuerySet[Notification]:
    """``user``'s notices, newest first; only the unread ones with ``unread``."""
    rows = Notification.objects.filter(recipient=user)
    if unread:
        rows = rows.filter(read_at__isnull=True)
    return rows.order_by("-created_at", "-pk")


def unread_count(user, *, shown_table: int | None = None) -> int:
    """How many of ``user``'s notices are unread (0 when signed out), leaving out those of
    table ``shown_table``, the one the page shows: its read marks them read once the
    page has gone (``notices.table_reads``)."""
    if not getattr(user, "is_authenticated", False):
        return 0
    rows = Notification.objects.filter(recipient=user, read_at__isnull=True)
    if shown_table is not None:
        rows = rows.exclude(table_id=shown_table)
    return rows.count()


def saved_time_zone(user) -> tuple[str, bool] | None:
    """``(time_zone, time_zone_chosen)`` of ``user``'s preferences (a user or a user's
    id), ``None`` while they have none: the reader ``accounts.time_zones`` answers every
    app's ``time_zone_of`` with (registered in ``notices.apps``). One query."""
    rows = NoticePreferences.objects.filter(user=user)
    return rows.values_list("time_zone", "time_zone_chosen").first()


def _written(facts: dict, field: str, zone: ZoneInfo | None, recipient_id: int) -> str:
    """The time in ``facts[field]`` (ISO 8601) written in ``zone``, else in the zone of
    the player ``recipient_id``; "" when there is none."""
    when = parse_datetime(facts[field]) if facts.get(field) else None
    if when is None:
        return ""
    return written_in_zone(when, zone or time_zone_of(recipient_id))


def names(items: list[str]) -> str:
    """``["ana", "Nino", "bob"]`` -> ``"ana, Nino y bob"`` (``and`` in English): the
    non-empty ``items`` as ``tables.naming.listed`` joins every list of names."""
    return naming.listed([item for item in items if item])


def with_names(facts: dict, kind: str) -> str:
    """Who else plays, from the payload ``facts`` of a notice of ``kind``, as "Mis mesas"
    says it (``tables.naming``): "con bob y Nino", "con carol (tu pareja) contra bob y
    dave"; "" when nobody is named. A notice written before its payload had ``partner``
    (2026-12) named the rivals alone ("contra ana y Nino"), or at a start everyone."""
    others = [name for name in facts.get("others", []) if name]
    if not others:
        return ""
    if "partner" not in facts and kind != Kind.TABLE_STARTED:
        return _("contra %(names)s") % {"names": names(others)}
    partner = facts.get("partner")
    rivals = [name for name in others if name != partner]
    return naming.with_names([partner] if partner else [], rivals)


def outcome_label(outcome: str) -> str:
    """The translated reason a match ended (``Table.Outcome``)."""
    return str(dict(Table.Outcome.choices).get(outcome, outcome))


def score_lines(payload: dict) -> list[tuple[str, int]]:
    """``(name, score)`` once per player seated (a two-hand player once)."""
    pairs = zip(payload.get("players", []), payload.get("scores", []), strict=False)
    return list(dict.fromkeys((name, score) for name, score in pairs if name))


def moderation_sentence(facts: dict, until: str = "") -> str:
    """A moderator's action as its players read it: "Mesa cerrada por un moderador:
    lenguaje ofensivo", "Un moderador te avisa: …", "Un moderador te suspendió hasta el
    …: …" (``until``: the end of a suspension as ``written_in_zone`` writes it)."""
    values = {"reason": facts.get("reason", ""), "id": facts.get("table")}
    action = facts.get("action")
    if action == "close_table":
        return _("Mesa %(id)s cerrada por un moderador: %(reason)s") % values
    if action == "suspend":
        values["until"] = until
        return (
            _(
                "Un moderador te suspendió hasta el %(until)s: no puedes crear mesas, "
                "sentarte ni escribir (sí terminar tus partidas). Motivo: %(reason)s"
            )
            % values
        )
    return _("Un moderador te avisa: %(reason)s") % values


def _hand_scored(winners: int, points: int, won: bool) -> str:
    """The hand-over sentence with ``%(hand)s``, ``%(id)s``, ``%(winners)s`` and
    ``%(points)s`` to fill: "se anota" for one winner, "se anotan" for a pair, and
    "punto" or "puntos" by ``points`` (R25); to a reader who ``won``, "te anotas", or
    "tu pareja y tú se anotan" with a partner."""
    if won and winners == 1:
        return ngettext(
            "Terminó la mano %(hand)s de la mesa %(id)s: te anotas %(points)s punto",
            "Terminó la mano %(hand)s de la mesa %(id)s: te anotas %(points)s puntos",
            points,
        )
    if won:
        return ngettext(
            "Terminó la mano %(hand)s de la mesa %(id)s: tu pareja y tú se anotan %(points)s punto",
            "Terminó la mano %(hand)s de la mesa %(id)s: tu pareja y tú se anotan %(points)s "
            "puntos",
            points,
        )
    if winners == 1:
        return ngettext(
            "Terminó la mano %(hand)s de la mesa %(id)s: %(winners)s se anota %(points)s punto",
            "Terminó la mano %(hand)s de la mesa %(id)s: %(winners)s se anota %(points)s puntos",
            points,
        )
    return ngettext(
        "Terminó la mano %(hand)s de la mesa %(id)s: %(winners)s se anotan %(points)s punto",
        "Terminó la mano %(hand)s de la mesa %(id)s: %(winners)s se anotan %(points)s puntos",
        points,
    )


def _match_over(facts: dict, values: dict) -> str:
    """The end of a match: who won and why, or who cancelled a table still waiting for
    players (its creator; ``left`` names them, ``started`` is false)."""
    values |= {"why": outcome_label(facts.get("outcome", "")), "name": facts.get("left", "")}
    cancelled = not facts.get("started", True) and facts.get("outcome") == "abandoned"
    if cancelled and values["name"]:
        return _("%(name)s canceló la mesa %(id)s antes de empezar") % values
    if facts.get("won"):
        return _("¡Ganaste la partida de la mesa %(id)s! (%(why)s)") % values
    return _("Terminó la partida de la mesa %(id)s (%(why)s)") % values


def _seat_left(facts: dict, values: dict) -> str:
    """A guest gave up their seat at a waiting table; to its creator (``creator``), with
    what to do: the seat has a fresh link to share (R30)."""
    values["name"] = facts.get("left", "")
    if facts.get("creator"):
        return (
            _(
                "%(name)s dejó su asiento en la mesa %(id)s: el asiento tiene un enlace "
                "nuevo (el anterior ya no sirve); compártelo desde la mesa"
            )
            % values
        )
    return _("%(name)s dejó su asiento en la mesa %(id)s") % values


def describe(notice: Notification, zone: ZoneInfo | None = None) -> str:
    """What happened, in one sentence of the active language, e.g. "Te toca en la mesa 4:
    con carol (tu pareja) contra bob y dave". A deadline or a suspension's end is written
    in ``zone``, else in the recipient's saved zone (``time_zone_of``), named as the
    e-mails name it ("juega antes del 5 de diciembre de 2025 a las 13:30
    (America/Havana)"). Public facts only: never a tile."""
    facts = notice.payload
    values = {"id": notice.table_id, "others": with_names(facts, notice.kind)}
    if notice.kind == Kind.YOUR_TURN:
        if values["others"]:
            return _("Te toca en la mesa %(id)s: %(others)s") % values
        return _("Te toca en la mesa %(id)s") % values
    if notice.kind == Kind.REMINDER:
        values["deadline"] = _written(facts, "deadline", zone, notice.recipient_id)
        return _("Se acaba tu tiempo en la mesa %(id)s: juega antes del %(deadline)s") % values
    if notice.kind == Kind.HAND_OVER:
        values |= {"hand": facts.get("hand"), "winners": names(facts.get("winners", []))}
        values["points"] = facts.get("points") or 0
        if values["winners"]:
            sentence = _hand_scored(len(facts["winners"]), values["points"], facts.get("won"))
            return sentence % values
        return _("Terminó la mano %(hand)s de la mesa %(id)s, sin puntos") % values
    if notice.kind == Kind.MATCH_OVER:
        return _match_over(facts, values)
    if notice.kind == Kind.TALK:
        values |= {"count": facts.get("count", 1), "authors": names(facts.get("authors", []))}
        return (
            ngettext(
                "%(authors)s escribió en la mesa %(id)s",
                "%(authors)s: %(count)s mensajes nuevos en la mesa %(id)s",
                values["count"],
            )
            % values
        )
    if notice.kind == Kind.MODERATION:
        return moderation_sentence(facts, _written(facts, "until", zone, notice.recipient_id))
    if notice.kind == Kind.REMATCH_OFFERED:
        values["name"] = facts.get("by", "")
        if values["name"]:
            return _("%(name)s te propone la revancha en la mesa %(id)s") % values
        return _("Te proponen la revancha en la mesa %(id)s") % values
    if notice.kind == Kind.SEAT_LEFT:
        return _seat_left(facts, values)
    if notice.kind == Kind.FRIEND_JOINED:
        values["name"] = facts.get("joined", "")
        return _("%(name)s se sentó a la mesa %(id)s") % values
    if values["others"]:
        return _("Empezó la partida de la mesa %(id)s: %(others)s") % values
    return _("Empezó la partida de la mesa %(id)s") % values  # a notice of before 2026-12
