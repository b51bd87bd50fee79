"""Seat rotation (R3): play goes from seat ``i`` to seat ``i + 1`` and from the last seat
back to seat 0; partners sit opposite, two seats apart (R2). Every turn order, lead
rotation and partner seat of the engine and the fast path goes through ``seat_after``."""

from __future__ import annotations

from functools import cache


def seat_after(seat: int, seats: int, steps: int = 1) -> int:
    """The seat ``steps`` places after ``seat`` at a table of ``seats`` (R3): ``steps=1``
    the next to act, ``2`` the partner opposite (R2). Seats are ``0..seats - 1``."""
    return (seat + steps) % seats


@cache
def next_seats(seats: int) -> tuple[int, ...]:
    """``next_seats(n)[s]`` is ``seat_after(s, n)``: the rotation as a table, for the fast
    path's loops."""
    return tuple(seat_after(seat, seats) for seat in range(seats))


#: ``NEXT_SEATS[n]`` is ``next_seats(n)`` for tables of 2 to 8 seats (a dict read is
#: cheaper than a cached call in the fast path's loops).
NEXT_SEATS = {seats: next_seats(seats) for seats in range(2, 9)}
