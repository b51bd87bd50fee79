"""What a talk message's text and a report's text may hold (``moderation.text``): nothing
a reader can see is no text (U+FFFC, accents with no letter under them, the null
notehead); marks stacked on one letter ("zalgo") and hundreds of line breaks, which draw
over other messages or stretch the page, are refused with a reason; real text with
accents (Vietnamese, decomposed), pointed Hebrew, Hindi, Korean and emoji passes."""

from __future__ import annotations

import unicodedata

import pytest
from django.utils import translation

from moderation.models import Report
from moderation.text import clean_text
from tables.errors import TableError
from tests.moderation.conftest import say, talk
from tests.support.api import seated_clients

NEITHER = "Escribe un mensaje o elige una frase."
MARKS = "Hasta 4 acentos o signos sobre una misma letra."
LINES = "Hasta 10 líneas por mensaje."
FORBIDDEN = "El mensaje lleva caracteres no permitidos."

ZALGO = "e" + "\u0301" * 299  # 300 characters: the length alone lets it through
TALL = "." + "\n" * 250 + "."

#: Real text that must keep passing, decomposed where it can be (the most marks a letter
#: of it carries: Vietnamese 2, pointed Hebrew 3).
REAL_TEXTS = [
    unicodedata.normalize("NFD", "Tiếng Việt: ặ ự ệ Ấ Ở"),
    unicodedata.normalize("NFD", "¿Jugamos otra? ¡Qué mano, señor!"),
    "\u05e9\u05c1\u05b8\u05dc\u05d5\u05b9\u05dd",  # שָׁלוֹם, shin with its dot and qamats
    # בְּרֵאשִׁ֖ית: a shin with its dot, a hiriq and a cantillation mark
    "\u05d1\u05bc\u05b0\u05e8\u05b5\u05d0\u05e9\u05c1\u05b4\u0596\u05d9\u05ea",
    "नमस्ते",  # Hindi: a vowel sign and a virama on their letters
    "안녕하세요",
    "\u1112\u1161\u11ab",  # Korean in conjoining jamo
    "👍🏽 🏳️\u200d🌈 1️\u20e3 ❤️",  # a skin tone, a flag sequence, a keycap, a heart
    "e" + "\u0301" * 4,  # four marks: the most one letter may carry
    "\ufffd",  # the replacement character draws "�": visible
    "uno\ndos\n\ntres\ncuatro\ncinco\nseis\nsiete\nocho\nnueve",  # ten lines
]


def _refusal(text: str) -> str:
    with pytest.raises(TableError) as refused:
        clean_text(text)
    assert refused.value.code == "invalid"
    return str(refused.value.detail)


@pytest.mark.parametrize(
    "text",
    [
        "\ufffc",  # OBJECT REPLACEMENT CHARACTER: a placeholder with no object
        "\ufffc\ufffc \ufffc",
        "\u0300",  # a lone grave accent, on no letter
        "\u0301\u0301",  # two acute accents, on no letter
        " \u0301 \u0308",  # accents on spaces
        "\u3164\u0301",  # an accent on a Hangul filler
        "\U0001d159",  # MUSICAL SYMBOL NULL NOTEHEAD
        "\u200b\u0301\ufffc\U0001d159\u2800",  # all of them at once
    ],
)
def test_nothing_a_reader_can_see_is_no_text(text):
    assert clean_text(text) == ""


