"""The tables API (``/api/v1/``): one view per endpoint, thin. Input is checked by a
serializer, the work is a call to ``tables.services`` (writes) or ``tables.selectors``
(reads), and every game fact in a response comes from ``dominoes.view_for`` (R31).

Errors are ``{"code", "detail", "rule"?}`` (``core.api_errors``); a refused move uses
the codes of RECORD.md.
"""

from tables.api.analysis import AnalysisApi, PublicReplayApi
from tables.api.idempotency import request_fingerprint
from tables.api.invites import InviteDetailApi, InviteRenewApi, JoinApi
from tables.api.moves import MoveListCreateApi
from tables.api.rematch import RematchAnswerApi, RematchApi
from tables.api.tables import AbandonApi, RecordApi, TableDetailApi, TableListCreateApi

__all__ = [
    "AnalysisApi",
    "AbandonApi",
    "InviteDetailApi",
    "InviteRenewApi",
    "JoinApi",
    "MoveListCreateApi",
    "PublicReplayApi",
    "RecordApi",
    "RematchAnswerApi",
    "RematchApi",
    "TableDetailApi",
    "TableListCreateApi",
    "request_fingerprint",
]
