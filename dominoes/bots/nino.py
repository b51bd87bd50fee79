"""Nino, the medium bot: the source page's advice for beginners, applied move by move."""

from __future__ import annotations

import random

from dominoes.bots.base import Bot
from dominoes.bots.knowledge import Knowledge, infer
from dominoes.seats import seat_after
from dominoes.state import Play
from dominoes.tiles import place
from dominoes.view import SeatView

# Weights of Nino's score, in points-like units.
VALUE = 1.0  # "deshazte pronto de las fichas pesadas"
DOUBLE = 4.0  # "... y de las dobles"
VARIETY = 1.5  # per distinct pip kept: "conserva fichas de números distintos"
FOLLOW = 2.0  # per own tile (up to 3) that fits the new ends
STUCK = 6.0  # no own tile fits the new ends
OPP_BLOCKED_NEXT = 6.0  # the next seat, a rival, shown void on both new ends
OPP_BLOCKED_HALF = 1.5  # ... on one of them
OPP_BLOCKED_OTHER = 3.0  # another rival void on both new ends
PARTNER_CLOSED = 8.0  # both new ends are pips the partner lacks: "no le cierres el juego"
PARTNER_HALF = 2.0


def lacks(knowledge: Knowledge, seat: int, pip: int, exhausted: int) -> bool:
    """True when ``seat`` is known to hold no tile showing ``pip`` (it passed or drew on it,
    or every tile with that pip is in plain sight)."""
    return bool((knowledge.current_voids[seat] | exhausted) >> pip & 1)


def exhausted_pips(knowledge: Knowledge) -> int:
    """A mask of pips no unseen tile shows: nobody else can follow them."""
    seen = 0
    for tile in knowledge.unseen:
        seen |= (1 << tile.high) | (1 << tile.low)
    return ((1 << (knowledge.rules.max_pip + 1)) - 1) & ~seen


def score_move(
    view: SeatView, knowledge: Knowledge, move: Play, exhausted: int | None = None
) -> float:
    """Nino's score for ``move``; the highest score is played."""
    if exhausted is None:
        exhausted = exhausted_pips(knowledge)
    tile = move.tile
    remaining = [t for t in view.tiles if t != tile]
    if not remaining:
        return 1e6  # domino
    left, right = place(view.ends, tile, move.end)[1]
    score = VALUE * tile.value + (DOUBLE if tile.is_double else 0.0)
    pips = set()
    fit = 0
    for t in remaining:
        pips.add(t.high)
        pips.add(t.low)
        if t.has(left) or t.has(right):
            fit += 1
    score += VARIETY * len(pips) + FOLLOW * min(fit, 3)
    if fit == 0:
        score -= STUCK
    partnerships = knowledge.rules.partnerships(view.seats)
    return score + ends_score(
        view.seats, view.seat, partnerships, left, right, knowledge.current_voids, exhausted
    )


def ends_score(
    seats: int,
    me: int,
    partnerships: bool,
    left: int,
    right: int,
    voids: tuple[int, ...],
    exhausted: int,
) -> float:
    """The advice about the other seats for a play by ``me`` leaving ends ``left``/``right``
    (pips): a bonus when the next rival (and less, another rival) lacks them, a penalty
    when the partner does ("no le cierres el juego"). ``voids[seat]`` is a pip mask of
    what each seat is known to lack; ``exhausted`` the pips nobody else can hold."""
    return ends_advice(other_seats(seats, me, partnerships, voids, exhausted), left, right)


def other_seats(
    seats: int, me: int, partnerships: bool, voids: tuple[int, ...], exhausted: int
) -> tuple[tuple[int, float, float], ...]:
    """``ends_score``'s view of the other seats, for any ends: per seat after ``me``, in
    turn order, ``(lacking, half, full)``: the pip mask it lacks, and what leaving it one
    or two ends it lacks is worth (negative for the partner)."""
    partner = seat_after(me, seats, 2) if partnerships else None
    found = []
    for offset in range(1, seats):
        seat = seat_after(me, seats, offset)
        lacking = voids[seat] | exhausted
        if seat == partner:
            found.append((lacking, -PARTNER_HALF, -PARTNER_CLOSED))
        elif offset == 1:
            found.append((lacking, OPP_BLOCKED_HALF, OPP_BLOCKED_NEXT))
        else:
            found.append((lacking, 0.0, OPP_BLOCKED_OTHER))
    return tuple(found)


def ends_advice(others: tuple[tuple[int, float, float], ...], left: int, right: int) -> float:
    """``ends_score`` for the ends ``left``/``right`` from ``other_seats``' table."""
    score = 0.0
    for lacking, half, full in others:
        blocked = (lacking >> left & 1) + (lacking >> right & 1)
        score += full if blocked == 2 else half * blocked
    return score


class Nino(Bot):
    """Nino (medium) follows the beginner's advice from the rules page.

    Each legal play gets a score: the tile's value (heavy tiles first) plus a bonus for
    doubles; a bonus for every distinct pip left in hand (variety) and for own tiles that
    can follow the ends the play leaves; a penalty when none can. It reads the public log:
    a seat that drew or passed on a pip lacks it, and a pip whose seven tiles are all in
    sight is dead. It likes leaving ends the next rival lacks, and with a partner it avoids
    leaving ends the partner has shown it lacks. Ties are broken at random.
    """

    name = "nino"
    display_name = "Nino"
    level = "medium"

    def choose(self, view: SeatView, rng: random.Random) -> Play:
        knowledge = infer(view)
        exhausted = exhausted_pips(knowledge)
        scored = [(score_move(view, knowledge, move, exhausted), move) for move in view.legal_moves]
        best = max(score for score, _ in scored)
        choices = [move for score, move in scored if score >= best - 1e-9]
        return choices[rng.randrange(len(choices))]
