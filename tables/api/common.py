"""What every endpoint of the tables API shares: the body serializer that refuses unknown
fields and wrong JSON types (``core.json_input``, kept importable from here), the base view
of ``tables/<table_id>/`` URLs, the response serializers and the table response with its
ETag (the version, per seat)."""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.json_input import StrictSerializer  # noqa: F401 (the tables and talk bodies' base)
from core.log_context import bind
from tables import selectors, services
from tables.api.components import GameField, LegalMovesField, RematchField
from tables.errors import not_found
from tables.models import Seat, Table

#: Table ids are BigAutoField primary keys: anything larger cannot exist (and would make
#: the database refuse the query, a 500, rather than answer "not found").
MAX_ID = 2**63 - 1


# The fields the table list and a table's answer share, made by one function each so both
# describe them alike while each serializer keeps its own field order (a field's place is
# the order of its creation).


def _deadline_field() -> serializers.DateTimeField:
    return serializers.DateTimeField(
        allow_null=True,
        help_text="When the human seat to act loses by absence (R27): move_seconds after "
        "its turn began; null while a bot acts or no turn is on.",
    )


def _overdue_field() -> serializers.BooleanField:
    return serializers.BooleanField(
        help_text="The turn's deadline has passed: the seat to act has lost by absence "
        "(R27), which the server applies within a minute (its sweep) or at the next move. "
        "Until then status stays playing and the turn is refused with 409 turn_expired."
    )


def _move_seconds_field() -> serializers.IntegerField:
    return serializers.IntegerField(
        help_text="The table's move time in seconds (R27): 86400, 172800 (the default), "
        "259200 or 604800, chosen at creation with move_days."
    )


def _your_seats_field() -> serializers.ListField:
    return serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Every seat you hold: two (seats i and i + 2) in seven_plus_seven.",
    )


class TableScopedApi(APIView):
    """Base of the views under ``tables/<table_id>/``: an id no table can have is a 404
    before any query runs. The request's log lines carry ``table_id``."""

    def initial(self, request: Request, *args, **kwargs) -> None:
        if "table_id" in kwargs:
            bind(table_id=kwargs["table_id"])
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
    legal_moves = LegalMovesField(help_text="The plays this hand may make now; else empty.")
    to_play = serializers.BooleanField(help_text="This hand may act now.")


class MoveLogSerializer(serializers.Serializer):
    """One move of the log as a seat may see it (R31; ``selectors.public_moves``)."""

    hand = serializers.IntegerField()
    sequence = serializers.IntegerField()
    seat = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["play", "draw", "pass"])
    tile = serializers.CharField(allow_null=True)
    end = serializers.IntegerField(allow_null=True)
    automatic = serializers.BooleanField()
    created_at = serializers.DateTimeField()


class SinceLastVisitSerializer(serializers.Serializer):
    """What changed since the caller's previous read of the table (``from_version``)."""

    from_version = serializers.IntegerField()
    moves = MoveLogSerializer(
        many=True, help_text="The public moves made since, oldest first (a draw's tile: yours)."
    )


class TableSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Table.Status.choices)
    rules = serializers.CharField(help_text="The rule profile (docs/profiles.md).")
    seats = serializers.IntegerField()
    target = serializers.IntegerField()
    version = serializers.IntegerField()
    your_seat = serializers.IntegerField(help_text="Your first seat.")
    your_seats = _your_seats_field()
    your_turn = serializers.BooleanField(help_text="One of your seats is to act.")
    turn_seat = serializers.IntegerField(allow_null=True)
    deadline = _deadline_field()
    overdue = _overdue_field()
    move_seconds = _move_seconds_field()
    last_move_at = serializers.DateTimeField()
    outcome = serializers.CharField(allow_null=True)
    winners = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    started = serializers.BooleanField(
        help_text="The match has begun: false while waiting, and for a table closed before "
        "it began (cancelled, idle or a declined rematch: status closed, nothing played)."
    )
    players = PlayerSerializer(many=True)
    changed_since_your_last_visit = serializers.BooleanField(
        help_text="The table changed after your last read of it (GET or a move's answer)."
    )


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
    deadline = _deadline_field()
    overdue = _overdue_field()
    move_seconds = _move_seconds_field()
    your_seat = serializers.IntegerField(
        help_text="The seat `game` is seen from: yours, or the one of yours to act now."
    )
    your_seats = _your_seats_field()
    your_turn = serializers.BooleanField(help_text="One of your seats is to act.")
    outcome = serializers.CharField(allow_null=True)
    winners = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    players = PlayerSerializer(many=True)
    invites = InviteSerializer(many=True)
    you_created = serializers.BooleanField(
        help_text="You created the table: at a waiting table you cancel it (abandon/), "
        "where a guest gives up their seat, and you share and renew its links."
    )
    hands = HandSerializer(many=True)
    game = GameField(
        allow_null=True, help_text="The match as your seat sees it; null before it begins."
    )
    rematch = RematchField(
        allow_null=True, help_text="The rematch asked for at this finished table, else null."
    )
    rematch_of = serializers.IntegerField(
        allow_null=True, help_text="The table this one is the rematch of."
    )
    rematch_possible = serializers.BooleanField(
        help_text="A rematch may be asked for here: the match is finished and none of its "
        "players has deleted their account (else 409 rematch_player_deleted)."
    )
    rematch_pending = serializers.BooleanField(
        help_text="This is a rematch whose seat you still have to accept or decline."
    )
    rematch_waiting_for = serializers.ListField(
        child=serializers.IntegerField(), help_text="Seats whose person has not accepted yet."
    )
    since_your_last_visit = SinceLastVisitSerializer(
        help_text="The public moves (as in moves/, a draw's tile only for your own) made "
        "since your previous read of this table (a GET, a move's answer or the page)."
    )


#: One ``TableSerializer``, built once and used for every answer: a DRF serializer deep-copies
#: its declared fields (and its nested serializers') each time one is made, which cost a
#: table read more than the rest of the serializing. ``to_representation`` keeps no state
#: between calls (each field reads the dict it is given), so the answer is the same
#: document, field for field, as ``TableSerializer(data).data`` (``tests/tables``).
TABLE_REPRESENTATION = TableSerializer()


def _with_urls(request: Request, data: dict) -> dict:
    for invite in data.get("invites", []):
        invite["url"] = request.build_absolute_uri(invite["path"])
    return data


def table_response(request: Request, table: Table, seat: Seat, status_code: int = 200) -> Response:
    """The caller's view of ``table`` with its ETag (the version, per seat). The caller has
    now seen this version (``services.table_read``, recorded once the answer has gone):
    the next answer's ``since_your_last_visit`` starts from it. The request's later log
    lines carry the version answered."""
    bind(table_id=table.pk, version=table.version)
    services.table_read(table, request.user)
    response = Response(table_document(request, table, seat), status=status_code)
    response["ETag"] = etag(table, seat)
    return response


def table_document(request, table: Table, seat: Seat, moves=None) -> dict:
    """What the table answer's body holds for ``request.user``'s ``seat`` (the serialized
    ``selectors.table_view_for_user``, the invites' absolute URLs for this host): one
    function for the GET and the long poll's woken answers (``tables.api.waits``), so
    both send the same document. ``moves``: the Move rows ``since_your_last_visit`` reads
    from, when the caller read them already (``selectors.moves_after``)."""
    view = selectors.table_view_for_user(table, seat, request.user, moves=moves)
    return TABLE_REPRESENTATION.to_representation(_with_urls(request, view))


def etag(table: Table, seat: Seat) -> str:
    return etag_of(table.pk, table.version, seat.index)


def etag_of(table_id: int, version: int, seat_index: int) -> str:
    """The ETag of one seat's view at one version (views differ per seat). ``seat_index``
    is the caller's first seat (``your_seats[0]``): a two-seat holder's view at a version
    is one document whichever hand is to play."""
    return f'"t{table_id}-v{version}-s{seat_index}"'
