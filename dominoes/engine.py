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
from dominoes.lead import first_lead, later_lead
from dominoes.leaving import abandon, close_idle
from dominoes.rules import CLASSIC, Rules
from dominoes.scoring import score_domino
from dominoes.state import (
    Action,
    Draw,
    HandEnd,
    HandState,
    MatchState,
    Pass,
    Play,
)
from dominoes.tiles import Tile, fits, holds_fit, place
from dominoes.turns import (
    after_action,
    finish_hand,
    lead_must_be_double,
    next_seat,
    stock_left,
)

__all__ = [
    "abandon",
    "advance",
    "apply",
    "check_deal",
    "close_idle",
    "first_lead",
    "forced_action",
    "legal_moves",
    "may_act",
    "new_match",
    "optional_actions",
    "play_turn",
    "start_hand",
]

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
        leader, lead_seats = later_lead(match)
        required = None
    elif rules.first_lead == "lot":
        if leader is None:
            leader = lot_leader(rules, seats, seed) if seed is not None else 0
        required = None
    else:
        leader, required, _ = first_lead(rules, dealt)
    hand = HandState(
        number=match.hand.number + 1 if match.hands else 0,
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
        if lead_must_be_double(match.rules, tiles):
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
    if stock_left(match, hand):
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
        or not stock_left(match, hand)
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
        if not tile.is_double and lead_must_be_double(rules, hand.holdings[play.seat]):
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
    if isinstance(action, Play):
        return _apply_play(match, hand, action)
    playable = next((tile for tile in hand.holdings[seat] if fits(tile, hand.ends)), None)
    if isinstance(action, Draw):
        return _apply_draw(match, hand, action, playable)
    if isinstance(action, Pass):
        if playable is not None:
            raise IllegalMove("cannot_pass_with_play", _fits_message(seat, playable, hand.ends))
        if stock_left(match, hand) and not match.rules.draw_optional:
            raise IllegalMove("must_draw", f"the stock still holds {hand.stock_left} tiles")
        hand = replace(hand, turn=next_seat(match, hand, seat), actions=hand.actions + (action,))
        return after_action(match, hand)
    raise TypeError(f"not an action: {action!r}")


def _apply_play(match: MatchState, hand: HandState, action: Play) -> MatchState:
    """``apply`` for a play: the checks of R7-R12, then a domino (R17) or the next turn."""
    seat = action.seat
    holding = hand.holdings[seat]
    if action.tile not in holding:
        raise IllegalMove("tile_not_in_hand", f"seat {seat} does not hold {action.tile}")
    line, ends = _place(match.rules, hand, action)
    if hand.ends is None and action.end is not None:
        action = Play(seat, action.tile)  # an end given with the lead means nothing
    elif hand.ends is not None and action.end is None:
        # Logged with the end it went on (appended: the right one), never read as a lead.
        on_right = line[: len(hand.line)] == hand.line
        action = Play(seat, action.tile, hand.ends[1] if on_right else hand.ends[0])
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
        turn=next_seat(match, hand, seat),
        actions=hand.actions + (action,),
        lead_seats=(),
    )
    if not remaining:
        result = score_domino(match.rules, holdings, seat, capicua, hand.out_seats)
        return finish_hand(match, hand, result)
    return after_action(match, hand)


def _apply_draw(match: MatchState, hand: HandState, action: Draw, playable) -> MatchState:
    """``apply`` for a draw of the stock's top tile (R14, R16)."""
    seat = action.seat
    if playable is not None:
        raise IllegalMove("cannot_draw_with_play", _fits_message(seat, playable, hand.ends))
    if not stock_left(match, hand):
        raise IllegalMove("wrong_draw", "the stock is empty")
    top = hand.stock[hand.drawn]
    if action.tile != top:
        raise IllegalMove("wrong_draw", f"the top of the stock is not {action.tile}")
    drawn = tuple(sorted(hand.holdings[seat] + (top,), reverse=True))
    holdings = hand.holdings[:seat] + (drawn,) + hand.holdings[seat + 1 :]
    hand = replace(hand, holdings=holdings, drawn=hand.drawn + 1, actions=hand.actions + (action,))
    return after_action(match, hand)


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
