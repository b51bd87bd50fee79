"""Abuela Quelonia's search options: the simulations the cap on deals leaves unspent,
spent while the choice is undecided (``settle``), the advice's move played where it is as
good (``legible``) and the endgame solved (``endgame``), each hers at partnerships only."""

from __future__ import annotations

import random

import pytest

from dominoes.bots.estimates import Totals
from dominoes.bots.quelonia import Quelonia
from tests.support.engine import bot_positions
from tests.support.quelonia import Tuned


def _totals(rows: list[list[float]]) -> Totals:
    """Totals of equal-weight deals, one row of match values (one per move) a deal."""
    totals = Totals(len(rows[0]))
    for values in rows:
        totals.add_deal(1.0, values, [0.0] * len(values))
    return totals


def test_a_choice_is_undecided_while_the_best_two_are_within_z_standard_errors():
    # The best move is ahead by 0.1 a deal, always: no spread, decided at any z.
    assert not _totals([[0.6, 0.5, 0.0]] * 10).undecided(3.0)
    # Ahead by 0.1 on average, 0.5 either side of it a deal, over 4 deals: SE 0.5 / 2.
    noisy = _totals([[1.0, 0.4], [0.0, 0.4], [1.0, 0.4], [0.0, 0.4]])
    assert noisy.undecided(1.0)  # 0.1 < 0.25
    assert not noisy.undecided(0.3)  # 0.1 > 0.075
    assert not _totals([[0.5, 0.4]]).undecided(9.0)  # one deal: no spread to judge by


def test_settle_spends_the_unspent_simulations_only_while_undecided_and_never_more():
    views = [view for _, view in bot_positions(4, 10, seed=3, bot="nino")]
    view = next(view for view in views if len(view.legal_moves) == 2)
    base = Tuned(rollouts=120, time_budget=5.0, max_worlds=20)
    always = Tuned(rollouts=120, time_budget=5.0, max_worlds=20, settle=1e9)
    never = Tuned(rollouts=120, time_budget=5.0, max_worlds=20, settle=1e-9)
    assert base.estimate(view, random.Random(4))[0].deals == 20  # the cap on deals
    assert always.estimate(view, random.Random(4))[0].deals == 60  # the whole budget: 120 / 2
    assert never.estimate(view, random.Random(4))[0].deals == 20  # a lead is never within 0
    chosen = always.choose(view, random.Random(4))
    assert chosen in view.legal_moves


def test_within_compares_two_given_moves_in_standard_errors_of_their_paired_gap():
    """``Totals.within(first, second, z)``: move ``first``'s lead over ``second``, deal by
    deal, against ``z`` standard errors of that difference (the test of ``legible``)."""
    noisy = _totals([[0.6, 0.5, 0.0], [0.4, 0.5, 0.0]] * 8)  # gap 0 on average, sd 0.1
    assert noisy.within(0, 1, 1.0)
    steady = _totals([[0.6, 0.5, 0.0]] * 8)  # gap 0.1 every deal: no spread
    assert not steady.within(0, 1, 50.0)
    assert steady.within(1, 0, 0.1)  # a move behind is always within
    assert not _totals([[0.6, 0.5]]).within(1, 0, 9.0)  # one deal: nothing to judge by


@pytest.mark.parametrize(("seats", "partnerships"), [(4, True), (3, False)])
def test_legible_plays_the_advices_move_in_partnerships_only(seats, partnerships):
    """With ``legible`` far above any gap she plays Nino's top-scored move at four seats
    (her partner reads her as the advice), and is unchanged at three (nobody reads her)."""
    from dominoes.bots.knowledge import infer
    from dominoes.bots.nino import exhausted_pips, score_move

    checked = 0
    for seed, (_, view) in enumerate(bot_positions(seats, 16, seed=seats + 7, bot="nino")):
        if len(view.legal_moves) < 2:
            continue
        knowledge = infer(view)
        exhausted = exhausted_pips(knowledge)
        scores = [score_move(view, knowledge, m, exhausted) for m in view.legal_moves]
        if max(scores) >= 1e6:
            continue  # a domino is played at once either way
        advised = view.legal_moves[scores.index(max(scores))]
        legible = Tuned(rollouts=200, legible=1e9).choose(view, random.Random(seed))
        plain = Quelonia(rollouts=200).choose(view, random.Random(seed))
        assert legible == (advised if partnerships else plain)
        checked += 1
    assert checked >= 8


def test_the_partnership_options_are_hers_at_partnerships_by_the_sets_top_pip():
    """``endgame``, ``settle`` and ``legible`` are on at double-six tables in partnerships
    (R2: classic four seats), ``legible`` alone at double-nine partnerships (``cuban``),
    off at three seats and where four seats play each for themselves; a variant's value
    wins."""
    from dominoes.rules import PROFILES

    shipped = Quelonia()
    options = ("endgame", "settle", "legible")
    classic = PROFILES["classic"]
    assert [shipped.option(name, classic, 4) for name in options] == [8, 2.0, 1.0]
    # At double-nine partnerships only the legible play is on.
    assert [shipped.option(name, PROFILES["cuban"], 4) for name in options] == [0, 0, 1.0]
    for rules, seats in ((classic, 3), (PROFILES["first_double"], 4)):
        assert [shipped.option(name, rules, seats) for name in options] == [0, 0, 0]
    given = Tuned(endgame=0, settle=0.5, legible=0.0)
    assert [given.option(name, classic, 4) for name in options] == [0, 0.5, 0.0]
    for name in ("rollouts", "burn_in"):
        with pytest.raises(KeyError):
            shipped.option(name, classic, 4)


def test_at_four_seats_the_shipped_options_change_her_estimates_and_not_at_three():
    """The defaults reach the search: on the same positions and seeds the shipped bot's
    estimates differ from the options-off bot's at four seats, and match it at three."""

    def estimates(bot, seats):
        return [
            bot.estimate(view, random.Random(index))
            for index, (_, view) in enumerate(bot_positions(seats, 6, seed=11, bot="nino"))
            if len(view.legal_moves) > 1
        ]

    shipped = Tuned(rollouts=200, time_budget=600.0, max_worlds=20)
    off = Tuned(rollouts=200, time_budget=600.0, max_worlds=20, endgame=0, settle=0.0)
    assert estimates(shipped, 4) != estimates(off, 4)
    assert estimates(shipped, 3) == estimates(off, 3)
