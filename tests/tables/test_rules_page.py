"""Reglas completas: a page of its own, one tap from the home page and the table's menu,
told from the rule sets the engine plays."""

from __future__ import annotations

import html
import re

import pytest

import ocholoco
from tables.audiences import wording

from .helpers import Person, lobby, page

pytestmark = pytest.mark.django_db

SECTIONS = [
    "juego", "reparto", "turno", "ocho", "robar", "bloqueo", "puntos", "partida",
    "especiales", "controles", "mesa", "reglas", "reglas-casa",
]  # fmt: skip


def _rules_page() -> str:
    response = Person().get("/reglas/")
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def test_the_home_page_links_the_rules_page_which_needs_no_table():
    home = Person().get("/").content.decode()
    assert 'href="/reglas/"' in home
    assert "Reglas completas" in home
    assert "<h1>Reglas completas</h1>" in _rules_page()


def test_every_section_has_an_id_and_an_entry_in_the_table_of_contents():
    shown = _rules_page()
    toc = shown[shown.index('<nav class="toc"') : shown.index("</nav>")]
    for section in [*SECTIONS, *(f"reglas-{key}" for key in ocholoco.PRESETS)]:
        assert f'id="{section}"' in shown
        assert f'href="#{section}"' in toc


def test_each_rule_set_is_told_in_the_sentences_of_the_facts_the_engine_says():
    shown = _rules_page()
    for key, rules in ocholoco.PRESETS.items():
        start = shown.index(f'<section id="reglas-{key}"')
        told = shown[start : shown.index("</section>", start)]
        assert wording.rules_name(rules) in told
        for sentence in wording.rules_sentences(rules):
            assert sentence in told


def test_the_game_is_told_with_the_numbers_of_the_classic_rules():
    shown = _rules_page()
    clasico = ocholoco.PRESETS["clasico"]
    text = " ".join(re.sub(r"<[^>]+>", " ", shown).split())
    assert f"Cada uno recibe {clasico.hand_size(4)} cartas ({clasico.hand_size(2)} cuando" in text
    for players in (2, 3, 4):
        assert f"{players} jugadores: {clasico.target(players)} puntos" in text
    for cards, value in wording.card_values(clasico):
        assert f"{cards.capitalize()} {value}" in text
    assert "El rey, la reina y la jota 10" in text and "El 8 50" in text
    for rank, effect in ocholoco.PRESETS["especiales"].effects:
        assert wording.effect_sentence(rank, effect) in text
    for words in ("ROBAR 2", "↻", "↺", "Enter", "cruceta", "Toca una carta"):
        assert words in text


def test_the_table_menu_links_the_rules_of_its_own_rule_set():
    table, (ana,) = lobby("Ana", rules="anuncio")
    assert 'href="/reglas/#reglas-anuncio"' in page(ana, table)
