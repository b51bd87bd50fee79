"""Abuela Quelonia's team against the PyPI package ``dominoes==6.1.0``'s
``probabilistic_alphabeta`` team, on that package's engine and rules.

    python -m research.vs_pypi --deals 200 --workers 2

That package (a different project that shares our package's name) plays the four-seat
partnership game without stock; a domino scores every tile left, the partner's included,
and a blocked hand gives the lighter team every tile on the table. It lives in its own
venv, ``bench/.venv-pypi-dominoes`` (created on first use as ``engine_speed.py`` does),
where ``research/pypi_bridge.py`` runs its ``Game``: it deals, checks and scores every move
and plays its own team with ``probabilistic_alphabeta(sample_size=--samples)``.

For our team's moves the bridge sends only what that seat may see (R31-style: its own
tiles, every seat's tile count, the public log of plays and passes, the ends; there is no
stock). This script turns that into a ``dominoes.view.SeatView`` under our
``international`` profile (four seats, no stock, winners score the partner's tiles too:
the same scoring) and asks ``choose_play("quelonia", view)``.

Duplicate format: every deal is played twice with the same tiles in the same seats, our
team in seats 0/2 and then in 1/3. Even deals are led by the 6-6 (that package's first
game), odd deals by a given seat with any tile (its later games, led by the last winner).
The report gives hands won and net points per team, 95% Wilson intervals and both sides'
thinking time.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from bench.pypi_venv import PYPI_PYTHON, ensure_pypi_venv
from dominoes.arena import percentile, wilson
from dominoes.bots import BOTS, choose_play, posterior
from dominoes.state import Play
from dominoes.tiles import Tile
from dominoes.view import LogEntry, SeatView
from research.lab import LabQuelonia
from research.quelonia_regret import (
    OPTION_FLAGS,
    add_burn_in_argument,
    add_option_arguments,
    add_readings_argument,
)

BENCH = Path(__file__).resolve().parent

BRIDGE = BENCH / "pypi_bridge.py"
#: Our profile with that package's rules: 4 seats, no stock, partner's tiles scored.
PROFILE = "international"


def tile(pair) -> Tile:
    a, b = pair
    return Tile(max(a, b), min(a, b))


def replay_log(
    entries: list,
) -> tuple[list[LogEntry], list[tuple[int, int]], tuple[int, int] | None]:
    """The bridge's log (``[seat, "pass"]`` or ``[seat, "play", [a, b], "L" | "R"]``) as our
    ``LogEntry`` list, the line (pip pairs, left to right) and the ends in the bridge's
    orientation (its board); ``None`` ends before the lead."""
    log = []
    line: list[tuple[int, int]] = []
    ends: tuple[int, int] | None = None
    for item in entries:
        if item[1] == "pass":
            log.append(LogEntry(item[0], "pass"))
            continue
        played = tile(item[2])
        a, b = item[2]
        if ends is None:
            log.append(LogEntry(item[0], "play", played, None))
            ends = (a, b)
            line = [(a, b)]
        elif item[3] == "L":
            pip = ends[0]
            log.append(LogEntry(item[0], "play", played, pip))
            new = played.other(pip)
            line.insert(0, (new, pip))
            ends = (new, ends[1])
        else:
            pip = ends[1]
            log.append(LogEntry(item[0], "play", played, pip))
            new = played.other(pip)
            line.append((pip, new))
            ends = (ends[0], new)
    return log, line, ends


def seat_view(ask: dict, hand_number: int) -> tuple[SeatView, list[tuple[Tile, int | None]]]:
    """The ``SeatView`` of the asking seat, and the bridge's valid moves as ``(tile, end
    pip)`` pairs (``None`` for the lead) in the bridge's order."""
    seat = ask["seat"]
    log, line, ends = replay_log(ask["log"])
    if ask["ends"] is not None:
        assert list(ends) == list(ask["ends"]), (ends, ask["ends"])
    valid: list[tuple[Tile, int | None]] = []
    for pair, where in ask["valid"]:
        if ends is None:
            valid.append((tile(pair), None))
        else:
            valid.append((tile(pair), ends[0] if where == "L" else ends[1]))
    legal = []
    for t, end in valid:
        move = Play(seat, t, end)
        if move not in legal:
            legal.append(move)
    view = SeatView(
        seat=seat,
        seats=4,
        rules=PROFILE,
        target=200,
        scores=(0, 0, 0, 0),
        hand_number=hand_number,
        leader=ask["leader"],
        turn=seat,
        tiles=tuple(sorted((tile(p) for p in ask["hand"]), reverse=True)),
        tile_counts=tuple(ask["counts"]),
        line=tuple(line),
        ends=ends,
        stock_size=0,
        legal_moves=tuple(legal),
        log=tuple(log),
        seed_sha256=None,
        last_hand=None,
        match_over=False,
        winners=None,
        outcome=None,
        abandoned_by=None,
    )
    return view, valid


_BRIDGE: subprocess.Popen | None = None


