"""The deck design is the viewer's look, not the table's markup: the page root carries the
chosen deck's class, the fragments are the same whatever deck the viewer picked, and no
card's markup holds a picture or a font glyph for a king, queen or jack."""

from __future__ import annotations

import re

import pytest

from tables.web.deck import DECKS

from .helpers import ANA_HAND, Person, page

pytestmark = pytest.mark.django_db
CHESS = re.compile("[\u2654-\u265f]")


def _fragments(html: str) -> str:
    """The board and the panel, without the forms' CSRF tokens (new on every response)."""
    start = html.index('<section id="board"')
    fragments = html[start : html.index("</section>", html.index('<section id="panel"'))]
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", fragments)


def test_the_fragments_are_the_same_for_every_deck_and_the_root_names_the_deck(game):
    table, ana, _beto = game
    seen = set()
    for deck, _label in DECKS:
        ana.post("/baraja/", {"deck": deck})
        html = page(ana, table)
        assert f'<html lang="es" class="deck-{deck}">' in html
        seen.add(_fragments(html))
    assert len(seen) == 1


def test_no_card_is_drawn_with_a_glyph_in_its_markup(game):
    table, ana, _beto = game
    html = page(ana, table)
    assert not CHESS.search(html)
    for code in ANA_HAND:
        button = re.search(rf'<button class="card [^>]*data-card="{code}".*?</button>', html, re.S)
        assert button, code
        assert '<span class="center" aria-hidden="true"></span>' in button.group()


def test_the_deck_choices_show_a_back_a_number_card_and_a_figure_of_each_design_as_samples():
    html = Person().get("/").content.decode()
    for deck, _label in DECKS:
        choice = html[html.index(f"deck-choice deck-{deck}") :]
        preview = choice[: choice.index("</label>")]
        assert 'class="card back"' in preview
        assert 'class="card suit-diamonds rank-7"' in preview
        assert 'class="card suit-clubs rank-K"' in preview
        assert "data-card" not in preview  # samples, not cards of the game
