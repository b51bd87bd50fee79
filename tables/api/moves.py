"""``tables/<id>/moves/``: the public move log (R31) and a move, played at most once per
``Idempotency-Key``."""

from __future__ import annotations

import hashlib
import json
import re

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from core.api_errors import api_exception_handler
from core.json_input import RuledRegexField
from tables import selectors, services
from tables.api.common import (
    MoveLogSerializer,
    StrictSerializer,
    TableScopedApi,
    TableSerializer,
    etag_of,
    table_response,
)
from tables.errors import bad_idempotency_key
from tables.models import MoveRequest

TILE_PATTERN = r"^[0-9]-[0-9]$"  # double-nine sets too (the cuban profile)
TILE_NAME = re.compile(r"[0-9]-[0-9]")
TILE_WRITTEN = gettext_lazy("Escribe la ficha como «6-4»: dos cifras y un guion, sin espacios.")
#: An Idempotency-Key: 1-128 visible ASCII characters.
# The largest version a client may name: 64-bit signed, as the database compares it.
MAX_VERSION = 2**63 - 1
IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,128}")


class MoveListCreateApi(TableScopedApi):
    """``GET``: the public move log (R31). ``POST``: play a tile on your turn; the server
    then plays the automatic draws and passes (R16), ends hands and deals the next.
    An ``Idempotency-Key`` header makes a retried POST return the first answer."""

    throttle_scope = "moves"

    class MovePlaySerializer(StrictSerializer):
        action = serializers.ChoiceField(
            choices=["play", "draw", "pass"],
            default="play",
            help_text="'play' a tile; 'draw' or 'pass' where the profile makes drawing a "
            "choice (game.choices), never in classic (R16: automatic). In cuban, 'pass' "
            "also before a lead your pair chooses when your partner is a bot (game."
            "lead_seats has both of you, your_turn): the bot leads, its tile the move saved.",
        )
        tile = RuledRegexField(
            TILE_PATTERN,
            required=False,
            # " 6-4 " and "6-4\n" are 400 invalid as "6-4 x" is: a move is read as sent
            trim_whitespace=False,
            error_messages={"invalid": TILE_WRITTEN},
            help_text='A tile you hold, "6-4" (for a play), exactly: no spaces around it.',
        )
        end = serializers.IntegerField(
            min_value=0,
            max_value=9,
            required=False,
            allow_null=True,
            help_text="The pip of the end to play on; needed only when the tile fits both. "
            "Never with a lead (R11: no ends yet): 400 invalid.",
        )
        version = serializers.IntegerField(
            min_value=0,
            max_value=MAX_VERSION,
            help_text="The table version you saw; 409 stale_version otherwise. Outside "
            "0..2**63-1 (what the database stores): 400 invalid.",
        )
        seat = serializers.IntegerField(
            min_value=0,
            required=False,
            help_text="The seat you move for (one of your_seats; seven_plus_seven: either "
            "hand). Left out: your seat that may act now. None of the table's seats: 400 "
            "no_such_seat; not yours: 400 not_your_seat; yours but not to act: 409 "
            "not_your_turn.",
        )

        def validate_tile(self, tile: str) -> str:
            """The whole text is the tile: ``$`` in ``TILE_PATTERN`` (kept for the
            schema) would also let a final newline through."""
            if not TILE_NAME.fullmatch(tile):
                raise serializers.ValidationError(TILE_WRITTEN, code="invalid")
            return tile

    @extend_schema(responses=MoveLogSerializer(many=True))
    def get(self, request: Request, table_id: int) -> Response:
        table, _seat = services.table_for_user(table_id, request.user)
        mine = [seat.index for seat in selectors.seats_for_user(table, request.user)]
        return Response(selectors.public_moves(table, mine))

    @extend_schema(
        request=MovePlaySerializer,
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER)],
        responses={200: TableSerializer},
    )
    def post(self, request: Request, table_id: int) -> Response:
        key = request.headers.get("Idempotency-Key", "")
        if not key:
            return self._play(request, table_id)
        if not IDEMPOTENCY_KEY.fullmatch(key):
            raise bad_idempotency_key()
        return self._play_once(request, table_id, key)

    def _play(self, request: Request, table_id: int, locked=None) -> Response:
        """The move, answered with the table as the mover's seat now sees it, from what
        the write left in memory (nothing is read back)."""
        serializer = self.MovePlaySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        table = services.move_play(
            table_id=table_id, user=request.user, locked=locked, **serializer.validated_data
        )
        seat = services.table_read_after_write(table, request.user)
        return table_response(request, table, seat)

    def _play_once(self, request: Request, table_id: int, key: str) -> Response:
        """Play at most once per ``(user, table, key)`` (``services.move_play_once``): a
        refused move is answered and remembered like a played one; a retry gets the first
        answer back, with the table view's ETag when it was one."""
        answer = services.move_play_once(
            table_id=table_id,
            user=request.user,
            key=key,
            request_hash=request_fingerprint(request.data),
            play=lambda locked: self._play(request, table_id, locked),
            refused=lambda error: api_exception_handler(error, {"request": request, "view": self}),
        )
        if isinstance(answer, MoveRequest):
            return _replayed(answer)
        return answer


def request_fingerprint(data) -> str:
    """SHA-256 of the request body as canonical JSON: a key reused for another body is
    refused instead of answered with the first move's result."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _replayed(remembered: MoveRequest) -> Response:
    """A stored answer, as first sent (with the table view's ETag when it was one)."""
    response = Response(remembered.body, status=remembered.status_code)
    body = remembered.body
    if remembered.status_code == 200 and isinstance(body, dict) and "your_seat" in body:
        first = (body.get("your_seats") or [body["your_seat"]])[0]
        response["ETag"] = etag_of(body["id"], body["version"], first)
    return response
