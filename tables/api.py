"""The tables API (``/api/v1/``): one view per endpoint, thin. Input is checked by a
serializer, the work is a call to ``tables.services`` (writes) or ``tables.selectors``
(reads), and every game fact in a response comes from ``dominoes.view_for`` (R31).

Errors are ``{"code", "detail", "rule"?}`` (``core.api_errors``); a refused move uses
the codes of RECORD.md.
"""

from __future__ import annotations

import hashlib
import json
import re

from django.db import transaction
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables import selectors, services
from tables.errors import TableError, not_found
from tables.models import MoveRequest, Seat, Table

TILE_PATTERN = r"^[0-9]-[0-9]$"  # double-nine sets too (the cuban profile)
PLAYER_CHOICES = [services.FRIEND, *services.BOT_NAMES]
#: Table ids are BigAutoField primary keys: anything larger cannot exist (and would make
#: the database refuse the query, a 500, rather than answer "not found").
MAX_ID = 2**63 - 1
#: An Idempotency-Key: 1-128 visible ASCII characters.
IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,128}")


class StrictSerializer(serializers.Serializer):
    """A request body serializer that refuses fields it does not know (400 ``invalid``),
    so that a misspelt ``end`` is an error instead of a silently different move."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = sorted(str(name) for name in data if name not in self.fields)
            if unknown:
                raise serializers.ValidationError(
                    {name: ["Unknown field."] for name in unknown}, code="invalid"
                )
        return super().to_internal_value(data)


class TableScopedApi(APIView):
    """Base of the views under ``tables/<table_id>/``: an id no table can have is a 404
    before any query runs."""

    def initial(self, request: Request, *args, **kwargs) -> None:
        super().initial(request, *args, **kwargs)
        for name in ("table_id", "seat_index"):
            value = kwargs.get(name)
            if value is not None and not 0 <= value <= MAX_ID:
                raise not_found()


class PlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    bot = serializers.CharField(allow_null=True)
    open = serializers.BooleanField()
    team = serializers.IntegerField()
    score = serializers.IntegerField()
    tile_count = serializers.IntegerField(allow_null=True)


class InviteSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    hands = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Every seat the link takes: [seat], or [1, 3] in seven_plus_seven.",
    )
    partner = serializers.BooleanField()
    token = serializers.CharField()
    path = serializers.CharField()
    url = serializers.URLField()


class HandSerializer(serializers.Serializer):
    """One of the caller's hands (a seat they hold): its tiles and plays (R31)."""

    seat = serializers.IntegerField()
    tiles = serializers.ListField(child=serializers.CharField())
    legal_moves = serializers.JSONField(help_text='[{"tile": "6-4", "end": 4 | null}]')
    to_play = serializers.BooleanField(help_text="This hand may act now.")


class TableSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Table.Status.choices)
    rules = serializers.CharField(help_text="The rule profile (docs/profiles.md).")
    seats = serializers.IntegerField()
    target = serializers.IntegerField()
    version = serializers.IntegerField()
    your_seat = serializers.IntegerField(help_text="Your first seat.")
    your_seats = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Every seat you hold: two (seats i and i + 2) in seven_plus_seven.",
    )
    your_turn = serializers.BooleanField(help_text="One of your seats is to act.")
    turn_seat = serializers.IntegerField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    last_move_at = serializers.DateTimeField()
    outcome = serializers.CharField(allow_null=True)
    winners = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    players = PlayerSerializer(many=True)


