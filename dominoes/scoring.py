"""Scoring a finished hand (R19-R24) and the match scoreboard (R25)."""

from __future__ import annotations

from collections.abc import Sequence

from dominoes.rules import Rules
from dominoes.state import HandEnd, HandResult, MatchOutcome, MatchState
from dominoes.tiles import Tile


def counts_of(holdings: Sequence[Sequence[Tile]]) -> tuple[int, ...]:
    """Each seat's count: the sum of the values of the tiles it holds, in points (R19)."""
    return tuple(sum(tile.high + tile.low for tile in tiles) for tiles in holdings)


def team_members(rules: Rules, seats: int, seat: int) -> tuple[int, ...]:
    """The seats on ``seat``'s side, sorted: its partnership with 4 seats, else itself (R2)."""
    if rules.partnerships(seats):
        team = rules.team_of(seat, seats)
        return tuple(s for s in range(seats) if rules.team_of(s, seats) == team)
    return (seat,)


def pair_totals(rules: Rules, counts: Sequence[int]) -> tuple[int, int]:
    """The summed counts of the two pairs (team 0, team 1; ``Rules.team_of``) at a
    partnership table, from the per-seat ``counts`` (R19, R22)."""
    seats = len(counts)
    totals = [0, 0]
    for seat, count in enumerate(counts):
        totals[rules.team_of(seat, seats)] += count
    return totals[0], totals[1]


def score_domino(
    rules: Rules,
    holdings: Sequence[Sequence[Tile]],
    seat: int,
    capicua: bool = False,
    out: Sequence[int] = (),
) -> HandResult:
    """The result when ``seat`` played its last tile (R17, R20).

    The seat (with its partner, R20) scores its rivals' counts; the partner's tiles count
    only when ``rules.partner_tiles_count``. A ``capicua`` domino (the last tile a
    non-double fitting both different ends) scores ``rules.capicua_multiplier`` times.
    The seats in ``out`` left the hand (``Rules.leavers_sit_out``): their tiles count for
    nobody (``counts`` still shows them).
    """
    seats = len(holdings)
    counts = counts_of(holdings)
    winners = team_members(rules, seats, seat)
    if rules.partner_tiles_count:
        points = sum(count for s, count in enumerate(counts) if s not in out)
    else:
        points = sum(count for s, count in enumerate(counts) if s not in winners and s not in out)
    if capicua and rules.capicua_multiplier != 1:
        return HandResult(
            HandEnd.DOMINO, winners, points * rules.capicua_multiplier, counts, capicua=True
        )
    return HandResult(HandEnd.DOMINO, winners, points, counts)


def _lowest_tiles_winner(holdings: Sequence[Sequence[Tile]], tied: Sequence[int]) -> int | None:
    """Among ``tied`` seats, the one whose tile values, lowest first, are lowest (R23).

    Compares each seat's lowest tile value, then the next lowest, and so on; ``None`` when
    the best sequence is shared (nobody scores).
    """
    keys = {seat: sorted(tile.high + tile.low for tile in holdings[seat]) for seat in tied}
    best = min(keys.values())
    leaders = [seat for seat in tied if keys[seat] == best]
    return leaders[0] if len(leaders) == 1 else None


def blocked_team(rules: Rules, counts: Sequence[int], leader: int | None = None) -> int | None:
    """The pair (0: seats 0 and 2, 1: seats 1 and 3) that wins a blocked partnership hand
    with ``counts`` (R22), or ``None`` when nobody does.

    ``rules.blocked_pairs == "lower_total"`` (R22): the pair with the lower summed count;
    ``"lowest_player"`` (cuban): the pair of the player with the lowest count. A tie (equal
    totals, or the lowest count held in both pairs) goes to the pair of ``leader`` (the
    seat that led the hand) under ``rules.blocked_tie == "leader_team"``, else to nobody.
    """
    if rules.blocked_pairs == "lowest_player":
        lowest = min(counts)
        seats = len(counts)
        sides = {rules.team_of(seat, seats) for seat, count in enumerate(counts) if count == lowest}
        if len(sides) == 1:
            return sides.pop()
    else:
        totals = pair_totals(rules, counts)
        if totals[0] != totals[1]:
            return 0 if totals[0] < totals[1] else 1
    if rules.blocked_tie != "leader_team" or leader is None:
        return None
    return rules.team_of(leader, len(counts))


