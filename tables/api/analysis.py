"""A finished match's analysis (ask for it, then read its progress and result)
and its public replay link (make it, revoke it). Players of the table only;
anyone else gets 404, and a match still waiting or playing 409 ``table_not_finished``."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from core.api_schema import api_error
from core.json_input import TakesNoBody
from tables import replays, selectors, services
from tables.api.common import TableScopedApi
from tables.errors import table_not_finished

#: The 409 of every endpoint here.
NOT_FINISHED = api_error(
    "table_not_finished (waiting or playing), no_finished_hand (it ended in its first hand)."
)


class ProgressSerializer(serializers.Serializer):
    done = serializers.IntegerField(help_text="Moves judged so far.")
    total = serializers.IntegerField(help_text="Moves to judge (known once it runs).")


class AnalysisSerializer(serializers.Serializer):
    """The analysis of a finished match: its ``status`` (``none``: never asked for,
    ``queued``, ``running``, ``done``, ``failed``), ``progress`` and, once done,
    ``result`` (the record's ``analysis`` section, docs/RECORD.md)."""

    status = serializers.ChoiceField(choices=["none", "queued", "running", "done", "failed"])
    progress = ProgressSerializer()
    result = serializers.JSONField(allow_null=True)


class PublicReplaySerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Random, 32 bytes: the link cannot be guessed.")
    path = serializers.CharField(help_text="/partida/<token>/")
    url = serializers.URLField()


def _finished_for_player(table_id: int, user):
    table, _seat = selectors.table_for_user(table_id, user)  # 404 for anyone not seated
    if table.is_active or table.state is None:
        raise table_not_finished()
    return table


class AnalysisApi(TakesNoBody, TableScopedApi):
    """``GET``: the analysis' status, progress and result. ``POST``: ask for it: 202 when
    this request queued it, 200 with the existing one otherwise (it is computed at most
    once per match). 404 for anyone not seated, 409 ``table_not_finished``. The ``POST``
    takes no body: a field is 400 ``invalid`` (``TakesNoBody``)."""

    throttle_scope = "tables"

    @extend_schema(responses={200: AnalysisSerializer, 409: NOT_FINISHED})
    def get(self, request: Request, table_id: int) -> Response:
        table = _finished_for_player(table_id, request.user)
        return Response(AnalysisSerializer(replays.analysis_state(table)).data)

    @extend_schema(
        request=None,
        responses={200: AnalysisSerializer, 202: AnalysisSerializer, 409: NOT_FINISHED},
    )
    def post(self, request: Request, table_id: int) -> Response:
        row, queued = services.analysis_request(table_id=table_id, user=request.user)
        state = replays.analysis_state(row.table)
        code = status.HTTP_202_ACCEPTED if queued else status.HTTP_200_OK
        return Response(AnalysisSerializer(state).data, status=code)


class PublicReplayApi(TakesNoBody, TableScopedApi):
    """``POST``: make the finished match's replay public: 201 with its link (200 with the
    same link when it already was). ``DELETE``: revoke it (204; the old link answers 404).
    404 for anyone not seated, 409 ``table_not_finished`` on a match not over. Neither
    takes a body: a field is 400 ``invalid`` (``TakesNoBody``)."""

    throttle_scope = "tables"

    def _answer(self, request: Request, link, code: int) -> Response:
        data = replays.public_link(link)
        data["url"] = request.build_absolute_uri(data["path"])
        return Response(PublicReplaySerializer(data).data, status=code)

    @extend_schema(
        request=None,
        responses={200: PublicReplaySerializer, 201: PublicReplaySerializer, 409: NOT_FINISHED},
    )
    def post(self, request: Request, table_id: int) -> Response:
        link, created = services.replay_publish(table_id=table_id, user=request.user)
        return self._answer(request, link, status.HTTP_201_CREATED if created else 200)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, table_id: int) -> Response:
        services.replay_unpublish(table_id=table_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
