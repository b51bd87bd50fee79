"""The notices API under /api/v1/: the inbox (paginated, ``?unread=1``), marking read, and
the notice preferences. Always the caller's own."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import APIException, NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.time_zones import time_zone_of
from core.api_schema import api_error
from core.json_input import RuledRegexField, RuledURLField, StrictInputMixin
from core.pagination import CheckedPageSizePagination
from notices import push_endpoints, selectors, services
from notices.forms import time_zone_choices
from notices.models import NoticePreferences, Notification
from notices.time_zones import offered_name


class NotificationSerializer(serializers.ModelSerializer):
    """One notice: its kind, table, when, whether read, the sentence in the request's
    language (``text``; a deadline in it written in the context's ``zone``, else the
    player's, zone named), the table's page (``path``) and its public facts (``payload``)."""

    text = serializers.SerializerMethodField()
    path = serializers.SerializerMethodField()
    read = serializers.SerializerMethodField()

    class Meta:
        model = Notification
        fields = ["id", "kind", "table", "created_at", "read", "read_at", "text", "path", "payload"]

    def get_text(self, notice: Notification) -> str:
        return selectors.describe(notice, self.context.get("zone"))

    def get_path(self, notice: Notification) -> str | None:
        return f"/mesas/{notice.table_id}/" if notice.table_id else None

    def get_read(self, notice: Notification) -> bool:
        return notice.read_at is not None


class InboxPagination(CheckedPageSizePagination):
    """20 a page; ``?page_size=`` 1-100, else 400 ``invalid_page_size``."""

    page_size = 20


class NotificationListApi(APIView):
    """``GET``: my notices, newest first, 20 a page (``?page=``, ``?page_size=`` 1-100,
    else 400 ``invalid_page_size``); ``?unread=1`` only the unread ones."""

    class NotificationPageSerializer(serializers.Serializer):
        count = serializers.IntegerField(help_text="Notices in the list, every page.")
        next = serializers.URLField(allow_null=True, help_text="The next page; null on the last.")
        previous = serializers.URLField(allow_null=True, help_text="null on the first page.")
        results = NotificationSerializer(many=True)

    @extend_schema(
        operation_id="notifications_list",
        parameters=[
            OpenApiParameter("unread", OpenApiTypes.BOOL, required=False),
            OpenApiParameter("page", OpenApiTypes.INT, required=False),
            OpenApiParameter("page_size", OpenApiTypes.INT, required=False),
        ],
        responses={
            200: NotificationPageSerializer,
            404: api_error("not_found: a page past the last."),
        },
    )
    def get(self, request: Request) -> Response:
        unread = request.query_params.get("unread", "") in ("1", "true", "yes")
        pages = InboxPagination()
        page = pages.paginate_queryset(selectors.inbox(request.user, unread=unread), request)
        # a deadline in the text is written in the player's zone, read once for the page
        context = {"zone": time_zone_of(request.user)}
        rows = NotificationSerializer(page, many=True, context=context).data
        return pages.get_paginated_response(rows)


#: The largest id a row can have (a 64-bit key): a larger one is a 400, not a 500.
LARGEST_ID = 2**63 - 1


class ReadInputSerializer(StrictInputMixin, serializers.Serializer):
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=LARGEST_ID),
        required=False,
        max_length=500,
    )
    table = serializers.IntegerField(min_value=1, max_value=LARGEST_ID, required=False)

    def validate(self, data: dict) -> dict:
        if ("ids" in data) == ("table" in data):
            raise serializers.ValidationError(_("Indica «ids» o «table»: uno de los dos."))
        return data


class NotificationReadApi(APIView):
    """``POST {"ids": [...]}`` or ``{"table": id}``: mark those notices of mine read.
    Answers how many changed and the unread count left."""

    @extend_schema(
        request=ReadInputSerializer,
        responses={
            200: inline_serializer(
                "NoticesMarked",
                {
                    "marked": serializers.IntegerField(help_text="Notices this marked read."),
                    "unread": serializers.IntegerField(help_text="Your unread notices left."),
                },
            )
        },
    )
    def post(self, request: Request) -> Response:
        data = ReadInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        marked = services.notifications_read(
            user=request.user,
            ids=data.validated_data.get("ids"),
            table_id=data.validated_data.get("table"),
        )
        return Response({"marked": marked, "unread": selectors.unread_count(request.user)})


class TimeZoneField(serializers.ChoiceField):
    """A zone of the list (``notices.time_zones``); an alias reads as its place
    ("Asia/Calcutta", a browser's name, is "Asia/Kolkata"); the player's saved zone is
    taken back as it is, offered or not."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            return super().to_internal_value(data)
        if data == getattr(self.parent.instance, "time_zone", None):
            return data
        return super().to_internal_value(offered_name(data) or data)


class NoticePreferencesSerializer(StrictInputMixin, serializers.ModelSerializer):
    """Per kind and channel (``email_*``, ``push_*``; the inbox always gets every notice),
    the IANA ``time_zone`` and the quiet hours (``"HH:MM"`` local time, both or neither:
    ``null`` for none). ``time_zone_chosen`` (read-only): a ``time_zone`` was ever set;
    false, "UTC" is only the default and an app may send the device's zone."""

    time_zone = TimeZoneField(choices=time_zone_choices())

    class Meta:
        model = NoticePreferences
        fields = [*NoticePreferences.EDITABLE, "time_zone_chosen"]
        read_only_fields = ["time_zone_chosen"]

    def validate(self, data: dict) -> dict:
        start = data.get("quiet_start", getattr(self.instance, "quiet_start", None))
        end = data.get("quiet_end", getattr(self.instance, "quiet_end", None))
        if (start is None) != (end is None):
            raise serializers.ValidationError(
                {"quiet_end": ["Give both quiet hours, or neither."]}, code="quiet_hours"
            )
        return data


class NoticePreferencesApi(APIView):
    """``GET``: my notice preferences. ``PATCH``: change some of them (a field it does not
    take, or a bad value, is 400 ``invalid`` naming the field, and changes nothing)."""

    @extend_schema(responses=NoticePreferencesSerializer)
    def get(self, request: Request) -> Response:
        preferences = services.preferences_for(request.user)
        return Response(NoticePreferencesSerializer(preferences).data)

    @extend_schema(
        request=NoticePreferencesSerializer(partial=True), responses=NoticePreferencesSerializer
    )
    def patch(self, request: Request) -> Response:
        preferences = services.preferences_for(request.user)
        data = NoticePreferencesSerializer(preferences, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        preferences = services.preferences_update(
            user=request.user, changes=dict(data.validated_data)
        )
        return Response(NoticePreferencesSerializer(preferences).data)


class PushEndpointField(RuledURLField):
    """A Web Push subscription's ``endpoint``: a URL (``RuledURLField``: "Escribe una
    dirección web válida.") that is an address of a known push service
    (``notices.push_endpoints``: https, an allowed host, the default port, no user-info, no
    IP literal), else 400 ``invalid``, "Tiene que ser la dirección https de un servicio de
    avisos conocido (Google, Mozilla, Apple o Microsoft).". Gives it in its one spelling
    (host lower-cased, no trailing dot, no ``:443``)."""

    default_error_messages = {
        "push_service": _(
            "Tiene que ser la dirección https de un servicio de avisos conocido "
            "(Google, Mozilla, Apple o Microsoft)."
        ),
    }

    def to_internal_value(self, data) -> str:
        endpoint = push_endpoints.canonical(super().to_internal_value(data))
        if endpoint is None:
            self.fail("push_service")
        return endpoint


class PushSubscriptionSerializer(StrictInputMixin, serializers.Serializer):
    """The browser's ``PushSubscription.toJSON()``: ``endpoint`` and ``keys`` (``p256dh``,
    ``auth``, base64url), and the ``expirationTime`` browsers add (milliseconds since the
    epoch, usually ``null``): taken so that the browser's object is a known body, and not
    kept (a subscription that ends shows as a 404 or 410 from the push service)."""

    class KeysSerializer(StrictInputMixin, serializers.Serializer):
        p256dh = RuledRegexField(r"^[A-Za-z0-9_-]{80,100}={0,2}$")
        auth = RuledRegexField(r"^[A-Za-z0-9_-]{16,32}={0,2}$")

    endpoint = PushEndpointField(max_length=1000)
    keys = KeysSerializer()
    expirationTime = serializers.FloatField(  # the browser's name
        required=False, allow_null=True, min_value=0
    )


class PushEndpointSerializer(StrictInputMixin, serializers.Serializer):
    endpoint = PushEndpointField(max_length=1000)


class PushSubscriptionApi(APIView):
    """``POST``: this device's Web Push subscription (one per device: the same
    ``endpoint`` again, from its owner, replaces the keys; from another account, moves it
    there only with the same ``auth`` secret, else 409 ``subscription_taken``); 201 with
    the endpoint as stored. An endpoint that is not a known push service's https address:
    400 ``invalid``, nothing stored. ``DELETE {"endpoint": ...}``: forget it; 204, 404
    ``not_found`` when it is not one of mine. 404 ``push_disabled`` on a server with no
    VAPID keys."""

    @extend_schema(
        request=PushSubscriptionSerializer,
        responses={
            201: inline_serializer(
                "PushSubscriptionStored",
                {"endpoint": serializers.URLField(help_text="The endpoint as stored.")},
            ),
            404: api_error("push_disabled: this server sends no Web Push (no VAPID keys)."),
            409: api_error("subscription_taken: another account's device; auth is not its."),
        },
    )
    def post(self, request: Request) -> Response:
        _require_push()
        data = PushSubscriptionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        keys = data.validated_data["keys"]
        try:
            services.push_subscribe(
                user=request.user,
                endpoint=data.validated_data["endpoint"],
                p256dh=keys["p256dh"],
                auth=keys["auth"],
            )
        except services.SubscriptionTaken as taken:
            raise SubscriptionTaken() from taken
        return Response({"endpoint": data.validated_data["endpoint"]}, status=201)

    @extend_schema(
        request=PushEndpointSerializer,
        responses={204: None, 404: api_error("not_found: not one of yours; push_disabled.")},
    )
    def delete(self, request: Request) -> Response:
        data = PushEndpointSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if not services.push_unsubscribe(
            endpoint=data.validated_data["endpoint"], user=request.user
        ):
            raise NotFound()
        return Response(status=204)


class SubscriptionTaken(APIException):
    """409: the endpoint is another account's device and the body's ``auth`` is not its."""

    status_code = 409
    code = "subscription_taken"
    default_detail = _(
        "Este dispositivo ya recibe los avisos de otra cuenta. Para recibir los tuyos, "
        "desactívalos allí o vuelve a suscribir el navegador."
    )


class PushDisabled(APIException):
    status_code = 404
    code = "push_disabled"
    default_detail = _("Este servidor no envía avisos a dispositivos.")


def _require_push() -> None:
    if not (settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY):
        raise PushDisabled()