class TableSerializer(serializers.Serializer):
    """A table as the caller's seat sees it. ``game`` is ``dominoes.view_for(...)``:
    ``tiles`` (yours only), ``line``, ``ends``, ``tile_counts``, ``stock_size``, ``scores``,
    ``turn``, ``legal_moves`` (yours, on your turn), ``log``, ``last_hand`` (the previous
    hand with every hand shown and its seed) and the match result.

    ``hands`` lists each seat you hold with its tiles, ``legal_moves`` and ``to_play``:
    one entry, or two in ``seven_plus_seven`` (one person plays both hands of a pair).
    There ``your_seat`` and ``game`` are the hand to play now when it is yours, else
    your first; send ``seat`` with a move to say which hand plays."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Table.Status.choices)
    seats = serializers.IntegerField()
    target = serializers.IntegerField()
    rules = serializers.CharField()
    version = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    turn_seat = serializers.IntegerField(allow_null=True)
    turn_started_at = serializers.DateTimeField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    your_seat = serializers.IntegerField(
        help_text="The seat `game` is seen from: yours, or the one of yours to act now."
    )
    your_seats = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Every seat you hold: two (seats i and i + 2) in seven_plus_seven.",
    )
    your_turn = serializers.BooleanField(help_text="One of your seats is to act.")
    outcome = serializers.CharField(allow_null=True)
    winners = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    players = PlayerSerializer(many=True)
    invites = InviteSerializer(many=True)
    hands = HandSerializer(many=True)
    game = serializers.JSONField(allow_null=True)


def _with_urls(request: Request, data: dict) -> dict:
    for invite in data.get("invites", []):
        invite["url"] = request.build_absolute_uri(invite["path"])
    return data


def table_response(request: Request, table: Table, seat: Seat, status_code: int = 200) -> Response:
    """The caller's view of ``table`` with its ETag (the version, per seat)."""
    data = _with_urls(request, selectors.table_view_for_user(table, seat, request.user))
    response = Response(TableSerializer(data).data, status=status_code)
    response["ETag"] = _etag(table, seat)
    return response


def _etag(table: Table, seat: Seat) -> str:
    return _etag_of(table.pk, table.version, seat.index)


def _etag_of(table_id: int, version: int, seat_index: int) -> str:
    """The ETag of one seat's view at one version (views differ per seat). ``seat_index``
    is the caller's first seat (``your_seats[0]``): a two-seat holder's view at a version
    is one document whichever hand is to play."""
    return f'"t{table_id}-v{version}-s{seat_index}"'


class TableListCreateApi(APIView):
    """``GET``: my tables, my turn first. ``POST``: create a table (R29)."""

    throttle_scope = "tables"

    class TableCreateSerializer(StrictSerializer):
        rules = serializers.ChoiceField(
            choices=services.offered_profiles(),
            default="classic",
            help_text="The rule profile; 'classic' is the house rules (RULES.md).",
        )
        seats = serializers.ChoiceField(choices=[2, 3, 4])
        target = serializers.IntegerField(
            min_value=1,
            max_value=1000,
            required=False,
            help_text="Points to win: 50 or 100 for classic; each profile has its own. "
            "Left out: the profile's first target.",
        )
        others = serializers.ListField(
            child=serializers.ChoiceField(choices=PLAYER_CHOICES),
            min_length=1,
            max_length=3,
            help_text="Seats 1.. in order: 'friend' (an invite link) or a bot name. "
            "With 4 seats the second entry is seat 2, your partner. seven_plus_seven: one "
            "entry, the rival pair (seats 1 and 3): 'friend' (one person, one link) or a bot "
            "name (that bot at each seat); you hold seats 0 and 2.",
        )

    @extend_schema(responses=TableSummarySerializer(many=True))
    def get(self, request: Request) -> Response:
        tables = selectors.tables_for_user(request.user)
        data = [selectors.table_summary_for_user(table, request.user) for table in tables]
        return Response(TableSummarySerializer(data, many=True).data)

    @extend_schema(request=TableCreateSerializer, responses={201: TableSerializer})
    def post(self, request: Request) -> Response:
        serializer = self.TableCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        table = services.table_create(creator=request.user, **serializer.validated_data)
        table, seat = selectors.table_for_user(table.pk, request.user)
        return table_response(request, table, seat, status.HTTP_201_CREATED)


