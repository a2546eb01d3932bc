"""How cards look in a page: what a face-up card, a suit and a hand's layout give the
templates. The markup is the same in every deck design: the stylesheet draws the pips and the
figures from the card's rank and suit classes and the page's deck class."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from django.utils.translation import get_language

import ocholoco
from tables.audiences import wording

SUIT_CLASS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "": "🃏"}  # "": the joker's


def hand_grid(count: int) -> str:
    """How a hand is laid out, as the hand's classes: columns and rows on a phone, then on a
    wider screen ("cols-7 rows-1 wide-cols-7 wide-rows-1"). One row while it fits, then two; a
    phone takes a third row past 14 cards so that no card gets too small to tap."""
    count = max(count, 1)
    narrow_rows = 1 if count <= 7 else 2 if count <= 14 else 3
    wide_rows = 1 if count <= 10 else 2 if count <= 24 else 3
    return (
        f"cols-{-(-count // narrow_rows)} rows-{narrow_rows}"
        f" wide-cols-{-(-count // wide_rows)} wide-rows-{wide_rows}"
    )


def card_info(card: ocholoco.Card, label: str | None = None) -> dict[str, str]:
    """What a face-up card shows. `label` tells apart two copies of a card (two decks):
    "10H" and "10H#2" in `data-card`. The markup is the same in every deck design: the
    stylesheet draws the pips and the figures from the card's rank and suit classes and the
    page's deck class. A dict of the caller's own, to add to (a hand adds what it can do)."""
    return dict(_card_info(get_language(), card, label))


# A few dozen cards, in every hand of every move; kept per language (the card's name).
@functools.lru_cache(maxsize=2048)
def _card_info(language: str | None, card: ocholoco.Card, label: str | None) -> dict[str, str]:
    if card.is_joker:
        return {
            "code": label or str(card), "rank": "★", "suit": "", "symbol": "★",
            "suit_class": "joker", "rank_class": "joker", "name": wording.card_name(card),
        }
    return {
        "code": label or str(card),
        "rank": card.rank,
        "suit": card.suit,
        "symbol": SUIT_SYMBOLS[card.suit],
        "suit_class": SUIT_CLASS[card.suit],
        "rank_class": card.rank,
        "name": wording.card_name(card),
    }


def cards_info(cards: Sequence[ocholoco.Card]) -> list[dict[str, str]]:
    """`card_info` of each card (the language asked once: a hand is rendered on every move)."""
    labels = ocholoco.copy_labels(cards)
    language = get_language()
    return [
        dict(_card_info(language, card, label))
        for card, label in zip(cards, labels, strict=True)
    ]


def suit_info(suit: str) -> dict[str, str]:
    return {
        "code": suit,
        "symbol": SUIT_SYMBOLS[suit],
        "name": wording.suit_name(suit),
        "suit_class": SUIT_CLASS[suit],
    }