def bridge() -> subprocess.Popen:
    global _BRIDGE
    if _BRIDGE is None:
        _BRIDGE = subprocess.Popen(
            [str(PYPI_PYTHON), str(BRIDGE)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
    return _BRIDGE


def play_hand(arguments: tuple) -> dict:
    """One hand: deal ``index`` with our team ``ours``; returns its outcome and timings."""
    index, ours, seed, samples, start_move = arguments
    lead = "6-6" if index % 2 == 0 else (index // 2) % 4
    hand_number = 0 if lead == "6-6" else 1
    process = bridge()
    request = {
        "seed": seed * 1_000_003 + index,
        "lead": lead,
        "ours": ours,
        "samples": samples,
        "start_move": start_move,
    }
    process.stdin.write(json.dumps(request) + "\n")
    times = []
    while True:
        message = json.loads(process.stdout.readline())
        if "done" in message:
            break
        view, valid = seat_view(message["ask"], hand_number)
        started = time.process_time()
        play = choose_play("quelonia", view, seed=request["seed"] * 31 + len(view.log))
        times.append(time.process_time() - started)
        choice = valid.index((play.tile, play.end))
        process.stdin.write(json.dumps({"move": choice}) + "\n")
    done = message["done"]
    points = done["points"]
    ours_points = points if ours == 0 else -points
    return {
        "index": index,
        "ours": ours,
        "won": ours_points > 0,
        "lost": ours_points < 0,
        "points": abs(points),
        "quelonia_times": times,
        "pypi_seconds": done["pypi_seconds"],
        "log": done["log"],
        "hands": done["hands"],
    }


def report(results: list[dict], samples: int, start_move: int, elapsed: float) -> str:
    hands = len(results)
    won = sum(r["won"] for r in results)
    lost = sum(r["lost"] for r in results)
    ours_points = sum(r["points"] for r in results if r["won"])
    their_points = sum(r["points"] for r in results if r["lost"])
    times = [t for r in results for t in r["quelonia_times"]]
    pypi = [r["pypi_seconds"] for r in results]
    low, high = wilson(won, won + lost)
    deals = len({r["index"] for r in results})
    return "\n".join(
        [
            f"vs pypi dominoes 6.1.0: {deals} deals x 2 seatings = {hands} hands; their team "
            f"probabilistic_alphabeta(sample_size={samples}, start_move={start_move})",
            f"hands won: quelonia team {won}, pypi team {lost}, nobody {hands - won - lost}",
            f"quelonia share of decided hands: {won}/{won + lost} = "
            f"{won / max(won + lost, 1):.1%} (95% CI {low:.1%} to {high:.1%})",
            f"points: quelonia team {ours_points}, pypi team {their_points}, "
            f"net {ours_points - their_points:+d} ({(ours_points - their_points) / hands:+.2f}"
            " per hand)",
            f"quelonia move CPU time: p50 {percentile(times, 0.5) * 1000:.1f} ms, "
            f"p95 {percentile(times, 0.95) * 1000:.1f} ms over {len(times)} choices",
            f"pypi team CPU per hand: p50 {percentile(pypi, 0.5):.2f} s, "
            f"p95 {percentile(pypi, 0.95):.2f} s, total {sum(pypi):.0f} s",
            f"elapsed {elapsed:.0f} s",
        ]
    )


def arguments() -> argparse.Namespace:
    """The command line: the deals, the outside engine's samples and her options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--samples", type=int, default=20, help="its player's sample_size")
    parser.add_argument(
        "--start-move", type=int, default=0, help="its player's start_move (0: every move)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=0, help="stop after this (0: never)")
    parser.add_argument("--json", help="write every hand's outcome to this file")
    parser.add_argument(
        "--temperature",
        type=float,
        default=posterior.TEMPERATURE,
        help="the power of the belief her chain samples from (dominoes.bots.posterior)",
    )
    add_option_arguments(parser)
    parser.add_argument(
        "--rollout",
        choices=["greedy", "advice"],
        default="greedy",
        help="every seat's policy in her playouts (LabQuelonia's rollout)",
    )
    add_burn_in_argument(parser)
    add_readings_argument(parser)
    return parser.parse_args()


def main() -> None:
    args = arguments()
    posterior.TEMPERATURE = args.temperature  # the workers are forked: they inherit them
    options = {name: getattr(args, name) for name, _kind, _help in OPTION_FLAGS}
    BOTS["quelonia"] = LabQuelonia(rollout=args.rollout, burn_in=args.burn_in, **options)
    if args.readings is not None:
        posterior.READINGS = args.readings
    ensure_pypi_venv()
    work = [
        (index, ours, args.seed, args.samples, args.start_move)
        for index in range(args.deals)
        for ours in (0, 1)
    ]
    started = time.perf_counter()
    results: list[dict] = []
    deadline = started + args.minutes * 60 if args.minutes else None
    if args.workers > 1:
        import multiprocessing

        with multiprocessing.Pool(args.workers) as pool:
            for result in pool.imap(play_hand, work):
                results.append(result)
                if len(results) % 20 == 0:
                    print(f"... {len(results)} hands", file=sys.stderr, flush=True)
                if deadline and time.perf_counter() > deadline and len(results) % 2 == 0:
                    pool.terminate()
                    break
    else:
        for item in work:
            results.append(play_hand(item))
            if deadline and time.perf_counter() > deadline and len(results) % 2 == 0:
                break
    # Keep whole duplicate pairs only.
    pairs = {}
    for result in results:
        pairs.setdefault(result["index"], []).append(result)
    results = [r for pair in pairs.values() if len(pair) == 2 for r in pair]
    if args.json:
        Path(args.json).write_text(json.dumps(results))
    print(report(results, args.samples, args.start_move, time.perf_counter() - started))


if __name__ == "__main__":
    main()
