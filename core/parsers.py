"""The API's JSON parser: DRF's, with every refusal said in the request's language.

DRF's ``JSONParser`` refuses a bad body with Python's English (``"JSON parse error -
Out of range float values are not JSON compliant: 'NaN'"``), and a body nested deeper
than Python's recursion limit raised ``RecursionError`` (a 500). Here each is a
``ParseError`` (``400 malformed_json``, ``core.api_errors``) whose text, the answer's
``reason``, says what is wrong without echoing the body: ``NaN`` or ``Infinity``, too
deep, not text in the body's encoding, or what the parser expected at which line and
column.
"""

from __future__ import annotations

import codecs
import json

from django.conf import settings
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

#: What Python's JSON decoder says it expected (``JSONDecodeError.msg``), in our words.
DECODER_MESSAGES = {
    "Expecting value": _("se esperaba un valor"),
    "Expecting ',' delimiter": _("falta una coma"),
    "Expecting ':' delimiter": _("faltan los dos puntos tras el nombre"),
    "Expecting property name enclosed in double quotes": _(
        "se esperaba un nombre entre comillas dobles"
    ),
    "Unterminated string starting at": _("un texto sin comillas de cierre"),
    "Invalid control character at": _("un carácter de control dentro de un texto"),
    "Extra data": _("sobra algo tras el JSON"),
}


class NonFiniteNumber(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity`` in a body: Python reads them, JSON has none."""


def _refuse_constant(name: str):
    raise NonFiniteNumber(name)


class BoundedJSONParser(JSONParser):
    """DRF's ``JSONParser`` whose refusals are ``ParseError`` with a translated reason
    (``reason_for``): a bad body is ``400 malformed_json``, never a 500."""

    def parse(self, stream, media_type=None, parser_context=None):
        """The body's JSON value; raises ``ParseError`` for anything that is not JSON."""
        encoding = (parser_context or {}).get("encoding") or settings.DEFAULT_CHARSET
        try:
            return json.load(codecs.getreader(encoding)(stream), parse_constant=_refuse_constant)
        except (ValueError, RecursionError) as error:
            raise ParseError(reason_for(error, encoding)) from None


def reason_for(error: Exception, encoding: str = "utf-8") -> str:
    """What is wrong with a body the JSON decoder refused with ``error``, in the active
    language and without quoting the body (a ``RecursionError``, a ``NonFiniteNumber``, a
    ``UnicodeDecodeError`` or a ``json.JSONDecodeError``; any other ``ValueError`` gets the
    general sentence)."""
    if isinstance(error, RecursionError):
        return gettext("El JSON está anidado a demasiada profundidad.")
    if isinstance(error, NonFiniteNumber):
        return gettext("NaN, Infinity y -Infinity no son números de JSON.")
    if isinstance(error, UnicodeDecodeError):
        return gettext("El cuerpo no es texto %(encoding)s válido.") % {"encoding": encoding}
    if isinstance(error, json.JSONDecodeError):
        what = DECODER_MESSAGES.get(error.msg)
        place = {"line": error.lineno, "column": error.colno}
        if what is None:
            return gettext("No es JSON válido en la línea %(line)d, columna %(column)d.") % place
        return gettext("No es JSON válido en la línea %(line)d, columna %(column)d: %(what)s.") % {
            **place,
            "what": what,
        }
    return gettext("No es JSON válido.")
