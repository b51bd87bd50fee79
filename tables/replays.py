"""Reads about a finished match's replay: the positions the replay page steps through, the
state of its analysis and its public link. Only finished (or closed)
tables have any of it: nothing here describes a hand still in play (R31)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from dominoes import PROFILES
from dominoes.record import Record, load_record, replay_match
from dominoes.steps import replay_steps
from dominoes.view import summarize_hand
from tables import selectors
from tables.errors import not_found
from tables.models import MatchAnalysis, PublicReplay, Seat, Table
from tables.seating import holds_two_hands, player_name


def replay_data(table: Table, viewer=None) -> dict[str, Any]:
    """What ``static/js/replay.js`` draws: ``id``, ``players`` (names by seat), ``bots``
    (whether each seat was a bot, tagged as on the table page), ``seats``, ``pairs`` (the
    table plays in two partnerships, R2: each seat shows its pair's points, as the table
    page does), ``your_seats`` (the seats ``viewer`` held, by index, named in the second
    person as on the table page; empty for anyone else), ``two_hands`` (one person holds
    both seats of a pair, ``seven_plus_seven``: each seat named with its number), ``target``
    and ``dominoes.steps.replay_steps`` of the record (``hands``, ``answer``), each hand
    with its ``result`` (``hand_results``). Raises ``not_found`` when the table has no
    finished hand."""
    record = selectors.table_record(table)
    if not record["hands"]:
        raise not_found()
    loaded = load_record(record)
    steps = replay_steps(loaded)
    for hand, result in zip(steps["hands"], hand_results(loaded), strict=True):
        hand["result"] = result
    seats = list(Seat.objects.filter(table=table).select_related("user").order_by("index"))
    return {
        "id": table.pk,
        "players": [player_name(seat, seats, table.rules) for seat in seats],
        "bots": [seat.is_bot for seat in seats],
        "seats": table.seats,
        "pairs": PROFILES[table.rules].partnerships(table.seats),
        "your_seats": [seat.index for seat in seats if _held_by(seat, viewer)],
        "two_hands": holds_two_hands(table.rules),
        "target": table.target,
        **steps,
    }


def hand_results(record: Record) -> list[dict[str, Any] | None]:
    """Per recorded hand, how it ended as the table page shows it when a hand is over
    (``dominoes.view.summarize_hand``: ``end``, ``winners``, ``points``, ``counts``,
    ``holdings``, ``explanation``, ``capicua`` when it was one; R17-R23), or ``None`` for
    a hand that did not end (the match ended in it)."""
    match, _ = replay_match(record)
    results: list[dict[str, Any] | None] = []
    for hand in match.hands if match is not None else ():
        if hand.result is None:
            results.append(None)
            continue
        summary = summarize_hand(hand, match.rules).to_dict()
        for shown_elsewhere in ("line", "log", "seed", "seed_sha256"):
            del summary[shown_elsewhere]
        results.append(summary)
    return results


def _held_by(seat: Seat, viewer) -> bool:
    """Whether ``viewer`` (a user, anonymous, or ``None``) held ``seat``."""
    return seat.user_id is not None and seat.user_id == getattr(viewer, "pk", None)


def analysis_state(table: Table) -> dict[str, Any]:
    """``{"status", "progress": {"done", "total"}, "result"}``: ``status`` is ``none``
    (never asked for), ``queued``, ``running``, ``done`` or ``failed``; ``progress``
    counts judged moves; ``result`` is the record's ``analysis`` section once done, else
    ``None``."""
    row = MatchAnalysis.objects.filter(table=table).first()
    if row is None:
        return {"status": "none", "progress": {"done": 0, "total": 0}, "result": None}
    done = row.status == MatchAnalysis.Status.DONE
    return {
        "status": row.status,
        "progress": {"done": row.done, "total": row.total},
        "result": row.result if done else None,
    }


def record_with_analysis(table: Table) -> dict[str, Any]:
    """The table's ``dominoes-record/1`` (``selectors.table_record``) with its optional
    ``analysis`` section once the analysis is done (docs/RECORD.md)."""
    record = selectors.table_record(table)
    if not table.is_active:
        result = (
            MatchAnalysis.objects.filter(table=table, status=MatchAnalysis.Status.DONE)
            .values_list("result", flat=True)
            .first()
        )
        if result is not None:
            record["analysis"] = result
    return record


def public_link(link: PublicReplay | None) -> dict[str, str] | None:
    """A public replay link as JSON: ``{"token", "path"}``, or ``None``."""
    if link is None:
        return None
    return {"token": link.token, "path": reverse("tables:public-replay", args=[link.token])}


def public_link_of(table: Table) -> dict[str, str] | None:
    """The table's public replay link (``public_link``), ``None`` while it has none."""
    return public_link(PublicReplay.objects.filter(table=table).first())


def public_table(token: str) -> Table:
    """The finished table whose public replay link is ``token``. Raises ``not_found`` for
    an unknown or revoked token (or, defensively, a table still in play)."""
    link = PublicReplay.objects.select_related("table").filter(token=token).first()
    if link is None or link.table.is_active or link.table.state is None:
        raise not_found()
    return link.table
