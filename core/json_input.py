"""Request bodies read as the JSON they are: a field that wants a whole number, a text (a
choice among texts too) or a boolean refuses any other JSON type, and a field the body
does not take is refused by name (each 400 ``invalid``, with ``fields``), where DRF alone
would read ``10.0`` and ``"10"`` as 10, ``123`` as "123", ``"yes"``, ``"true"`` or ``1``
as true, and skip ``{"is_staff": true}`` in silence. Every app's API bodies share it: the
tables' and talk's through ``StrictSerializer``, the accounts' and the notices' (model
serializers among them) through ``StrictInputMixin``, and the writes that take no body
(abandon, the analysis, a public link, a rematch, sign-out...) through ``TakesNoBody``."""

from __future__ import annotations

from django.core.validators import ProhibitNullCharactersValidator
from django.utils.translation import gettext
from rest_framework import serializers
from rest_framework.permissions import SAFE_METHODS
from rest_framework.utils import html

from core.throttling import answers


def _choices_all(field: serializers.Field, kind: type) -> bool:
    """``field`` is a single choice (not a ``MultipleChoiceField``, whose value is a list)
    among values of the type ``kind`` only (``True`` is no whole number here)."""
    if not isinstance(field, serializers.ChoiceField):
        return False
    if isinstance(field, serializers.MultipleChoiceField) or not field.choices:
        return False
    return all(
        isinstance(choice, kind) and not isinstance(choice, bool) for choice in field.choices
    )


def _wants_whole(field: serializers.Field) -> bool:
    """An integer field, or a choice among whole numbers only (``seats``, ``move_days``)."""
    return isinstance(field, serializers.IntegerField) or _choices_all(field, int)


def _wants_text(field: serializers.Field) -> bool:
    """A text field, or a choice among texts only (``rules``, ``time_zone``, ``platform``,
    ``language``): DRF alone answers a choice given ``5`` or ``true`` "not a valid choice"
    (and would take ``1`` for a choice ``"1"``), where a text field says it wants text."""
    return isinstance(field, serializers.CharField) or _choices_all(field, str)


def wrong_json_type(field: serializers.Field, value, *, form: bool = False) -> str | None:
    """What is wrong with ``value``'s JSON type for ``field``, or None (null is left to the
    field's own ``allow_null``). A list field's items are each read by its ``child``.
    ``form``: the body is a form's (every value a string), where a checkbox says true
    as ``"on"`` or ``"true"``: booleans are left to the field."""
    if value is None:
        return None
    if isinstance(field, serializers.BooleanField) and not form and type(value) is not bool:
        return gettext("Tiene que ser true o false.")
    if _wants_whole(field) and (isinstance(value, bool) or not isinstance(value, int)):
        return gettext("Tiene que ser un número entero.")
    if _wants_text(field) and not isinstance(value, str):
        return gettext("Tiene que ser un texto.")
    if isinstance(field, serializers.ListField) and isinstance(value, list):
        wrong = (wrong_json_type(field.child, item, form=form) for item in value)
        return next((problem for problem in wrong if problem), None)
    return None


class JsonTypesMixin:
    """For a (model) serializer: an integer field (or a choice among whole numbers) given
    anything but a JSON whole number (``10.0``, ``"10"``, ``true``), a text field
    (``CharField``, ``EmailField``, ``RegexField``...) given anything but a JSON string
    (``123``, ``true``, ``["x"]``), and a boolean field given anything but JSON ``true``
    or ``false`` (``"true"``, ``1``, ``"yes"``) are 400 ``invalid`` with the field named in
    ``fields``; so is a list whose items are not of its child's type (``ids: ["1"]``).
    A choice among texts (``time_zone``, ``platform``) reads as a text field: ``5`` is
    "Tiene que ser un texto.", not "not a valid choice".
    Read-only fields are left alone (the body's value is ignored anyway). A form's body
    (a ``QueryDict``: HTML forms, DRF's browsable API) keeps DRF's reading of booleans."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            form = html.is_html_input(data)
            wrong = {
                field.field_name: wrong_json_type(field, data.get(field.field_name), form=form)
                for field in self._writable_fields
            }
            wrong = {name: [problem] for name, problem in wrong.items() if problem}
            if wrong:
                raise serializers.ValidationError(wrong, code="invalid")
        return super().to_internal_value(data)


class StrictInputMixin(JsonTypesMixin):
    """For a request body's (model) serializer: a field the body does not take is 400
    ``invalid`` naming it in ``fields`` ("No es un campo de esta petición."), so that a
    misspelt ``end`` or ``languag`` is an error instead of a silently different request
    (and ``is_staff`` is refused, not skipped); then wrong JSON types as
    ``JsonTypesMixin``. A read-only field of the serializer (``username`` in ``PATCH
    /me/``) is known and ignored, so a client may send back what it read. Nested
    serializers that take it check their own objects (``keys`` of a Web Push
    subscription)."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = sorted(str(name) for name in data if name not in self.fields)
            if unknown:
                raise serializers.ValidationError(
                    {name: [gettext("No es un campo de esta petición.")] for name in unknown},
                    code="invalid",
                )
        return super().to_internal_value(data)


