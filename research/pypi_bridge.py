"""The PyPI ``dominoes==6.1.0`` side of ``research/vs_pypi.py``: plays hands with that
package's own engine and rules, its ``probabilistic_alphabeta`` player on one team, and
asks the parent process (our engine's venv) for the other team's moves.

Run it ONLY with ``bench/.venv-pypi-dominoes/bin/python`` (``vs_pypi.py`` starts it): here
``import dominoes`` is the PyPI package, a different project of the same name.

Protocol, one JSON object per line. The parent writes a deal request::

    {"seed": 7, "lead": "6-6" | 0..3, "ours": 0 | 1, "samples": 20, "start_move": 8}

(``ours``: the team, 0 = seats 0 and 2, 1 = seats 1 and 3, whose moves the parent makes).
For each of those moves the bridge writes what that seat may see and nothing more::

    {"ask": {"seat", "hand": [[a, b], ...], "counts": [n0..n3], "leader",
             "log": [[seat, "play", [a, b], "L"|"R"|null] | [seat, "pass"], ...],
             "ends": [left, right] | null, "valid": [[[a, b], "L"|"R"], ...]}}

and reads back ``{"move": index into valid}``. When the hand is over it writes
``{"done": {"points": signed (+ team 0, - team 1), "won": bool, "player", "moves": n,
"pypi_seconds": CPU seconds of its player, "log": the whole log as in "ask", "hands": each
seat's tiles at the end}}`` (the hand is over: nothing in it is hidden any more). An
empty line ends the bridge.

The hand: ``random.seed(seed)`` then ``Game.new`` (that package deals with the module
``random``), so both halves of a duplicate pair get the same deal; ``lead`` is the starting
domino ``"6-6"`` (the package's first-game rule) or the starting seat (its later games:
the winner leads any tile). Its player on the other team is
``probabilistic_alphabeta(start_move, sample_size)`` after the package's ``bota_gorda``
ordering (heaviest first, which only matters before ``start_move`` and among ties).
"""

from __future__ import annotations

import json
import random
import sys
import time

import dominoes


def side(game: dominoes.Game, left: bool) -> str:
    return "L" if left else "R"


def public_log(game: dominoes.Game) -> list:
    """The moves so far as everyone sees them (seat, play/pass, tile, side)."""
    log = []
    seat = game.starting_player
    for move in game.moves:
        if move is None:
            log.append([seat, "pass"])
        else:
            domino, left = move
            log.append([seat, "play", [domino.first, domino.second], side(game, left)])
        seat = (seat + 1) % 4
    return log


def ends(game: dominoes.Game):
    if not game.moves:
        return None
    return [game.board.left_end(), game.board.right_end()]


def play_deal(request: dict) -> dict:
    random.seed(request["seed"])
    lead = request["lead"]
    if lead == "6-6":
        game = dominoes.Game.new(starting_domino=dominoes.Domino(6, 6))
    else:
        game = dominoes.Game.new(starting_player=int(lead))
    ours = int(request["ours"])
    search = dominoes.players.probabilistic_alphabeta(
        start_move=int(request["start_move"]), sample_size=int(request["samples"])
    )
    # Its own search samples with the module ``random``: seed it per deal too (after the
    # deal), so a duplicate pair differs only by who sits where.
    random.seed(request["seed"] * 7919 + 1)
    spent = 0.0
    while game.result is None:
        seat = game.turn
        if seat % 2 == ours:
            if len(game.valid_moves) == 1:
                game.make_move(*game.valid_moves[0])
                continue
            ask = {
                "seat": seat,
                "hand": [[d.first, d.second] for d in game.hands[seat]],
                "counts": [len(h) for h in game.hands],
                "leader": game.starting_player,
                "log": public_log(game),
                "ends": ends(game),
                "valid": [[[d.first, d.second], side(game, left)] for d, left in game.valid_moves],
            }
            print(json.dumps({"ask": ask}), flush=True)
            reply = json.loads(sys.stdin.readline())
            game.make_move(*game.valid_moves[int(reply["move"])])
        else:
            started = time.process_time()
            dominoes.players.bota_gorda(game)
            search(game)
            spent += time.process_time() - started
            game.make_move(*game.valid_moves[0])
    result = game.result
    return {
        "points": result.points,
        "won": result.won,
        "player": result.player,
        "moves": len(game.moves),
        "pypi_seconds": round(spent, 3),
        "log": public_log(game),
        "hands": [[[d.first, d.second] for d in hand] for hand in game.hands],
    }


def main() -> None:
    assert hasattr(dominoes, "Game") and hasattr(dominoes, "SkinnyBoard"), (
        "this is not the PyPI dominoes package; run with bench/.venv-pypi-dominoes"
    )
    for line in sys.stdin:
        if not line.strip():
            break
        print(json.dumps({"done": play_deal(json.loads(line))}), flush=True)


if __name__ == "__main__":
    main()
