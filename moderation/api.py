"""The talk, mute and report API under ``/api/v1/``: thin views over
``moderation.services`` (writes) and ``moderation.selectors`` (reads). Errors follow the
error contract (``{"code", "detail", ...}``); a table you are not seated at is a 404."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.json_input import RuledTextField, TakesNoBody
from moderation import selectors, services
from moderation.models import MAX_TALK_LENGTH, Report
from moderation.ui_strings import PHRASES
from tables.api.common import MAX_ID, StrictSerializer, TableScopedApi
from tables.errors import not_found


class MoveFollowedSerializer(serializers.Serializer):
    sequence = serializers.IntegerField()
    seat = serializers.IntegerField()
    kind = serializers.CharField()
    tile = serializers.CharField(allow_null=True, help_text="Hidden (null) as in the move log.")
    lead = serializers.BooleanField(help_text="A play that led its hand (on no end).")


class TalkMessageSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    seat = serializers.IntegerField(help_text="The author's seat (from 0).")
    name = serializers.CharField()
    mine = serializers.BooleanField()
    text = serializers.CharField(help_text="Plain text; a quick phrase in your language.")
    phrase = serializers.CharField(allow_null=True, help_text="The quick phrase's key.")
    created_at = serializers.DateTimeField()
    hand = serializers.IntegerField(allow_null=True, help_text="The hand running (from 0).")
    after_move = MoveFollowedSerializer(
        allow_null=True,
        help_text="The last move of its hand when it was written; null before the hand's "
        "first. Also set when the match was over (written says so).",
    )
    written = serializers.ChoiceField(
        choices=["before_match", "hand_start", "after_move", "match_over"],
        help_text="Where it was written: before the first hand; at its hand's start (no "
        "move yet, the hand before it over); after after_move; once the match was over.",
    )
    held = serializers.BooleanField(
        help_text="Written during a partnership hand: delivered when that hand ended."
    )
    pending = serializers.BooleanField(
        help_text="Your own message held until the hand ends: nobody else reads it yet."
    )
    removed = serializers.BooleanField()
    removed_reason = serializers.CharField()


class ChoiceItemSerializer(serializers.Serializer):
    key = serializers.CharField()
    text = serializers.CharField()


class ModerationNoticeSerializer(serializers.Serializer):
    kind = serializers.CharField()
    label = serializers.CharField()
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()


class MutedPersonSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The mute's id: DELETE /talk/mutes/{id}/ undoes it.")
    seat = serializers.IntegerField(help_text="Their seat here (the first, if two).")
    name = serializers.CharField()
    hidden = serializers.IntegerField(
        help_text="How many of their messages here the mute hides (delivered ones)."
    )


class TalkSerializer(serializers.Serializer):
    """A table's talk as you may read it. At a partnership table (4 seats) a message
    written during a hand reaches nobody until that hand ends (``held``)."""

    table = serializers.IntegerField()
    held = serializers.BooleanField(help_text="What you write now waits for the hand's end.")
    muted = serializers.BooleanField(help_text="You muted this table's talk.")
    muted_seats = serializers.ListField(child=serializers.IntegerField())
    muted_people = MutedPersonSerializer(
        many=True, help_text="The people seated here you muted at every table."
    )
    hidden = serializers.IntegerField(
        help_text="How many messages here your mutes hide (of this table's talk or of "
        "people); messages empty and hidden above 0: there is talk, all of it muted."
    )
    can_post = serializers.BooleanField(help_text="False while you are suspended.")
    max_length = serializers.IntegerField()
    phrases = ChoiceItemSerializer(many=True)
    report_reasons = ChoiceItemSerializer(many=True)
    messages = TalkMessageSerializer(many=True)
    moderation = ModerationNoticeSerializer(many=True)


class TalkApi(TableScopedApi):
    """``GET``: the table's talk (seated players only). ``POST``: write to it, free
    ``text`` (plain, up to 300 characters) or a quick ``phrase``; rate limited."""

    throttle_scope = "talk"

    class TalkPostSerializer(StrictSerializer):
        text = RuledTextField(
            required=False, allow_blank=True, max_length=MAX_TALK_LENGTH, trim_whitespace=False
        )
        phrase = serializers.ChoiceField(choices=list(PHRASES), required=False)

    @extend_schema(responses=TalkSerializer)
    def get(self, request: Request, table_id: int) -> Response:
        return Response(TalkSerializer(selectors.talk_for_user(table_id, request.user)).data)

    @extend_schema(request=TalkPostSerializer, responses={201: TalkSerializer})
    def post(self, request: Request, table_id: int) -> Response:
        serializer = self.TalkPostSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.talk_post(table_id=table_id, user=request.user, **serializer.validated_data)
        data = selectors.talk_for_user(table_id, request.user)
        return Response(TalkSerializer(data).data, status=status.HTTP_201_CREATED)


class MuteSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    user = serializers.CharField(allow_null=True)


class TalkMuteApi(TableScopedApi):
    """Mute this table's talk (empty body), or the person at ``seat`` at every table."""

    throttle_scope = "talk"

    class MuteCreateSerializer(StrictSerializer):
        seat = serializers.IntegerField(min_value=0, required=False)

    @extend_schema(request=MuteCreateSerializer, responses={201: MuteSerializer})
    def post(self, request: Request, table_id: int) -> Response:
        serializer = self.MuteCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        mute = services.talk_mute(user=request.user, table_id=table_id, **serializer.validated_data)
        data = {
            "id": mute.pk,
            "table": mute.table_id,
            "user": mute.muted_user.username if mute.muted_user_id else None,
        }
        return Response(MuteSerializer(data).data, status=status.HTTP_201_CREATED)