@pytest.mark.parametrize("text", REAL_TEXTS)
def test_real_text_passes_as_written(text):
    assert clean_text(text) == text


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        (ZALGO, MARKS),
        ("hola" + "\u0301" * 5, MARKS),  # five marks on one letter
        ("hola " + "\u0301" * 5, MARKS),  # or on a space
        ("e" + "\u0301\u200d" * 5, MARKS),  # joiners between them stack them all the same
        ("n" + "\u0303\u0308" * 3, MARKS),  # different marks count together
        (TALL, LINES),
        ("a\n" * 10 + "a", LINES),  # eleven lines
        ("a" + "\u2028" * 10 + "b", LINES),  # the Unicode line separator breaks lines too
        ("a\u2029" * 10 + "b", LINES),  # and the paragraph separator
        ("hola\u0085adiós", FORBIDDEN),  # NEXT LINE: a C1 control
        ("hola\x7f", FORBIDDEN),  # DELETE
    ],
)
def test_what_would_draw_over_other_messages_is_refused(text, detail):
    assert _refusal(text) == detail


def test_the_refusals_read_in_english():
    with translation.override("en"):
        assert _refusal(ZALGO) == "Up to 4 accents or marks on one letter."
        assert _refusal(TALL) == "Up to 10 lines per message."


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "detail"),
    [
        ("\ufffc", NEITHER),
        ("\u0301\u0301", NEITHER),
        ("\u0300", NEITHER),
        ("\U0001d159", NEITHER),
        (ZALGO, MARKS),
        (TALL, LINES),
        ("hola\x00adiós", FORBIDDEN),  # NUL: refused as every control, not by DRF's check
        ("\x00", FORBIDDEN),
    ],
)
def test_the_testers_messages_are_refused_and_change_nothing(
    api_client_for, alice, bob, text, detail
):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    response = say(clients[0], table_id, text)
    assert response.status_code == 400
    assert response.json() == {"code": "invalid", "detail": detail, "fields": {"text": [detail]}}
    assert talk(clients[1], table_id)["messages"] == []


@pytest.mark.django_db
def test_real_text_is_delivered_as_written(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    for text in REAL_TEXTS:  # 11: under the throttle's 12
        assert say(clients[0], table_id, text).status_code == 201, text
    assert [m["text"] for m in talk(clients[1], table_id)["messages"]] == REAL_TEXTS


def _report(client, table_id, text):
    body = {"seat": 1, "reason": "other", "text": text}
    return client.post(f"/api/v1/tables/{table_id}/reports/", body, format="json")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "detail"),
    [(ZALGO, MARKS), (TALL, LINES), ("\x7f", FORBIDDEN), ("a\x00b", FORBIDDEN)],
)
def test_a_reports_text_is_refused_as_a_messages_would_be(api_client_for, alice, bob, text, detail):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    response = _report(clients[0], table_id, text)
    assert response.status_code == 400
    assert response.json() == {"code": "invalid", "detail": detail, "fields": {"text": [detail]}}
    assert not Report.objects.exists()


@pytest.mark.django_db
def test_a_reports_text_of_nothing_visible_is_no_text(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    assert _report(clients[0], table_id, "\ufffc\u0301\U0001d159").status_code == 201
    assert _report(clients[0], table_id, REAL_TEXTS[0]).status_code == 201
    assert list(Report.objects.order_by("pk").values_list("text", flat=True)) == [
        "",
        REAL_TEXTS[0],
    ]


@pytest.mark.django_db
def test_windows_line_breaks_are_read_and_stored_as_line_breaks(api_client_for, alice, bob):
    """Apps on Windows-style input send CRLF (an old Mac's a lone CR): each is one "\\n",
    not a refused control character, for the line count as for what is stored."""
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    assert say(clients[0], table_id, "hola\r\nadiós").status_code == 201
    assert say(clients[0], table_id, "uno\rdos\r\n\r\ntres").status_code == 201
    eleven = say(clients[0], table_id, "a\r\n" * 10 + "a")
    assert eleven.status_code == 400 and eleven.json()["detail"] == LINES
    assert [m["text"] for m in talk(clients[1], table_id)["messages"]] == [
        "hola\nadiós",
        "uno\ndos\n\ntres",
    ]
    assert _report(clients[0], table_id, "nos\r\ninsulta\r").status_code == 201
    assert Report.objects.get().text == "nos\ninsulta"
