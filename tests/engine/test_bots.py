"""The bots (``dominoes.bots``): always a legal play, deterministic for a seed, and blind
to everything a seat may not see (R31)."""

from __future__ import annotations

import ast
import random
from dataclasses import replace
from pathlib import Path

import pytest

from dominoes import MatchState, advance, new_match, view_for
from dominoes.bots import BOTS, Bot, choose_play
from dominoes.bots.knowledge import infer
from dominoes.state import Draw
from tests.support.engine import bot_positions

BOTS_DIR = Path(__file__).resolve().parents[2] / "dominoes" / "bots"


def positions(seats: int, count: int, seed: int, hands: int = 3):
    """``count`` positions of random play across several hands (see ``bot_positions``)."""
    return bot_positions(seats, count, seed, hands)


def test_the_three_bots():
    assert sorted(BOTS) == ["garabato", "nino", "quelonia"]
    expected = {
        "garabato": ("Garabato", "easy"),
        "nino": ("Nino", "medium"),
        "quelonia": ("Abuela Quelonia", "hard"),
    }
    for name, bot in BOTS.items():
        assert isinstance(bot, Bot)
        assert bot.name == name
        assert (bot.display_name, bot.level) == expected[name]
        assert bot.__doc__ and len(bot.__doc__) > 80


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("name", ["garabato", "nino"])
def test_fast_bots_always_play_legally(name, seats):
    for index, (_, view) in enumerate(positions(seats, 150, seed=seats * 7)):
        assert choose_play(name, view, seed=index) in view.legal_moves


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_quelonia_always_plays_legally(seats):
    for index, (_, view) in enumerate(positions(seats, 6, seed=seats * 11)):
        assert choose_play("quelonia", view, seed=index) in view.legal_moves


@pytest.fixture
def steady_quelonia(monkeypatch):
    """Quelonia with fewer simulations and no clock: determinism does not depend on the
    budget, and a loaded test machine must not trip the time guard."""
    monkeypatch.setattr(BOTS["quelonia"], "rollouts", 60)
    monkeypatch.setattr(BOTS["quelonia"], "time_budget", 600.0)


@pytest.mark.parametrize("name", ["garabato", "nino", "quelonia"])
def test_a_seed_fixes_the_play(name, steady_quelonia):
    for index, (_, view) in enumerate(positions(4, 6 if name != "quelonia" else 3, seed=5)):
        first = choose_play(name, view, seed=index)
        assert all(choose_play(name, view, seed=index) == first for _ in range(2))
        assert choose_play(name, view, seed=str(index).encode()) in view.legal_moves
        assert choose_play(name, view) == choose_play(name, view)


def test_garabato_is_random_but_not_silly():
    """Different seeds give different plays, with a lean to the heaviest tile."""
    _, view = next(
        (m, v)
        for m, v in positions(2, 200, seed=3)
        if len({move.tile.value for move in v.legal_moves}) >= 3
    )
    plays = [choose_play("garabato", view, seed=seed) for seed in range(200)]
    top = max(move.tile.value for move in view.legal_moves)
    heavy = sum(1 for play in plays if play.tile.value == top)
    assert len(set(plays)) > 1
    assert 0.5 < heavy / len(plays) < 0.95


def test_bots_take_a_seat_view_only():
    match, view = positions(2, 1, seed=1)[0]
    for name in BOTS:
        with pytest.raises(TypeError):
            choose_play(name, match, seed=1)  # a MatchState holds every seat's tiles
        with pytest.raises(TypeError):
            choose_play(name, view.to_dict(), seed=1)
    with pytest.raises(KeyError):
        choose_play("nobody", view)


def reshuffle_hidden(match: MatchState, seat: int, rng: random.Random) -> MatchState:
    """The same match with the tiles ``seat`` cannot see (other seats' holdings and the
    undrawn stock) dealt differently, every count unchanged."""
    hand = match.hand
    hidden = [t for s, tiles in enumerate(hand.holdings) if s != seat for t in tiles]
    hidden += list(hand.stock[hand.drawn :])
    rng.shuffle(hidden)
    holdings = []
    for s, tiles in enumerate(hand.holdings):
        if s == seat:
            holdings.append(tiles)
        else:
            holdings.append(tuple(sorted(hidden[: len(tiles)], reverse=True)))
            del hidden[: len(tiles)]
    stock = hand.stock[: hand.drawn] + tuple(hidden)
    # Other seats' draws name tiles the viewer never sees: keep them as they were.
    new_hand = replace(hand, holdings=tuple(holdings), stock=stock)
    return replace(match, hands=match.hands[:-1] + (new_hand,))


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_hidden_tiles_do_not_change_the_play(seats, steady_quelonia):
    """Two matches that differ only in what the seat to act cannot see give that seat
    equal views, and every bot the same play (R31)."""
    rng = random.Random(seats)
    checked = 0
    for index, (match, view) in enumerate(positions(seats, 5, seed=seats * 13)):
        other = reshuffle_hidden(match, view.seat, rng)
        assert other.hand.holdings != match.hand.holdings or seats == 2
        assert view_for(other, view.seat) == view
        for name in BOTS:
            assert choose_play(name, view_for(other, view.seat), seed=index) == choose_play(
                name, view, seed=index
            )
        checked += 1
    assert checked == 5


