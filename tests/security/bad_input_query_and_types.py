"""Bad-input cases for query parameters (``since_version``, ``wait``, ``page_size``) and
for JSON types a body field does not take (a number given as a string, text given as a
number, a field abandon does not know), read by ``test_bad_input.py``. Each is refused:
DRF alone would read ``"2"`` as 2 and ``123`` as "123"; docs/api.md says 400."""

from __future__ import annotations

DETAIL = "/api/v1/tables/{id}/"
CREATE = "/api/v1/tables/"
SINCE = {"invalid_since_version"}
WAIT = {"invalid_wait"}
PAGE = {"invalid_page_size"}
BAD = {"invalid"}

# (name, method, path, body, extra request kwargs, status, codes)
QUERY_AND_TYPE_CASES = [
    ("since_version abc", "get", DETAIL + "?since_version=abc", None, {}, 400, SINCE),
    ("since_version -1", "get", DETAIL + "?since_version=-1", None, {}, 400, SINCE),
    ("since_version 1.5", "get", DETAIL + "?since_version=1.5", None, {}, 400, SINCE),
    ("since_version empty", "get", DETAIL + "?since_version=", None, {}, 400, SINCE),
    ("since_version abc, wait", "get", DETAIL + "?since_version=abc&wait=5", None, {}, 400, SINCE),
    ("wait 31", "get", DETAIL + "?since_version=1&wait=31", None, {}, 400, WAIT),
    ("wait 100000", "get", DETAIL + "?since_version=1&wait=100000", None, {}, 400, WAIT),
    ("wait huge", "get", DETAIL + "?since_version=1&wait=" + "9" * 5000, None, {}, 400, WAIT),
    ("wait empty", "get", DETAIL + "?since_version=1&wait=", None, {}, 400, WAIT),
    ("page_size 0", "get", CREATE + "?page_size=0", None, {}, 400, PAGE),
    ("page_size 101", "get", CREATE + "?page_size=101", None, {}, 400, PAGE),
    ("page_size -1", "get", CREATE + "?page_size=-1", None, {}, 400, PAGE),
    ("page_size abc", "get", CREATE + "?page_size=abc", None, {}, 400, PAGE),
    ("page_size empty", "get", CREATE + "?page_size=", None, {}, 400, PAGE),
    ("page_size huge", "get", CREATE + "?page_size=" + "9" * 5000, None, {}, 400, PAGE),
    ("create: seats text", "post", CREATE, {"seats": "2", "others": ["nino"]}, {}, 400, BAD),
    ("create: seats float", "post", CREATE, {"seats": 2.0, "others": ["nino"]}, {}, 400, BAD),
    ("create: seats true", "post", CREATE, {"seats": True, "others": ["nino"]}, {}, 400, BAD),
    (
        "create: target text",
        "post",
        CREATE,
        {"seats": 2, "target": "50", "others": ["nino"]},
        {},
        400,
        BAD,
    ),
    (
        "create: move_days text",
        "post",
        CREATE,
        {"seats": 2, "others": ["friend"], "move_days": "3"},
        {},
        400,
        BAD,
    ),
    (
        "create: rules number",
        "post",
        CREATE,
        {"seats": 2, "rules": 1, "others": ["nino"]},
        {},
        400,
        BAD,
    ),
    ("abandon: unknown field", "post", DETAIL + "abandon/", {"now": True}, {}, 400, BAD),
    ("abandon: version", "post", DETAIL + "abandon/", {"version": "{version}"}, {}, 400, BAD),
]
