"""``tables/<id>/moves/``: the public move log (R31) and a move, played at most once per
``Idempotency-Key``."""

from __future__ import annotations

import re

from django.db import transaction
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from core import metrics
from core.api_errors import api_exception_handler
from core.api_schema import api_error
from core.json_input import RuledRegexField
from tables import selectors, services
from tables.api import idempotency
from tables.api.common import (
    MoveLogSerializer,
    StrictSerializer,
    TableScopedApi,
    TableSerializer,
    table_response,
)
from tables.errors import TableError, bad_idempotency_key

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
        responses={
            200: TableSerializer,
            400: api_error(
                "A refused move, with rule and reason: tile_not_in_hand, wrong_lead, "
                "tile_does_not_fit, end_required, cannot_draw_with_play, ...; invalid "
                "(fields; a bad Idempotency-Key), no_such_seat, not_your_seat."
            ),
            409: api_error(
                "stale_version (with version: reload), not_your_turn, turn_expired (rule "
                "R27, absent_seat), hand_over, table_not_started."
            ),
            422: api_error("idempotency_key_reused: the Idempotency-Key answered another body."),
        },
    )
    def post(self, request: Request, table_id: int) -> Response:
        key = request.headers.get("Idempotency-Key", "")
        if key and not IDEMPOTENCY_KEY.fullmatch(key):
            raise bad_idempotency_key()
        serializer = self.MovePlaySerializer(data=request.data)
        if not key:
            serializer.is_valid(raise_exception=True)
            return self._played(request, table_id, serializer.validated_data)
        return self._played_once(request, table_id, key, serializer)

    def _played(self, request: Request, table_id: int, move: dict, locked=None) -> Response:
        """The move (``services.move_play``: in its own transaction, or on the ``locked``
        table of the caller's, ``services.move_lock``), answered with the table as the
        mover's seat now sees it, from what the write left in memory (nothing is read
        back)."""
        table = services.move_play(table_id=table_id, user=request.user, locked=locked, **move)
        metrics.count_moves(table.written_moves[1])
        seat = services.table_read_after_write(table, request.user)
        return table_response(request, table, seat)

    def _played_once(
        self, request: Request, table_id: int, key: str, serializer: serializers.Serializer
    ) -> Response:
        """Play at most once per ``(user, table, key)``. In one transaction: the table is
        locked (404 for anyone not seated: strangers leave no row behind), a key answered
        before gets its first answer back (422 ``idempotency_key_reused`` for another
        body), then the body's validation errors (400, not remembered: nothing happened),
        then the move; its answer, a refusal (``TableError``) too, is stored with it. No
        savepoint around the move: a refusal is raised before anything is written, and an
        overdue turn's forfeit (R27), saved before ``turn_expired``, stays done."""
        valid = serializer.is_valid()  # the body's shape, checked before any query
        fingerprint = idempotency.request_fingerprint(request.data)
        asked = {"user": request.user, "table_id": table_id, "key": key}
        with transaction.atomic():
            locked = services.move_lock(table_id=table_id, user=request.user)
            first = idempotency.remembered_answer(**asked, fingerprint=fingerprint)
            if first is not None:
                return first
            if not valid:
                raise serializers.ValidationError(serializer.errors)
            try:
                answer = self._played(request, table_id, serializer.validated_data, locked)
            except TableError as error:
                answer = api_exception_handler(error, {"request": request, "view": self})
            idempotency.remember_answer(**asked, fingerprint=fingerprint, answer=answer)
        return answer
