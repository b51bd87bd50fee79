"""The rules as functions over immutable states: deal, lead, legal moves, apply, advance.

``apply`` takes one action and returns the next state or raises ``IllegalMove``; it never
changes its argument. ``advance`` plays the automatic draws and passes (R16) that follow.
A service turn is ``advance(apply(match, Play(...)))``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from dominoes.deal import deal as deal_from_seed
from dominoes.deal import lot_leader, needs_redeal, new_seed
from dominoes.errors import IllegalMove
from dominoes.rules import CLASSIC, Rules
from dominoes.scoring import add_to_scores, score_blocked, score_domino
from dominoes.state import (
    Action,
    Draw,
    HandEnd,
    HandState,
    MatchOutcome,
    MatchState,
    Pass,
    Play,
)
from dominoes.tiles import Tile, fits, heaviest, holds_fit, place

# --- starting matches and hands ---------------------------------------------------------


def new_match(
    seats: int,
    target: int,
    seed: bytes | None = None,
    rules: Rules = CLASSIC,
) -> MatchState:
    """A new match with its first hand dealt from ``seed`` (a fresh CSPRNG seed if ``None``).

    ``seats``: 2, 3 or 4 (R2); ``target``: points to win, one of ``rules.targets`` (R25).
    Raises ``ValueError`` for a table size or target the rules do not allow.
    """
    if seats not in rules.seat_counts:
        raise ValueError(f"{rules.name} is played with {rules.seat_counts} seats, not {seats}")
    if target not in rules.targets:
        raise ValueError(f"{rules.name} plays to {rules.targets} points, not {target}")
    empty = MatchState(rules=rules, seats=seats, target=target, scores=(0,) * seats, hands=())
    return start_hand(empty, seed=seed if seed is not None else new_seed())


def check_deal(
    rules: Rules, seats: int, dealt: Sequence[Sequence[Tile]], stock: Sequence[Tile]
) -> None:
    """Raise ``IllegalMove`` (``bad_deal`` R1/R4, ``redeal_required`` R5) for a deal that
    is not the whole set split as the rules say."""
    per_seat = rules.tiles_per_seat[seats]
    if len(dealt) != seats:
        raise IllegalMove("bad_deal", f"{len(dealt)} hands dealt for {seats} seats", "R4")
    for seat, tiles in enumerate(dealt):
        if len(tiles) != per_seat:
            raise IllegalMove("bad_deal", f"seat {seat} was dealt {len(tiles)} tiles", "R4")
    every = Counter(tile for tiles in dealt for tile in tiles)
    every.update(stock)
    expected = rules.tile_set()
    if len(every) != len(expected) or any(every[tile] != 1 for tile in expected):
        missing = [str(tile) for tile in expected if every[tile] == 0]
        repeated = [str(tile) for tile, n in every.items() if n > 1]
        raise IllegalMove(
            "bad_deal", f"not the {len(expected)} tiles: missing {missing}, repeated {repeated}"
        )
    seat = needs_redeal(rules, dealt)
    if seat == -1:
        raise IllegalMove("redeal_required", "no seat was dealt a double to lead with", "R5")
    if seat is not None:
        raise IllegalMove(
            "redeal_required", f"seat {seat} was dealt {rules.redeal_doubles} doubles or more"
        )


def first_lead(rules: Rules, dealt: Sequence[Sequence[Tile]]) -> tuple[int, Tile | None, str]:
    """The first hand's leader, the tile it must lead and the rule that says so (R7-R9).

    Returns ``(seat, tile, rule)``; ``tile`` is ``None`` when any tile may lead. For
    ``first_lead == "double"`` the seat is the holder of the highest double and ``tile`` is
    ``None`` (it may lead any of its doubles); ``"lot"`` needs the seed (``start_hand``).
    """
    if rules.first_lead in ("any", "lot"):
        return 0, None, "R10"
    doubles = [(tile, seat) for seat, tiles in enumerate(dealt) for tile in tiles if tile.is_double]
    if rules.first_lead == "double":
        return max(doubles)[1], None, "R7"
    if doubles:
        tile, seat = max(doubles)
        return seat, tile, "R7" if tile.high == rules.max_pip else "R8"
    best = heaviest(tile for tiles in dealt for tile in tiles)
    seat = next(seat for seat, tiles in enumerate(dealt) if best in tiles)
    return seat, best, "R9"


def _later_lead(match: MatchState) -> tuple[int, tuple[int, ...]]:
    """The leader of a hand after the first, and the seats that may lead instead of it.

    R10: the seat after the last leader. ``later_lead == "winner_team"``: the pair that won
    the last hand (the seat that went out first), either partner may lead; after a hand
    nobody won, the pair after the last leader's."""
    rules, seats, last = match.rules, match.seats, match.hand
    if rules.later_lead != "winner_team" or not rules.partnerships(seats):
        return (last.leader + 1) % seats, ()
    winners = last.result.winners if last.result is not None else ()
    if not winners:
        first = (last.leader + 1) % seats
    elif last.result.end is HandEnd.DOMINO:
        first = last.actions[-1].seat
    else:
        first = winners[0]
    return first, (first, (first + 2) % seats)


