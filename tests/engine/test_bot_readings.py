"""How Abuela Quelonia reads a seat's plays (``belief.play_gaps``,
``belief.sharp_log_likelihood``, ``posterior.READINGS``, issue 20): a proper chance over
the legal plays at every sharpness, and a weighed mix of readings that tells a seat
following the advice from one playing at random by its plays alone (R31: the log and the
deal only)."""

from __future__ import annotations

import math

import pytest

from dominoes.bots import belief, posterior
from dominoes.bots.belief import decisions, play_gaps, play_log_likelihood, sharp_log_likelihood
from dominoes.playout import tables_for
from dominoes.rules import CLASSIC
from tests.support.engine import bot_positions


def masks(holdings) -> list[int]:
    index = tables_for(6).index
    return [sum(1 << index[tile] for tile in tiles) for tiles in holdings]


def informative(bot: str | None, count: int, seed: int):
    """``(view, decisions, true holding masks)`` of four-seat positions with at least
    three informative plays of the other seats, everyone playing ``bot`` (``None``: a
    uniformly random legal play)."""
    found = []
    for match, view in bot_positions(4, count, seed, hands=2, bot=bot, keep=0.3):
        plays = decisions(view, CLASSIC)
        if len(plays) >= 3:
            found.append((view, plays, masks(match.hand.holdings)))
    return found


@pytest.mark.parametrize("sharpness", [0.0, 0.5, 1.0, 3.0])
def test_each_reading_is_a_chance_over_the_legal_plays(sharpness):
    """Summed over every option taken as the play made, the chances add up to 1; at
    sharpness 0 every legal play is alike."""
    for _, plays, truth in informative("nino", 30, seed=41)[:10]:
        for decision in plays:
            gaps = play_gaps(
                tables_for(6), CLASSIC, 4, decision, 0, truth[decision.seat] | decision.after, {}
            )
            if gaps is None:
                continue
            _, options = gaps
            assert max(options) == 0.0 and gaps[0] in options
            total = sum(
                math.exp(sharp_log_likelihood((gap, options), sharpness)) for gap in options
            )
            assert total == pytest.approx(1.0)
            if sharpness == 0.0:
                assert sharp_log_likelihood(gaps, 0.0) == pytest.approx(-math.log(len(options)))


def test_the_single_reading_is_the_belief_at_its_sharpness(monkeypatch):
    """With no ``READINGS`` the chain scores a seat exactly as ``play_log_likelihood``
    does (the belief before the readings)."""
    monkeypatch.setattr(posterior, "READINGS", None)
    tables = tables_for(6)
    for _, plays, truth in informative("nino", 30, seed=42)[:10]:
        scores = posterior._SeatScores(tables, CLASSIC, 4, plays)
        for seat in scores.by_seat:
            expected = sum(
                play_log_likelihood(
                    tables, CLASSIC, 4, decision, number, truth[seat] | decision.after, {}
                )
                for number, decision in scores.by_seat[seat]
            )
            assert scores(seat, truth[seat]) == expected


def _reading_gap(found) -> float:
    """The mean, over the other seats with plays to read, of how much likelier the sharp
    reading (3) makes their true holdings' plays than the soft one (0.5), in log units."""
    tables = tables_for(6)
    gaps = []
    for _, plays, truth in found:
        by_seat: dict[int, list[float]] = {}
        for number, decision in enumerate(plays):
            hand = truth[decision.seat] | decision.after
            gap = play_gaps(tables, CLASSIC, 4, decision, number, hand, {})
            if gap is not None:
                by_seat.setdefault(decision.seat, []).append(
                    sharp_log_likelihood(gap, 3.0) - sharp_log_likelihood(gap, 0.5)
                )
        gaps += [sum(values) for values in by_seat.values()]
    return sum(gaps) / len(gaps)


def test_the_mix_of_readings_tells_an_advice_follower_from_a_random_player(monkeypatch):
    """A Nino's plays are likelier under the sharp reading, a random player's far likelier
    under the soft one, so the mix reads each seat as its plays show; a seat's mixed score
    is the log of the weighed sum of its readings' chances. (A Nino always plays a top
    option, but most choices are between options far apart, so even the soft reading
    gives its plays about 0.7 a play: the evidence for the sharp one grows slowly.)"""
    assert _reading_gap(informative("nino", 60, seed=43)) > 0.3
    assert _reading_gap(informative(None, 60, seed=44)) < -5.0
    monkeypatch.setattr(posterior, "READINGS", ((0.5, 3.0), (0.5, 0.5)))
    tables = tables_for(6)
    for _, plays, truth in informative("nino", 30, seed=45)[:5]:
        scores = posterior._SeatScores(tables, CLASSIC, 4, plays)
        for seat in scores.by_seat:
            each = []
            for sharpness in (3.0, 0.5):
                monkeypatch.setattr(belief, "SHARPNESS", sharpness)
                each.append(
                    sum(
                        play_log_likelihood(
                            tables, CLASSIC, 4, decision, number, truth[seat] | decision.after, {}
                        )
                        for number, decision in scores.by_seat[seat]
                    )
                )
            mixed = math.log(0.5 * math.exp(each[0]) + 0.5 * math.exp(each[1]))
            assert scores(seat, truth[seat]) == pytest.approx(mixed)


def test_the_mix_is_used_at_double_six_tables_in_partnerships_only():
    """Measured to help at four seats in pairs (R2) at double-six and to lose alone
    against two Ninos: elsewhere each seat keeps the single reading."""
    from dominoes.rules import PROFILES

    assert posterior.readings_for(CLASSIC, 4) == posterior.READINGS is not None
    assert posterior.readings_for(CLASSIC, 3) is None
    assert posterior.readings_for(CLASSIC, 2) is None
    assert posterior.readings_for(PROFILES["cuban"], 4) is None
