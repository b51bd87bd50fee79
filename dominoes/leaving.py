"""Ending a match early: abandonment and absence (R26, R27; ``leavers_sit_out``) and the
idle close (R28)."""

from __future__ import annotations

from dataclasses import replace

from dominoes.errors import IllegalMove
from dominoes.state import MatchOutcome, MatchState
from dominoes.turns import after_action, next_seat


def abandon(
    match: MatchState, seat: int, outcome: MatchOutcome = MatchOutcome.ABANDONED
) -> MatchState:
    """The match after ``seat`` abandons it or is absent too long (R26, R27).

    2 seats: the other player wins. 4 seats: the other team wins. 3 seats: the remaining
    player with more points wins; level scores mean no winner. Under
    ``rules.leavers_sit_out`` (``first_double``) the seat leaves the hand instead, which
    goes on (``_sit_out``). Raises ``IllegalMove`` (``hand_over``, R25) when the match is
    already over or (R26) the seat has already left, and ``ValueError``
    for a bad seat.
    """
    if match.is_over:
        raise IllegalMove("hand_over", "the match is over", "R25")
    if not 0 <= seat < match.seats:
        raise ValueError(f"no seat {seat} at a table of {match.seats}")
    if match.rules.leavers_sit_out and not match.hand.is_over:
        return _sit_out(match, seat, outcome)
    if match.rules.partnerships(match.seats):
        team_of = match.rules.team_of
        team = team_of(seat, match.seats)
        winners = tuple(s for s in range(match.seats) if team_of(s, match.seats) != team)
    else:
        others = [s for s in range(match.seats) if s != seat]
        best = max(match.scores[s] for s in others)
        leaders = tuple(s for s in others if match.scores[s] == best)
        winners = leaders if len(leaders) == 1 else ()
    return replace(match, winners=winners, outcome=outcome, abandoned_by=seat)


def _sit_out(match: MatchState, seat: int, outcome: MatchOutcome) -> MatchState:
    """``seat`` leaves the current hand (``Rules.leavers_sit_out``; seeds/001 «si un
    jugador abandona la partida y aún quedan al menos 2 jugadores en ella, no pasa nada»).

    With one player left, that player wins the match (outcome ``outcome``, the hand stays
    unfinished). Otherwise the hand goes on: the leaver's turns are skipped and its tiles
    fit nothing and count for nobody; its turn passes to the next seat still playing;
    before the lead, the lead passes to the holder of the highest double still playing
    (else the next seat, with any tile). The hand then ends at once if nobody still
    playing can play or draw, or if they have all passed since the last play (R18)."""
    hand = match.hand
    if seat in hand.out_seats:
        raise IllegalMove("hand_over", f"seat {seat} has already left the match", "R26")
    hand = replace(hand, departures=hand.departures + ((seat, len(hand.actions)),))
    playing = [s for s in range(match.seats) if s not in hand.out_seats]
    if len(playing) < 2:
        hands = match.hands[:-1] + (hand,)
        return replace(
            match, hands=hands, winners=tuple(playing), outcome=outcome, abandoned_by=seat
        )
    if hand.ends is None and hand.turn == seat:
        doubles = [(t, s) for s in playing for t in hand.holdings[s] if t.is_double]
        if match.rules.first_lead == "double" and doubles:
            turn = max(doubles)[1]
        else:
            turn = next_seat(match, hand, seat)
        hand = replace(hand, turn=turn, leader=turn)
    elif hand.turn == seat:
        hand = replace(hand, turn=next_seat(match, hand, seat))
    if hand.ends is None:
        return replace(match, hands=match.hands[:-1] + (hand,))
    return after_action(match, hand)


def close_idle(match: MatchState) -> MatchState:
    """The match closed for standing idle (R28): it ends with no winner."""
    if match.is_over:
        raise IllegalMove("hand_over", "the match is over", "R25")
    return replace(match, winners=(), outcome=MatchOutcome.IDLE)
