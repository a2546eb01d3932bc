"""Cards: the 52 values of the French deck, as interned immutable `Card` objects.

A card's *value* is a small int, ``suit_index * 13 + rank_index`` (``AS`` is 0, ``KC`` is 51).
The engine works on values and bitmasks of values (see `encoding`); `Card` is the public face
of a value. There is exactly one `Card` object per value, so building or parsing a card never
allocates and identity, equality and hashing are all cheap.
"""

from __future__ import annotations

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
N_VALUES = len(RANKS) * len(SUITS)

RANK_INDEX = {rank: i for i, rank in enumerate(RANKS)}
SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}


class Card:
    """One card value, e.g. ``Card.parse("10H")``; ``str(card) == "10H"``.

    Cards are interned: ``Card("10", "H") is Card.parse("10H")``. They order by value
    (suit, then rank), which is also how hands are listed.
    """

    __slots__ = ("rank", "suit", "value")
    rank: str
    suit: str
    value: int

    def __new__(cls, rank: str, suit: str) -> Card:
        try:
            return _BY_VALUE[SUIT_INDEX[suit] * len(RANKS) + RANK_INDEX[rank]]
        except KeyError:
            raise ValueError(f"not a card: {rank!r} {suit!r}") from None

    @staticmethod
    def parse(text: str | Card) -> Card:
        """``"10H"`` -> the card; a `Card` is returned as it is."""
        if isinstance(text, Card):
            return text
        try:
            return _BY_TEXT[text.strip().upper()]
        except (KeyError, AttributeError):
            raise ValueError(f"not a card: {text!r}") from None

    @staticmethod
    def from_value(value: int) -> Card:
        return _BY_VALUE[value]

    def __str__(self) -> str:
        return self.rank + self.suit

    def __repr__(self) -> str:
        return f"Card({self.rank + self.suit!r})"

    def __reduce__(self) -> tuple:
        return (Card.from_value, (self.value,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict) -> Card:
        return self

    def __hash__(self) -> int:
        return self.value

    def __lt__(self, other: Card) -> bool:
        return self.value < other.value

    def __le__(self, other: Card) -> bool:
        return self.value <= other.value

    def __gt__(self, other: Card) -> bool:
        return self.value > other.value

    def __ge__(self, other: Card) -> bool:
        return self.value >= other.value

    # Equality is identity (the default), which is value equality because cards are interned.


def _make(value: int) -> Card:
    card = object.__new__(Card)
    card.rank = RANKS[value % len(RANKS)]
    card.suit = SUITS[value // len(RANKS)]
    card.value = value
    return card


_BY_VALUE: tuple[Card, ...] = tuple(_make(v) for v in range(N_VALUES))
_BY_TEXT: dict[str, Card] = {str(card): card for card in _BY_VALUE}
CARDS = _BY_VALUE
