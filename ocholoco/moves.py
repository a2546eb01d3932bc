"""Moves a player can make, and their compact string notation.

Notation (what the web layer posts): ``"10H"`` plays the 10 of hearts; ``"8H:S"`` plays the
8 of hearts naming spades; ``"8H"`` plays an 8 without naming a suit (only legal as the
player's last card); ``"draw"`` draws a card or takes a pending penalty; ``"pass"`` passes.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import SUITS, Card


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card``; ``suit`` is the suit named with a wild card (an 8), else None."""

    card: Card
    suit: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card):
            object.__setattr__(self, "card", Card.parse(self.card))
        if self.suit is not None and self.suit not in SUITS:
            raise ValueError(f"not a suit: {self.suit!r}")

    def __str__(self) -> str:
        return f"{self.card}:{self.suit}" if self.suit else str(self.card)


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw one card from the stock, or take the pending penalty (ROBAR / ROBAR 2...)."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass: only when the stock is empty and no card in hand can be played."""

    def __str__(self) -> str:
        return "pass"


Move = Play | Draw | Pass


def move_to_str(move: Move) -> str:
    """The move's notation (the same as ``str(move)``)."""
    return str(move)


def parse_move(text: str) -> Move:
    """The move written as ``str(move)``; raises ValueError on anything else."""
    word = text.strip()
    if word.lower() == "draw":
        return Draw()
    if word.lower() == "pass":
        return Pass()
    card, _, suit = word.upper().partition(":")
    return Play(Card.parse(card), suit or None)
