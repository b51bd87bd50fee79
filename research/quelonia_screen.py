"""Abuela Quelonia's variants side by side on the same positions, each choice scored on the
true deal by several oracles: does a regret screen rank them? (issue 20, session 18)

    .venv/bin/python -m research.quelonia_screen --positions 400 --seed Q18 \\
        --variant shipped: --variant again:salt=1 --variant r400:rollouts=400 \\
        --variant plain:belief=0 --oracle greedy --oracle cheat --oracle soft:100:a \\
        --oracle soft:100:b --part 0/2 --out part0.jsonl
    .venv/bin/python -m research.quelonia_screen --combine part0.jsonl part1.jsonl

Positions as ``quelonia_regret.positions`` (Nino in every seat, ``--keep``). In each, every
``--variant LABEL:key=value,...`` (``Quelonia`` arguments; ``salt=S`` seeds her choice
from ``quelonia-S`` instead of ``quelonia``, the null case; ``bot=nino`` is Nino's
choice instead) chooses from its own view, no clock; every ``--oracle`` values every
legal play on the true deal once, for all the variants alike, as her side's chance of
winning the match (``MatchModel``):

- ``greedy``: one greedy playout (``quelonia_regret.true_values``, the old screen);
- ``cheat``: her own search on the true deal, the ``cheat`` variant's values: greedy
  playouts and, at double-six partnerships, the last ``quelonia.PARTNERSHIP_OPTIONS``
  endgame tiles solved. Her playouts draw nothing at random, so her 2000 simulations of
  one known deal are one playout repeated: this oracle has no sampling noise to average;
- ``soft:K:SEED[:TILES[:SHARPNESS]]``: ``K`` playouts a play, every seat playing the
  greedy policy's score softly (odds ``e ** SHARPNESS`` per point, else
  ``--sharpness``), the same ``K`` random streams for every play (common random
  numbers); with ``TILES`` > 0 the last ones solved. Each value is a mean with a standard
  error; the report gives the oracle's own noise (the root mean square of each
  position's standard error of its regret).

Each position's values and choices go to ``--out`` (one JSON line a position), so parts
run at once (``--part I/N``: every N-th position from the I-th) are reported together
with ``--combine``. Printed: each variant's mean regret under each oracle with its 95%
interval, and each variant's paired difference from the first variant.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

from dominoes.bots import choose_play, posterior
from dominoes.bots.base import make_rng
from dominoes.bots.endgame import solved_playout
from dominoes.bots.match_value import MatchModel
from dominoes.bots.simulate import greedy_playout, move_key, world_position
from dominoes.rules import PROFILES
from research.lab import LabQuelonia
from research.quelonia_regret import (
    add_chain_arguments,
    add_position_arguments,
    apply_chain_arguments,
    mean_interval,
    positions,
    true_values,
)
from research.soft_search import SoftQuelonia, soft_playout

#: The burn-in every variant that names none gets (``--burn-in``; ``None``: hers).
BURN_IN: float | None = None
#: The soft oracle's odds per point of the greedy score (``--sharpness``).
SHARPNESS = 1.0


def variant(text: str) -> tuple[str, dict]:
    """An argparse type: ``LABEL:key=value,...`` as ``(label, arguments)``, each value an
    int, else a float, else text (``salt`` is the choice's seed name, not an argument)."""
    label, _, rest = text.partition(":")
    arguments: dict = {}
    for part in filter(None, rest.split(",")):
        key, _, value = part.partition("=")
        for kind in (int, float, str):
            try:
                arguments[key] = kind(value)
                break
            except ValueError:
                continue
    return label, arguments


def start(match, view):
    """``(position after nothing, match model, rules)`` of ``view`` on the true deal."""
    rules = PROFILES[view.rules]
    hand = match.hand
    holdings = [list(tiles) for tiles in hand.holdings]
    root = world_position(view, rules, holdings, list(hand.stock[hand.drawn :]))
    return root, MatchModel(view, rules.partnerships(view.seats)), rules


def cheat_values(match, view) -> list[float]:
    """Every legal play of ``view`` valued by her search on the true deal (module doc)."""
    root, model, rules = start(match, view)
    tiles = her_endgame(rules, view.seats)
    playout = solved_playout(model.value, view.seat, model.partnerships, tiles) if tiles else None
    values = []
    for move in view.legal_moves:
        pos = root.copy()
        pos.play(*move_key(rules, move))
        _, winners, points, _ = (playout or greedy_playout)(pos)
        values.append(model.value(winners, points))
    return values


def her_endgame(rules, seats: int) -> int:
    """Her ``endgame`` tiles at this table (``Quelonia.option``)."""
    return int(LabQuelonia().option("endgame", rules, seats))


def soft_values(match, view, spec: str, index: int) -> list[list[float]]:
    """Every legal play's ``K`` soft playouts (``soft:K:SEED[:TILES[:SHARPNESS]]``), one
    list a play, the ``k``-th of every play from the same random stream."""
    _, count, seed, *rest = spec.split(":")
    tiles = int(rest[0]) if rest else 0
    sharpness = float(rest[1]) if len(rest) > 1 else SHARPNESS
    root, model, rules = start(match, view)
    solved = solved_playout(model.value, view.seat, model.partnerships, tiles) if tiles else None
    values = []
    for move in view.legal_moves:
        mine = []
        for k in range(int(count)):
            pos = root.copy()
            pos.play(*move_key(rules, move))
            rng = random.Random(f"{seed}/{index}/{k}")
            _, winners, points, _ = soft_playout(pos, rng, solved, tiles, sharpness)
            mine.append(model.value(winners, points))
        values.append(mine)
    return values


def oracle_values(match, view, spec: str, index: int):
    """``spec``'s values of every legal play: a float a play (``greedy``, ``cheat``) or a
    list of playouts a play (``soft:...``)."""
    if spec == "greedy":
        return true_values(match, view)
    if spec == "cheat":
        return cheat_values(match, view)
    if spec.startswith("soft:"):
        return soft_values(match, view, spec, index)
    raise SystemExit(f"unknown oracle: {spec}")


def choose(arguments: dict, view, move_seed):
    """``(chosen legal move's index, CPU seconds)`` of the variant ``arguments``."""
    options = dict(arguments)
    salt = options.pop("salt", None)
    name = "quelonia" if salt is None else f"quelonia-{salt}"
    started = time.thread_time()
    if options.pop("bot", "quelonia") == "nino":
        chosen = choose_play("nino", view, seed=move_seed)
    elif "softness" in options:
        options.setdefault("burn_in", BURN_IN)
        bot = SoftQuelonia(time_budget=600.0, **options)
        chosen = bot.choose(view, make_rng(name, view, move_seed))
    else:
        options.setdefault("burn_in", BURN_IN)
        bot = LabQuelonia(time_budget=600.0, **options)
        chosen = bot.choose(view, make_rng(name, view, move_seed))
    return view.legal_moves.index(chosen), time.thread_time() - started


def run(args) -> list[dict]:
    """Collect the positions, keep this part's, and score each (one dict a position)."""
    found = positions(args.profile, args.seats, args.target, args.seed, args.positions, args.keep)
    part, parts = (int(x) for x in args.part.split("/"))
    rows = []
    out = open(args.out, "w") if args.out else None  # noqa: SIM115 (a line a position)
    for index in range(part, len(found), parts):
        match, view, move_seed = found[index]
        row: dict = {"index": index, "moves": len(view.legal_moves), "oracle": {}, "cpu": {}}
        row["choice"] = {}
        for label, arguments in args.variant:
            row["choice"][label], row["cpu"][label] = choose(arguments, view, move_seed)
        for spec in args.oracle:
            started = time.thread_time()
            row["oracle"][spec] = oracle_values(match, view, spec, index)
            row["cpu"][spec] = time.thread_time() - started
        rows.append(row)
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()
    return rows


def regret(values, chosen: int) -> tuple[float, float]:
    """``(regret, its standard error)`` of the play ``chosen`` under one oracle's values:
    the best mean minus the chosen one's; the error from the paired playouts (0 for an
    oracle of one value a play)."""
    if not isinstance(values[0], list):
        return max(values) - values[chosen], 0.0
    means = [sum(v) / len(v) for v in values]
    best = max(range(len(means)), key=means.__getitem__)
    gaps = [b - c for b, c in zip(values[best], values[chosen], strict=True)]
    n = len(gaps)
    mean = sum(gaps) / n
    spread = math.sqrt(sum((g - mean) ** 2 for g in gaps) / max(n - 1, 1) / n)
    return mean, spread


def report(rows: list[dict]) -> str:
    """Each oracle's table: every variant's mean regret (95%), a best play's share, and
    its paired difference from the first variant (95%); the oracle's own noise; CPU."""
    labels = list(rows[0]["choice"])
    lines = [f"{len(rows)} positions, variants {labels}"]
    for spec in rows[0]["oracle"]:
        noise = [regret(r["oracle"][spec], r["choice"][labels[0]])[1] for r in rows]
        rms = math.sqrt(sum(e * e for e in noise) / len(noise))
        cpu = sum(r["cpu"][spec] for r in rows) / len(rows)
        lines.append(
            f"oracle {spec}: own noise {rms:.4f} a position (rms), {cpu:.2f} s CPU a position"
        )
        base = [regret(r["oracle"][spec], r["choice"][labels[0]])[0] for r in rows]
        for label in labels:
            mine = [regret(r["oracle"][spec], r["choice"][label])[0] for r in rows]
            mean, low, high = mean_interval(mine)
            best = sum(m <= 1e-12 for m in mine)
            line = f"  {label}: regret {mean:.4f} ({low:.4f}-{high:.4f}), best {best}/{len(mine)}"
            if label != labels[0]:
                diff, dlow, dhigh = mean_interval([m - b for m, b in zip(mine, base, strict=True)])
                line += f"; minus {labels[0]} {diff:+.4f} ({dlow:+.4f} to {dhigh:+.4f})"
            lines.append(line)
    soft = [spec for spec in rows[0]["oracle"] if spec.startswith("soft:")]
    if len(soft) > 1:
        lines.append(agreement(rows, soft[0], soft[1], labels))
    for label in labels:
        cpu = sorted(r["cpu"][label] for r in rows)
        lines.append(f"  {label} CPU a choice p50 {cpu[len(cpu) // 2] * 1000:.0f} ms")
    return "\n".join(lines)


def combine(names: list[str]) -> list[dict]:
    """The ``--out`` files' positions, those of the same index merged (runs of other
    variants or oracles on the same positions, as ``--seed`` and ``--positions`` make
    them), kept where every variant and oracle of any position has run."""
    merged: dict[int, dict] = {}
    for name in names:
        for line in Path(name).open():
            row = json.loads(line)
            mine = merged.setdefault(row["index"], {**row, "choice": {}, "cpu": {}, "oracle": {}})
            for key in ("choice", "cpu", "oracle"):
                mine[key].update(row[key])
    labels = {k for r in merged.values() for k in r["choice"]}
    specs = {k for r in merged.values() for k in r["oracle"]}
    rows = [r for r in merged.values() if set(r["choice"]) == labels and set(r["oracle"]) == specs]
    return sorted(rows, key=lambda r: r["index"])


def agreement(rows: list[dict], first: str, second: str, labels: list[str]) -> str:
    """How two oracles agree on the same positions: the correlation of their per-position
    regrets of the variants' choices, and the share where both name the same best play."""
    pairs = [
        (
            regret(r["oracle"][first], r["choice"][label])[0],
            regret(r["oracle"][second], r["choice"][label])[0],
        )
        for r in rows
        for label in labels
    ]
    xs, ys = zip(*pairs, strict=True)
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    cov = sum((x - mx) * (y - my) for x, y in pairs)
    var = math.sqrt(sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys)) or 1.0

    def best(values) -> int:
        means = [sum(v) / len(v) if isinstance(v, list) else v for v in values]
        return max(range(len(means)), key=means.__getitem__)

    same = sum(best(r["oracle"][first]) == best(r["oracle"][second]) for r in rows)
    return (
        f"oracles {first} and {second}: regrets correlate {cov / var:.3f};"
        f" the same best play in {same}/{len(rows)} positions"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_position_arguments(parser, positions=400, seed="Q18")
    parser.add_argument("--variant", type=variant, action="append", default=[])
    parser.add_argument("--oracle", action="append", default=[])
    parser.add_argument("--sharpness", type=float, default=SHARPNESS)
    parser.add_argument("--temperature", type=float, default=posterior.TEMPERATURE)
    add_chain_arguments(parser)
    parser.add_argument("--part", default="0/1", help="I/N: every N-th position from the I-th")
    parser.add_argument("--out", help="one JSON line a position")
    parser.add_argument("--combine", nargs="+", help="report these --out files together")
    args = parser.parse_args()
    if args.combine:
        print(report(combine(args.combine)))
        return 0
    globals()["SHARPNESS"] = args.sharpness
    posterior.TEMPERATURE = args.temperature
    global BURN_IN
    BURN_IN = args.burn_in
    print(apply_chain_arguments(args.chains, args.burn_in, args.readings))
    print(report(run(args)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
