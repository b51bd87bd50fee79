"""The dominoes engine: the rules (double-six classic, and every profile of
``dominoes.rules``, double-nine ``cuban`` included) as pure functions over immutable states.

No Django, DRF or Celery here (an import-linter contract enforces it); the service calls
this package and this package never calls back. The public API:

- ``new_match``, ``start_hand``, ``legal_moves``, ``forced_action``, ``apply``,
  ``advance``, ``play_turn``, ``abandon``, ``close_idle`` (``dominoes.engine``)
- ``view_for`` (``dominoes.view``): what one seat may see (R31)
- ``match_to_record``, ``load_record``, ``replay_match``, ``replay_text``
  (``dominoes.record``): ``dominoes-record/1``
- ``Rules``, ``CLASSIC``, ``PROFILES`` (``dominoes.rules``); ``Tile``, ``parse_tile``
- ``IllegalMove`` with its stable ``code`` and ``rule``
"""

from dominoes.deal import deal, new_seed, seed_sha256
from dominoes.engine import (
    abandon,
    advance,
    apply,
    close_idle,
    forced_action,
    legal_moves,
    new_match,
    play_turn,
    start_hand,
)
from dominoes.errors import IllegalMove, UnreadableRecord
from dominoes.record import (
    load_record,
    match_to_record,
    recorded_step,
    replay_match,
    replay_text,
)
from dominoes.rules import CLASSIC, PROFILES, Rules
from dominoes.state import (
    Draw,
    HandEnd,
    HandResult,
    HandState,
    MatchOutcome,
    MatchState,
    Pass,
    Play,
    match_from_dict,
    match_to_dict,
)
from dominoes.tiles import Tile, full_set, parse_tile
from dominoes.view import SeatView, view_for

__all__ = [
    "CLASSIC",
    "PROFILES",
    "Draw",
    "HandEnd",
    "HandResult",
    "HandState",
    "IllegalMove",
    "MatchOutcome",
    "MatchState",
    "Pass",
    "Play",
    "Rules",
    "SeatView",
    "Tile",
    "UnreadableRecord",
    "abandon",
    "advance",
    "apply",
    "close_idle",
    "deal",
    "forced_action",
    "full_set",
    "legal_moves",
    "load_record",
    "match_from_dict",
    "match_to_dict",
    "match_to_record",
    "new_match",
    "new_seed",
    "parse_tile",
    "play_turn",
    "recorded_step",
    "replay_match",
    "replay_text",
    "seed_sha256",
    "start_hand",
    "view_for",
]
