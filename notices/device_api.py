"""``/api/v1/push/devices/``: a native app registers its phone's FCM or APNs token, lists
the caller's phones, and forgets one. Always the caller's own; the writes are
``notices.devices``'."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api_schema import api_error
from core.json_input import RuledTextField, StrictInputMixin
from notices import devices, native
from notices.api import PushDisabled

#: The shapes of a token, matched whole: FCM's registration tokens are URL-safe text
#: (letters, digits, ``_``, ``-`` and the ``:`` after the instance id; about 160
#: characters today, taken from 100 to 1024), APNs's device tokens 32 bytes in hex (64
#: digits, taken in any case and kept in lower case).
TOKEN_SHAPES = {
    "fcm": re.compile(r"[A-Za-z0-9_:-]{100,1024}"),
    "apns": re.compile(r"[0-9a-f]{64}"),
}


class DeviceSerializer(StrictInputMixin, serializers.Serializer):
    """What the app sends: ``platform`` (``fcm`` for Android, or iOS through Firebase;
    ``apns`` for iOS straight to Apple), ``token`` (the provider's registration token;
    an APNs token is hex, taken in any case) and optionally ``name`` (up to 255
    characters, e.g. "Pixel de Ana"; any but a NUL, which PostgreSQL cannot store: 400
    ``invalid``, "El nombre del dispositivo no puede contener el carácter nulo.")."""

    platform = serializers.ChoiceField(choices=sorted(devices.MODELS))  # as written: not "FCM"
    token = RuledTextField(max_length=4096, trim_whitespace=False)  # its shape refuses a NUL
    name = RuledTextField(  # takes U+0001 as any character: a NUL has a sentence of its own
        max_length=255,
        required=False,
        allow_blank=True,
        default="",
        nul_message=gettext_lazy("El nombre del dispositivo no puede contener el carácter nulo."),
    )

    def validate(self, data: dict) -> dict:
        token = data["token"].lower() if data["platform"] == "apns" else data["token"]
        if not TOKEN_SHAPES[data["platform"]].fullmatch(token):
            detail = _("No es un token de dispositivo %(platform)s.") % {
                "platform": data["platform"].upper()
            }
            raise serializers.ValidationError({"token": [detail]}, code="invalid")
        return {**data, "token": token}


class DeviceOutSerializer(serializers.Serializer):
    """One of my phones: its ``id`` (``"fcm:12"``, ``"apns:3"``: the platform and its row,
    unique among all my phones whatever their platforms), ``platform``, ``name``, when it
    was registered, and the token's last 8 characters (``token_end``), never all of it."""

    id = serializers.CharField()
    platform = serializers.CharField()
    name = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField(allow_null=True)
    token_end = serializers.CharField()


def _out(platform: str, device) -> dict:
    return {
        "id": f"{platform}:{device.pk}",
        "platform": platform,
        "name": device.name,
        "created_at": device.date_created,
        "token_end": device.registration_id[-8:],
    }


class DeviceApi(APIView):
    """``GET``: my phones. ``POST``: register this phone's token (one row per token: the
    same token again, from me or from whoever signs in on that phone, updates the row and
    makes it theirs); 201. ``DELETE`` with ``{"platform", "token"}``: forget it; 204, 404
    ``not_found`` when it is not one of mine. A platform this server has no credentials
    for: 404 ``push_disabled``. A bad body: 400 ``invalid``, nothing changed."""

    @extend_schema(responses=DeviceOutSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response([_out(platform, d) for platform, d in devices.of(request.user.pk)])

    @extend_schema(
        request=DeviceSerializer,
        responses={
            201: DeviceOutSerializer,
            404: api_error("push_disabled: no credentials here for that platform."),
        },
    )
    def post(self, request: Request) -> Response:
        data = DeviceSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        platform = data.validated_data["platform"]
        if platform not in native.platforms():
            raise PushDisabled()
        device = devices.register(
            user=request.user,
            platform=platform,
            token=data.validated_data["token"],
            name=data.validated_data["name"],
        )
        return Response(_out(platform, device), status=201)

    @extend_schema(
        request=DeviceSerializer,
        responses={204: None, 404: api_error("not_found: not one of your phones.")},
    )
    def delete(self, request: Request) -> Response:
        data = DeviceSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        forgotten = devices.forget(
            platform=data.validated_data["platform"],
            token=data.validated_data["token"],
            user=request.user,
        )
        if not forgotten:
            raise NotFound()
        return Response(status=204)
