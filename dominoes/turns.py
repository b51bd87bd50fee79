"""The engine's turn mechanics shared by playing (``dominoes.engine``) and leaving
(``dominoes.leaving``): the next seat, the lead rule of ``first_lead == "double"``, the
stock in play, the block check after an action (R18) and the end of a hand (R17-R25)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from dominoes.rules import Rules
from dominoes.scoring import add_to_scores, score_blocked
from dominoes.seats import seat_after
from dominoes.state import HandState, MatchOutcome, MatchState
from dominoes.tiles import Tile, holds_fit


def lead_must_be_double(rules: Rules, holding: Sequence[Tile]) -> bool:
    """``first_lead == "double"``: the lead is one of the leader's doubles (R7). A leader
    holding none (the holder of the doubles left the hand, ``leavers_sit_out``, and no
    seat still playing holds one) leads any tile."""
    return rules.first_lead == "double" and any(tile.is_double for tile in holding)


def next_seat(match: MatchState, hand: HandState, seat: int) -> int:
    """The seat after ``seat`` to act (R3), skipping the seats that left the hand."""
    seat = seat_after(seat, match.seats)
    while seat in hand.out_seats:
        seat = seat_after(seat, match.seats)
    return seat


def stock_left(match: MatchState, hand: HandState) -> int:
    return hand.stock_left if match.rules.draw_from_stock else 0


def finish_hand(match: MatchState, hand: HandState, result) -> MatchState:
    hand = replace(hand, result=result)
    scores = add_to_scores(match.scores, result)
    hands = match.hands[:-1] + (hand,)
    if match.rules.single_hand:
        return replace(
            match, hands=hands, scores=scores, winners=result.winners, outcome=MatchOutcome.TARGET
        )
    if result.winners and max(scores) >= match.target:
        return replace(
            match, hands=hands, scores=scores, winners=result.winners, outcome=MatchOutcome.TARGET
        )
    return replace(match, hands=hands, scores=scores)


def after_action(match: MatchState, hand: HandState) -> MatchState:
    """Store ``hand`` as the current hand, ending it when nobody can play or draw (R18).

    ``rules.stock_on_block``: the hand also blocks when no tile left in the stock fits
    either, and the stock joins the count of the seat after the closer (the rival, with
    two seats). ``rules.draw_optional``: it also blocks after a whole round of passes."""
    rules = match.rules
    out = hand.out_seats
    playing = [tiles for seat, tiles in enumerate(hand.holdings) if seat not in out]
    nobody_fits = not any(holds_fit(tiles, hand.ends) for tiles in playing)
    blocked = not stock_left(match, hand) and nobody_fits
    if not blocked and rules.stock_on_block and nobody_fits:
        rest = hand.stock[hand.drawn :]
        if not holds_fit(rest, hand.ends):
            rival = seat_after(hand.actions[-1].seat, match.seats)
            taken = tuple(sorted(hand.holdings[rival] + rest, reverse=True))
            holdings = hand.holdings[:rival] + (taken,) + hand.holdings[rival + 1 :]
            hand = replace(hand, holdings=holdings, drawn=len(hand.stock))
            blocked = True
    if not blocked and rules.draw_optional:
        blocked = hand.passes_since_play >= match.seats - len(out)
    if blocked:
        return finish_hand(match, hand, score_blocked(rules, hand.holdings, hand.leader, out))
    return replace(match, hands=match.hands[:-1] + (hand,))
