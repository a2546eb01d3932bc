"""`{% hand_card c %}`: one card of a player's hand, as the `hand_card` partial renders it.

A hand's cards are most of a panel's rendering, and every move renders a panel for each
seat; yet a card's markup depends only on the card and what it can do now (playable, its
move, why not), which repeat across moves, seats and tables. So each distinct card is
rendered by the template once and kept.
"""

from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

register = template.Library()

KEEP = 4096  # distinct cards kept: 54 cards × a few states each, for every deck and rule set
_rendered: dict[tuple, SafeString] = {}


@register.simple_tag
def hand_card(card: dict[str, Any]) -> SafeString:
    key = _key(card)
    html = _rendered.get(key)
    if html is None:
        html = render_to_string("tables/table.html#hand_card", {"c": card})
        if len(_rendered) >= KEEP:
            _rendered.clear()
        _rendered[key] = html
    return html


def _key(card: dict[str, Any]) -> tuple:
    """What the card's markup depends on: its context's strings and booleans, and its suit
    choices (each one fixed by its move's text)."""
    return tuple(
        (name, tuple(m["move"] for m in value) if isinstance(value, list) else value)
        for name, value in card.items()
    )