def score_blocked(
    rules: Rules,
    holdings: Sequence[Sequence[Tile]],
    leader: int | None = None,
    out: Sequence[int] = (),
) -> HandResult:
    """The result of a blocked hand (R18, R21-R23).

    Partnerships (R22): the pair ``blocked_team`` names scores the other pair's count
    (every count with ``rules.partner_tiles_count``); no pair named scores nothing. Alone
    (R21, R23): the lowest count scores
    every other seat's count (or, with ``rules.blocked_points == "differences"``, the sum of
    its differences with each), ties broken by lowest tiles; an unbroken tie, or a win worth
    nothing, scores nothing. Seats in ``out`` left the hand (``Rules.leavers_sit_out``,
    players alone): they cannot win and their counts score for nobody.
    """
    seats = len(holdings)
    counts = counts_of(holdings)
    if rules.partnerships(seats):
        winning_team = blocked_team(rules, counts, leader)
        if winning_team is None:
            return HandResult(HandEnd.BLOCKED, (), 0, counts)
        winners = team_members(rules, seats, winning_team)
        points = (
            sum(counts)
            if rules.partner_tiles_count
            else pair_totals(rules, counts)[1 - winning_team]
        )
        return HandResult(HandEnd.BLOCKED, winners, points, counts)
    playing = [seat for seat in range(seats) if seat not in out]
    lowest = min(counts[seat] for seat in playing)
    tied = [seat for seat in playing if counts[seat] == lowest]
    winner = tied[0] if len(tied) == 1 else _lowest_tiles_winner(holdings, tied)
    if winner is None:
        return HandResult(HandEnd.BLOCKED, (), 0, counts)
    others = [counts[seat] for seat in playing if seat != winner]
    if rules.blocked_points == "differences":
        points = sum(count - counts[winner] for count in others)
        if points == 0:
            return HandResult(HandEnd.BLOCKED, (), 0, counts)
    else:
        points = sum(others)
    return HandResult(HandEnd.BLOCKED, (winner,), points, counts)


def add_to_scores(scores: Sequence[int], result: HandResult) -> tuple[int, ...]:
    """The scoreboard after ``result``: each winning seat gains the hand's points (R25)."""
    return tuple(
        score + result.points if seat in result.winners else score
        for seat, score in enumerate(scores)
    )


def is_zapato(match: MatchState) -> bool | None:
    """For profiles with ``rules.zapato``: whether the match was won while every losing
    seat still had 0 points (a zapato / chiva). ``None`` while the match is on, when it did
    not end by reaching the target, or when the profile has no zapato."""
    if not match.rules.zapato or match.outcome is not MatchOutcome.TARGET or not match.winners:
        return None
    return all(score == 0 for seat, score in enumerate(match.scores) if seat not in match.winners)


def explain(
    rules: Rules,
    holdings: Sequence[Sequence[Tile]],
    result: HandResult,
    leader: int | None = None,
    out: Sequence[int] = (),
) -> dict:
    """How ``result`` (scored from the final ``holdings``; ``leader``: the seat that led;
    ``out``: seats that left) was decided, for a page to render as is (R19-R24).

    A JSON-ready dict: ``end``; ``rule`` (``"R20"`` domino, ``"R21"`` lowest count,
    ``"R22"`` pairs, ``"R23"`` tie broken by tiles); ``decided_by``: ``"domino"``,
    ``"lowest_count"``, ``"lowest_tiles"``, ``"lower_pair_total"``, ``"lowest_player"``
    (``blocked_pairs``), ``"pair_that_led"`` (``blocked_tie``) or ``"nobody"``;
    ``counts``, ``winners``, ``points``; ``scored_seats``: the seats whose counts make the
    points (before a ``multiplier``, present only for a capicúa); for pairs
    ``team_counts`` (A = seats 0 and 2, B = 1 and 3); for blocks ``lowest`` and, when
    several seats share it, ``tied`` and ``tie_break`` (each tied seat's tile values,
    lowest first, compared in order, R23); ``differences`` when the winner scores the
    differences (``blocked_points``); ``out`` when seats left.
    """
    seats = len(holdings)
    counts = list(result.counts)
    winners = list(result.winners)
    playing = [seat for seat in range(seats) if seat not in out]
    scored = [s for s in playing if s not in winners or rules.partner_tiles_count]
    info: dict = {"end": result.end.value, "counts": counts, "winners": winners}
    info.update(points=result.points, scored_seats=scored if winners else [])
    if out:
        info["out"] = list(out)
    if result.capicua:
        info["multiplier"] = rules.capicua_multiplier
    pairs = rules.partnerships(seats)
    if pairs:
        info["team_counts"] = list(pair_totals(rules, counts))
    if result.end is HandEnd.DOMINO:
        info.update(rule="R20", decided_by="domino")
        return info
    lowest = min(counts[seat] for seat in playing)
    tied = [seat for seat in playing if counts[seat] == lowest]
    info["lowest"] = lowest
    if pairs:
        info.update(rule="R22", decided_by=_pair_reason(rules, counts, winners))
        return info
    if rules.blocked_points == "differences":
        info["differences"] = True
    if len(tied) > 1:
        values = [sorted(tile.high + tile.low for tile in holdings[seat]) for seat in tied]
        info["tied"] = tied
        info["tie_break"] = [{"seat": s, "values": v} for s, v in zip(tied, values, strict=True)]
    decided = "lowest_tiles" if len(tied) > 1 else "lowest_count"
    info.update(rule="R23" if len(tied) > 1 else "R21", decided_by=decided if winners else "nobody")
    return info


def _pair_reason(rules: Rules, counts: Sequence[int], winners: Sequence[int]) -> str:
    """Why a blocked partnership hand went to ``winners`` (``blocked_team``'s branches)."""
    if not winners:
        return "nobody"
    if rules.blocked_pairs == "lowest_player":
        seats = len(counts)
        lowest = min(counts)
        sides = {rules.team_of(seat, seats) for seat, count in enumerate(counts) if count == lowest}
        return "lowest_player" if len(sides) == 1 else "pair_that_led"
    totals = pair_totals(rules, counts)
    return "lower_pair_total" if totals[0] != totals[1] else "pair_that_led"
