"""The engine's errors, with the stable codes of ``dominoes-record/1`` (RECORD.md)."""

from __future__ import annotations

#: The rule each refusal code cites (RECORD.md's table). ``hand_over`` cites the rule
#: that ended the hand or match (R17, R18 or R25); R17 is its default.
RULE_FOR_CODE: dict[str, str] = {
    "bad_deal": "R1",
    "redeal_required": "R5",
    "not_your_turn": "R3",
    "wrong_lead": "R7",
    "tile_not_in_hand": "R11",
    "tile_does_not_fit": "R11",
    "end_required": "R12",
    "cannot_draw_with_play": "R16",
    "cannot_pass_with_play": "R16",
    "must_draw": "R14",
    "wrong_draw": "R14",
    "hand_over": "R17",
    "hand_in_progress": "R17",
}


class IllegalMove(Exception):
    """An action or deal the rules refuse.

    Attributes: ``code`` (a key of ``RULE_FOR_CODE``, stable for API clients), ``rule``
    (the rule id it breaks, e.g. ``"R11"``) and ``message`` (human text, not stable).
    """

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        if code not in RULE_FOR_CODE:
            raise ValueError(f"unknown refusal code {code!r}")
        self.code = code
        self.rule = rule or RULE_FOR_CODE[code]
        self.message = message
        super().__init__(f"{code} ({self.rule}): {message}")


class UnreadableRecord(ValueError):
    """Input that is not a readable record or tile: bad JSON, unknown format, bad names."""