def start_hand(
    match: MatchState,
    *,
    seed: bytes | None = None,
    dealt: Sequence[Sequence[Tile]] | None = None,
    stock: Sequence[Tile] | None = None,
    leader: int | None = None,
) -> MatchState:
    """Deal the next hand of ``match``, from ``seed`` or from a given ``dealt``/``stock``.

    With neither, a fresh CSPRNG seed is drawn (R6). A ``seed`` given with a deal is kept
    as that deal's seed without being checked here (``dominoes.record`` checks records).

    The first hand's lead follows R7-R9; later hands rotate it (R10, R24), or follow the
    profile's ``first_lead``/``later_lead``. A first leader drawn by lot comes from the
    seed (``dominoes.deal.lot_leader``); without a seed ``leader`` names it (a replay takes
    the first action's seat), else seat 0 leads. Raises
    ``IllegalMove``: ``hand_over`` (R25) once the match is over, ``hand_in_progress`` while
    the current hand is unfinished, ``bad_deal``/``redeal_required`` for a given deal.
    """
    rules, seats = match.rules, match.seats
    if match.is_over:
        raise IllegalMove("hand_over", "the match is over", "R25")
    if match.hands and not match.hand.is_over:
        raise IllegalMove("hand_in_progress", "the current hand has not ended")
    if dealt is None:
        seed = seed if seed is not None else new_seed()
        dealt, stock = deal_from_seed(rules, seats, seed)
    else:
        dealt = tuple(tuple(tiles) for tiles in dealt)
        stock = tuple(stock or ())
        check_deal(rules, seats, dealt, stock)
    lead_seats: tuple[int, ...] = ()
    if rules.first_lead == "double":
        leader, required, _ = first_lead(rules, dealt)
    elif match.hands:
        leader, lead_seats = _later_lead(match)
        required = None
    elif rules.first_lead == "lot":
        if leader is None:
            leader = lot_leader(rules, seats, seed) if seed is not None else 0
        required = None
    else:
        leader, required, _ = first_lead(rules, dealt)
    hand = HandState(
        number=len(match.hands),
        dealt=dealt,
        stock=tuple(stock),
        drawn=0,
        holdings=tuple(tuple(sorted(tiles, reverse=True)) for tiles in dealt),
        line=(),
        ends=None,
        turn=leader,
        leader=leader,
        required_lead=required,
        actions=(),
        seed=seed,
        lead_seats=lead_seats,
    )
    return replace(match, hands=match.hands + (hand,))


# --- what may be played ----------------------------------------------------------------


def _lead_must_be_double(rules: Rules, holding: Sequence[Tile]) -> bool:
    """``first_lead == "double"``: the lead is one of the leader's doubles (R7). A leader
    holding none (the holder of the doubles left the hand, ``leavers_sit_out``, and no
    seat still playing holds one) leads any tile."""
    return rules.first_lead == "double" and any(tile.is_double for tile in holding)