NUL = "\x00"


def without_nul_check(validators) -> list:
    """``validators`` (a Django or DRF field's) without Django's own NUL check
    (``ProhibitNullCharactersValidator``, "Los caracteres nulos no están permitidos."),
    for a field whose own rule refuses a NUL with its own sentence (``_RuledNul``,
    ``accounts.forms.CurrentPasswordMixin``)."""
    return [v for v in validators if not isinstance(v, ProhibitNullCharactersValidator)]


class _RuledNul:
    """Drops DRF's own NUL check from a text field (``ProhibitNullCharactersValidator``:
    "Los caracteres nulos no están permitidos.", under the general "Los datos enviados
    no son válidos."), so that a NUL is refused by the field's own rule, with its own
    sentence, as any other control character is there. ``nul_message``: that sentence,
    when the rule is not the field's (allauth's, a view's): a value holding a NUL is
    then refused with it (400 ``invalid`` under the field's name) before any validator
    runs; without it, the field's rule must refuse a NUL itself."""

    def __init__(self, *args, nul_message=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.nul_message = nul_message
        self.validators = without_nul_check(self.validators)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if self.nul_message is not None and NUL in value:
            raise serializers.ValidationError(str(self.nul_message), code="invalid")
        return value


class RuledTextField(_RuledNul, serializers.CharField):
    """A ``CharField`` without DRF's own NUL check (``_RuledNul``), for a text whose own
    rule refuses every control character, U+0000 among them, with its documented
    sentence: the talk's and a report's ``text`` (``moderation.text``), a phone's
    ``token`` (its shape), a sign-in's username and an e-mailed link's ``key`` (their
    views refuse a NUL as a wrong one, before allauth), a current password (the sign-in's
    too: the password check refuses a NUL as a wrong password), or given ``nul_message``
    (a new username, a new password, a phone's name). Only for such a field: PostgreSQL
    cannot store a NUL, so one must never get past it."""


class RuledRegexField(_RuledNul, serializers.RegexField):
    """A ``RegexField`` without DRF's own NUL check (``_RuledNul``): a NUL fails its
    pattern as any other character outside it does, with the field's one ``invalid``
    sentence (a move's ``tile``: "\\u0000" is told what "\\u0001" is), not DRF's NUL
    sentence beside it. The pattern must not match a NUL."""


class RuledURLField(_RuledNul, serializers.URLField):
    """A ``URLField`` that refuses every control character (U+0000 to U+001F, U+007F),
    which Django's URL check lets through in a path, with the field's own "Escribe una
    dirección web válida." (400 ``invalid``), a NUL among them: not DRF's NUL sentence beside
    it (a Web Push subscription's ``endpoint``, where such a character would only fail
    later, at the push service)."""

    def to_internal_value(self, data):
        if isinstance(data, str) and any(ord(c) < 32 or ord(c) == 127 for c in data):
            self.fail("invalid")
        return super().to_internal_value(data)


class RuledEmailField(_RuledNul, serializers.EmailField):
    """An ``EmailField`` that refuses a NUL as any address it cannot read, with its own
    "Escribe una dirección de correo válida." (400 ``invalid``), not DRF's NUL sentence
    beside it; the NUL never reaches allauth or the database."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.nul_message = self.error_messages["invalid"]


class StrictSerializer(StrictInputMixin, serializers.Serializer):
    """A request body serializer that refuses fields it does not know and wrong JSON
    types (``StrictInputMixin``; each 400 ``invalid``): the tables' and talk's bodies."""


class _NoFields(StrictSerializer):
    """A body with no fields at all."""


def refuse_any_body(data) -> None:
    """For a write that takes no body: none, ``{}`` or JSON ``null`` pass; any field is
    400 ``invalid`` naming it ("No es un campo de esta petición."), and any other JSON
    value (``[]``, ``0``, ``"x"``) is 400 ``invalid`` too, as in a move's body."""
    _NoFields(data={} if data is None else data).is_valid(raise_exception=True)


class TakesNoBody:
    """For an ``APIView`` whose writes (every method but ``GET``, ``HEAD`` and
    ``OPTIONS``) take no body: each refuses one that says anything (``refuse_any_body``),
    after authentication and the rate limits, before the handler runs, so a misspelt
    field in ``{"bogus": 1}`` is an error instead of a request done as if it were not
    there. A method the view does not answer keeps DRF's ``405 method_not_allowed``,
    body or not: the method is what is wrong, and its ``Allow`` says what to send."""

    def initial(self, request, *args, **kwargs):
        """``APIView.initial`` (authentication, permissions, rate limits), then the body
        of a write the view answers checked empty."""
        super().initial(request, *args, **kwargs)
        if request.method not in SAFE_METHODS and answers(self, request.method):
            refuse_any_body(request.data)
