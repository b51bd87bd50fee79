"""The quick rollout policy of Abuela Quelonia's playouts (``dominoes.bots.simulate``):
dump the heavy tiles, keep the tiles that follow (``greedy_playout``), on ``Position``.

Most of her thinking time is spent here (a ``cuban`` choice plays out some 4000 hands),
so the common case runs in one loop that keeps the ends and the seat to act in local
variables and reads each end's fitting tiles from a table (``_fitting``) instead of going
through ``Position.legal_plays`` and ``Position.play`` move by move. It is the same policy
play for play (``tests/engine/test_greedy_playout.py`` checks it against the plain loop on
every profile): the rare cases (a lead, seats that left the hand, ``draw_optional``, a
seat that must draw) go through ``Position``'s own methods.
"""

from __future__ import annotations

from functools import cache

from dominoes.playout.position import Position
from dominoes.playout.tables import Tables, ends_after, tables_for
from dominoes.seats import NEXT_SEATS
from dominoes.state import HandEnd

_DOMINO = HandEnd.DOMINO
_BLOCKED = HandEnd.BLOCKED
#: Twice the policy's reward for ``n`` own tiles that follow the new ends (1.5 each, up to
#: three), by ``n``: the loop scores in half points, as integers.
_FOLLOW = tuple(3 * min(n, 3) for n in range(64))


def greedy_playout(pos: Position, tiles_left: int = 0) -> tuple | None:
    """Play ``pos`` (in place) to the end, every seat following a quick heuristic: go out
    when possible, else dump heavy tiles and doubles while keeping tiles that follow the
    new ends (a richer Nino-like policy measured no better). A seat choosing to draw or to
    pass (``draw_optional``, ``first_double``) always draws, one tile at a time, until it
    fits or the stock is empty (then it passes): the same simple rule the service and the
    arena apply for every bot (``tables.services.bot_play``, ``dominoes.arena``).
    Returns ``pos.result()``: ``(end, winners, points, counts)``. With ``tiles_left`` > 0
    it stops as soon as the hands of the seats still playing hold at most that many tiles
    and the stock is empty (a solved endgame with draws to come costs far too much), and
    returns ``pos.result()``, ``None`` while the hand is on (``endgame.solved_playout``
    plays on from there). A play's score is the tile's value (R1), 4 for a double and 1.5
    per own tile left that follows the new ends (up to three); the first best play in
    ``Position.legal_plays`` order is played. Raises nothing for a legal position."""
    countdown = max(0, pos.tiles_in_play() - tiles_left) if tiles_left else -1
    fast = not pos.out and not pos.rules.draw_optional
    while pos.end is None:
        if fast and pos.left >= 0:
            return _fast_loop(pos, tiles_left, countdown)
        if not countdown:  # each play takes a tile; a draw may have added some
            countdown = pos.tiles_in_play() - tiles_left
            if countdown <= 0:
                if pos.drawn >= len(pos.stock):
                    break
                countdown = 1  # not while a draw may come: look again next play
        countdown -= 1
        plays = pos.legal_plays()
        if not plays:  # a draw-or-pass choice (draw_optional): draw
            pos.draw()
            continue
        pos.play(*_greedy_choice(pos, plays))
    return pos.result()


def _greedy_choice(pos: Position, plays: list[tuple[int, int]]) -> tuple[int, int]:
    """The policy's play among ``plays`` (``pos.legal_plays()``, not empty): the first
    that goes out, else the first with the best score (see ``greedy_playout``)."""
    if len(plays) == 1:
        return plays[0]
    tables = pos.tables
    value, pip_mask = tables.value, tables.pip_mask
    hand = pos.hands[pos.turn]
    best = plays[0]
    best_score = -1e9
    for tile, end in plays:
        rest = hand & ~(1 << tile)
        if not rest:
            return tile, end
        new_left, new_right = ends_after(tables, pos.left, pos.right, tile, end)
        fit = (rest & (pip_mask[new_left] | pip_mask[new_right])).bit_count()
        score = value[tile] + (4 if tables.doubles >> tile & 1 else 0) + 1.5 * min(fit, 3)
        if score > best_score:
            best, best_score = (tile, end), score
    return best


@cache
def _fitting(max_pip: int) -> tuple[dict[int, tuple[tuple[int, int, int, int], ...]], ...]:
    """Per pip ``p`` of the double-``max_pip`` set, every holding's tiles showing ``p``:
    ``table[p][hand & pip_mask[p]]`` is, by tile index, ``(tile, its bit, its other pip
    from p, twice its value plus 8 for a double)`` (the score in half points before the
    tiles that follow). Built once per set: 1024 holdings a pip at double-nine."""
    tables: Tables = tables_for(max_pip)
    result = []
    for pip, mask in enumerate(tables.pip_mask):
        entries = []
        for tile in range(len(tables.tiles)):
            if mask >> tile & 1:
                base = 2 * tables.value[tile] + (8 if tables.doubles >> tile & 1 else 0)
                entries.append((tile, 1 << tile, tables.other[tile][pip], base))
        by_holding: dict[int, tuple[tuple[int, int, int, int], ...]] = {}
        for subset in range(1 << len(entries)):
            chosen = tuple(entry for k, entry in enumerate(entries) if subset >> k & 1)
            by_holding[sum(entry[1] for entry in chosen)] = chosen
        result.append(by_holding)
    return tuple(result)


