"""The API's JSON parser: DRF's, with a too deeply nested body refused as malformed."""

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class BoundedJSONParser(JSONParser):
    """DRF's ``JSONParser``, but a body nested deeper than Python's recursion limit (a few
    KB of ``[[[[...``) is ``400 malformed_json`` instead of a ``RecursionError`` (500)."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply") from None