def test_inference_reads_draws_and_passes():
    """A seat that drew on ends (a, b) and kept the tile lacks a and b (the tips' rule)."""
    rng = random.Random(9)
    seen = 0
    for match, view in positions(2, 400, seed=21):
        knowledge = infer(view)
        hand = match.hand
        for seat in range(match.seats):
            if seat == view.seat:
                continue
            held_bits = 0
            for tile in hand.holdings[seat]:
                held_bits |= (1 << tile.high) | (1 << tile.low)
            # Every pip the seat is inferred to lack now is truly absent from its hand.
            assert not knowledge.current_voids[seat] & held_bits
            # The sampler's per-tile constraints are satisfiable by the true holdings.
            assert len(knowledge.slots[seat]) == len(hand.holdings[seat])
            if knowledge.current_voids[seat]:
                seen += 1
        assert set(knowledge.unseen) == {
            t for s, tiles in enumerate(hand.holdings) if s != view.seat for t in tiles
        } | set(hand.stock[hand.drawn :])
        if any(isinstance(a, Draw) for a in hand.actions):
            rng.random()
    assert seen > 20


# --- structure: the bots see a SeatView and nothing else --------------------------------

ALLOWED_IMPORTS = {
    "dominoes.bots.base",
    "dominoes.bots.belief",
    "dominoes.bots.posterior",
    "dominoes.bots.estimates",
    "dominoes.bots.endgame",
    "dominoes.bots.match_value",
    "dominoes.bots.garabato",
    "dominoes.bots.nino",
    "dominoes.bots.quelonia",
    "dominoes.bots.knowledge",
    "dominoes.bots.sampling",
    "dominoes.bots.simulate",
    "dominoes.view",
    "dominoes.state",
    "dominoes.tiles",
    "dominoes.rules",
    "dominoes.seats",
    "dominoes.engine",
    "dominoes.playout",
}
#: Names that could hand a bot another seat's tiles: never imported by the bots.
FORBIDDEN_NAMES = {
    "view_for",
    "public_log",
    "summarize_hand",
    "match_from_dict",
    "load_record",
    "replay_match",
    "deal",
    "start_hand",
    "new_match",
}


def test_bots_import_no_hidden_state():
    for path in sorted(BOTS_DIR.glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            module = node.module if isinstance(node, ast.ImportFrom) else None
            if module and module.startswith("dominoes"):
                assert node.module in ALLOWED_IMPORTS, (path.name, node.module)
                for alias in node.names:
                    assert alias.name not in FORBIDDEN_NAMES, (path.name, alias.name)
                if node.module in ("dominoes.engine", "dominoes.playout"):
                    # Only the simulator of sampled worlds may run the rules; the
                    # belief reads the fast path's lookup tables.
                    if path.name in ("belief.py", "posterior.py"):
                        assert {a.name for a in node.names} <= {"Tables", "tables_for"}
                    else:
                        assert path.name in ("simulate.py", "endgame.py"), path.name
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    assert not alias.name.startswith("dominoes"), (path.name, alias.name)
                    assert alias.name.split(".")[0] not in ("django", "celery", "rest_framework")
        if path.name not in ("simulate.py", "quelonia.py"):
            # Only sampled worlds are MatchStates; everyone else reads the view.
            names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
            names |= {
                a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names
            }
            assert "MatchState" not in names, path.name


def test_three_player_knowledge_never_counts_the_missing_double_blank():
    """three_player plays without 0-0: a bot must not think another seat may hold it."""
    from dominoes import view_for
    from dominoes.bots.knowledge import infer
    from dominoes.rules import PROFILES
    from dominoes.tiles import Tile

    rules = PROFILES["three_player"]
    match = advance(new_match(3, rules.targets[0], seed=bytes(32), rules=rules))
    knowledge = infer(view_for(match, 0))
    assert Tile(0, 0) not in knowledge.unseen
    assert len(knowledge.unseen) == 27 - 9


@pytest.mark.parametrize("seats", [2, 4])
def test_quelonia_estimates_every_legal_move_and_plays_her_best(
    seats, steady_quelonia, monkeypatch
):
    """``Quelonia.estimate`` (used by the match analysis) gives one estimate per legal
    move, in order, with chances in 0-1 and points bounded by a hand's worth; where she
    has a real choice she plays the move her own estimate values most (with ``legible``
    off: in partnerships it may play the advice's move within noise of her best, tested
    in test_quelonia_search.py)."""
    quelonia = BOTS["quelonia"]
    shipped = quelonia.option
    monkeypatch.setattr(
        quelonia, "option", lambda name, *table: 0 if name == "legible" else shipped(name, *table)
    )
    for index, (_, view) in enumerate(positions(seats, 4, seed=seats * 17)):
        estimates = quelonia.estimate(view, random.Random(index))
        assert [estimate.move for estimate in estimates] == list(view.legal_moves)
        for estimate in estimates:
            assert 0.0 <= estimate.match_value <= 1.0
            assert 0.0 <= estimate.hand_win_chance <= 1.0
            assert abs(estimate.expected_points) <= 168  # every pip of a double-six set
            assert estimate.deals > 0
        if len(estimates) > 1:
            chosen = quelonia.choose(view, random.Random(index))
            best = max(estimate.match_value for estimate in estimates)
            assert next(e for e in estimates if e.move == chosen).match_value >= best - 1e-5
