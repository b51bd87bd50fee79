"""Scoring a finished hand (R19-R24) and the match scoreboard (R25)."""

from __future__ import annotations

from collections.abc import Sequence

from dominoes.reason import HandReason
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
    """The result, with its reason, when ``seat`` played its last tile (R17, R20).

    The seat (with its partner, R20) scores its rivals' counts; the partner's tiles count
    only when ``rules.partner_tiles_count``. A ``capicua`` domino (the last tile a
    non-double fitting both different ends) scores ``rules.capicua_multiplier`` times.
    The seats in ``out`` left the hand (``Rules.leavers_sit_out``): their tiles count for
    nobody (``counts`` still shows them).
    """
    seats = len(holdings)
    counts = counts_of(holdings)
    winners = team_members(rules, seats, seat)
    everyone = rules.partner_tiles_count
    scored = tuple(s for s in range(seats) if s not in out and (everyone or s not in winners))
    multiplier = rules.capicua_multiplier if capicua and rules.capicua_multiplier != 1 else None
    points = sum(counts[s] for s in scored) * (multiplier or 1)
    reason = HandReason(
        end=HandEnd.DOMINO.value,
        rule="R20",
        decided_by="domino",
        counts=counts,
        winners=winners,
        points=points,
        scored_seats=scored,
        addends=tuple(counts[s] for s in scored),
        scored="everyone" if everyone else "rival" if len(scored) == 1 else "rivals",
        went_out=seat,
        uncounted_partner=None if everyone else next((s for s in winners if s != seat), None),
        team_counts=pair_totals(rules, counts) if rules.partnerships(seats) else None,
        multiplier=multiplier,
        out=tuple(out),
    )
    return HandResult(
        HandEnd.DOMINO, winners, points, counts, capicua=multiplier is not None, reason=reason
    )


def _tie_break(
    holdings: Sequence[Sequence[Tile]], tied: Sequence[int]
) -> tuple[int | None, tuple[tuple[int, tuple[int, ...]], ...]]:
    """Among ``tied`` seats, the one whose tile values, lowest first, are lowest (R23),
    and each tied seat with those values.

    Compares each seat's lowest tile value, then the next lowest, and so on; ``None`` when
    the best sequence is shared (nobody scores).
    """
    steps = tuple((seat, tuple(sorted(t.high + t.low for t in holdings[seat]))) for seat in tied)
    best = min(values for _, values in steps)
    leaders = [seat for seat, values in steps if values == best]
    return (leaders[0] if len(leaders) == 1 else None), steps


def _blocked_pair(
    rules: Rules, counts: Sequence[int], leader: int | None
) -> tuple[int | None, str]:
    """``blocked_team``'s pair with how it was decided (``HandReason.decided_by``)."""
    if rules.blocked_pairs == "lowest_player":
        lowest = min(counts)
        seats = len(counts)
        sides = {rules.team_of(seat, seats) for seat, count in enumerate(counts) if count == lowest}
        if len(sides) == 1:
            return sides.pop(), "lowest_player"
    else:
        totals = pair_totals(rules, counts)
        if totals[0] != totals[1]:
            return (0 if totals[0] < totals[1] else 1), "lower_pair_total"
    if rules.blocked_tie != "leader_team" or leader is None:
        return None, "nobody"
    return rules.team_of(leader, len(counts)), "pair_that_led"


def blocked_team(rules: Rules, counts: Sequence[int], leader: int | None = None) -> int | None:
    """The pair (``Rules.team_of``: 0 or 1) that wins a blocked partnership hand with
    ``counts`` (R22), or ``None`` when nobody does.

    ``rules.blocked_pairs == "lower_total"`` (R22): the pair with the lower summed count;
    ``"lowest_player"`` (cuban): the pair of the player with the lowest count. A tie (equal
    totals, or the lowest count held in both pairs) goes to the pair of ``leader`` (the
    seat that led the hand) under ``rules.blocked_tie == "leader_team"``, else to nobody.
    """
    return _blocked_pair(rules, counts, leader)[0]


def _blocked_pairs(rules: Rules, counts: tuple[int, ...], leader: int | None) -> HandReason:
    """The reason of a blocked partnership hand (R22): ``blocked_team``'s pair scores the
    other pair's count (every count with ``rules.partner_tiles_count``)."""
    seats = len(counts)
    team, decided = _blocked_pair(rules, counts, leader)
    winners = () if team is None else team_members(rules, seats, team)
    scored = tuple(s for s in range(seats) if rules.partner_tiles_count or s not in winners)
    scored = scored if winners else ()
    lowest = min(counts)
    return HandReason(
        end=HandEnd.BLOCKED.value,
        rule="R22",
        decided_by=decided,
        counts=counts,
        winners=winners,
        points=sum(counts[s] for s in scored),
        scored_seats=scored,
        addends=tuple(counts[s] for s in scored),
        scored="everyone" if rules.partner_tiles_count else "rivals",
        lowest=lowest,
        lowest_seat=next((s for s in winners if counts[s] == lowest), None),
        team_counts=pair_totals(rules, counts),
    )


