"""The notices API under /api/v1/: the inbox (paginated, ``?unread=1``) and marking read.
Always the caller's own notices."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from notices import selectors, services
from notices.models import Notification


class NotificationSerializer(serializers.ModelSerializer):
    """One notice: its kind, table, when, whether read, the sentence in the request's
    language (``text``), the table's page (``path``) and its public facts (``payload``)."""

    text = serializers.SerializerMethodField()
    path = serializers.SerializerMethodField()
    read = serializers.SerializerMethodField()

    class Meta:
        model = Notification
        fields = ["id", "kind", "table", "created_at", "read", "read_at", "text", "path", "payload"]

    def get_text(self, notice: Notification) -> str:
        return selectors.describe(notice)

    def get_path(self, notice: Notification) -> str:
        return f"/mesas/{notice.table_id}/"

    def get_read(self, notice: Notification) -> bool:
        return notice.read_at is not None


class InboxPagination(PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100


class NotificationListApi(APIView):
    """``GET``: my notices, newest first, 20 a page (``?page=``, ``?page_size=`` up to
    100); ``?unread=1`` only the unread ones."""

    @extend_schema(
        parameters=[OpenApiParameter("unread", OpenApiTypes.BOOL, required=False)],
        responses=NotificationSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        unread = request.query_params.get("unread", "") in ("1", "true", "yes")
        pages = InboxPagination()
        page = pages.paginate_queryset(selectors.inbox(request.user, unread=unread), request)
        return pages.get_paginated_response(NotificationSerializer(page, many=True).data)


class ReadInputSerializer(serializers.Serializer):
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1), required=False, max_length=500
    )
    table = serializers.IntegerField(min_value=1, required=False)

    def validate(self, data: dict) -> dict:
        if ("ids" in data) == ("table" in data):
            raise serializers.ValidationError("Give either 'ids' or 'table'.")
        return data


class NotificationReadApi(APIView):
    """``POST {"ids": [...]}`` or ``{"table": id}``: mark those notices of mine read.
    Answers how many changed and the unread count left."""

    @extend_schema(request=ReadInputSerializer, responses={200: OpenApiTypes.OBJECT})
    def post(self, request: Request) -> Response:
        data = ReadInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        marked = services.notifications_read(
            user=request.user,
            ids=data.validated_data.get("ids"),
            table_id=data.validated_data.get("table"),
        )
        return Response({"marked": marked, "unread": selectors.unread_count(request.user)})
