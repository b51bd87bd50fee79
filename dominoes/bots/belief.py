"""Weighing sampled deals by how well they explain the other seats' past plays.

A seat's play says something about the tiles it held: most players get rid of heavy tiles
and doubles first, keep a variety of numbers and avoid leaving ends they cannot follow
(the source page's advice, which Nino follows). For a sampled deal (``sampling``) each
past play of another seat is scored with that advice, from the tiles the deal says the
seat held at that moment (its tiles now plus those it has played since), and the deal is
weighed by the chance that a player following the advice *softly* (better plays more
likely, each point of the advice's score multiplying the odds by ``e``) made every play
the log shows. Only public information is used (R31): the log, the line, the counts and
the sampled deal itself.

The weights are then *tempered* (raised to a power ``0 < t <= 1``) so that the weighted
deals still count as at least a given share of independent samples (their effective
sample size): a few deals that explain everything better must not drown the rest.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from dominoes.bots.nino import (
    DOUBLE,
    FOLLOW,
    STUCK,
    VALUE,
    VARIETY,
    ends_score,
)
from dominoes.playout import Tables, tables_for
from dominoes.rules import Rules
from dominoes.tiles import Tile, place
from dominoes.view import SeatView

#: Odds factor per point of the advice's score (see the module doc).
SHARPNESS = 1.0
#: Tempered weights keep at least this share of the sampled deals as effective samples.
MIN_EFFECTIVE_SHARE = 0.3


@dataclass(frozen=True, slots=True)
class Decision:
    """One past play of another seat, with what was public when it was made.

    ``seat`` played tile index ``tile`` on end ``end`` (``-1``: the lead) with the line's
    ends ``ends`` (``None`` before the lead); ``after`` is the mask of the tiles the seat
    played from then on in this hand (``tile`` included); ``line`` the mask of the tiles on
    the line before the play; ``voids`` the pips each seat had shown it lacked by then.
    """

    seat: int
    tile: int
    end: int
    ends: tuple[int, int] | None
    after: int
    line: int
    voids: tuple[int, ...]


def decisions(view: SeatView, rules: Rules) -> list[Decision]:
    """The informative past plays of the other seats in the current hand.

    Skipped: the viewer's own plays; a lead the rules imposed (R7-R9 on the first hand);
    a play made before the seat's last draw (its tiles then are not its tiles now plus
    its later plays)."""
    tables = tables_for(rules.max_pip)
    index = tables.index
    seats = view.seats
    last_draw = [-1] * seats  # log position of each seat's last draw
    for position, entry in enumerate(view.log):
        if entry.kind == "draw":
            last_draw[entry.seat] = position
    forced_first_lead = view.hand_number == 0 and rules.first_lead == "highest_double"
    if rules.first_lead == "double":
        forced_first_lead = True  # a double is imposed on every hand's lead
    plays: list[tuple[int, int, int, int, tuple[int, int] | None, int, tuple[int, ...]]] = []
    ends: tuple[int, int] | None = None
    line = 0
    voids = [0] * seats
    for position, entry in enumerate(view.log):
        if entry.kind == "play" and entry.tile is not None:
            tile = index[entry.tile]
            end = -1 if ends is None or entry.end is None else entry.end
            if ends is not None and entry.end is None:
                end = ends[1] if entry.tile.has(ends[1]) else ends[0]
            plays.append((position, entry.seat, tile, end, ends, line, tuple(voids)))
            line |= 1 << tile
            ends = place(ends, tables.pips[tile], end)[1]
        elif entry.kind in ("draw", "pass") and ends is not None:
            voids[entry.seat] |= (1 << ends[0]) | (1 << ends[1])
    result = []
    after = [0] * seats
    for position, seat, tile, end, ends_before, line_before, voids_before in reversed(plays):
        after[seat] |= 1 << tile
        if seat == view.seat or position < last_draw[seat]:
            continue
        if ends_before is None and forced_first_lead:
            continue
        result.append(
            Decision(seat, tile, end, ends_before, after[seat], line_before, voids_before)
        )
    return result


class Holding:
    """Nino's score (``nino.score_move``) of the plays from one holding, on the fast path's
    tables: the bit-mask form, without the advice about the other seats (``ends_score``,
    which the caller adds with ``exhausted``).

    ``hand``: the holding mask; ``line``: the mask of the tiles on the line. Computed once
    per holding: ``counts`` (tiles held per pip), ``present`` (pips held) and
    ``exhausted`` (the pips no tile outside ``hand`` and ``line`` shows: nobody else can
    follow them)."""

    __slots__ = ("tables", "hand", "counts", "present", "exhausted")

    def __init__(self, tables: Tables, hand: int, line: int) -> None:
        self.tables = tables
        self.hand = hand
        pip_mask = tables.pip_mask
        self.counts = counts = [(hand & mask).bit_count() for mask in pip_mask]
        self.present = sum(1 for count in counts if count)
        seen = hand | line
        exhausted = 0
        for pip, mask in enumerate(pip_mask):
            if not mask & ~seen:
                exhausted |= 1 << pip
        self.exhausted = exhausted

    def score(self, tile: int, left: int, right: int) -> float:
        """The score of playing tile index ``tile`` (held, not the last tile: the domino
        is the caller's, 1e6) when it leaves the ends ``left``/``right``: heavy tiles and
        doubles first, variety kept, own tiles that follow the new ends."""
        tables = self.tables
        rest = self.hand & ~(1 << tile)
        high, low = tables.pips[tile]
        counts = self.counts
        distinct = self.present - (counts[high] == 1) - (low != high and counts[low] == 1)
        pip_mask = tables.pip_mask
        fit = (rest & (pip_mask[left] | pip_mask[right])).bit_count()
        score = VALUE * tables.value[tile] + (DOUBLE if tables.doubles >> tile & 1 else 0.0)
        score += VARIETY * distinct + FOLLOW * min(fit, 3)
        if fit == 0:
            score -= STUCK
        return score


def advice_score(
    tables: Tables,
    rules: Rules,
    seats: int,
    decision: Decision,
    hand: int,
    tile: int,
    end: int,
) -> float:
    """Nino's score (``nino.score_move``) of playing ``tile`` on ``end`` from the holding
    mask ``hand``, with what was public at ``decision``."""
    if not hand & ~(1 << tile):
        return 1e6
    left, right = place(decision.ends, tables.pips[tile], end)[1]
    holding = Holding(tables, hand, decision.line)
    return holding.score(tile, left, right) + _ends(
        rules, seats, decision, left, right, holding.exhausted
    )


def _ends(rules: Rules, seats: int, decision: Decision, left: int, right: int, dead: int) -> float:
    """``ends_score`` of the seat of ``decision`` leaving ends ``left``/``right``, with the
    voids shown by then and the ``dead`` pips (``Holding.exhausted``)."""
    partnerships = rules.partnerships(seats)
    return ends_score(seats, decision.seat, partnerships, left, right, decision.voids, dead)


def log_likelihood(
    tables: Tables,
    rules: Rules,
    seats: int,
    found: list[Decision],
    hands: list[int],
    cache: dict | None = None,
) -> float:
    """How well the holding masks ``hands`` (per seat, now) explain the plays ``found``:
    the log of the chance that soft advice-followers made them (see the module doc).
    ``cache``: a dict shared by the calls of one ``weigh`` (the advice about the ends
    depends only on the decision and the ends left, not on the deal); the result is the
    same with or without it."""
    if cache is None:
        cache = {}
    total = 0.0
    for number, decision in enumerate(found):
        hand = hands[decision.seat] | decision.after
        total += play_log_likelihood(tables, rules, seats, decision, number, hand, cache)
    return total


def play_log_likelihood(
    tables: Tables,
    rules: Rules,
    seats: int,
    decision: Decision,
    number: int,
    hand: int,
    cache: dict,
) -> float:
    """The log of the chance that a soft advice-follower holding the mask ``hand`` made
    the play of ``decision`` (number ``number`` of ``decisions``' list, the key of its
    entries in ``cache``, see ``log_likelihood``); 0 when the play says nothing (a single
    option, or the domino)."""
    gaps = play_gaps(tables, rules, seats, decision, number, hand, cache)
    return 0.0 if gaps is None else sharp_log_likelihood(gaps, SHARPNESS)


def play_gaps(
    tables: Tables,
    rules: Rules,
    seats: int,
    decision: Decision,
    number: int,
    hand: int,
    cache: dict,
) -> tuple[float, list[float]] | None:
    """How far the play of ``decision`` and every legal option of the holding mask
    ``hand`` fell short of the best option by the advice's score (points, each <= 0):
    ``(the play's gap, the options' gaps)``; ``None`` when the play says nothing (a
    single option, or the domino, whose score is 1e6 and is left out of the options).
    Arguments as ``play_log_likelihood``."""
    options = _options(tables, decision, hand)
    if len(options) < 2:
        return None
    scores, chosen = _scores(tables, rules, seats, decision, number, hand, options, cache)
    if chosen >= 1e6:
        return None
    finite = [score for score in scores if score < 1e6]
    top = max(finite)
    return chosen - top, [score - top for score in finite]


def sharp_log_likelihood(gaps: tuple[float, list[float]], sharpness: float) -> float:
    """The log of the chance that a player who follows the advice with ``sharpness``
    (each point of the score multiplies the odds by ``e ** sharpness``; 0: every legal
    play alike) made the play whose ``gaps`` are ``play_gaps``'."""
    chosen, options = gaps
    normaliser = sum(math.exp(sharpness * gap) for gap in options)
    return sharpness * chosen - math.log(normaliser)


def _options(tables: Tables, decision: Decision, hand: int) -> list[tuple[int, int]]:
    """The legal plays ``(tile index, end)`` of the holding mask ``hand`` at ``decision``."""
    if decision.ends is None:
        return [(t, -1) for t in range(len(tables.tiles)) if hand >> t & 1]
    pip_mask = tables.pip_mask
    left, right = decision.ends
    options = []
    rest = hand & pip_mask[left]
    while rest:
        low = rest & -rest
        options.append((low.bit_length() - 1, left))
        rest ^= low
    if right != left:
        rest = hand & pip_mask[right]
        while rest:
            low = rest & -rest
            options.append((low.bit_length() - 1, right))
            rest ^= low
    return options


@functools.cache
def _parts(max_pip: int) -> tuple[tuple[float, ...], tuple[float, ...], int, int]:
    """What ``Holding.score`` adds up that depends on no holding, for the double-``max_pip``
    set: per tile ``VALUE * value + DOUBLE`` (0.0 for a single); per ``distinct * width +
    fit`` ``VARIETY * distinct + FOLLOW * min(fit, 3)``; that ``width`` (tiles + 1); and
    the bits of a pip in ``_scores``' keys (the same floats, computed once)."""
    tables = tables_for(max_pip)
    base = tuple(
        VALUE * tables.value[tile] + (DOUBLE if tables.doubles >> tile & 1 else 0.0)
        for tile in range(len(tables.tiles))
    )
    width = len(tables.tiles) + 1
    kept = tuple(
        VARIETY * distinct + FOLLOW * min(fit, 3)
        for distinct in range(max_pip + 2)
        for fit in range(width)
    )
    return base, kept, width, max_pip.bit_length()


def _scores(
    tables: Tables,
    rules: Rules,
    seats: int,
    decision: Decision,
    number: int,
    hand: int,
    options: list[tuple[int, int]],
    cache: dict,
) -> tuple[list[float], float]:
    """``advice_score`` of every option and of the play made, computed together in one
    loop: the pips held and the dead pips are counted once per holding, the parts that
    depend on no holding come from ``_parts``, and the advice about the ends
    (``ends_score``) is looked up in ``cache`` by decision ``number``, ends and dead pips.
    The same numbers as ``advice_score``, in the same order of operations."""
    pip_mask, pips, other = tables.pip_mask, tables.pips, tables.other
    base, kept, width, pip_bits = _parts(tables.max_pip)
    counts = [(hand & mask).bit_count() for mask in pip_mask]
    present = len(counts) - counts.count(0)
    seen = hand | decision.line
    exhausted = 0
    for pip, mask in enumerate(pip_mask):
        if not mask & ~seen:
            exhausted |= 1 << pip
    ends = decision.ends
    prefix = ((number << len(pip_mask)) | exhausted) << (2 * pip_bits)
    scores = []
    for tile, end in [*options, (decision.tile, decision.end)]:
        rest = hand & ~(1 << tile)
        if not rest:
            scores.append(1e6)
            continue
        high, low = pips[tile]
        if ends is None:
            left, right = high, low
        elif end == ends[1] and other[tile][end] >= 0:
            left, right = ends[0], other[tile][end]
        else:
            left, right = other[tile][ends[0]], ends[1]
        distinct = present - (counts[high] == 1) - (low != high and counts[low] == 1)
        fit = (rest & (pip_mask[left] | pip_mask[right])).bit_count()
        score = base[tile] + kept[distinct * width + fit]
        if fit == 0:
            score -= STUCK
        key = prefix | (left << pip_bits) | right
        advice = cache.get(key)
        if advice is None:
            advice = cache[key] = _ends(rules, seats, decision, left, right, exhausted)
        scores.append(score + advice)
    chosen = scores.pop()
    return scores, chosen


def weigh(
    view: SeatView, rules: Rules, worlds: list[tuple[list[list[Tile]], list[Tile]]]
) -> list[float]:
    """Tempered, normalised weights for sampled deals ``worlds`` (``(holdings, stock)``
    pairs from ``sampling.sample_world``) by how well each explains the other seats'
    past plays in ``view`` (see the module doc); equal weights when no play says anything."""
    found = decisions(view, rules)
    if not found:
        return [1.0 / len(worlds)] * len(worlds) if worlds else []
    tables = tables_for(rules.max_pip)
    index = tables.index
    log_weights = []
    cache: dict = {}
    for holdings, _ in worlds:
        masks = [sum(1 << index[tile] for tile in tiles) for tiles in holdings]
        log_weights.append(log_likelihood(tables, rules, view.seats, found, masks, cache))
    return tempered_weights(log_weights)


def tempered_weights(
    log_weights: list[float], min_share: float = MIN_EFFECTIVE_SHARE
) -> list[float]:
    """Normalised weights ``exp(t * log_weights)`` with the largest power ``t`` in (0, 1]
    whose effective sample size is at least ``min_share`` of the samples."""
    n = len(log_weights)
    if n == 0:
        return []
    top = max(log_weights)
    shifted = [value - top for value in log_weights]

    def weights(power: float) -> list[float]:
        raw = [math.exp(power * value) for value in shifted]
        total = sum(raw)
        return [value / total for value in raw]

    def effective(ws: list[float]) -> float:
        return 1.0 / sum(w * w for w in ws)

    best = weights(1.0)
    if effective(best) >= min_share * n:
        return best
    low, high = 0.0, 1.0
    for _ in range(20):
        middle = (low + high) / 2
        if effective(weights(middle)) >= min_share * n:
            low = middle
        else:
            high = middle
    return weights(low)
