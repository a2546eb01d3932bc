"""Cards as the table's partials render them, each distinct one rendered once and kept:
`{% hand_cards hand %}` (a player's hand, each card the `hand_card` partial), `{% face_card c %}`
(a face-up card, the `card` partial) and `{% card_backs n %}` (n backs, the `backs` partial).

A hand's cards are most of a panel's rendering, and every move renders the board and a panel
for each seat; yet a card's markup depends only on the card and what it can do now (playable,
its move, why not), which repeat across moves, seats and tables. So each distinct card is
rendered by the template once and kept, for each language (the partials hold words).
"""

from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import get_language

register = template.Library()

KEEP = 4096  # distinct cards kept: 54 cards × a few states each, per deck, rule set and language
_rendered: dict[tuple, SafeString] = {}


@register.simple_tag
def hand_cards(hand: list[dict[str, Any]]) -> SafeString:
    # A hand's card says words of its own ("se puede jugar"): kept per language, asked once.
    language = get_language()
    return SafeString("".join(hand_card(card, language) for card in hand))


def hand_card(card: dict[str, Any], language: str | None = None) -> SafeString:
    """One card of a hand, in `language` (the active one unless given)."""
    language = language or get_language()
    return _kept("hand_card", (language, *_key(card)), {"c": card})


@register.simple_tag
def face_card(card: dict[str, Any]) -> SafeString:
    return _kept("card", _key(card), {"c": card})


@register.simple_tag
def card_backs(count: int) -> SafeString:
    return _kept("backs", (count,), {"backs": range(count)})


def _kept(partial: str, key: tuple, context: dict[str, Any]) -> SafeString:
    """The partial's markup for `key` (what it depends on: the card's name is already in
    the active language's words, and a partial with words of its own puts the language in)."""
    key = (partial, *key)
    html = _rendered.get(key)
    if html is None:
        html = render_to_string(f"tables/table.html#{partial}", context)
        if len(_rendered) >= KEEP:
            _rendered.clear()
        _rendered[key] = html
    return html


def _key(card: dict[str, Any]) -> tuple:
    """What the card's markup depends on: its context's names, then their values (strings and
    booleans), its suit choices each as its move's text (which fixes the choice)."""
    return (
        tuple(card),
        *(
            tuple(m["move"] for m in value) if type(value) is list else value
            for value in card.values()
        ),
    )
