"""A viewer's deck design: a cookie of the browser's, offered on ABRIR MESA and in the table's
menu, and a class on every page's root (`deck`, the templates' context processor)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_POST

import ocholoco
from tables.audiences.cards import card_info
from tables.web.error_pages import notice_fragment

DECKS = [
    ("clasica", pgettext_lazy("a deck design", "Clásica")),
    ("moderna", pgettext_lazy("a deck design", "Moderna")),
    ("cuatro-colores", pgettext_lazy("a deck design", "Cuatro colores")),
    ("reino", pgettext_lazy("a deck design", "Del Reino")),
]
DECK_COOKIE = "baraja"


def deck_preview() -> list[dict[str, str]]:
    """What the deck choices show of each design: a back, a number card's pips, a figure.
    Samples, not cards of the game: they have no `data-card` (named in the active language)."""
    return [{**card_info(ocholoco.Card.parse(code)), "code": ""} for code in ("7D", "KC")]


def deck_of(request: HttpRequest) -> str:
    """The browser's deck design (the first one when it chose none, or one that is gone)."""
    deck = request.COOKIES.get(DECK_COOKIE, "")
    return deck if deck in dict(DECKS) else DECKS[0][0]


def deck_remember(response: HttpResponseBase, deck: str) -> None:
    if deck in dict(DECKS):
        response.set_cookie(DECK_COOKIE, deck, max_age=60 * 60 * 24 * 365, samesite="Lax")


def deck(request: HttpRequest) -> dict[str, str]:
    """The templates' context processor: every page rendered for a request shows its deck."""
    return {"deck": deck_of(request)}


@require_POST
def deck_choose(request: HttpRequest) -> HttpResponse:
    """A viewer's deck design: a cookie, shown as a class on the page root."""
    deck = request.POST.get("deck", "")
    if deck not in dict(DECKS):
        return HttpResponse(notice_fragment(_("Esa baraja no existe."), error=True), status=400)
    back = request.POST.get("next", "/")
    response: HttpResponseBase = (
        HttpResponse(status=204) if request.htmx
        else redirect(back if back.startswith("/") and not back.startswith("//") else "/")
    )
    deck_remember(response, deck)
    return response
