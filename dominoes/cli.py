"""The ``python -m dominoes`` command line.

- ``replay FILE`` (``-`` for standard input): check a ``dominoes-record/1`` record and
  print RECORD.md's answer as JSON; exit 0 legal, 1 illegal, 2 unreadable.
- ``arena [--profile NAME] --seats N --bots A,B --matches M --target T --seed S``:
  bot-against-bot matches in duplicate format under any rule profile (classic by
  default; seats and target default to the profile's), with win rates and move times
  (``dominoes.arena``); ``--rollouts R`` sets Quelonia's simulations per move.
"""

from __future__ import annotations

import argparse
import json
import sys

from dominoes.record import replay_text
from dominoes.rules import PROFILES


def _replay(arguments: argparse.Namespace) -> int:
    try:
        if arguments.file == "-":
            text = sys.stdin.read()
        else:
            with open(arguments.file, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        print(json.dumps({"ok": False, "error": "unreadable", "message": str(error)}))
        return 2
    status, answer = replay_text(text)
    print(json.dumps(answer))
    return status


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one sub-command per tool."""
    parser = argparse.ArgumentParser(prog="python -m dominoes")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="check a match record and score it")
    replay.add_argument("file", help="a dominoes-record/1 JSON file, or - for standard input")
    replay.set_defaults(run=_replay)
    arena = commands.add_parser("arena", help="play bots against each other (duplicate format)")
    arena.add_argument(
        "--profile", choices=sorted(PROFILES), default="classic", help="rule profile"
    )
    arena.add_argument(
        "--seats", type=int, choices=(2, 3, 4), help="default: the profile's first table size"
    )
    arena.add_argument("--bots", default="nino,garabato", help="first,second bot names")
    arena.add_argument("--matches", type=int, default=100, help="matches in all (rounded up)")
    arena.add_argument(
        "--target", type=int, help="one of the profile's targets (default 100, else its own)"
    )
    arena.add_argument(
        "--rollouts", type=int, help="Quelonia's simulations per move (default: hers, 2000)"
    )
    arena.add_argument("--seed", default="1")
    arena.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    arena.add_argument("--progress", action="store_true", help="report progress on stderr")
    arena.set_defaults(run=_arena)
    return parser


def _arena(arguments: argparse.Namespace) -> int:
    from dominoes.arena import main as arena_main

    return arena_main(
        arguments.seats,
        arguments.bots,
        arguments.matches,
        arguments.target,
        arguments.seed,
        arguments.workers,
        arguments.progress,
        arguments.profile,
        arguments.rollouts,
    )


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    arguments = build_parser().parse_args(argv)
    return arguments.run(arguments)
