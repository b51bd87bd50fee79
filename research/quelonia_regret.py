"""Abuela Quelonia's choices scored against the true deal: a quick screen of variants.

    .venv/bin/python -m research.quelonia_regret --profile cuban --positions 300 --seed R
    .venv/bin/python -m research.quelonia_regret --profile cuban --positions 300 --seed R --pool 4

Positions come from arena matches (``dominoes.arena.play_match``, deal sequences of
``--seed``) with Nino in every seat: each position where the seat to act has more than one
legal play is kept with chance ``--keep``. In each, the variant chooses from its own
``SeatView`` only (no clock: a fixed number of simulations); then every legal play is
valued on the *true* deal (the real holdings and stock, everyone playing the rest out with
the quick policy of ``simulate.greedy_playout``, as her ``cheat`` diagnostic does), as her
side's chance of winning the match (``quelonia.MatchModel``). The *regret* of a choice is
the best play's value minus the chosen one's; the mean regret (with a 95% interval) is
printed, with the share of positions where she chose a best play and her CPU per move,
and the mean regret by phase of the hand (``phase``: the lead, then by the tiles the
chooser holds), to tell where her choices lose most. ``--out`` writes one line a position
(regret, phase, legal plays), in the same order for every variant of the same positions,
so two variants can be compared position by position.
A lower regret is a better reading of the hidden tiles; the search on the true deal has
regret 0 by construction. Much less noisy than whole matches for the same CPU, so it is
for screening; the claims in ``docs/bots.md`` are arena runs.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

from dominoes.arena import play_match, seatings
from dominoes.bots import belief, choose_play, posterior
from dominoes.bots.base import make_rng
from dominoes.bots.match_value import MatchModel
from dominoes.bots.simulate import greedy_playout, move_key, world_position
from dominoes.rules import PROFILES
from research.lab import LabQuelonia


def positions(
    profile: str, seats: int, target: int, seed: str, count: int, keep: float, team: bool = False
):
    """``(match, view, move seed)`` triples with a choice to make, Nino in every seat; with
    ``team``, in matches of team Quelonia (side A) against team Nino, and only Quelonia's
    choices (her partner's plays are hers: ``research/belief_accuracy.py --team``)."""
    found: list = []
    rng = random.Random(seed)
    group = 0
    names = {"A": "quelonia" if team else "nino", "B": "nino"}
    while len(found) < count:

        def choose(side, match, view, move_seed):
            mine = not team or side == "A"
            if mine and len(view.legal_moves) > 1 and rng.random() < keep and len(found) < count:
                found.append((match, view, move_seed))
            return choose_play(names[side], view, seed=move_seed)

        play_match(seats, target, names, seatings(seats)[0], seed, group, PROFILES[profile], choose)
        group += 1
    return found


def add_position_arguments(parser: argparse.ArgumentParser, positions: int, seed: str) -> None:
    """The options that choose the positions (``positions``): ``--profile``, ``--seats``,
    ``--target``, ``--positions`` (default ``positions``), ``--keep``, ``--seed``."""
    parser.add_argument("--profile", choices=sorted(PROFILES), default="classic")
    parser.add_argument("--seats", type=int, choices=(2, 3, 4), default=4)
    parser.add_argument("--target", type=positive(int), default=100)
    parser.add_argument(
        "--positions", type=positive(int), default=positions, help="positions to collect"
    )
    parser.add_argument(
        "--keep",
        type=share,
        default=0.3,
        help="chance that a position with a choice is kept (more than 0, at most 1)",
    )
    parser.add_argument("--seed", default=seed, help="the arena's deal sequences")


def positive(kind):
    """An argparse type: a number of ``kind`` greater than 0."""

    def parse(text: str):
        value = kind(text)
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be more than 0: {text}")
        return value

    parse.__name__ = f"positive {kind.__name__}"
    return parse


def at_least_zero(text: str) -> float:
    """An argparse type: a number, 0 or more."""
    value = float(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more: {text}")
    return value


def share(text: str) -> float:
    """An argparse type: a share in (0, 1]."""
    value = float(text)
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most 1: {text}")
    return value


def add_chain_arguments(parser: argparse.ArgumentParser) -> None:
    """The chain's ``--chains`` and ``--burn-in`` (proposals per unseen tile), for every
    set alike; left out, each set keeps its own (``posterior.CHAINS``,
    ``posterior.BURN_IN_PER_TILE``)."""
    parser.add_argument(
        "--chains", type=positive(int), help="the chain's chains (default: the set's own)"
    )
    add_burn_in_argument(parser)
    add_readings_argument(parser)


def add_burn_in_argument(parser: argparse.ArgumentParser) -> None:
    """``--burn-in``: her chains' proposals per unseen tile before their first kept deal,
    at every table (``apply_chain_arguments``; left out: the table's own,
    ``Quelonia.option``)."""
    parser.add_argument(
        "--burn-in",
        type=at_least_zero,
        help="the chain's proposals per unseen tile before its first deal (default: the "
        "table's own)",
    )


#: Her search options a table may have of its own (``Quelonia.option``), as flags:
#: ``(name, type, help)``.
OPTION_FLAGS = (
    ("endgame", int, "solve her playouts exactly from this many tiles left (0: off)"),
    (
        "settle",
        float,
        "spend her unspent simulations while the best two are within this many standard "
        "errors (0: off)",
    ),
    (
        "legible",
        float,
        "in partnerships play the advice's move while her best leads it by less than this "
        "many standard errors (0: off)",
    ),
)


def add_option_arguments(parser: argparse.ArgumentParser) -> None:
    """``--endgame``, ``--settle`` and ``--legible`` (``OPTION_FLAGS``; left out: the
    table's own, ``Quelonia.option``)."""
    for name, kind, text in OPTION_FLAGS:
        text += " (default: the table's own)"
        parser.add_argument(f"--{name}", type=kind, default=None, help=text)


def add_readings_argument(parser: argparse.ArgumentParser) -> None:
    """The chain's ``--readings`` (``readings``; left out: ``posterior.READINGS``)."""
    parser.add_argument(
        "--readings",
        type=readings,
        help="how the chain reads each seat's plays, weight:sharpness pairs, e.g. 0.5:3,0.5:1"
        " (default: posterior.READINGS)",
    )


def readings(text: str) -> tuple[tuple[float, float], ...]:
    """An argparse type: ``weight:sharpness`` pairs split by commas (``posterior.READINGS``),
    each weight above 0 and each sharpness 0 or more, both finite (not nan or inf)."""
    pairs = []
    for part in text.split(","):
        try:
            weight, sharpness = (float(value) for value in part.split(":"))
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected weight:sharpness pairs split by commas, e.g. 0.5:3,0.5:1: {text}"
            ) from None
        if not (math.isfinite(weight) and math.isfinite(sharpness)) or weight <= 0 or sharpness < 0:
            raise argparse.ArgumentTypeError(
                f"each weight must be a number above 0 and each sharpness 0 or more: {part}"
            )
        pairs.append((weight, sharpness))
    return tuple(pairs)


def apply_chain_arguments(
    chains: int | None, burn_in: float | None, how: tuple[tuple[float, float], ...] | None = None
) -> str:
    """Set the chain's settings for every set (``None``: keep the set's own; ``how``: the
    ``--readings``, then at every table, not only at double-six partnerships) and return
    them as text for a report. A ``burn_in`` is also her ``burn_in`` option: give it to
    ``LabQuelonia`` too."""
    where = "double-six partnerships"
    if how is not None:
        posterior.READINGS, where = how, "every table"
        posterior.readings_for = lambda rules, seats: how
    if chains is not None:
        posterior.CHAINS = dict.fromkeys(posterior.CHAINS, chains)
    if burn_in is not None:
        posterior.BURN_IN_PER_TILE = dict.fromkeys(posterior.BURN_IN_PER_TILE, burn_in)
    text = f"chains {posterior.CHAINS}, burn-in {posterior.BURN_IN_PER_TILE}/tile"
    return text + f", readings {posterior.READINGS} at {where}"


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean of ``values`` with its 95% normal interval."""
    n = len(values)
    mean = sum(values) / n
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / max(n - 1, 1) / n)
    return mean, mean - 1.96 * spread, mean + 1.96 * spread


def true_values(match, view) -> list[float]:
    """Every legal play of ``view`` valued on the true deal of ``match`` (module doc)."""
    rules = PROFILES[view.rules]
    hand = match.hand
    holdings = [list(tiles) for tiles in hand.holdings]
    stock = list(hand.stock[hand.drawn :])
    model = MatchModel(view, rules.partnerships(view.seats))
    values = []
    for move in view.legal_moves:
        pos = world_position(view, rules, holdings, stock)
        pos.play(*move_key(rules, move))
        _, winners, points, _ = greedy_playout(pos)
        values.append(model.value(winners, points))
    return values


#: The phases of a hand ``phase`` tells apart, in report order.
PHASES = ("lead", "early", "middle", "last")


def phase(view) -> str:
    """The phase of the hand at ``view`` (a ``SeatView`` with a choice): ``lead`` on an
    empty line, else by the tiles the chooser holds: ``early`` 6 or more, ``middle`` 4-5,
    ``last`` 3 or fewer (double-six's seven a seat; wider sets reach ``early`` sooner)."""
    if not view.line:
        return "lead"
    held = len(view.tiles)
    return "early" if held >= 6 else "middle" if held >= 4 else "last"


def phase_report(regrets: list[float], phases: list[str]) -> str:
    """The mean regret of each phase of ``phases`` (``PHASES``), with its 95% interval, its
    share of the positions and of the total regret, one line each."""
    total = sum(regrets) or 1.0
    lines = []
    for name in PHASES:
        mine = [r for r, p in zip(regrets, phases, strict=True) if p == name]
        if mine:
            mean, low, high = mean_interval(mine)
            lines.append(
                f"  {name}: {len(mine)} positions, mean regret {mean:.4f} ({low:.4f}-{high:.4f}),"
                f" {sum(mine) / total:.0%} of the regret"
            )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_position_arguments(parser, positions=300, seed="R")
    add_chain_arguments(parser)
    add_option_arguments(parser)
    defaults = LabQuelonia()
    for name in ("rollouts", "max_worlds", "pool", "extend", "chain"):
        flag = "--" + name.replace("_", "-")
        parser.add_argument(flag, type=int, default=getattr(defaults, name))
    parser.add_argument("--margin", type=float, default=defaults.margin)
    parser.add_argument("--temperature", type=float, default=posterior.TEMPERATURE)
    parser.add_argument("--thin", type=int, default=posterior.THIN)
    parser.add_argument("--share", type=float, default=belief.MIN_EFFECTIVE_SHARE)
    parser.add_argument("--sharpness", type=float, default=belief.SHARPNESS)
    parser.add_argument("--out", help="write the regrets, one a line, to this file")
    args = parser.parse_args()
    posterior.TEMPERATURE = args.temperature
    posterior.THIN = args.thin
    belief.SHARPNESS = args.sharpness
    belief.tempered_weights.__defaults__ = (args.share,)
    chains = apply_chain_arguments(args.chains, args.burn_in, args.readings)
    names = ("rollouts", "max_worlds", "pool", "extend", "margin", "chain")
    search = {name: getattr(args, name) for name in names + tuple(f[0] for f in OPTION_FLAGS)}
    bot = LabQuelonia(time_budget=600.0, burn_in=args.burn_in, **search)
    found = positions(args.profile, args.seats, args.target, args.seed, args.positions, args.keep)
    regrets, best, cpu, phases, widths = [], 0, [], [], []
    for match, view, move_seed in found:
        phases.append(phase(view))
        widths.append(len(view.legal_moves))
        values = true_values(match, view)
        started = time.thread_time()
        chosen = bot.choose(view, make_rng("quelonia", view, move_seed))
        cpu.append(time.thread_time() - started)
        value = values[view.legal_moves.index(chosen)]
        regrets.append(max(values) - value)
        best += value >= max(values) - 1e-12
    if args.out:
        rows = zip(regrets, phases, widths, strict=True)
        Path(args.out).write_text("".join(f"{r}\t{p}\t{w}\n" for r, p, w in rows))
    n = len(regrets)
    mean, low, high = mean_interval(regrets)
    cpu.sort()
    print(
        f"{args.profile} {args.seats} seats, seed {args.seed}, {n} positions, {search}, "
        f"{chains}, share {args.share}, sharpness {args.sharpness}:\n"
        f"  mean regret {mean:.4f} (95% {low:.4f}-{high:.4f}) "
        f"of match value; a best play {best}/{n} = {best / n:.1%}\n"
        f"  CPU per move p50 {cpu[n // 2] * 1000:.0f} ms, p95 {cpu[int(n * 0.95)] * 1000:.0f} ms\n"
        + phase_report(regrets, phases)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
