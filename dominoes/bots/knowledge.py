"""What a seat can work out from its ``SeatView`` alone (R31): the ends at every moment of
the hand, which pips each seat has shown it lacks, and which tiles it has not seen.

Everything here is computed from the view's public fields (line, log, counts, own tiles);
nothing reaches for hidden state.

Inference (the source page's tips: "quien robó o pasó con un número en la punta no tiene
ese número" and "cada número aparece en siete fichas"):

- A seat that draws or passes on ends ``(a, b)`` holds no tile showing ``a`` or ``b`` at that
  moment. A tile it drew and kept (the draw was not followed by its play) shows neither
  end either. Tiles drawn later may show those pips again, so the constraint is kept per
  *slot*: each tile a seat holds came from the deal or from one draw, and a slot only
  inherits the voids observed while it was in the hand.
- The unseen tiles are the set minus the seat's own tiles minus the line.
"""

from __future__ import annotations

from dataclasses import dataclass

from dominoes.rules import Rules, rules_named
from dominoes.tiles import Tile, make_tile, place
from dominoes.view import SeatView


def pip_bits(tile: Tile) -> int:
    """A bit mask of the pips a tile shows."""
    return (1 << tile.high) | (1 << tile.low)


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The public deductions of one seat about the current hand.

    - ``rules``: the profile; ``me``: the viewing seat.
    - ``unseen``: tiles that are neither in the viewer's hand nor on the line.
    - ``voids``: per seat, a pip mask of the pips it has shown it lacked at some point.
    - ``current_voids``: per seat, the pips that every tile it still holds must lack (the
      voids common to all its slots; exact with 4 seats, where nobody draws).
    - ``slots``: per seat (others only), one forbidden-pip mask per tile it holds now.
    - ``played``: per seat, the tiles it has played this hand.
    """

    rules: Rules
    me: int
    unseen: tuple[Tile, ...]
    voids: tuple[int, ...]
    current_voids: tuple[int, ...]
    slots: tuple[tuple[int, ...], ...]
    played: tuple[tuple[Tile, ...], ...]


def infer(view: SeatView) -> Knowledge:
    """Read the log of ``view`` and return what it implies (see the module doc)."""
    rules = rules_named(view.rules)
    seats = view.seats
    per_seat = rules.tiles_per_seat[seats]
    slots: list[list[int]] = [[0] * per_seat for _ in range(seats)]
    drawn_last: list[bool] = [False] * seats  # the seat's previous action was a draw
    voids = [0] * seats
    played: list[list[Tile]] = [[] for _ in range(seats)]
    ends: tuple[int, int] | None = None
    for entry in view.log:
        seat = entry.seat
        if entry.kind == "play" and entry.tile is not None:
            tile = entry.tile
            played[seat].append(tile)
            _remove_played_slot(slots[seat], tile, drawn_last[seat])
            drawn_last[seat] = False
            ends = place(ends, tile, entry.end)[1]
        elif entry.kind in ("draw", "pass"):
            if ends is not None:
                mask = (1 << ends[0]) | (1 << ends[1])
                voids[seat] |= mask
                slots[seat] = [slot | mask for slot in slots[seat]]
            else:
                mask = 0
            if entry.kind == "draw":
                slots[seat].append(mask)  # kept unless the seat plays it next
                drawn_last[seat] = True
            else:
                drawn_last[seat] = False
    me = view.seat
    for seat in range(seats):
        _fit_slots(slots[seat], view.tile_counts[seat])
    mine = set(view.tiles)
    on_line = {make_tile(a, b) for a, b in view.line}
    unseen = tuple(t for t in rules.tile_set() if t not in mine and t not in on_line)
    current = []
    for seat in range(seats):
        common = (1 << (rules.max_pip + 1)) - 1
        for mask in slots[seat]:
            common &= mask
        current.append(common if slots[seat] else 0)
    slots[me] = []
    current[me] = 0
    return Knowledge(
        rules=rules,
        me=me,
        unseen=unseen,
        voids=tuple(voids),
        current_voids=tuple(current),
        slots=tuple(tuple(s) for s in slots),
        played=tuple(tuple(p) for p in played),
    )


def _remove_played_slot(seat_slots: list[int], tile: Tile, just_drew: bool) -> None:
    """A seat played ``tile``: drop the slot it came from (the tile just drawn, R14, else
    the most constrained slot that could have held it, which keeps the remaining slots as
    permissive as the log allows)."""
    if just_drew and seat_slots:
        seat_slots.pop()
    elif seat_slots:
        bits = pip_bits(tile)
        fitting = [i for i, mask in enumerate(seat_slots) if not mask & bits]
        pool = fitting or list(range(len(seat_slots)))
        index = max(pool, key=lambda i: (bin(seat_slots[i]).count("1"), -i))
        seat_slots.pop(index)


def _fit_slots(seat_slots: list[int], want: int) -> None:
    """Make ``seat_slots`` as many as the seat's tiles (``want``): unknown slots added; too
    many (should not happen) cut to the least constrained."""
    if len(seat_slots) > want:
        seat_slots.sort(key=lambda mask: bin(mask).count("1"))
        del seat_slots[want:]
    while len(seat_slots) < want:
        seat_slots.append(0)
