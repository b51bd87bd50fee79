"""The analysis of a finished match (``dominoes.analysis``, issue 20): judged from the
seat's view at the time only (R31), deterministic, forced moves left alone."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from dominoes import (
    advance,
    apply,
    load_record,
    match_to_record,
    new_match,
    start_hand,
    view_for,
)
from dominoes.analysis import THRESHOLDS, analyse, mark, positions, quelonia_estimator
from dominoes.bots import choose_play
from dominoes.bots.quelonia import MoveEstimate
from dominoes.state import Draw, Pass, Play

#: A small, clock-free Quelonia: fast and deterministic (as ``steady_quelonia``).
SMALL = quelonia_estimator(rollouts=48)


def finished_match(seats: int, seed: int, target: int = 50):
    """A whole match of Ninos from ``seed`` at ``seats`` to ``target``, as a parsed record
    (``research.analysis_speed`` times the analysis of the same matches)."""
    rng = random.Random(seed)
    match = advance(new_match(seats, target, seed=rng.randbytes(8)))
    while not match.is_over:
        if match.hand.result is not None:
            match = advance(start_hand(match, seed=rng.randbytes(8)))
            continue
        view = view_for(match, match.hand.turn)
        match = advance(apply(match, choose_play("nino", view, seed=rng.randrange(99))))
    return load_record(match_to_record(match))


def test_forced_moves_are_counted_not_judged():
    record = finished_match(2, seed=3)
    found, forced = positions(record, [0])
    assert found and forced[0] > 0
    judged = {(p.hand, p.action) for p in found}
    for number, hand in enumerate(record.hands):
        for index, action in enumerate(hand.actions):
            if isinstance(action, Draw | Pass) or action.seat != 0:
                assert (number, index) not in judged
    assert all(len(p.view.legal_moves) > 1 and p.view.seat == 0 for p in found)


@pytest.mark.parametrize("seats", [2, 4])
def test_the_analysis_is_deterministic_and_names_only_the_seats_own_tiles(seats):
    record = finished_match(seats, seed=seats)
    first = analyse(record, [0], SMALL)
    assert first == analyse(record, [0], SMALL)
    found, _ = positions(record, [0])
    assert len(first["moves"]) == len(found) > 0
    for move, position in zip(first["moves"], found, strict=True):
        own = {str(tile) for tile in position.view.tiles}
        named = {move["tile"]} | {alt["tile"] for alt in move["alternatives"]}
        if move["best"]:
            named.add(move["best"]["tile"])
        assert named <= own, "the analysis names only tiles the seat held"
        assert move["seat"] == 0 and move["deals"] > 0
    summary = first["summary"][0]
    assert summary["seat"] == 0 and summary["moves_analysed"] == len(found)


def _first_choice_before_any_draw(seats: int, seed: int):
    """A match played by Ninos up to seat 0's first play with a choice, after another
    seat played and before anybody drew or passed: ``(match, seat 0's play)``."""
    rng = random.Random(seed)
    for _ in range(50):
        match = advance(new_match(seats, 100, seed=rng.randbytes(8)))
        while match.hand.result is None:
            hand = match.hand
            if any(not isinstance(action, Play) for action in hand.actions):
                break
            view = view_for(match, hand.turn)
            if not view.legal_moves:
                break  # a draw or a pass is due
            play = choose_play("nino", view, seed=rng.randrange(99))
            if hand.turn == 0 and len(view.legal_moves) > 1 and len(hand.actions) >= seats - 1:
                return match, play
            match = apply(match, play)
    raise AssertionError("no such position")


def _hidden_elsewhere(match, seat: int, rng: random.Random) -> dict:
    """The record of ``match`` with the tiles ``seat`` cannot see (the others' unplayed
    tiles and the stock) dealt differently: same counts, same plays."""
    hand = match.hand
    played = {action.tile for action in hand.actions}
    others = [tiles for s, tiles in enumerate(hand.dealt) if s != seat]
    hidden = [t for tiles in others for t in tiles if t not in played]
    hidden += list(hand.stock)
    rng.shuffle(hidden)
    dealt = []
    for s, tiles in enumerate(hand.dealt):
        if s == seat:
            dealt.append(list(tiles))
            continue
        keep = [t for t in tiles if t in played]
        dealt.append(keep + [hidden.pop() for _ in range(len(tiles) - len(keep))])
    record = match_to_record(match)
    record["hands"][-1]["dealt"] = [[str(t) for t in tiles] for tiles in dealt]
    record["hands"][-1]["stock"] = [str(t) for t in hidden]
    for name in ("seed", "seed_sha256"):
        record["hands"][-1].pop(name, None)
    return record


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_analysis_is_blind_to_the_other_seats_hidden_tiles(seats):
    """Two records identical in everything seat 0 saw before its play, different in the
    others' hidden tiles: identical analysis of that play (R31)."""
    match, play = _first_choice_before_any_draw(seats, seed=seats * 5)
    played = apply(match, play)
    rng = random.Random(seats)
    one, two = _hidden_elsewhere(played, 0, rng), _hidden_elsewhere(played, 0, rng)
    assert one["hands"][-1]["dealt"] != two["hands"][-1]["dealt"]
    assert one["hands"][-1]["dealt"][0] == two["hands"][-1]["dealt"][0]
    first, second = analyse(load_record(one), [0], SMALL), analyse(load_record(two), [0], SMALL)
    assert first["moves"][-1]["action"] == len(one["hands"][-1]["actions"]) - 1
    assert first == second


def _estimates(view, rng, values):
    return [
        MoveEstimate(move, 0.5, chance, points, 10)
        for move, (chance, points) in zip(view.legal_moves, values, strict=False)
    ]


@pytest.mark.parametrize(
    ("chance_lost", "points_lost", "expected"),
    [
        (0.0, 0.0, None),
        (0.04, 2.9, None),
        (0.05, 0.0, "inaccuracy"),
        (0.0, 3.0, "inaccuracy"),
        (0.10, 0.0, "error"),
        (0.01, 6.5, "error"),
        (0.25, 0.0, "blunder"),
        (0.0, 12.0, "blunder"),
    ],
)
def test_the_thresholds(chance_lost, points_lost, expected):
    assert mark(chance_lost, points_lost) == expected
    assert [name for name, _, _ in THRESHOLDS] == ["inaccuracy", "error", "blunder"]


def test_a_move_worse_than_the_best_is_marked_with_the_better_move():
    """With a stub estimator that rates the move played 30 points of win chance below
    another: a blunder, the other move named as the better one, and the summary counts it."""
    record = finished_match(2, seed=7)
    found, _ = positions(record, [1])
    target = found[0]
    seen = replace(target.view, seed_sha256=None)  # the estimator never gets the commitment

    def estimator(view, rng):
        values = []
        for move in view.legal_moves:
            is_played = view == seen and move.tile == target.played.tile
            values.append((0.2, -4.0) if is_played else (0.5, 2.0))
        return _estimates(view, rng, values)

    result = analyse(record, [1], estimator)
    judged = result["moves"][0]
    assert judged["mark"] == "blunder" and judged["loss"]["hand_win_chance"] == 0.3
    assert judged["best"]["tile"] != str(target.played.tile)
    assert judged["best"]["tile"] in {str(t) for t in target.view.tiles}
    assert all(move["mark"] is None for move in result["moves"][1:])
    summary = result["summary"][0]
    assert (summary["blunders"], summary["errors"], summary["inaccuracies"]) == (1, 0, 0)
    assert summary["average_loss"]["hand_win_chance"] == round(0.3 / len(found), 4)


def test_progress_is_reported_move_by_move():
    record = finished_match(2, seed=11)
    seen = []
    result = analyse(record, [0, 1], SMALL, on_progress=lambda done, total: seen.append(done))
    assert seen == list(range(len(result["moves"]) + 1))
    assert [row["seat"] for row in result["summary"]] == [0, 1]
