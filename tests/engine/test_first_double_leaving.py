"""``first_double`` abandonment and absence (R26, R27 under ``Rules.leavers_sit_out``).

seeds/001: «Si un jugador abandona la partida y aún quedan al menos 2 jugadores en ella,
no pasa nada, pero si quedan menos de 2 jugadores, finaliza» (docs/profiles.md). At 3 and
4 seats the hand goes on without the leaver: its turns are skipped, its tiles fit nothing
and count for nobody, and it cannot win. With one player left, that one wins the match.
Other profiles keep R26: an abandonment ends the match.
"""

from __future__ import annotations

import json

import pytest

from dominoes import (
    IllegalMove,
    MatchOutcome,
    Pass,
    abandon,
    apply,
    legal_moves,
    match_from_dict,
    match_to_dict,
    match_to_record,
    new_match,
    replay_text,
    view_for,
)
from dominoes.engine import optional_actions
from dominoes.playout import Position
from dominoes.rules import CLASSIC, PROFILES

from .test_profiles import dealt_as, play

RULES = PROFILES["first_double"]
#: 3 seats; seat 0 leads 6-6 and no seat still playing after seat 1 holds another 6.
NO_SIXES = [
    "6-6 5-4 4-3 3-2 2-1 1-1 5-0",
    "0-0 1-0 2-0 3-0 4-0 2-2 3-1",  # count 18: the lowest
    "5-5 4-4 3-3 5-3 4-2 5-1 5-2",  # count 51
]
#: 3 seats, with sixes to play after the lead.
SIXES = [
    "6-6 5-4 4-3 3-2 2-1 1-1 5-0",
    "5-5 6-5 6-4 1-0 0-0 3-3 2-0",
    "4-4 6-3 6-2 5-3 4-2 3-1 4-0",
]


def test_the_hand_goes_on_without_the_leaver_and_skips_its_turns():
    match = play(dealt_as(RULES, SIXES), 0, "6-6")  # seat 1 to play
    left = abandon(match, 2)
    assert not left.is_over and left.abandoned_by is None and left.winners is None
    assert left.hand.out_seats == (2,) and left.hand.departures == ((2, 1),)
    after = play(left, 1, "6-5", 6)
    assert after.hand.turn == 0  # seat 2 is skipped
    after = play(after, 0, "5-4", 5)
    assert after.hand.turn == 1
    with pytest.raises(IllegalMove) as refused:
        apply(after, Pass(2))
    assert refused.value.code == "not_your_turn"
    with pytest.raises(IllegalMove) as again:
        abandon(after, 2)
    assert (again.value.code, again.value.rule) == ("hand_over", "R26")
    assert view_for(after, 0).to_dict()["left_seats"] == [2]
    assert "left_seats" not in view_for(match, 0).to_dict()
    assert match_from_dict(match_to_dict(after)) == after
    assert "departures" not in match_to_dict(match)["hands"][0]


def test_the_leavers_turn_passes_to_the_next_seat_still_playing():
    match = play(dealt_as(RULES, SIXES), 0, "6-6")
    left = abandon(match, 1)  # seat 1 was to play
    assert left.hand.turn == 2
    assert [str(move.tile) for move in legal_moves(left)] == ["6-3", "6-2"]


def test_a_leader_leaving_before_the_lead_hands_it_to_the_highest_double_still_playing():
    left = abandon(dealt_as(RULES, SIXES), 0)  # seat 0 held 6-6 and was to lead
    assert (left.hand.turn, left.hand.leader) == (1, 1)
    assert [str(move.tile) for move in legal_moves(left)] == ["5-5", "3-3", "0-0"]
    with pytest.raises(IllegalMove) as refused:
        play(left, 1, "6-5")
    assert (refused.value.code, refused.value.rule) == ("wrong_lead", "R7")


def test_with_no_double_still_playing_the_next_seat_leads_any_tile():
    hands = [
        "6-6 5-5 4-4 3-3 2-2 1-1 0-0",
        "6-5 6-4 1-0 5-3 4-2 3-1 2-0",
        "6-3 6-2 5-4 4-3 3-2 5-1 4-0",
    ]
    left = abandon(dealt_as(RULES, hands), 0)
    assert (left.hand.turn, left.hand.leader) == (1, 1)
    assert len(legal_moves(left)) == 7
    assert play(left, 1, "5-3").hand.ends == (5, 3)
    assert Position.from_match(left).legal_plays() != []


