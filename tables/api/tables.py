"""``tables/``: my tables and a new one (R29); one table as my seat sees it (R31), its
record, and leaving it (R26)."""

from __future__ import annotations

from django.utils.cache import patch_cache_control
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables import replays, selectors, services
from tables.api.common import (
    StrictSerializer,
    TableScopedApi,
    TableSerializer,
    TableSummarySerializer,
    etag,
    table_response,
)

PLAYER_CHOICES = [services.FRIEND, *services.BOT_NAMES]


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
        table, seat = services.table_for_user(table.pk, request.user)
        return table_response(request, table, seat, status.HTTP_201_CREATED)


class TableDetailApi(TableScopedApi):
    """The table as the caller's seat sees it (R31). Cheap polling: send ``If-None-Match``
    with the last ETag, or ``?since_version=N``, and get 304 while nothing changed."""

    @extend_schema(
        parameters=[OpenApiParameter("since_version", OpenApiTypes.INT, required=False)],
        responses={200: TableSerializer, 304: None},
    )
    def get(self, request: Request, table_id: int) -> Response:
        table, seat = services.table_for_user(table_id, request.user)
        current = etag(table, seat)
        since = request.query_params.get("since_version", "")
        # A proxy that compresses may weaken the tag (W/"..."): compare weakly (RFC 9110).
        sent = request.headers.get("If-None-Match", "").removeprefix("W/")
        unchanged = sent == current or (
            since.isascii() and since.isdigit() and int(since) >= table.version
        )
        if unchanged:
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
            response["ETag"] = current
        else:
            response = table_response(request, table, seat)
        # Your tiles: no shared cache keeps them, and the browser asks again each time
        # (revalidating with the ETag) instead of the API's usual no-store.
        patch_cache_control(response, private=True, no_cache=True)
        return response


class RecordApi(TableScopedApi):
    """The match record (``dominoes-record/1``) of the finished hands: the hand in play is
    left out until it ends (R31), with its ``analysis`` section once a finished match's
    analysis is done. Check it with ``python -m dominoes replay``."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, table_id: int) -> Response:
        table, _seat = services.table_for_user(table_id, request.user)
        return Response(replays.record_with_analysis(table))


class AbandonApi(TableScopedApi):
    """Leave the match and lose it (R26); a table still waiting is closed."""

    throttle_scope = "moves"

    @extend_schema(request=None, responses=TableSerializer)
    def post(self, request: Request, table_id: int) -> Response:
        services.table_abandon(table_id=table_id, user=request.user)
        table, seat = services.table_for_user(table_id, request.user)
        return table_response(request, table, seat)