class TableDetailApi(TableScopedApi):
    """The table as the caller's seat sees it (R31). Cheap polling: send ``If-None-Match``
    with the last ETag, or ``?since_version=N``, and get 304 while nothing changed."""

    @extend_schema(
        parameters=[OpenApiParameter("since_version", OpenApiTypes.INT, required=False)],
        responses={200: TableSerializer, 304: None},
    )
    def get(self, request: Request, table_id: int) -> Response:
        table, seat = selectors.table_for_user(table_id, request.user)
        etag = _etag(table, seat)
        since = request.query_params.get("since_version", "")
        # A proxy that compresses may weaken the tag (W/"..."): compare weakly (RFC 9110).
        sent = request.headers.get("If-None-Match", "").removeprefix("W/")
        unchanged = sent == etag or (
            since.isascii() and since.isdigit() and int(since) >= table.version
        )
        if unchanged:
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
            response["ETag"] = etag
        else:
            response = table_response(request, table, seat)
        # Your tiles: no shared cache keeps them, and the browser asks again each time
        # (revalidating with the ETag) instead of the API's usual no-store.
        patch_cache_control(response, private=True, no_cache=True)
        return response


class MoveListCreateApi(TableScopedApi):
    """``GET``: the public move log (R31). ``POST``: play a tile on your turn; the server
    then plays the automatic draws and passes (R16), ends hands and deals the next.
    An ``Idempotency-Key`` header makes a retried POST return the first answer."""

    throttle_scope = "moves"

    class MovePlaySerializer(StrictSerializer):
        action = serializers.ChoiceField(
            choices=["play", "draw", "pass"],
            default="play",
            help_text="'play' a tile; 'draw' or 'pass' only where the profile makes drawing "
            "a choice (game.choices), never in classic (R16: automatic).",
        )
        tile = serializers.RegexField(
            TILE_PATTERN, required=False, help_text='A tile you hold, "6-4" (for a play).'
        )
        end = serializers.IntegerField(
            min_value=0,
            max_value=9,
            required=False,
            allow_null=True,
            help_text="The pip of the end to play on; needed only when the tile fits both.",
        )
        version = serializers.IntegerField(
            min_value=0, help_text="The table version you saw; 409 stale_version otherwise."
        )
        seat = serializers.IntegerField(
            min_value=0,
            max_value=3,
            required=False,
            help_text="The seat you move for (one of your_seats; seven_plus_seven: either "
            "hand). Left out: your seat that may act now. Not yours: 400 not_your_seat; "
            "yours but not to act: 409 not_your_turn.",
        )

    @extend_schema(
        responses=inline_serializer(
            "MoveLog",
            {
                "hand": serializers.IntegerField(),
                "sequence": serializers.IntegerField(),
                "seat": serializers.IntegerField(),
                "kind": serializers.ChoiceField(choices=["play", "draw", "pass"]),
                "tile": serializers.CharField(allow_null=True),
                "end": serializers.IntegerField(allow_null=True),
                "automatic": serializers.BooleanField(),
                "created_at": serializers.DateTimeField(),
            },
            many=True,
        )
    )
    def get(self, request: Request, table_id: int) -> Response:
        table, _seat = selectors.table_for_user(table_id, request.user)
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
            raise TableError("invalid", _("Idempotency-Key: de 1 a 128 caracteres ASCII visibles."))
        return self._play_once(request, table_id, key)

    def _play(self, request: Request, table_id: int) -> Response:
        serializer = self.MovePlaySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.move_play(table_id=table_id, user=request.user, **serializer.validated_data)
        table, seat = selectors.table_for_user(table_id, request.user)
        return table_response(request, table, seat)

    def _play_once(self, request: Request, table_id: int, key: str) -> Response:
        """Play at most once per ``(user, table, key)``: the first answer (a move played or
        refused) is stored in the same transaction as the move, and a retry gets it back.

        The table row is locked first, so requests for one table queue up and a retry
        racing its original reads the stored answer once the original has committed. A
        request that fails validation is not remembered (nothing happened; a retry gets
        the same 400). Strangers get the usual 404 and leave no row behind.
        """
        from core.api_errors import api_exception_handler

        with transaction.atomic():
            seated = Table.objects.select_for_update(of=("self",)).filter(
                pk=table_id, seat_set__user=request.user
            )
            if not seated.exists():  # missing, or not the caller's table: same 404
                raise not_found()
            remembered = MoveRequest.objects.filter(
                user=request.user, table_id=table_id, key=key
            ).first()
            fingerprint = request_fingerprint(request.data)
            if remembered is not None:
                if remembered.request_hash != fingerprint:
                    raise TableError(
                        "idempotency_key_reused",
                        _("Esta Idempotency-Key ya se usó para otra jugada."),
                        status_code=status.HTTP_422_UNPROCESSABLE_ENTITY,
                    )
                return _replayed(remembered)
            # No savepoint around the play: each service call is atomic on its own (a
            # refused move rolls itself back), and an overdue turn's forfeit (R27), which
            # move_play commits before refusing with turn_expired, must stay done.
            try:
                response = self._play(request, table_id)
            except TableError as error:
                response = api_exception_handler(error, {"request": request, "view": self})
            MoveRequest.objects.create(
                user=request.user,
                table_id=table_id,
                key=key,
                request_hash=fingerprint,
                status_code=response.status_code,
                body=response.data,
            )
            return response


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
        response["ETag"] = _etag_of(body["id"], body["version"], first)
    return response


