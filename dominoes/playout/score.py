"""The fast path's scoring (R19-R24), as ``dominoes.scoring`` scores a hand."""

from __future__ import annotations

from collections.abc import Sequence

from dominoes.playout.tables import Tables, _indices, _teams, tables_for, tiles_of
from dominoes.rules import Rules
from dominoes.scoring import blocked_team, score_blocked, score_domino
from dominoes.state import HandEnd

_DOMINO = HandEnd.DOMINO
_BLOCKED = HandEnd.BLOCKED


def score_hands(
    rules: Rules,
    hands: Sequence[int],
    end: HandEnd,
    seat: int = -1,
    leader: int = -1,
    capicua: bool = False,
) -> tuple[HandEnd, tuple[int, ...], int, tuple[int, ...]]:
    """Score final holding masks ``hands`` as ``dominoes.scoring`` would (R19-R24):
    ``end`` is ``HandEnd.DOMINO`` (then ``seat`` is the seat that went out, R20, and
    ``capicua`` says the last tile made a capicúa, ``rules.capicua_multiplier``) or
    ``HandEnd.BLOCKED`` (R21-R23, ``blocked_points``; ``leader``, the hand's leader or
    ``-1`` for none, settles a tie under ``blocked_tie == "leader_team"``). Returns
    ``(end, winners, points, counts)``."""
    end = HandEnd(end)
    teams = _teams(rules, len(hands))
    return _score(rules, tables_for(rules.max_pip), hands, end, seat, teams, leader, capicua)


def _score(
    rules: Rules,
    tables: Tables,
    hands: Sequence[int],
    end: HandEnd,
    seat: int,
    teams: tuple[tuple[int, ...], ...] | None,
    leader: int = -1,
    capicua: bool = False,
    out: tuple[int, ...] = (),
) -> tuple[HandEnd, tuple[int, ...], int, tuple[int, ...]]:
    """``(end, winners, points, counts)`` as ``dominoes.scoring`` computes it (R19-R24).

    ``seat``: the seat that went out for a domino (ignored for a block); ``leader``: the
    hand's leader (``-1``: none); ``capicua``: the domino was a capicúa; ``out``: the
    seats that left the hand (rare: scored by ``dominoes.scoring`` itself)."""
    if out:
        return _score_with_leavers(rules, tables, hands, end, seat, leader, capicua, out)
    chunks = tables.value_chunks
    if len(chunks) == 2:  # the double-six set: 28 tiles in two 14-bit chunks
        low, high = chunks
        counts = tuple([low[m & 16383] + high[m >> 14] for m in hands])
    else:
        counts = tuple([tables.mask_value(m) for m in hands])
    total = sum(counts)
    if end is _DOMINO:  # R17, R20
        if teams is None:
            winners = (seat,)
            points = total if rules.partner_tiles_count else total - counts[seat]
        else:
            winners = teams[seat]
            if rules.partner_tiles_count:
                points = total
            else:
                points = total - counts[winners[0]] - counts[winners[1]]
        if capicua:
            points *= rules.capicua_multiplier
        return end, winners, points, counts
    if teams is not None:  # R22
        return _pairs_block(rules, counts, total, teams, leader)
    return _alone_block(rules, tables, hands, counts, total)


def _pairs_block(rules, counts, total, teams, leader):
    """A blocked hand between partnerships (R22, ``blocked_pairs``, ``blocked_tie``)."""
    if rules.blocked_pairs == "lower_total" and rules.blocked_tie == "nobody":
        team0 = counts[0] + counts[2]
        team1 = total - team0
        if team0 == team1:
            return _BLOCKED, (), 0, counts
        winners = teams[0] if team0 < team1 else teams[1]
    else:
        team = blocked_team(rules, counts, leader if leader >= 0 else None)
        if team is None:
            return _BLOCKED, (), 0, counts
        winners = teams[team]
    if rules.partner_tiles_count:
        return _BLOCKED, winners, total, counts
    return _BLOCKED, winners, total - counts[winners[0]] - counts[winners[1]], counts


def _alone_block(rules, tables, hands, counts, total):
    """A blocked hand of players alone: the lowest count, ties by lowest tiles (R21, R23,
    ``blocked_points``)."""
    lowest = min(counts)
    tied = [s for s, count in enumerate(counts) if count == lowest]
    if len(tied) == 1:
        winner = tied[0]
    else:
        value = tables.value
        keys = {s: sorted(value[t] for t in _indices(hands[s])) for s in tied}
        best = min(keys.values())
        leaders = [s for s in tied if keys[s] == best]
        if len(leaders) != 1:
            return _BLOCKED, (), 0, counts
        winner = leaders[0]
    if rules.blocked_points == "differences":
        points = total - len(counts) * lowest
        if not points:
            return _BLOCKED, (), 0, counts
        return _BLOCKED, (winner,), points, counts
    return _BLOCKED, (winner,), total - lowest, counts


def _score_with_leavers(rules, tables, hands, end, seat, leader, capicua, out):
    """``_score`` when seats left the hand (``leavers_sit_out``), through ``dominoes.scoring``."""
    holdings = [tiles_of(mask, tables.max_pip) for mask in hands]
    if end is _DOMINO:
        result = score_domino(rules, holdings, seat, capicua, out)
    else:
        result = score_blocked(rules, holdings, leader if leader >= 0 else None, out)
    return result.end, result.winners, result.points, result.counts