def _next_seat(match: MatchState, hand: HandState, seat: int) -> int:
    """The seat after ``seat`` to act (R3), skipping the seats that left the hand."""
    seat = (seat + 1) % match.seats
    while seat in hand.out_seats:
        seat = (seat + 1) % match.seats
    return seat


def _stock_left(match: MatchState, hand: HandState) -> int:
    return hand.stock_left if match.rules.draw_from_stock else 0


def may_act(match: MatchState, seat: int) -> bool:
    """True when ``seat`` may act now: it is its turn, or the hand is waiting for its lead
    and ``seat`` is one of the seats that may lead (``HandState.lead_seats``)."""
    hand = match.hand
    if match.is_over or hand.is_over:
        return False
    return seat == hand.turn or (hand.ends is None and seat in hand.lead_seats)


def legal_moves(match: MatchState, seat: int | None = None) -> list[Play]:
    """Every play ``seat`` (default: the seat to act) may make, each tile/end choice once
    (R11-R13).

    Empty when the hand or match is over, when ``seat`` may not act (``may_act``), or when
    it holds no fitting tile and must (or may) draw or pass (see ``forced_action`` and
    ``optional_actions``).
    """
    hand = match.hand
    if seat is None:
        seat = hand.turn
    if not may_act(match, seat):
        return []
    tiles = hand.holdings[seat]
    if hand.ends is None:
        if hand.required_lead is not None:
            return [Play(seat, hand.required_lead)]
        if _lead_must_be_double(match.rules, tiles):
            return [Play(seat, tile) for tile in tiles if tile.is_double]
        return [Play(seat, tile) for tile in tiles]
    left, right = hand.ends
    moves = []
    for tile in tiles:
        on_left = tile.high == left or tile.low == left
        on_right = tile.high == right or tile.low == right
        if on_left and on_right and left != right:
            moves.append(Play(seat, tile, left))
            moves.append(Play(seat, tile, right))
        elif on_left:
            moves.append(Play(seat, tile, left))
        elif on_right:
            moves.append(Play(seat, tile, right))
    return moves


def forced_action(match: MatchState) -> Draw | Pass | None:
    """The automatic action owed by the seat to act (R14-R16): a draw of the stock's top
    tile, or a pass when the stock is empty; ``None`` when it has a play or the hand is over.

    With ``rules.draw_optional`` a seat that could draw owes nothing: drawing and passing
    are its own choice (``optional_actions``); only the pass on an empty stock is automatic.
    """
    hand = match.hand
    if match.is_over or hand.is_over or holds_fit(hand.holdings[hand.turn], hand.ends):
        return None
    if _stock_left(match, hand):
        if match.rules.draw_optional:
            return None
        return Draw(hand.turn, hand.stock[hand.drawn])
    return Pass(hand.turn)


def optional_actions(match: MatchState) -> list[Draw | Pass]:
    """The draw and the pass the seat to act may choose between, under
    ``rules.draw_optional`` when it holds no fitting tile and the stock is not empty:
    ``[Draw(seat, top of the stock), Pass(seat)]``. Empty otherwise (classic never offers
    a choice: its draws and passes are automatic, R16)."""
    hand = match.hand
    if (
        not match.rules.draw_optional
        or match.is_over
        or hand.is_over
        or holds_fit(hand.holdings[hand.turn], hand.ends)
        or not _stock_left(match, hand)
    ):
        return []
    return [Draw(hand.turn, hand.stock[hand.drawn]), Pass(hand.turn)]


# --- applying actions -------------------------------------------------------------------


def _refuse_if_over(match: MatchState) -> None:
    if match.is_over:
        raise IllegalMove("hand_over", "the match is over", "R25")
    result = match.hand.result
    if result is not None:
        rule = "R17" if result.end is HandEnd.DOMINO else "R18"
        raise IllegalMove("hand_over", f"the hand is over ({result.end.value})", rule)


