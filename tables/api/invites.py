"""Invites (R30): what a link is for, taking its seat, and renewing it (creator only)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api_schema import api_error
from core.json_input import TakesNoBody
from tables import selectors, services
from tables.api.common import (
    PlayerSerializer,
    TableScopedApi,
    TableSerializer,
    table_response,
)


class InviteRenewApi(TakesNoBody, TableScopedApi):
    """Replace an open seat's invite link; the old one stops working (R30). For the
    table's creator only: a player seated there gets 403 ``creator_only`` ("Solo quien
    creó la mesa puede renovar sus enlaces de invitación."), anyone else the tables' 404
    ``not_found``; neither changes anything. 404 ``invite_not_found`` for a seat with no
    link to renew, 400 ``no_such_seat``, 409 ``table_not_open`` once the match started."""

    throttle_scope = "tables"

    @extend_schema(
        request=None,
        responses={
            200: TableSerializer,
            400: api_error("no_such_seat: the table has no such seat."),
            403: api_error("creator_only: only the table's creator renews its links."),
            404: api_error("not_found (not your table), invite_not_found (no link to renew)."),
            409: api_error("table_not_open: the match has started."),
        },
    )
    def post(self, request: Request, table_id: int, seat_index: int) -> Response:
        services.invite_renew(table_id=table_id, user=request.user, seat_index=seat_index)
        table, seat = services.table_for_user(table_id, request.user)
        return table_response(request, table, seat)


class InviteDetailApi(APIView):
    """What an invite is for, before joining: the table's size, target, rules, move time
    and players. The person who took the seat with this link gets the same with
    ``joined: true`` (open ``table``); anyone else gets 404 ``invite_not_found`` once it
    is used."""

    @extend_schema(
        responses={
            200: inline_serializer(
                "InvitePreview",
                {
                    "joined": serializers.BooleanField(),
                    "table": serializers.IntegerField(),
                    "seat": serializers.IntegerField(),
                    "hands": serializers.ListField(child=serializers.IntegerField()),
                    "seats": serializers.IntegerField(),
                    "target": serializers.IntegerField(),
                    "rules": serializers.CharField(),
                    "move_seconds": serializers.IntegerField(),
                    "creator": serializers.CharField(),
                    "partner": serializers.BooleanField(),
                    "players": PlayerSerializer(many=True),
                },
            ),
            404: api_error("invite_not_found: no such link, or used by someone else."),
        },
    )
    def get(self, request: Request, token: str) -> Response:
        services.check_invite_token(token)
        return Response(selectors.invite_preview(token, request.user))


class JoinApi(TakesNoBody, APIView):
    """Take the seat of an invite (R30); the match starts when every seat is taken. Sent
    again by the person who took it, it answers their table and changes nothing."""

    throttle_scope = "tables"

    @extend_schema(
        request=None,
        responses={
            200: TableSerializer,
            403: api_error("suspended (with until): a suspended player takes no seat."),
            404: api_error("invite_not_found: no such link, or used by someone else."),
            409: api_error("already_seated, table_not_open."),
        },
    )
    def post(self, request: Request, token: str) -> Response:
        services.check_invite_token(token)
        seat = services.seat_join(token=token, user=request.user)
        table, seat = services.table_for_user(seat.table_id, request.user)
        return table_response(request, table, seat)