def _fast_loop(pos: Position, tiles_left: int, countdown: int) -> tuple | None:
    """``greedy_playout`` from a position with ends, no seat out and no ``draw_optional``:
    the same plays, the ends and the seat to act kept in locals and written back to
    ``pos`` before any of its methods runs (a draw, a block, the end, ``tiles_left``)."""
    fitting = _fitting(pos.tables.max_pip)
    pip_mask = pos.tables.pip_mask
    hands, nxt, stock_size = pos.hands, NEXT_SEATS[pos.seats], len(pos.stock)
    left, right, turn, passes = pos.left, pos.right, pos.turn, pos.passes
    while True:
        if not countdown:  # as greedy_playout's countdown (only with tiles_left)
            countdown = pos.tiles_in_play() - tiles_left
            if countdown <= 0:
                if pos.drawn >= stock_size:
                    pos.left, pos.right, pos.turn, pos.passes = left, right, turn, passes
                    return None
                countdown = 1
        countdown -= 1
        hand = hands[turn]
        tile, bit, new_left, new_right = _fast_choice(fitting, pip_mask, hand, left, right)
        hand ^= bit
        hands[turn] = hand
        if not hand:
            return _went_out(pos, turn, tile, left, right, new_left, new_right)
        left, right = new_left, new_right
        seat = nxt[turn]
        fit = pip_mask[left] | pip_mask[right]
        if hands[seat] & fit:
            turn, passes = seat, 0
            continue
        pos.left, pos.right, pos.passes = left, right, 0
        if pos.drawn < stock_size:  # the seat draws (R14): Position's own steps
            pos._settle(seat)
        else:
            _passes(pos, seat, fit)
        if pos.end is not None:
            return pos.result()
        turn, passes = pos.turn, pos.passes


def _fast_choice(fitting, pip_mask, hand: int, left: int, right: int) -> tuple[int, int, int, int]:
    """The policy's play from ``hand`` at ends ``left``/``right`` (``_greedy_choice``
    without building the plays): ``(tile, its bit, new left end, new right end)``. On
    equal ends a tile goes on the right, as ``Position.play`` places it."""
    best_score = -1
    if left == right:
        for tile, bit, other, base in fitting[left][hand & pip_mask[left]]:
            score = base + _FOLLOW[((hand ^ bit) & (pip_mask[left] | pip_mask[other])).bit_count()]
            if score > best_score:
                best_score, best = score, (tile, bit, left, other)
        return best
    right_mask, left_mask = pip_mask[right], pip_mask[left]
    for tile, bit, other, base in fitting[left][hand & left_mask]:
        score = base + _FOLLOW[((hand ^ bit) & (pip_mask[other] | right_mask)).bit_count()]
        if score > best_score:
            best_score, best = score, (tile, bit, other, right)
    for tile, bit, other, base in fitting[right][hand & right_mask]:
        score = base + _FOLLOW[((hand ^ bit) & (left_mask | pip_mask[other])).bit_count()]
        if score > best_score:
            best_score, best = score, (tile, bit, left, other)
    return best


def _went_out(pos, seat, tile, left, right, new_left, new_right) -> tuple:
    """``seat`` played its last tile ``tile`` on ends ``left``/``right``: the domino (R17),
    a capicúa when it fitted both ends under a profile that pays one; ``pos.result()``."""
    if left != right and pos.rules.capicua_multiplier != 1:
        other = pos.tables.other[tile]
        pos.capicua = other[left] >= 0 and other[right] >= 0
    pos.left, pos.right, pos.turn, pos.passes = new_left, new_right, seat, 0
    pos._finish(_DOMINO, seat)
    return pos.result()


def _passes(pos: Position, seat: int, fit: int) -> None:
    """With the stock empty, ``seat`` and the seats after it that hold nothing fitting
    ``fit`` pass (R15) until one does, which gets the turn (``pos.passes`` counts them);
    when nobody holds a fitting tile the hand is blocked at ``seat`` (R18; ``pos`` is
    finished, its turn the seat that passed, as ``steps.no_fit_step`` leaves it)."""
    hands, nxt = pos.hands, NEXT_SEATS[pos.seats]
    held = 0
    for hand in hands:
        held |= hand
    if not held & fit:
        pos.turn, pos.passes = seat, 1
        pos._finish(_BLOCKED, -1)
        return
    passes = 0
    while not hands[seat] & fit:
        passes += 1
        seat = nxt[seat]
    pos.turn, pos.passes = seat, passes