class RecordApi(TableScopedApi):
    """The match record (``dominoes-record/1``) of the finished hands: the hand in play is
    left out until it ends (R31). Check it with ``python -m dominoes replay``."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, table_id: int) -> Response:
        table, _seat = selectors.table_for_user(table_id, request.user)
        return Response(selectors.table_record(table))


class AbandonApi(TableScopedApi):
    """Leave the match and lose it (R26); a table still waiting is closed."""

    throttle_scope = "moves"

    @extend_schema(request=None, responses=TableSerializer)
    def post(self, request: Request, table_id: int) -> Response:
        services.table_abandon(table_id=table_id, user=request.user)
        table, seat = selectors.table_for_user(table_id, request.user)
        return table_response(request, table, seat)


class InviteRenewApi(TableScopedApi):
    """Replace an open seat's invite link; the old one stops working (creator only)."""

    throttle_scope = "tables"

    @extend_schema(request=None, responses=TableSerializer)
    def post(self, request: Request, table_id: int, seat_index: int) -> Response:
        services.invite_renew(table_id=table_id, user=request.user, seat_index=seat_index)
        table, seat = selectors.table_for_user(table_id, request.user)
        return table_response(request, table, seat)


class InviteDetailApi(APIView):
    """What an invite is for, before joining: the table's size, target and players."""

    @extend_schema(
        responses=inline_serializer(
            "InvitePreview",
            {
                "table": serializers.IntegerField(),
                "seat": serializers.IntegerField(),
                "hands": serializers.ListField(child=serializers.IntegerField()),
                "seats": serializers.IntegerField(),
                "target": serializers.IntegerField(),
                "rules": serializers.CharField(),
                "creator": serializers.CharField(),
                "partner": serializers.BooleanField(),
                "players": PlayerSerializer(many=True),
            },
        )
    )
    def get(self, request: Request, token: str) -> Response:
        services.check_invite_token(token)
        return Response(selectors.invite_preview(token))


class JoinApi(APIView):
    """Take the seat of an invite (R30); the match starts when every seat is taken."""

    throttle_scope = "tables"

    @extend_schema(request=None, responses={200: TableSerializer})
    def post(self, request: Request, token: str) -> Response:
        services.check_invite_token(token)
        seat = services.seat_join(token=token, user=request.user)
        table, seat = selectors.table_for_user(seat.table_id, request.user)
        return table_response(request, table, seat)
