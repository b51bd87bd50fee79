"""``tables/``: my tables and a new one (R29); one table as my seat sees it (R31), its
record, and leaving it (R26)."""

from __future__ import annotations

from django.conf import settings
from django.utils.cache import patch_cache_control
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from core.api_schema import api_error
from core.json_input import TakesNoBody
from core.pagination import page_size_asked
from tables import errors, listing, replays, seat_left_page, selectors, services
from tables.api.common import (
    StrictSerializer,
    TableScopedApi,
    TableSerializer,
    TableSummarySerializer,
    etag,
    table_response,
)
from tables.models import Table
from tables.move_time import MOVE_DAYS

PLAYER_CHOICES = [services.FRIEND, *services.BOT_NAMES]
#: The most ``others`` entries a body may carry: only a bound on its size. A count that is
#: wrong for the table (none at all, or one too many) is the service's ``invalid_table``
#: (R29), which says how many the table needs.
MAX_OTHERS = 8
#: A version (or a wait) with more digits than this is no version any table reaches.
MAX_VERSION_DIGITS = 18


class TableListCreateApi(APIView):
    """``GET``: my tables, my turn first, a page at a time (``?cursor=`` from the previous
    page's ``next``, ``?page_size=`` 1-100, default 50): ``{"next", "results"}``.
    ``POST``: create a table (R29)."""

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
        move_days = serializers.ChoiceField(
            choices=list(MOVE_DAYS),
            required=False,
            help_text="Days a seat has for each move (R27): 1, 2, 3 or 7. Left out: the "
            "default (2 days). Only for a table with a friend invited; against bots only "
            "the default applies.",
        )
        others = serializers.ListField(
            child=serializers.ChoiceField(choices=PLAYER_CHOICES),
            max_length=MAX_OTHERS,
            help_text="Seats 1.. in order: 'friend' (an invite link) or a bot name. "
            "With 4 seats the second entry is seat 2, your partner. seven_plus_seven: one "
            "entry, the rival pair (seats 1 and 3): 'friend' (one person, one link) or a bot "
            "name (that bot at each seat); you hold seats 0 and 2.",
        )

    class TablePageSerializer(serializers.Serializer):
        next = serializers.URLField(
            allow_null=True, help_text="The next page's URL (with its cursor); null on the last."
        )
        results = TableSummarySerializer(many=True)

    @extend_schema(
        operation_id="tables_list",
        parameters=[
            OpenApiParameter("cursor", OpenApiTypes.STR, required=False),
            OpenApiParameter("page_size", OpenApiTypes.INT, required=False),
        ],
        responses=TablePageSerializer,
    )
    def get(self, request: Request) -> Response:
        size = page_size_asked(
            request.query_params, default=listing.PAGE_SIZE, most=listing.MAX_PAGE_SIZE
        )
        cursor = request.query_params.get("cursor", "")
        tables, after = listing.tables_page_for_user(request.user, cursor, size)
        data = [selectors.table_summary_for_user(table, request.user) for table in tables]
        url = request.build_absolute_uri()
        following = replace_query_param(url, "cursor", after) if after else None
        page = {"next": following, "results": TableSummarySerializer(data, many=True).data}
        return Response(page)

    @extend_schema(
        request=TableCreateSerializer,
        responses={
            201: TableSerializer,
            400: api_error(
                "invalid (fields), invalid_table (seats, target, move_days or others the "
                "profile does not take; rule, profiles for unknown rules)."
            ),
            403: api_error("suspended (with until): a suspended player creates no table."),
        },
    )
    def post(self, request: Request) -> Response:
        serializer = self.TableCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        table = services.table_create(creator=request.user, **serializer.validated_data)
        table, seat = services.table_for_user(table.pk, request.user)
        return table_response(request, table, seat, status.HTTP_201_CREATED)


def version_held(params) -> int | None:
    """``?since_version=``: the version the caller holds, or None when it is absent.
    Anything but a whole number (``abc``, ``-1``, ``1.5``, empty) raises ``TableError``
    400 ``invalid_since_version``. One longer than any version (``MAX_VERSION_DIGITS``)
    is cut to one digit more, still above every table's, never handed whole to ``int()``."""
    since = params.get("since_version")
    if since is None:
        return None
    if not (since.isascii() and since.isdigit()):
        raise errors.invalid_since_version()
    return int(since[: MAX_VERSION_DIGITS + 1])


