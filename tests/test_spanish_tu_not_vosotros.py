"""The site's Spanish speaks to one player with "tú" and to a pair with "ustedes", never
with "vosotros", which most of its players (Latin American) do not use: the table page
said "Vuestra pareja se anota 8 puntos." and "Sale vuestra pareja: puedes salir tú o tu
compañero.", and a partner's absence "vuestra pareja pierde la partida". Every Spanish
text of the site (the msgids of ``locale/en``) and every library text re-worded in
``locale/es`` is checked."""

from __future__ import annotations

import re
from pathlib import Path

from django.utils import translation

from tables import errors
from tables.ui_strings import hand_end_words, ui_strings

LOCALE = Path(__file__).resolve().parent.parent / "locale"

#: "vuestra", "os", "sois", "tenéis", and any verb in -áis/-éis ("jugáis", "podéis").
VOSOTROS = re.compile(
    r"\b(vuestr[oa]s?|os|sois|tenéis|podéis|habéis|\w+áis|\w+éis)\b", re.IGNORECASE
)


def po_texts(path: Path, keyword: str) -> list[str]:
    """The texts of ``keyword`` ("msgid", "msgstr") in the .po file at ``path``, each
    with its continued lines joined; obsolete (``#~``) entries are left out."""
    texts: list[list[str]] = []
    inside = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith('"') and inside:
            texts[-1].append(line[1:-1])
            continue
        inside = line.startswith(keyword)
        if inside:
            texts.append([line.split(" ", 1)[1][1:-1]])
    return ["".join(parts) for parts in texts]


def test_no_spanish_source_text_says_vosotros():
    texts = po_texts(LOCALE / "en" / "LC_MESSAGES" / "django.po", "msgid")
    assert len(texts) > 500
    found = [text for text in texts if VOSOTROS.search(text)]
    assert found == []


def test_no_reworded_library_text_says_vosotros():
    texts = po_texts(LOCALE / "es" / "LC_MESSAGES" / "django.po", "msgstr")
    found = [text for text in texts if VOSOTROS.search(text)]
    assert found == []


def test_a_pair_reads_tu_pareja_y_tu_and_ustedes():
    with translation.override("es"):
        words = {**ui_strings(), **hand_end_words()}
        partner = errors.turn_expired(
            absent_seat=2, absent_name="carol", side="partner", move_seconds=2 * 86400
        )
    assert words["scored_pair_you"]["other"] == "Tu pareja y tú se anotan %(points)s puntos."
    assert words["scored_pair_you"]["one"] == "Tu pareja y tú se anotan %(points)s punto."
    assert words["lead_pair_you"] == "Salen ustedes: puedes salir tú o tu compañero."
    assert words["lead_pair_you_bot"].startswith("Salen ustedes: elige quién sale.")
    assert str(partner.detail) == (
        "carol, tu pareja, agotó su plazo de 2 días para jugar: los dos pierden la partida "
        "por ausencia y la mesa ha terminado."
    )
