"""The words the board and the panel say on every move, looked up once per language.

A table's frames are rendered on every change, for every audience, and each `{% translate %}`
in them asks Django's catalogs again (about 6 µs each, 20 µs for a plural: some 5 % of a
move's cost, measured in docs/performance.md). The words that do not change from one move to
the next are kept here per language (and per number, for the counts), so a frame looks them
up in a dictionary. The other words of `templates/tables/table.html` stay in the template.

They are safe text, as `{% translate %}`'s own: translations come from our catalogs, and a
count is a number.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _


def frame_words() -> dict[str, SafeString]:
    """The fixed words of the board and the panel in the active language."""
    return _words(get_language())


@lru_cache(maxsize=16)
def _words(language: str | None) -> dict[str, SafeString]:
    words: dict[str, Any] = {
        "board": pgettext("the board: the table's seats and piles", "Mesa"),
        "host": _("Abrió la mesa"),
        "you": pgettext("after your own name", "(tú)"),
        "to_the_right": _("Sentido: a la derecha"),
        "to_the_left": _("Sentido: a la izquierda"),
        "pile": _("Carta de la mesa"),
        "all_moves": _("Todas las jugadas"),
        "sealed": _(
            "El mazo de esta ronda quedó sellado antes de repartir: al terminar la ronda se "
            "revela, y cualquiera puede comprobar que es el que se jugó."
        ),
        "your_hand": _("Tu mano"),
        "actions": _("Acciones"),
        "your_turn": _("Tu turno"),
        "draw": pgettext("button: draw a card", "ROBAR"),
        "pass": _("PASAR"),
        "abandon": _("ABANDONAR"),
        "abandon_sure": _("¿Seguro que quieres abandonar? Un robot jugará tu lugar."),
        "watching": _("Estás mirando la partida."),
    }
    return {key: mark_safe(text) for key, text in words.items()}


def score_words(score: int) -> tuple[SafeString, SafeString]:
    """A seat's score said whole and short, in the active language: ("3 puntos", "3 pts")."""
    return _score(get_language(), score)


@lru_cache(maxsize=1024)
def _score(language: str | None, score: int) -> tuple[SafeString, SafeString]:
    said = ngettext("%(count)s puntos", "%(count)s puntos", score) % {"count": score}
    short = ngettext("%(count)s pts", "%(count)s pts", score) % {"count": score}
    return mark_safe(said), mark_safe(short)


@lru_cache(maxsize=1024)
def _stock(language: str | None, stock: int) -> SafeString:
    return mark_safe(
        ngettext("Mazo: %(count)s cartas. Robar", "Mazo: %(count)s cartas. Robar", stock)
        % {"count": stock}
    )


def stock_words(stock: int) -> SafeString:
    """The stock's button said, in the active language: "Mazo: 30 cartas. Robar"."""
    return _stock(get_language(), stock)


@lru_cache(maxsize=256)
def _round(language: str | None, number: int) -> SafeString:
    return mark_safe(_("Ronda %(number)s") % {"number": number})


def round_words(number: int) -> SafeString:
    """"Ronda 3", in the active language."""
    return _round(get_language(), number)