def wait_asked(params) -> tuple[int, int] | None:
    """``(since_version, seconds)`` of a long poll (``?since_version=N&wait=S``), or None
    when ``wait`` is absent. Raises ``TableError`` 400 ``invalid_wait`` (not a whole
    number from 0 to ``settings.TABLE_WAIT_MAX_SECONDS``) or ``invalid_since_version``
    (not a whole number; or missing, as ``wait`` needs it)."""
    wait = params.get("wait")
    if wait is None:
        return None
    most = settings.TABLE_WAIT_MAX_SECONDS
    if not (wait.isascii() and wait.isdigit() and len(wait) <= 6 and int(wait) <= most):
        raise errors.invalid_wait(most)
    since = version_held(params)
    if since is None:
        raise errors.invalid_since_version(wait_needs_it=True)
    return since, int(wait)  # one above the table's is refused by the read, with the real one


class TableDetailApi(TableScopedApi):
    """The table as the caller's seat sees it (R31). Cheap polling: send ``If-None-Match``
    with the last ETag, or ``?since_version=N``, and get 304 while nothing changed. With
    ``&wait=S`` too (seconds) the answer waits for a change under the ASGI server
    (``tables.api.waits``, which serves this URL there: ``config.urls_asgi``); here
    ``wait`` is only checked, and answered at once."""

    @extend_schema(
        parameters=[
            OpenApiParameter("since_version", OpenApiTypes.INT, required=False),
            OpenApiParameter(
                "wait",
                OpenApiTypes.INT,
                required=False,
                description="Long poll: wait up to this many seconds (at most 30) for the "
                "version to pass since_version (required with it); 304 if it did not.",
            ),
        ],
        responses={
            200: TableSerializer,
            304: OpenApiResponse(description="Not modified: your version is the table's."),
            400: api_error(
                "invalid_since_version (with version when it is above the table's), invalid_wait."
            ),
        },
    )
    def get(self, request: Request, table_id: int) -> Response:
        # Whose table first: a stranger learns nothing from which of its checks failed.
        table, seat = services.table_for_user(table_id, request.user)
        wait_asked(request.query_params)
        current = etag(table, seat)
        held = version_held(request.query_params)
        if held is not None and held > table.version:
            # a version the table never had: the caller's copy is not this table's
            raise errors.since_version_ahead(table.version)
        # A proxy that compresses may weaken the tag (W/"..."): compare weakly (RFC 9110).
        sent = request.headers.get("If-None-Match", "").removeprefix("W/")
        unchanged = sent == current or held == table.version
        if unchanged:
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
            response["ETag"] = current
            services.table_read(table, request.user)  # still there: presence, notices read
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


class SeatLeftSerializer(serializers.Serializer):
    """A guest gave up their seat at a waiting table (``AbandonApi``)."""

    id = serializers.IntegerField()
    status = serializers.CharField(help_text='"waiting": the table waits for a player.')
    left = serializers.BooleanField(help_text="Always true: you no longer sit there.")


class AbandonApi(TakesNoBody, TableScopedApi):
    """Leave the match and lose it (R26): 200 the table, finished. A table still waiting
    for players (R30): its creator cancels it (200 the table, `closed`, outcome
    `abandoned`; the others seated are told who cancelled it; at a rematch anyone
    seated cancels it), a guest who joined by a link gives up the seat instead: 200
    `{id, status: "waiting", left: true}` (no table view: you sit there no more); the
    seat opens with a fresh link (the one you used stops working), the table keeps
    waiting and the creator is told. No body (or `{}`, or `null`): any field is refused,
    as in a move's body (``TakesNoBody``). 404 `not_found` for anyone not seated."""

    throttle_scope = "moves"

    @extend_schema(
        request=None,
        responses={
            200: PolymorphicProxySerializer(
                component_name="AbandonAnswer",
                serializers=[TableSerializer, SeatLeftSerializer],
                resource_type_field_name=None,
            ),
            409: api_error("hand_over: the match is over; table_not_open."),
        },
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = services.table_abandon(table_id=table_id, user=request.user)
        if table.status == Table.Status.WAITING:  # a guest gave up their seat
            if request.auth is None:  # the page's session: its "Mis mesas" says so
                seat_left_page.remember_seat_left(request._request, table.pk)
            return Response({"id": table.pk, "status": table.status, "left": True})
        table, seat = services.table_for_user(table_id, request.user)
        return table_response(request, table, seat)