class MuteListApi(APIView):
    """Your mutes: tables whose talk you muted, people you muted everywhere."""

    @extend_schema(responses=MuteSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(MuteSerializer(selectors.mutes_of(request.user), many=True).data)


class MuteDetailApi(TakesNoBody, APIView):
    """Undo one of your mutes."""

    throttle_scope = "talk"

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, mute_id: int) -> Response:
        if not 0 <= mute_id <= MAX_ID:
            raise not_found()
        services.talk_unmute(user=request.user, mute_id=mute_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ReportSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField()
    message = serializers.IntegerField(allow_null=True)
    reason = serializers.ChoiceField(choices=Report.Reason.choices)
    status = serializers.ChoiceField(choices=Report.Status.choices)


class ReportCreateApi(TableScopedApi):
    """Report a message of this table's talk (``message``) or the person at ``seat``,
    for a ``reason`` (insults, cheating with a partner, spam, other) and an optional
    ``text``. Moderators see it in the admin's report queue."""

    throttle_scope = "reports"

    class ReportCreateSerializer(StrictSerializer):
        message = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False)
        seat = serializers.IntegerField(min_value=0, required=False)
        reason = serializers.ChoiceField(choices=Report.Reason.choices)
        text = RuledTextField(
            required=False, allow_blank=True, max_length=MAX_TALK_LENGTH, default=""
        )

    @extend_schema(request=ReportCreateSerializer, responses={201: ReportSerializer})
    def post(self, request: Request, table_id: int) -> Response:
        serializer = self.ReportCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        fields = serializer.validated_data
        report = services.report_create(
            reporter=request.user,
            table_id=table_id,
            reason=fields["reason"],
            message_id=fields.get("message"),
            seat=fields.get("seat"),
            text=fields["text"],
        )
        data = {
            "id": report.pk,
            "table": report.table_id,
            "message": report.message_id,
            "reason": report.reason,
            "status": report.status,
        }
        return Response(ReportSerializer(data).data, status=status.HTTP_201_CREATED)


class NoticeSerializer(serializers.Serializer):
    kind = serializers.CharField()
    label = serializers.CharField()
    reason = serializers.CharField()
    table = serializers.IntegerField(allow_null=True)
    until = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()


class ModerationNoticesApi(APIView):
    """What moderators did that concerns you: warnings, suspensions, your tables closed,
    your messages removed, each with its reason; newest first."""

    @extend_schema(responses=NoticeSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(NoticeSerializer(selectors.notices_for(request.user), many=True).data)
