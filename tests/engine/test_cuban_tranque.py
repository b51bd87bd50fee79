"""The Cuban tranque (seeds/003, docs/profiles.md ``cuban``): «gana la data la pareja del
jugador cuya suma de puntos sea inferior, y obtiene la suma de puntos de la pareja rival».

The pair of the *player* with the lowest count wins a blocked hand and scores the rival
pair's count; the lowest count held in both pairs goes to the pair that led the hand
(``blocked_tie="leader_team"``). Checked on random holdings (the engine's scoring and the
fast path's) and on random hands played to a block through the engine.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominoes import HandEnd, apply, forced_action, legal_moves, new_match
from dominoes.playout import first_hand_position, random_deal, score_hands, tables_for
from dominoes.rules import CUBAN
from dominoes.scoring import counts_of, score_blocked
from dominoes.tiles import full_set

SETTINGS = settings(
    max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)


def expected_winners(counts, leader):
    """The seats that win a Cuban tranque, from the seed's sentence (not from the engine)."""
    lowest = min(counts)
    sides = {seat % 2 for seat, count in enumerate(counts) if count == lowest}
    side = sides.pop() if len(sides) == 1 else leader % 2
    return (side, side + 2)


@st.composite
def holdings(draw):
    """Four random non-empty holdings of the double-nine set (at most 10 tiles each)."""
    tiles = draw(st.permutations(full_set(9)))
    sizes = [draw(st.integers(min_value=1, max_value=10)) for _ in range(4)]
    out, start = [], 0
    for size in sizes:
        out.append(tuple(tiles[start : start + size]))
        start += size
    return out


@SETTINGS
@given(hands=holdings(), leader=st.integers(min_value=0, max_value=3))
def test_the_lowest_players_pair_wins_and_scores_the_rivals_count(hands, leader):
    counts = counts_of(hands)
    result = score_blocked(CUBAN, hands, leader)
    winners = expected_winners(counts, leader)
    assert result.winners == winners
    rivals = [seat for seat in range(4) if seat not in winners]
    assert result.points == sum(counts[seat] for seat in rivals)
    lowest_seats = [seat for seat, count in enumerate(counts) if count == min(counts)]
    if len(lowest_seats) == 1:  # the issue's property: a unique lowest player's pair wins
        assert lowest_seats[0] in result.winners
    index = tables_for(9).index
    masks = [sum(1 << index[tile] for tile in tiles) for tiles in hands]
    fast = score_hands(CUBAN, masks, HandEnd.BLOCKED, leader=leader)
    assert fast == (HandEnd.BLOCKED, result.winners, result.points, result.counts)


def test_the_issues_example_counts_8_0_12_22_go_to_pair_b_for_20():
    by_name = {str(tile): tile for tile in full_set(9)}
    hands = [
        (by_name["5-3"],),
        (by_name["0-0"],),
        (by_name["7-5"],),
        (by_name["9-4"], by_name["9-0"]),
    ]
    result = score_blocked(CUBAN, hands, leader=0)
    assert result.counts == (8, 0, 12, 22)
    assert (result.winners, result.points) == ((1, 3), 20)


@settings(max_examples=60, deadline=None, database=None)
@given(seed=st.binary(min_size=32, max_size=32), picks=st.randoms(use_true_random=False))
def test_random_engine_hands_that_block_follow_the_lowest_player(seed, picks):
    match = new_match(4, 100, seed=seed, rules=CUBAN)
    while not match.hand.is_over:
        owed = forced_action(match)
        match = apply(match, owed if owed is not None else picks.choice(legal_moves(match)))
    result = match.hand.result
    if result.end is not HandEnd.BLOCKED:
        return
    assert result.winners == expected_winners(result.counts, match.hand.leader)


def test_many_fast_path_tranques_follow_the_lowest_player():
    rng = random.Random(21)
    tranques = 0
    while tranques < 300:
        hands, stock = random_deal(CUBAN, 4, rng)
        pos = first_hand_position(CUBAN, 4, hands, stock, rng)
        while not pos.is_over:
            pos.act(*rng.choice(pos.legal_actions()))
        if pos.end is HandEnd.BLOCKED:
            tranques += 1
            assert pos.winners == expected_winners(pos.counts, pos.leader)
