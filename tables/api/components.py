"""The game as the schema describes it: the typed components of a table's ``game``
(``dominoes.view_for(...).to_dict()``, R31), of each hand's ``legal_moves`` and of the
``rematch`` link, for drf-spectacular and the clients generated from its schema.

The answers are not written through these serializers (``TableSerializer`` keeps
``game``, ``legal_moves`` and ``rematch`` as the dicts the selectors built, for speed):
each field here names one key of those dicts, and a key written only by some rule
profiles is ``required=False``. ``tests/api_client`` plays matches through a client
generated from the schema, which fails on any key missing or mistyped here.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tables.models import Table

MOVE_KINDS = ["play", "draw", "pass"]


def _seat_list(help_text: str, **kwargs) -> serializers.ListField:
    return serializers.ListField(child=serializers.IntegerField(), help_text=help_text, **kwargs)


def _tile_list(help_text: str) -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(), help_text=help_text)


def _line_field() -> serializers.ListField:
    return serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        help_text="The line, left to right: each tile as the pair [pip, pip] in the order "
        "it lies (the left pip touches the tile before it).",
    )


class LegalMoveSerializer(serializers.Serializer):
    """One play a seat may make now (R11-R15)."""

    tile = serializers.CharField(help_text='The tile, "6-4".')
    end = serializers.IntegerField(
        allow_null=True,
        help_text="The pip of the end it goes on; null for the lead (R11), which has no ends.",
    )


class LogEntrySerializer(serializers.Serializer):
    """One public action of a hand (R31): a draw's ``tile`` only for the seat that drew
    it, or once the hand is over (R19); ``end`` only for a play (null for its lead)."""

    seat = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=MOVE_KINDS)
    tile = serializers.CharField(required=False, help_text="Left out for a pass, a hidden draw.")
    end = serializers.IntegerField(
        required=False, allow_null=True, help_text="A play's end pip; null for the lead."
    )


class TieBreakSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    values = serializers.ListField(
        child=serializers.IntegerField(), help_text="The seat's tile values, lowest first (R23)."
    )


class HandReasonSerializer(serializers.Serializer):
    """How a finished hand's points were decided (``dominoes.reason.HandReason``,
    R17-R24), for a page to put into words. The keys after ``addends`` appear only when
    they apply."""

    end = serializers.CharField(help_text='"domino" (R17) or "blocked" (R18).')
    rule = serializers.CharField(help_text='The rule that decided the points, "R20"-"R23".')
    rules = serializers.ListField(
        child=serializers.CharField(), help_text="Every rule id applied, in order."
    )
    decided_by = serializers.CharField(
        help_text="domino, lowest_count, lowest_tiles, lower_pair_total, lowest_player, "
        "pair_that_led or nobody."
    )
    counts = _seat_list("Each seat's count of pips (R19).")
    winners = _seat_list("The seats that scored.")
    points = serializers.IntegerField()
    scored_seats = _seat_list("The seats whose counts make the points.")
    addends = serializers.ListField(
        child=serializers.IntegerField(), help_text="The numbers summed into the points."
    )
    scored = serializers.CharField(required=False, help_text="rival, rivals or everyone.")
    went_out = serializers.IntegerField(required=False)
    uncounted_partner = serializers.IntegerField(required=False)
    lowest = serializers.IntegerField(required=False)
    lowest_seat = serializers.IntegerField(required=False)
    team_counts = serializers.ListField(child=serializers.IntegerField(), required=False)
    multiplier = serializers.IntegerField(required=False)
    tied = _seat_list("The seats tied for the lowest count.", required=False)
    tie_break = TieBreakSerializer(many=True, required=False)
    differences = serializers.BooleanField(required=False)
    out = _seat_list("Seats that left the hand.", required=False)


class HandSummarySerializer(serializers.Serializer):
    """A finished hand with every hand shown (R19) and its seed (R6)."""

    number = serializers.IntegerField(help_text="The hand's number in the match, from 1.")
    end = serializers.CharField(help_text='"domino" or "blocked".')
    winners = _seat_list("The seats that won the hand.")
    points = serializers.IntegerField()
    counts = _seat_list("Each seat's count of pips.")
    holdings = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="The tiles each seat still held, by seat.",
    )
    leader = serializers.IntegerField(help_text="The seat that led the hand.")
    seed_sha256 = serializers.CharField(allow_null=True)
    seed = serializers.CharField(allow_null=True, help_text="The deal's seed, hex (R6).")
    line = _line_field()
    log = LogEntrySerializer(many=True)
    capicua = serializers.BooleanField(required=False, help_text="Only when it ended in one.")
    explanation = HandReasonSerializer(required=False)


class GameSerializer(serializers.Serializer):
    """The match as one seat sees it (``dominoes.view_for``, R31): its own tiles, the
    line and its ends, the scores and every seat's count. ``choices``, ``lead_seats``,
    ``zapato`` and ``left_seats`` appear only for the profiles that have them
    (docs/profiles.md)."""

    seat = serializers.IntegerField(help_text="The seat this view is seen from.")
    seats = serializers.IntegerField()
    rules = serializers.CharField()
    target = serializers.IntegerField()
    scores = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Points by seat (partners carry the same number, R25).",
    )
    hand_number = serializers.IntegerField()
    leader = serializers.IntegerField(help_text="The seat that leads (or led) this hand.")
    turn = serializers.IntegerField(allow_null=True, help_text="The seat to act; null once over.")
    tiles = _tile_list("Your tiles (nobody else's before the hand ends).")
    tile_counts = _seat_list("How many tiles each seat holds.")
    line = _line_field()
    ends = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="[left, right] pips of the line; null before the lead.",
    )
    stock_size = serializers.IntegerField(help_text="Tiles left to draw.")
    legal_moves = LegalMoveSerializer(many=True, help_text="Yours, on your turn; else empty.")
    log = LogEntrySerializer(many=True, help_text="This hand's public actions.")
    seed_sha256 = serializers.CharField(
        allow_null=True, help_text="The hash of this hand's seed, shown before its end (R6)."
    )
    last_hand = HandSummarySerializer(
        allow_null=True, help_text="The previous hand (or this one once over), all shown."
    )
    match_over = serializers.BooleanField()
    winners = _seat_list("The seats that won the match.", allow_null=True)
    outcome = serializers.CharField(allow_null=True, help_text="Why the match ended.")
    abandoned_by = serializers.IntegerField(allow_null=True)
    choices = serializers.ListField(
        child=serializers.ChoiceField(choices=["draw", "pass"]),
        required=False,
        help_text="Where drawing is optional (first_double): what you may do besides play.",
    )
    lead_seats = _seat_list("cuban: the seats that may lead.", required=False)
    zapato = serializers.BooleanField(
        required=False, allow_null=True, help_text="Profiles with zapato: null while on."
    )
    left_seats = _seat_list("first_double: seats that left the hand.", required=False)


class RematchSerializer(serializers.Serializer):
    """The rematch asked for at a finished table."""

    id = serializers.IntegerField(help_text="The rematch's table id.")
    status = serializers.ChoiceField(choices=Table.Status.choices)


@extend_schema_field(GameSerializer(allow_null=True))
class GameField(serializers.JSONField):
    """``game``: written as the selectors built it, described as ``GameSerializer``."""


@extend_schema_field(LegalMoveSerializer(many=True))
class LegalMovesField(serializers.JSONField):
    """A hand's ``legal_moves``, described as a list of ``LegalMoveSerializer``."""


@extend_schema_field(RematchSerializer(allow_null=True))
class RematchField(serializers.JSONField):
    """``rematch``: ``{"id", "status"}``, described as ``RematchSerializer``."""
