"""A finished table's rematch: ask for it (any seated player, once), then each person
offered a seat accepts or declines it with one request (``tables.services.rematch``)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from core.api_schema import api_error
from core.json_input import TakesNoBody
from tables import services
from tables.api.common import TableScopedApi, TableSerializer, table_response


class RematchApi(TakesNoBody, TableScopedApi):
    """Ask for the rematch of a finished table: 201 with the new table (same profile,
    target and seats; bots seated, the others offered their seat). 404 for anyone not
    seated, 409 ``table_not_finished`` on a waiting or running table, 409
    ``rematch_exists`` the second time (``table``: the rematch), 403 ``suspended`` for a
    suspended player (as creating a table; nothing is created)."""

    throttle_scope = "tables"

    @extend_schema(
        request=None,
        responses={
            201: TableSerializer,
            403: api_error("suspended (with until): nothing is created."),
            409: api_error(
                "table_not_finished, rematch_exists (with table: the rematch), "
                "rematch_player_deleted."
            ),
        },
    )
    def post(self, request: Request, table_id: int) -> Response:
        rematch = services.rematch_offer(table_id=table_id, user=request.user)
        table, seat = services.table_for_user(rematch.pk, request.user)
        return table_response(request, table, seat, status.HTTP_201_CREATED)


class RematchAnswerApi(TakesNoBody, TableScopedApi):
    """Accept (``accept/``) or decline (``decline/``) the seat a rematch offers you; the
    match starts when the last person accepts, a decline closes the table (outcome
    ``declined``). 409 ``no_rematch_offer`` when no answer of yours is awaited; 403
    ``suspended`` for a suspended player who accepts (declining stays allowed)."""

    throttle_scope = "tables"
    accept = True

    @extend_schema(
        request=None,
        responses={
            200: TableSerializer,
            403: api_error("suspended (with until): accepting is refused, declining is not."),
            409: api_error("no_rematch_offer: no answer of yours is awaited here."),
        },
    )
    def post(self, request: Request, table_id: int) -> Response:
        services.rematch_answer(table_id=table_id, user=request.user, accept=self.accept)
        table, seat = services.table_for_user(table_id, request.user)
        return table_response(request, table, seat)
