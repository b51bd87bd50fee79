"""The advice rollout (``research.advice_playout``): every seat of a sampled deal plays as
Nino would from what it sees, so the voids it reads must be the ones the engine's log
shows and its choice must be one of Nino's best. Pure engine code: no database."""

from __future__ import annotations

import random

import pytest

from dominoes.bots.knowledge import infer
from dominoes.bots.nino import exhausted_pips, score_move
from dominoes.bots.simulate import world_position
from dominoes.engine import advance, apply, new_match
from dominoes.playout import Position, tables_for
from dominoes.rules import PROFILES
from dominoes.state import Play
from dominoes.view import view_for
from research.advice_playout import advice_playout
from research.lab import LabQuelonia as Quelonia
from tests.engine.test_profile_bots import PROFILE_TABLES, decisions, true_world


@pytest.mark.parametrize(
    ("name", "seats"), [("classic", 2), ("classic", 3), ("classic", 4), ("cuban", 4)]
)
def test_the_advice_rollout_reads_the_voids_of_the_log_and_plays_ninos_best(name, seats):
    """A whole hand played out by ``advice_playout`` from the deal, then replayed in the
    engine: at every play the other seats' voids it chose with are those of
    ``infer(view).current_voids`` (at four seats, where nobody draws; with a stock never
    more than them: after a draw it keeps only that draw's ends, where Nino also keeps
    what the tiles held before the draw lacked), and with the same voids its play has
    Nino's top score (``nino.score_move``) in that view (R14-R16; ties either way)."""
    rules = PROFILES[name]
    checked = 0
    for n in range(6):
        match = advance(new_match(seats, 100, seed=b"advice-%d" % n, rules=rules))
        pos = Position.from_match(match)
        trace: list = []
        advice_playout(pos, (0,) * seats, 0, rules.partnerships(seats), trace)
        assert pos.is_over
        tiles = tables_for(rules.max_pip).tiles
        for seat, tile, end, voids in trace:
            assert match.hand.turn == seat
            view = view_for(match, seat)
            knowledge = infer(view)
            move = Play(seat, tiles[tile], None if end < 0 else end)
            legal = [m for m in view.legal_moves if m.tile == move.tile]
            assert legal, (seat, tiles[tile], end)
            move = next((m for m in legal if m.end == move.end), legal[0])
            if len(view.legal_moves) > 1:
                others = [s for s in range(seats) if s != seat]  # a view zeroes its own
                mine = [voids[s] for s in others]
                read = [knowledge.current_voids[s] for s in others]
                if seats == 4:  # nobody draws: the voids are exact
                    assert mine == read
                else:  # after a draw it keeps only that draw's ends: never more than the log
                    assert all(m & ~r == 0 for m, r in zip(mine, read, strict=True))
                if mine == read:
                    exhausted = exhausted_pips(knowledge)
                    scores = [score_move(view, knowledge, m, exhausted) for m in view.legal_moves]
                    assert score_move(view, knowledge, move, exhausted) == pytest.approx(
                        max(scores)
                    )
                    checked += 1
            match = advance(apply(match, move))
        assert match.hand.is_over
        assert match.hand.result.winners == pos.winners
    assert checked >= 20


@pytest.mark.parametrize(("name", "seats"), PROFILE_TABLES)
def test_the_advice_rollout_ends_every_hand_of_every_profile(name, seats):
    """From the true deal at a bot's decisions, on every profile, the advice rollout plays
    the hand to its end (draws under ``draw_optional``, blocks, the Cuban tranque)."""
    rules = PROFILES[name]
    for match, view in decisions(name, seats, b"advice-end"):
        pos = world_position(view, rules, *true_world(match))
        knowledge = infer(view)
        end, _, _, _ = advice_playout(pos, knowledge.current_voids, 0, rules.partnerships(seats))
        assert end is not None and pos.is_over


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_quelonia_with_the_advice_rollout_plays_legally_and_by_her_seed(seats):
    """``Quelonia(rollout="advice")`` plays a legal move, the same one for the same seed."""
    bot = Quelonia(rollouts=60, time_budget=30.0, max_worlds=12, rollout="advice")
    for _match, view in decisions("classic", seats, b"advice-bot"):
        if len(view.legal_moves) < 2:
            continue
        first = bot.choose(view, random.Random(3))
        assert first in view.legal_moves
        assert bot.choose(view, random.Random(3)) == first


def test_an_unknown_rollout_policy_is_refused():
    with pytest.raises(ValueError, match="rollout"):
        Quelonia(rollout="cheat")


def test_the_advice_rollout_stops_where_the_endgame_is_solved():
    """With ``tiles_left`` the advice rollout plays the same first plays as without it and
    stops, returning ``None``, as soon as the hands hold at most that many tiles (four
    seats: no stock), so ``endgame.solved_playout`` can solve the rest."""
    rules = PROFILES["classic"]
    for n in range(6):
        match = advance(new_match(4, 100, seed=b"advice-stop-%d" % n, rules=rules))
        whole, stopped = Position.from_match(match), Position.from_match(match)
        whole_trace: list = []
        stopped_trace: list = []
        advice_playout(whole, (0,) * 4, 0, True, whole_trace)
        result = advice_playout(stopped, (0,) * 4, 0, True, stopped_trace, tiles_left=8)
        if result is None:
            assert stopped.tiles_in_play() <= 8
            assert stopped.tiles_in_play() + len(stopped_trace) == 28
        else:  # the hand ended before that many tiles were left
            assert stopped.is_over
        assert stopped_trace == whole_trace[: len(stopped_trace)]


def test_her_advice_rollout_is_used_where_her_endgame_is_on():
    """At classic four seats her ``endgame`` is on (``PARTNERSHIP_OPTIONS``); before
    session 19 it silently replaced ``rollout="advice"`` with the greedy policy, so both
    estimated every move alike. Now the advice plays until the solving, and the
    estimates differ somewhere (the same deals: the same seed)."""
    greedy = Quelonia(rollouts=120, time_budget=30.0, max_worlds=24)
    advice = Quelonia(rollouts=120, time_budget=30.0, max_worlds=24, rollout="advice")
    differ = 0
    for _match, view in decisions("classic", 4, b"advice-endgame"):
        if len(view.legal_moves) < 2:
            continue
        mine = greedy.estimate(view, random.Random(5))
        theirs = advice.estimate(view, random.Random(5))
        differ += [e.match_value for e in mine] != [e.match_value for e in theirs]
    assert differ >= 1
