"""Bot-against-bot matches in duplicate format, for measuring the bots.

Each *deal sequence* (the shuffles of hand 0, 1, 2, ... of a match, derived from the arena
seed) is played once per seating, with the seats rotated so that both bots play every
deal from every side:

- 2 seats: ``A B`` then ``B A``;
- 3 seats: one ``A`` against two ``B``, with ``A`` in seat 0, then 1, then 2;
- 4 seats: team ``A`` in seats 0 and 2 against team ``B`` in 1 and 3, then swapped (with
  a profile that plays four seats alone, ``first_double``, the same seats: two ``A`` bots
  against two ``B`` bots, each for itself; a side wins when one of its seats wins).

Any rule profile (``dominoes.rules.PROFILES``, ``--profile``; classic by default) is
played at its own table sizes and targets. Hands follow the engine's own rules (the
profile's leads, R16 automatic draws and passes, its blocks and scoring, R25 target or one
hand for ``single_hand``), and each bot sees only its ``SeatView`` (R31). Two choices are
not the bots' own, as in the service: a lead the pair chooses (``cuban``) is made by the
seat the engine names first (``HandState.turn``), and a seat that may choose to draw or to
pass (``draw_optional``, ``first_double``) always draws (``tables.services.bot_play``; the
hard bot's simulations assume the same, ``dominoes.bots.simulate.greedy_playout``).
``python -m dominoes arena`` prints the first bot's match and hand win rates with 95%
Wilson intervals, points per hand and each bot's thinking time (p50/p95, wall clock and
CPU time of one core).
"""

from __future__ import annotations

import hashlib
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from dominoes.bots import BOTS, choose_play
from dominoes.engine import advance, apply, new_match, optional_actions, start_hand
from dominoes.rules import CLASSIC, PROFILES, Rules
from dominoes.state import MatchState, Play
from dominoes.view import SeatView, view_for

#: A match ends after this many hands even without a winner (a safety net only).
MAX_HANDS = 300


def seatings(seats: int) -> list[tuple[str, ...]]:
    """The seatings of one deal sequence: ``"A"``/``"B"`` per seat (see the module doc)."""
    if seats == 2:
        return [("A", "B"), ("B", "A")]
    if seats == 3:
        return [tuple("A" if s == k else "B" for s in range(3)) for k in range(3)]
    if seats == 4:
        return [("A", "B", "A", "B"), ("B", "A", "B", "A")]
    raise ValueError(f"an arena table has 2, 3 or 4 seats, not {seats}")


def _seed(*parts: object) -> bytes:
    return hashlib.sha256(":".join(str(part) for part in parts).encode()).digest()