def _place(
    rules: Rules, hand: HandState, play: Play
) -> tuple[tuple[tuple[int, int], ...], tuple[int, int]]:
    """Check ``play`` against the line (R7-R12) and return the new line and ends."""
    tile = play.tile
    if hand.ends is None:
        if hand.required_lead is not None and tile != hand.required_lead:
            raise IllegalMove(
                "wrong_lead", f"the first hand must be led with {hand.required_lead}", "R7"
            )
        if not tile.is_double and _lead_must_be_double(rules, hand.holdings[play.seat]):
            raise IllegalMove("wrong_lead", f"the lead must be a double, not {tile}", "R7")
        return ((tile.high, tile.low),), (tile.high, tile.low)
    left, right = hand.ends
    if play.end is None and left != right and tile.has(left) and tile.has(right):
        raise IllegalMove("end_required", f"{tile} fits both the {left} and the {right} end")
    placed = place(hand.ends, tile, play.end)
    if placed is None:
        if play.end is not None:
            raise IllegalMove("tile_does_not_fit", f"{tile} does not fit the {play.end} end")
        raise IllegalMove("tile_does_not_fit", f"{tile} fits neither end ({left}, {right})")
    on_right, ends = placed
    if on_right:
        return hand.line + ((right, ends[1]),), ends
    return ((ends[0], left),) + hand.line, ends


def _finish_hand(match: MatchState, hand: HandState, result) -> MatchState:
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


def _after(match: MatchState, hand: HandState) -> MatchState:
    """Store ``hand`` as the current hand, ending it when nobody can play or draw (R18).

    ``rules.stock_on_block``: the hand also blocks when no tile left in the stock fits
    either, and the stock joins the count of the seat after the closer (the rival, with
    two seats). ``rules.draw_optional``: it also blocks after a whole round of passes."""
    rules = match.rules
    out = hand.out_seats
    playing = [tiles for seat, tiles in enumerate(hand.holdings) if seat not in out]
    nobody_fits = not any(holds_fit(tiles, hand.ends) for tiles in playing)
    blocked = not _stock_left(match, hand) and nobody_fits
    if not blocked and rules.stock_on_block and nobody_fits:
        rest = hand.stock[hand.drawn :]
        if not holds_fit(rest, hand.ends):
            rival = (hand.actions[-1].seat + 1) % match.seats
            taken = tuple(sorted(hand.holdings[rival] + rest, reverse=True))
            holdings = hand.holdings[:rival] + (taken,) + hand.holdings[rival + 1 :]
            hand = replace(hand, holdings=holdings, drawn=len(hand.stock))
            blocked = True
    if not blocked and rules.draw_optional:
        blocked = hand.passes_since_play >= match.seats - len(out)
    if blocked:
        return _finish_hand(match, hand, score_blocked(rules, hand.holdings, hand.leader, out))
    return replace(match, hands=match.hands[:-1] + (hand,))


