"""Moves a player can make, and their compact string notation.

Notation (what the web layer posts): ``"10H"`` plays the 10 of hearts; ``"8H:S"`` plays the
8 of hearts naming spades; ``"8H"`` plays an 8 without naming a suit (only legal as the
player's last card); ``"JK"`` plays a joker; a final ``"!"`` (``"10H!"``, ``"8H:S!"``) plays
the second-to-last card announcing "¡Última carta!"; ``"draw"`` draws a card or takes a
pending penalty; ``"pass"`` passes; ``"catch"`` catches the player who did not announce
their last card (they draw the fine).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import SUITS, Card


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card``; ``suit`` is the suit named with a wild card (an 8), else None;
    ``announce``: the player says "¡Última carta!" as this play leaves them one card."""

    card: Card
    suit: str | None = None
    announce: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card):
            object.__setattr__(self, "card", Card.parse(self.card))
        if self.suit is not None and self.suit not in SUITS:
            raise ValueError(f"not a suit: {self.suit!r}")

    def __str__(self) -> str:
        text = f"{self.card}:{self.suit}" if self.suit else str(self.card)
        return text + "!" if self.announce else text


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw one card from the stock, or take the pending penalty (ROBAR / ROBAR 2...)."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass: when nothing can be drawn or played, or after a draw-one draw."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Catch:
    """Catch the player who was left with one card without announcing it: they draw the
    fine. The player to move may do it before their own move; it does not end their turn."""

    def __str__(self) -> str:
        return "catch"


Move = Play | Draw | Pass | Catch


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
    if word.lower() == "catch":
        return Catch()
    announce = word.endswith("!")
    card, _, suit = word.removesuffix("!").upper().partition(":")
    if "#" in card:
        raise ValueError(f"not a move: {text!r}")
    return Play(Card.parse(card), suit or None, announce)