def test_a_round_of_passes_by_the_seats_still_playing_blocks_and_the_leaver_counts_for_nobody():
    match = play(dealt_as(RULES, NO_SIXES), 0, "6-6")
    left = abandon(match, 1)  # seat 1 holds the lowest count (18) and leaves
    assert left.hand.turn == 2 and optional_actions(left)  # no 6: draw or pass
    left = apply(left, Pass(2))
    assert not left.hand.is_over  # one pass of the two seats still playing
    blocked = apply(left, Pass(0))
    result = blocked.hand.result
    assert (result.end.value, result.counts) == ("blocked", (31, 18, 51))
    assert (result.winners, result.points) == ((0,), 51)  # not seat 1, and not its 18
    assert blocked.is_over and blocked.winners == (0,)
    fast = Position.from_match(left)
    fast.act(*fast.legal_actions()[1])  # the pass
    assert fast.result() == (result.end, result.winners, result.points, result.counts)


def test_leaving_can_complete_the_round_of_passes():
    match = play(dealt_as(RULES, NO_SIXES), 0, "6-6")
    match = apply(apply(match, Pass(1)), Pass(2))  # seat 0 to act
    blocked = abandon(match, 0)
    result = blocked.hand.result
    assert result is not None and (result.winners, result.points) == ((1,), 51)


def test_the_last_player_staying_wins():
    match = play(dealt_as(RULES, SIXES), 0, "6-6")
    match = abandon(match, 2)
    over = abandon(match, 1, MatchOutcome.ABANDONED)
    assert over.is_over and over.winners == (0,) and over.abandoned_by == 1
    assert over.outcome is MatchOutcome.ABANDONED
    assert over.hand.out_seats == (2, 1) and over.hand.result is None
    status, answer = replay_text(json.dumps(match_to_record(over)))
    assert status == 0 and answer["winner"] == [0] and answer["hands"][0]["left"] == [2, 1]


def test_at_two_seats_the_one_who_stays_wins():
    hands = ["5-5 2-2 6-4 3-1 0-1 4-2 6-1", "4-4 3-3 6-5 6-3 5-2 2-0 0-0"]
    match = play(dealt_as(RULES, hands), 0, "5-5")
    over = abandon(match, 0)
    assert over.is_over and over.winners == (1,) and over.outcome is MatchOutcome.ABANDONED


def test_other_profiles_still_end_the_match_on_an_abandonment():
    assert not CLASSIC.leavers_sit_out
    assert [name for name, rules in PROFILES.items() if rules.leavers_sit_out] == ["first_double"]
    over = abandon(new_match(3, 100, seed=bytes(32), rules=PROFILES["three_player"]), 1)
    assert over.is_over and over.hand.departures == ()


def test_a_departure_is_recorded_and_replayed_at_its_place():
    match = play(dealt_as(RULES, SIXES), 0, "6-6")
    match = play(abandon(match, 2), 1, "6-5", 6)
    record = match_to_record(match)
    assert record["hands"][0]["left"] == [{"seat": 2, "after": 1}]
    status, answer = replay_text(json.dumps(record))
    assert status == 0 and answer["hands"][0]["left"] == [2]
    record["hands"][0]["left"] = [{"seat": 1, "after": 1}]  # seat 1 gone: its play is refused
    status, answer = replay_text(json.dumps(record))
    assert (status, answer["action"], answer["error"]) == (1, 1, "not_your_turn")


@pytest.mark.parametrize(
    "left",
    [
        [{"seat": 3, "after": 0}],
        [{"seat": 0, "after": 9}],
        [{"seat": 0, "after": 1}, {"seat": 1, "after": 0}],
        [{"seat": "0", "after": 0}],
        {"seat": 0},
    ],
)
def test_a_malformed_left_list_is_unreadable(left):
    record = match_to_record(play(dealt_as(RULES, SIXES), 0, "6-6"))
    record["hands"][0]["left"] = left
    status, answer = replay_text(json.dumps(record))
    assert (status, answer["error"]) == (2, "unreadable")


def test_a_left_list_in_another_profile_is_unreadable():
    record = match_to_record(new_match(2, 100, seed=bytes(32)))
    record["hands"][0]["left"] = [{"seat": 0, "after": 0}]
    status, answer = replay_text(json.dumps(record))
    assert (status, answer["error"]) == (2, "unreadable")
