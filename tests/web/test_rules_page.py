"""The rules page (/reglas/): public, in Spanish and English, an anchor per rule (R1-R31),
and worked scoring examples that agree with the engine the server plays (CLASSIC)."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from dominoes.rules import CLASSIC
from dominoes.scoring import score_blocked, score_domino
from dominoes.tiles import parse_tile
from tables.help import present, summary_strings
from tables.help_examples import EXAMPLES
from tables.templatetags.tiles import tile_svg
from tables.ui_strings import ui_strings
from tests.support.pages import table_page_script

pytestmark = pytest.mark.django_db

RULE_IDS = [f"R{n}" for n in range(1, 32)]


def page(client, language: str = "es") -> str:
    client.cookies["django_language"] = language
    r = client.get("/reglas/")
    assert r.status_code == 200
    return r.content.decode()


def engine_result(example):
    holdings = [[parse_tile(name) for name in tiles] for tiles in example.holdings]
    if example.end == "domino":
        return score_domino(CLASSIC, holdings, example.out)
    return score_blocked(CLASSIC, holdings)


def example_html(html: str, key: str) -> str:
    found = re.search(rf'<figure class="example" id="{key}">(.*?)</figure>', html, re.S)
    assert found, f"example {key} is on the page"
    return found.group(1)


def text_of(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def test_the_url_is_named_and_public(client):
    assert reverse("help:rules") == "/reglas/"

    r = client.get("/reglas/")

    assert r.status_code == 200
    assert r.headers["Content-Type"].startswith("text/html")


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("es", ["Reglas del dominó", "Consejos para quien empieza", "Abuela Quelonia", "fácil"]),
        ("en", ["Rules of dominoes", "Tips for beginners", "Abuela Quelonia", "easy"]),
    ],
)
def test_it_renders_in_each_language(client, language, words):
    html = page(client, language)

    assert f'<html lang="{language}">' in html
    for word in words:
        assert word in html


def test_the_english_page_shows_no_spanish_sentences(client):
    text = text_of(page(client, "en"))

    for spanish in ("Mesa cerrada", "Se lleva", "cuenta ", "nadie suma", "Reglas del"):
        assert spanish not in text


@pytest.mark.parametrize("language", ["es", "en"])
def test_every_rule_has_its_anchor_once(client, language):
    html = page(client, language)

    for rule in RULE_IDS:
        assert html.count(f'id="{rule}"') == 1, rule
        assert f'href="#{rule}"' in html


def test_the_header_links_here_from_every_page(client, alice):
    assert 'href="/reglas/"' in page(client)
    client.force_login(alice)
    assert 'href="/reglas/"' in client.get("/mesas/nueva/").content.decode()


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_each_example_agrees_with_the_engine(example):
    result = engine_result(example)

    assert result.end.value == example.end
    assert result.counts == example.counts
    assert result.winners == example.winners
    assert result.points == example.points


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_each_example_is_a_possible_hand(example):
    tiles = [parse_tile(name) for seat in example.holdings for name in seat]
    assert len(tiles) == len(set(tiles)), "no tile twice"
    assert example.seats in CLASSIC.seat_counts
    if example.end == "domino":
        assert example.holdings[example.out] == ()
        assert all(example.holdings[s] for s in range(example.seats) if s != example.out)
    else:
        # Blocked (R18): every seat still holds tiles and none of them fits an end.
        assert example.ends is not None
        for seat in example.holdings:
            assert seat
            assert not any(parse_tile(name).has(pip) for name in seat for pip in example.ends)


def test_the_examples_cover_each_kind_of_hand():
    kinds = {(e.seats, e.end, bool(e.winners), len(set(e.counts[:2])) == 1) for e in EXAMPLES}
    assert (2, "domino", True, False) in kinds
    assert any(e.seats == 4 and e.end == "domino" for e in EXAMPLES)  # R20
    assert any(e.seats == 2 and e.end == "blocked" and e.winners for e in EXAMPLES)  # R21
    tie_broken = [e for e in EXAMPLES if e.seats == 3 and e.end == "blocked"]
    assert any(e.counts.count(min(e.counts)) > 1 and e.winners for e in tie_broken)  # R23
    assert any(e.seats < 4 and e.end == "blocked" and not e.winners for e in EXAMPLES)  # R23
    assert any(e.seats == 4 and e.end == "blocked" and not e.winners for e in EXAMPLES)  # R22


@pytest.mark.parametrize("language", ["es", "en"])
def test_the_page_shows_each_examples_checked_numbers(client, language):
    html = page(client, language)
    for example in EXAMPLES:
        block = example_html(html, example.key)
        text = text_of(block)
        result = engine_result(example)
        counts = [int(n) for n in re.findall(r"(?:cuenta|count) (\d+)", text)]
        assert counts == list(result.counts), example.key
        for seat in example.holdings:
            for name in seat:
                assert f'aria-label="{parse_tile(name)}"' in block
        winners = re.findall(r'<li class="winner">\s*<span class="name">(\w+)', block)
        assert winners == [example.names[s] for s in result.winners], example.key
        # Every sum written out adds up, and the last line names the points scored.
        for terms, total in re.findall(r"((?:\d+ \+ )+\d+) = (\d+)", text):
            assert sum(int(t) for t in terms.split(" + ")) == int(total), (example.key, terms)
        last = text_of(block.rsplit("<p>", 1)[1])
        if result.winners:
            assert re.search(rf"\b{result.points} (puntos|points)\b", last), (example.key, last)
        else:
            assert "nadie suma" in last or "nobody scores" in last, (example.key, last)


def test_present_matches_the_engine_for_every_example():
    for example in EXAMPLES:
        shown = present(example)
        result = engine_result(example)
        assert [row["count"] for row in shown["rows"]] == list(result.counts)
        assert [i for i, row in enumerate(shown["rows"]) if row["winner"]] == list(result.winners)


def test_tiles_are_svg_pictures_with_a_text_alternative(client):
    html = page(client)

    assert 'role="img" aria-label="6-4"' in html
    svg = tile_svg("4-6")
    assert 'aria-label="6-4"' in svg  # high pip first, as the table page names tiles
    assert svg.count('class="pip p6"') == 6 and svg.count('class="pip p4"') == 4
    assert 'class="face"' in svg and 'class="divider"' in svg
    assert tile_svg("0-0").count("<circle") == 0
    assert 'viewBox="0 0 50 100"' in tile_svg("6-6", vertical=True)


def test_pip_colour_follows_the_players_preference(client, alice):
    assert "pips-coloured" in page(client)
    alice.pip_colour = "black"
    alice.save()
    client.force_login(alice)

    assert 'class="rules-page pips-black"' in page(client)


def test_the_table_page_gets_the_hand_summary_words():
    strings = ui_strings()
    for key, text in summary_strings().items():
        assert strings[key] == text
        # A sentence with the hand's points comes in both forms ("1 punto", "2 puntos").
        forms = list(text.values()) if isinstance(text, dict) else [text]
        for form in forms:
            # The reader's own forms ("Ganas tú…") follow their third-person ones.
            plain = key.removesuffix("_you")
            no_rule = ("why_partner", "why_your_partner", "why_tie_winner", "why_tie_nobody")
            if plain not in (*no_rule, "why_teams_tie"):
                assert "%(rule)s" in form, key
            if "%(sum)s" in form:
                assert isinstance(text, dict), f"{key}: '%(sum)s puntos' needs ngettext"


def test_the_table_page_script_uses_every_summary_word():
    script = table_page_script()

    for key in summary_strings():
        assert f"T.{key}" in script, key
    for rule in ("R17", "R18"):  # how the hand ended, said by the page
        assert f'"{rule}"' in script, rule
    # R20-R23, the rule that decided the points, comes from the engine's explanation.
    assert "why.rule" in script and "last.explanation" in script


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("es", "En la mesa de 4 la pareja que gana se lleva las cuentas de los dos rivales;"),
        ("en", "At a table of 4 the winning partnership scores the two rivals' counts;"),
    ],
)
def test_r20_says_the_winning_pair_scores(client, language, said):
    """R20 (docs/RULES.md: "With 4 seats its team scores the two rivals' counts") said "su
    pareja se lleva", which reads as the partner of the one who went out."""
    text = unescape(page(client, language))

    assert said in text
    assert "su pareja se lleva" not in text
