"""Spanish names and symbols for cards and suits, as the UI shows them.

The joker (``"JK"``, suit ``""``) is "comodín", symbol 🃏: ``SUIT_SYMBOLS[joker.suit]`` and
``SUIT_NAMES[joker.suit]`` give those (the tables list the four suits; the joker's empty
suit is answered on lookup), and `card_symbol` / `card_name` name any card.
"""

from __future__ import annotations

from collections.abc import Callable

from .cards import JOKER_RANK, JOKER_SUIT, Card
from .history import Event

JOKER_SYMBOL = "🃏"
JOKER_NAME = "comodín"


class _SuitTable(dict[str, str]):
    """The four suits; looking up the joker's suit gives ``joker`` instead of a KeyError."""

    def __init__(self, suits: dict[str, str], joker: str) -> None:
        super().__init__(suits)
        self._joker = joker

    def __missing__(self, key: str) -> str:
        if key == JOKER_SUIT:
            return self._joker
        raise KeyError(key)


SUIT_NAMES: dict[str, str] = _SuitTable(
    {"S": "picas", "H": "corazones", "D": "diamantes", "C": "tréboles"}, JOKER_NAME
)
SUIT_SYMBOLS: dict[str, str] = _SuitTable({"S": "♠", "H": "♥", "D": "♦", "C": "♣"}, JOKER_SYMBOL)

RANK_NAMES: dict[str, str] = {"A": "as", "J": "jota", "Q": "reina", "K": "rey", "JK": JOKER_NAME}
_FEMININE = {"J", "Q"}


def rank_name(rank: str) -> str:
    """``"Q"`` -> ``"reina"``, ``"10"`` -> ``"10"``."""
    return RANK_NAMES.get(rank, rank)


def rank_with_article(rank: str) -> str:
    """``"Q"`` -> ``"una reina"``, ``"8"`` -> ``"un 8"``: as in "juega un 8"."""
    return ("una " if rank in _FEMININE else "un ") + rank_name(rank)


def card_name(card: Card | str) -> str:
    """``"10H"`` -> ``"10 de corazones"``, ``"AS"`` -> ``"as de picas"``, ``"JK"`` ->
    ``"comodín"``."""
    card = Card.parse(card)
    if card.rank == JOKER_RANK:
        return JOKER_NAME
    return f"{rank_name(card.rank)} de {SUIT_NAMES[card.suit]}"


def card_symbol(card: Card | str) -> str:
    """The symbol shown with the card: its suit's, or 🃏 for the joker."""
    return SUIT_SYMBOLS[Card.parse(card).suit]


def card_with_article(card: Card | str) -> str:
    """``"QC"`` -> ``"la reina de tréboles"``, ``"7H"`` -> ``"el 7 de corazones"``."""
    card = Card.parse(card)
    return ("la " if card.rank in _FEMININE else "el ") + card_name(card)


def describe_event(event: Event, name_of: Callable[[int], str], me: int | None = None) -> str:
    """One line of the table's log, e.g. ``"Ana jugó el 8 de corazones y pidió picas"``; told
    to player ``me``, their own events are said to them: ``"Jugaste el 8 de corazones y
    pediste picas"``."""
    card = card_with_article(event.card) if event.card else ""
    cards = "una carta" if event.count == 1 else f"{event.count} cartas"
    if me is not None and event.player == me and event.kind in _YOURS:
        asked = f" y pediste {SUIT_NAMES[event.suit]}" if event.suit else ""
        return _YOURS[event.kind].format(card=card, cards=cards, suit=asked)
    who = name_of(event.player)
    return {
        "open": f"Abre la mesa {card}",
        "back": f"Salió {card}: vuelve al medio del mazo",
        "play": f"{who} jugó {card}" + (f" y pidió {SUIT_NAMES[event.suit]}" if event.suit else ""),
        "draw": f"{who} robó una carta",
        "penalty": f"{who} robó {cards} y pierde el turno",
        "pass": f"{who} pasó",
        "skip": f"{who} pierde el turno",
        "out": f"{who} se quedó sin cartas",
        "blocked": "La mesa se bloqueó",
        "reshuffle": f"Se baraja el descarte: {cards} forman el mazo nuevo",
        "announce": f"{who} dijo «¡Última carta!»",
        "caught": f"{who} no dijo «¡Última carta!» y robó {cards}",
    }[event.kind]


# A player's own events, said to them.
_YOURS = {
    "play": "Jugaste {card}{suit}",
    "draw": "Robaste una carta",
    "penalty": "Robaste {cards} y pierdes el turno",
    "pass": "Pasaste",
    "skip": "Pierdes el turno",
    "out": "Te quedaste sin cartas",
    "announce": "Dijiste «¡Última carta!»",
    "caught": "No dijiste «¡Última carta!» y robaste {cards}",
}
