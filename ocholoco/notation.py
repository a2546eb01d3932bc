"""Spanish names and symbols for cards and suits, as the UI shows them."""

from __future__ import annotations

from collections.abc import Callable

from .cards import Card
from .history import Event

SUIT_NAMES: dict[str, str] = {"S": "picas", "H": "corazones", "D": "diamantes", "C": "tréboles"}
SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

RANK_NAMES: dict[str, str] = {"A": "as", "J": "jota", "Q": "reina", "K": "rey"}
_FEMININE = {"J", "Q"}


def rank_name(rank: str) -> str:
    """``"Q"`` -> ``"reina"``, ``"10"`` -> ``"10"``."""
    return RANK_NAMES.get(rank, rank)


def rank_with_article(rank: str) -> str:
    """``"Q"`` -> ``"una reina"``, ``"8"`` -> ``"un 8"``: as in "juega un 8"."""
    return ("una " if rank in _FEMININE else "un ") + rank_name(rank)


def card_name(card: Card | str) -> str:
    """``"10H"`` -> ``"10 de corazones"``, ``"AS"`` -> ``"as de picas"``."""
    card = Card.parse(card)
    return f"{rank_name(card.rank)} de {SUIT_NAMES[card.suit]}"


def card_with_article(card: Card | str) -> str:
    """``"QC"`` -> ``"la reina de tréboles"``, ``"7H"`` -> ``"el 7 de corazones"``."""
    card = Card.parse(card)
    return ("la " if card.rank in _FEMININE else "el ") + card_name(card)


def describe_event(event: Event, name_of: Callable[[int], str]) -> str:
    """One line of the table's log, e.g. ``"Ana jugó el 8 de corazones y pidió picas"``."""
    who = name_of(event.player)
    card = card_with_article(event.card) if event.card else ""
    cards = "una carta" if event.count == 1 else f"{event.count} cartas"
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
    }[event.kind]