@dataclass
class Tally:
    """Counts for side ``A`` (the first bot) against side ``B``."""

    matches: int = 0
    matches_a: int = 0
    matches_b: int = 0
    hands: int = 0
    hands_a: int = 0
    hands_b: int = 0
    points_a: int = 0
    points_b: int = 0
    times: dict[str, list[float]] = field(default_factory=lambda: {"A": [], "B": []})
    cpu: dict[str, list[float]] = field(default_factory=lambda: {"A": [], "B": []})

    def add(self, other: Tally) -> None:
        for name in (
            "matches",
            "matches_a",
            "matches_b",
            "hands",
            "hands_a",
            "hands_b",
            "points_a",
            "points_b",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for side in ("A", "B"):
            self.times[side].extend(other.times[side])
            self.cpu[side].extend(other.cpu[side])


def play_match(
    seats: int,
    target: int,
    names: dict[str, str],
    seating: Sequence[str],
    seed: object,
    group: int,
    rules: Rules = CLASSIC,
    choose: Callable[[str, MatchState, SeatView, int], Play] | None = None,
) -> Tally:
    """One match of deal sequence ``group`` with the given seating under ``rules``;
    returns its tally. ``names`` maps ``"A"``/``"B"`` to bot names; ``seating`` gives
    each seat's side (``seatings``). ``choose(side, match, view, move_seed)``, when given,
    makes the plays instead of the named bots (for diagnostics such as
    ``bench/quelonia_variants.py``; it is handed the whole match, so it is never a bot)."""
    tally = Tally(matches=1)
    # Classic keeps its historical deal seeds (docs/bots.md's numbers); other profiles mix
    # their name in, so two profiles never share a deal sequence by accident.
    salt = (seed,) if rules is CLASSIC else (rules.name, seed)
    match = new_match(seats, target, seed=_seed("deal", *salt, group, 0), rules=rules)
    while True:
        match = advance(match)
        hand = match.hand
        while hand.result is None:
            seat = hand.turn
            side = seating[seat]
            view = view_for(match, seat)
            if not view.legal_moves:  # a draw-or-pass choice (draw_optional): draw
                match = advance(apply(match, optional_actions(match)[0]))
                hand = match.hand
                continue
            move_seed = int.from_bytes(
                _seed("move", seed, group, "".join(seating), hand.number, len(hand.actions))[:8],
                "big",
            )
            started, cpu_started = time.perf_counter(), time.thread_time()
            if choose is None:
                play = choose_play(names[side], view, seed=move_seed)
            else:
                play = choose(side, match, view, move_seed)
            tally.times[side].append(time.perf_counter() - started)
            tally.cpu[side].append(time.thread_time() - cpu_started)
            match = advance(apply(match, play))
            hand = match.hand
        _count_hand(tally, seating, hand.result)
        if match.is_over or len(match.hands) >= MAX_HANDS:
            break
        match = start_hand(match, seed=_seed("deal", *salt, group, len(match.hands)))
    if match.winners:
        if seating[match.winners[0]] == "A":
            tally.matches_a += 1
        else:
            tally.matches_b += 1
    return tally


def _count_hand(tally: Tally, seating: Sequence[str], result) -> None:
    """Add a finished hand's ``result`` to ``tally``: hands and points won per side."""
    tally.hands += 1
    if result.winners:
        if seating[result.winners[0]] == "A":
            tally.hands_a += 1
            tally.points_a += result.points
        else:
            tally.hands_b += 1
            tally.points_b += result.points


def play_group(arguments: tuple) -> Tally:
    """Every seating of deal sequence ``group`` (a picklable unit of work):
    ``(seats, target, names, seed, group, profile name, quelonia rollouts or None)``."""
    seats, target, names, seed, group, profile, rollouts = arguments
    quelonia = BOTS["quelonia"]
    kept = quelonia.rollouts
    if rollouts is not None:
        quelonia.rollouts = rollouts
    try:
        tally = Tally()
        for seating in seatings(seats):
            tally.add(play_match(seats, target, names, seating, seed, group, PROFILES[profile]))
    finally:
        quelonia.rollouts = kept
    return tally


def table_for(profile: str, seats: int | None, target: int | None) -> tuple[int, int]:
    """The ``(seats, target)`` an arena plays ``profile`` at: the given ones, checked
    against the profile, or its defaults (its first table size; target 100 when the
    profile offers it, else its first target). Raises ``ValueError`` for an unknown
    profile, or seats or a target the profile does not allow."""
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; the profiles are {sorted(PROFILES)}")
    rules = PROFILES[profile]
    if seats is None:
        seats = rules.seat_counts[0]
    if target is None:
        target = 100 if 100 in rules.targets else rules.targets[0]
    if seats not in rules.seat_counts:
        raise ValueError(f"{profile} is played with {rules.seat_counts} seats, not {seats}")
    if target not in rules.targets:
        raise ValueError(f"{profile} plays to {rules.targets} points, not {target}")
    return seats, target


def run_arena(
    seats: int,
    bot_a: str,
    bot_b: str,
    matches: int,
    target: int = 100,
    seed: object = 1,
    workers: int = 1,
    progress: Callable[[Tally], None] | None = None,
    profile: str = "classic",
    rollouts: int | None = None,
) -> Tally:
    """Play at least ``matches`` matches (whole duplicate groups) of ``profile`` (a
    ``dominoes.rules.PROFILES`` name) and return the tally. ``rollouts``: Quelonia's
    simulations per move for this run (``None``: her default). Raises ``ValueError`` for
    an unknown bot or profile, or seats or a target the profile does not allow."""
    for name in (bot_a, bot_b):
        if name not in BOTS:
            raise ValueError(f"unknown bot {name!r}; the bots are {sorted(BOTS)}")
    table_for(profile, seats, target)
    per_group = len(seatings(seats))
    groups = max(1, math.ceil(matches / per_group))
    names = {"A": bot_a, "B": bot_b}
    work = [(seats, target, names, seed, group, profile, rollouts) for group in range(groups)]
    total = Tally()
    if workers > 1:
        import multiprocessing

        with multiprocessing.Pool(workers) as pool:
            for tally in pool.imap(play_group, work):
                total.add(tally)
                if progress:
                    progress(total)
    else:
        for item in work:
            total.add(play_group(item))
            if progress:
                progress(total)
    return total


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` by nearest rank; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1))
    return ordered[rank]


def _rate(label: str, wins: int, trials: int) -> str:
    low, high = wilson(wins, trials)
    share = wins / trials if trials else 0.0
    return f"{label} {wins}/{trials} = {share:.1%} (95% CI {low:.1%} to {high:.1%})"


def report(
    tally: Tally,
    seats: int,
    bot_a: str,
    bot_b: str,
    target: int,
    seed: object,
    profile: str = "classic",
) -> str:
    """The arena's printed summary (the profile is named unless it is classic)."""
    groups = tally.matches // len(seatings(seats))
    layout = {
        2: f"{bot_a} vs {bot_b}",
        3: f"one {bot_a} vs two {bot_b}",
        4: f"team {bot_a} (2) vs team {bot_b} (2)",
    }[seats]
    if seats == 4 and not PROFILES[profile].partnerships(seats):
        layout = f"two {bot_a} vs two {bot_b}, each alone"
    where = "" if profile == "classic" else f"profile {profile}, "
    fair = {2: "50%", 3: "33%", 4: "50%"}[seats]
    scored = tally.hands_a + tally.hands_b
    no_winner = tally.matches - tally.matches_a - tally.matches_b
    lines = [
        f"arena: {where}{seats} seats, {layout}, target {target}, seed {seed}: {tally.matches} "
        f"matches ({groups} deal sequences x {len(seatings(seats))} seatings), even share {fair}",
        _rate(f"match win rate {bot_a}:", tally.matches_a, tally.matches)
        + f"; {bot_b} won {tally.matches_b}, no winner {no_winner}",
        _rate(f"hand win rate {bot_a}:", tally.hands_a, tally.hands)
        + f"; {bot_b} won {tally.hands_b}, no score {tally.hands - scored}",
        _rate(f"hand win rate {bot_a} among scored hands:", tally.hands_a, scored),
        f"average points per hand: {bot_a} {tally.points_a / max(tally.hands, 1):.2f}, "
        f"{bot_b} {tally.points_b / max(tally.hands, 1):.2f}, "
        f"difference {(tally.points_a - tally.points_b) / max(tally.hands, 1):+.2f}",
    ]
    for side, name in (("A", bot_a), ("B", bot_b)):
        times = tally.times[side]
        lines.append(
            f"move time {name} ({'first' if side == 'A' else 'second'} bot): "
            f"p50 {percentile(times, 0.5) * 1000:.1f} ms, "
            f"p95 {percentile(times, 0.95) * 1000:.1f} ms, "
            f"max {max(times, default=0.0) * 1000:.1f} ms over {len(times)} moves"
        )
        cpu = tally.cpu[side]
        lines.append(
            f"move CPU time {name}: p50 {percentile(cpu, 0.5) * 1000:.1f} ms, "
            f"p95 {percentile(cpu, 0.95) * 1000:.1f} ms, "
            f"max {max(cpu, default=0.0) * 1000:.1f} ms (one core; wall time above)"
        )
    return "\n".join(lines)


def main(
    seats: int | None,
    bots: str,
    matches: int,
    target: int | None,
    seed: str,
    workers: int = 1,
    progress: bool = False,
    profile: str = "classic",
    rollouts: int | None = None,
) -> int:
    """The ``arena`` sub-command: run and print; returns the exit status (2 for bad
    arguments). ``seats``/``target`` ``None``: the profile's defaults (``table_for``)."""
    names = [name.strip() for name in bots.split(",")]
    if len(names) != 2:
        print("--bots takes two bot names separated by a comma", file=sys.stderr)
        return 2
    try:
        seats, target = table_for(profile, seats, target)
    except ValueError as error:
        print(str(error), file=sys.stderr)
        return 2
    started = time.perf_counter()

    def show(tally: Tally) -> None:
        print(
            f"... {tally.matches} matches, {tally.matches_a} won by {names[0]}, "
            f"{time.perf_counter() - started:.0f} s",
            file=sys.stderr,
            flush=True,
        )

    try:
        tally = run_arena(
            seats,
            names[0],
            names[1],
            matches,
            target,
            seed,
            workers,
            show if progress else None,
            profile,
            rollouts,
        )
    except ValueError as error:
        print(str(error), file=sys.stderr)
        return 2
    print(report(tally, seats, names[0], names[1], target, seed, profile))
    if rollouts is not None:
        print(f"quelonia rollouts per move: {rollouts}")
    print(f"elapsed {time.perf_counter() - started:.1f} s")
    return 0