def _blocked_alone(
    rules: Rules, holdings: Sequence[Sequence[Tile]], counts: tuple[int, ...], out: Sequence[int]
) -> HandReason:
    """The reason of a blocked hand without pairs (R21, R23): the lowest count of the seats
    playing wins, ties broken by ``_tie_break``; it scores the others' counts, or its
    differences with each (``rules.blocked_points == "differences"``); nothing scored
    (an unbroken tie, differences of 0) is ``"nobody"``."""
    playing = [seat for seat in range(len(holdings)) if seat not in out]
    lowest = min(counts[seat] for seat in playing)
    tied = tuple(seat for seat in playing if counts[seat] == lowest)
    winner, steps = _tie_break(holdings, tied) if len(tied) > 1 else (tied[0], ())
    differences = rules.blocked_points == "differences"
    scored = tuple(seat for seat in playing if seat != winner) if winner is not None else ()
    if differences:
        addends = tuple(counts[seat] - lowest for seat in scored)
    else:
        addends = tuple(counts[seat] for seat in scored)
    won = winner is not None and sum(addends) > 0 if differences else winner is not None
    return HandReason(
        end=HandEnd.BLOCKED.value,
        rule="R23" if len(tied) > 1 else "R21",
        decided_by=("lowest_tiles" if len(tied) > 1 else "lowest_count") if won else "nobody",
        counts=counts,
        winners=(winner,) if won else (),
        points=sum(addends) if won else 0,
        scored_seats=scored if won else (),
        addends=addends if won else (),
        scored="rival" if len(scored) == 1 else "rivals",
        lowest=lowest,
        lowest_seat=winner if won else None,
        tied=tied if len(tied) > 1 else (),
        tie_break=steps,
        differences=differences,
        out=tuple(out),
    )


def score_blocked(
    rules: Rules,
    holdings: Sequence[Sequence[Tile]],
    leader: int | None = None,
    out: Sequence[int] = (),
) -> HandResult:
    """The result, with its reason, of a blocked hand (R18, R21-R23).

    Partnerships (R22): the pair ``blocked_team`` names scores the other pair's count
    (every count with ``rules.partner_tiles_count``); no pair named scores nothing. Alone
    (R21, R23): the lowest count scores every other seat's count (or, with
    ``rules.blocked_points == "differences"``, the sum of its differences with each), ties
    broken by lowest tiles; an unbroken tie, or a win worth nothing, scores nothing. Seats
    in ``out`` left the hand (``Rules.leavers_sit_out``, players alone): they cannot win
    and their counts score for nobody.
    """
    counts = counts_of(holdings)
    if rules.partnerships(len(holdings)):
        reason = _blocked_pairs(rules, counts, leader)
    else:
        reason = _blocked_alone(rules, holdings, counts, out)
    return HandResult(HandEnd.BLOCKED, reason.winners, reason.points, counts, reason=reason)


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


def reason_of(
    rules: Rules,
    holdings: Sequence[Sequence[Tile]],
    result: HandResult,
    leader: int | None = None,
    out: Sequence[int] = (),
) -> HandReason:
    """How ``result`` was decided: its own ``reason``, or, for a result read back from
    storage, the reason ``score_domino``/``score_blocked`` give again from the final
    ``holdings`` (``leader``: the seat that led; ``out``: seats that left)."""
    if result.reason is not None:
        return result.reason
    if result.end is HandEnd.DOMINO:
        seat = next(s for s, tiles in enumerate(holdings) if not tiles and s not in out)
        rescored = score_domino(rules, holdings, seat, result.capicua, out)
    else:
        rescored = score_blocked(rules, holdings, leader, out)
    assert rescored.reason is not None
    return rescored.reason


def explain(
    rules: Rules,
    holdings: Sequence[Sequence[Tile]],
    result: HandResult,
    leader: int | None = None,
    out: Sequence[int] = (),
) -> dict:
    """How ``result`` was decided, JSON-ready for a page to put into words as is
    (``HandReason.to_dict`` of ``reason_of``; R17-R24)."""
    return reason_of(rules, holdings, result, leader, out).to_dict()