def apply(match: MatchState, action: Action) -> MatchState:
    """The match after one action (a play, draw or pass) of the seat to act.

    Checks in RECORD.md's order and raises ``IllegalMove`` with the first code that
    applies: ``hand_over``, ``not_your_turn``; for a play ``tile_not_in_hand``,
    ``wrong_lead``, ``tile_does_not_fit``, ``end_required``; for a draw
    ``cannot_draw_with_play``, ``wrong_draw``; for a pass ``cannot_pass_with_play``,
    ``must_draw``. Ends the hand on a domino (R17) or a block (R18) and scores it
    (R19-R25). ``match`` itself is never changed.
    """
    _refuse_if_over(match)
    hand = match.hand
    seat = action.seat
    if seat != hand.turn:
        if not (isinstance(action, Play) and may_act(match, seat)):
            raise IllegalMove("not_your_turn", f"it is seat {hand.turn}'s turn, not seat {seat}'s")
        hand = replace(hand, turn=seat, leader=seat)  # the pair chose this partner to lead
    holding = hand.holdings[seat]
    if isinstance(action, Play):
        if action.tile not in holding:
            raise IllegalMove("tile_not_in_hand", f"seat {seat} does not hold {action.tile}")
        line, ends = _place(match.rules, hand, action)
        if hand.ends is None and action.end is not None:
            action = Play(seat, action.tile)  # an end given with the lead means nothing
        remaining = tuple(tile for tile in holding if tile != action.tile)
        holdings = hand.holdings[:seat] + (remaining,) + hand.holdings[seat + 1 :]
        capicua = (
            hand.ends is not None
            and hand.ends[0] != hand.ends[1]
            and not action.tile.is_double
            and action.tile.has(hand.ends[0])
            and action.tile.has(hand.ends[1])
        )
        hand = replace(
            hand,
            holdings=holdings,
            line=line,
            ends=ends,
            turn=_next_seat(match, hand, seat),
            actions=hand.actions + (action,),
            lead_seats=(),
        )
        if not remaining:
            result = score_domino(match.rules, holdings, seat, capicua, hand.out_seats)
            return _finish_hand(match, hand, result)
        return _after(match, hand)
    playable = next((tile for tile in holding if fits(tile, hand.ends)), None)
    if isinstance(action, Draw):
        if playable is not None:
            raise IllegalMove("cannot_draw_with_play", _fits_message(seat, playable, hand.ends))
        if not _stock_left(match, hand):
            raise IllegalMove("wrong_draw", "the stock is empty")
        top = hand.stock[hand.drawn]
        if action.tile != top:
            raise IllegalMove("wrong_draw", f"the top of the stock is not {action.tile}")
        holdings = (
            hand.holdings[:seat]
            + (tuple(sorted(holding + (top,), reverse=True)),)
            + hand.holdings[seat + 1 :]
        )
        hand = replace(
            hand, holdings=holdings, drawn=hand.drawn + 1, actions=hand.actions + (action,)
        )
        return _after(match, hand)
    if isinstance(action, Pass):
        if playable is not None:
            raise IllegalMove("cannot_pass_with_play", _fits_message(seat, playable, hand.ends))
        if _stock_left(match, hand) and not match.rules.draw_optional:
            raise IllegalMove("must_draw", f"the stock still holds {hand.stock_left} tiles")
        hand = replace(hand, turn=_next_seat(match, hand, seat), actions=hand.actions + (action,))
        return _after(match, hand)
    raise TypeError(f"not an action: {action!r}")


def _fits_message(seat: int, tile: Tile, ends: tuple[int, int] | None) -> str:
    if ends is None:
        return f"seat {seat} holds {tile} and must lead"
    end = ends[0] if tile.has(ends[0]) else ends[1]
    return f"seat {seat} holds {tile}, which fits the {end} end"


def advance(match: MatchState) -> MatchState:
    """Play every automatic draw and pass (R14-R16) until a seat has a play or the hand
    ends. Returns ``match`` itself when nothing is owed."""
    action = forced_action(match)
    while action is not None:
        match = apply(match, action)
        action = forced_action(match)
    return match


def play_turn(match: MatchState, play: Play) -> MatchState:
    """A whole turn as the service plays it: ``play``, then the automatic draws and passes
    of the seats that follow (R16). Raises ``IllegalMove`` as ``apply`` does."""
    return advance(apply(match, play))


# --- ending a match early ----------------------------------------------------------------


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
        winners = tuple(s for s in range(match.seats) if s % 2 != seat % 2)
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
            turn = _next_seat(match, hand, seat)
        hand = replace(hand, turn=turn, leader=turn)
    elif hand.turn == seat:
        hand = replace(hand, turn=_next_seat(match, hand, seat))
    if hand.ends is None:
        return replace(match, hands=match.hands[:-1] + (hand,))
    return _after(match, hand)


def close_idle(match: MatchState) -> MatchState:
    """The match closed for standing idle (R28): it ends with no winner."""
    if match.is_over:
        raise IllegalMove("hand_over", "the match is over", "R25")
    return replace(match, winners=(), outcome=MatchOutcome.IDLE)
