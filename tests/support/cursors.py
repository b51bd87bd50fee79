"""Cursors of "my tables" and the history that no page gave (``tables.listing``)."""

from base64 import urlsafe_b64encode


def _crafted(position: str) -> str:
    return urlsafe_b64encode(position.encode()).decode()


#: Cursors no page gave: garbage, an empty list, a date that is none, and (found by the
#: last look, session 6: they were 500s) numbers and times out of any column's range.
BAD_CURSORS = [
    "garbage",
    "W10=",
    "WzEsICJub3QgYSBkYXRlIiwgM10=",
    _crafted('[0,"2026-12-01T00:00:00+00:00",Infinity]'),
    _crafted('[-Infinity,"2026-12-01T00:00:00+00:00",1]'),
    _crafted('[3,"9999-12-31T23:59:59.999999-23:59",1]'),
    _crafted('[0,"0001-01-01T00:00:00+23:59",1]'),
    _crafted('[3,"2026-12-01T00:00:00+00:00",9223372036854775808]'),
    _crafted('[-1,"2026-12-01T00:00:00+00:00",1]'),
]
