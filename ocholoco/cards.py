"""Cards: the 52 values of the French deck and the joker, as interned immutable `Card` objects.

A card's *value* is ``suit_index * 13 + rank_index`` (``AS`` 0, ``KC`` 51); the joker is 52,
``"JK"``, with no suit (``""``). Two copies of a value (two decks, two jokers) are the same card
in play and in notation; `copy_labels` numbers them (``"10H#2"``) where a page needs one key per
physical card. One `Card` per value, so building or parsing a card never allocates.
"""

from __future__ import annotations

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
N_VALUES = len(RANKS) * len(SUITS)  # the 52 suited values
JOKER_VALUE = N_VALUES
JOKER_RANK = "JK"
JOKER_SUIT = ""

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

    def __new__(cls, rank: str, suit: str = JOKER_SUIT) -> Card:
        if rank == JOKER_RANK and suit == JOKER_SUIT:
            return _BY_VALUE[JOKER_VALUE]
        try:
            return _BY_VALUE[SUIT_INDEX[suit] * len(RANKS) + RANK_INDEX[rank]]
        except KeyError:
            raise ValueError(f"not a card: {rank!r} {suit!r}") from None

    @staticmethod
    def parse(text: str | Card) -> Card:
        """``"10H"`` (or the label ``"10H#2"``) -> the card; a `Card` is returned as it is."""
        card = _BY_TEXT.get(text) if type(text) is str else None  # the usual: a card's text
        if card is not None:
            return card
        if isinstance(text, Card):
            return text
        try:
            return _BY_TEXT[text.strip().upper().partition("#")[0]]
        except (KeyError, AttributeError):
            raise ValueError(f"not a card: {text!r}") from None

    @staticmethod
    def from_value(value: int) -> Card:
        return _BY_VALUE[value]

    @property
    def is_joker(self) -> bool:
        return self.value == JOKER_VALUE

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
    joker = value == JOKER_VALUE
    card.rank = JOKER_RANK if joker else RANKS[value % len(RANKS)]
    card.suit = JOKER_SUIT if joker else SUITS[value // len(RANKS)]
    card.value = value
    return card


_BY_VALUE: tuple[Card, ...] = tuple(_make(v) for v in range(N_VALUES + 1))
_BY_TEXT: dict[str, Card] = {str(card): card for card in _BY_VALUE}
CARDS = _BY_VALUE[:N_VALUES]  # one French deck, no jokers
ALL_VALUES = _BY_VALUE  # every card value: the 52 and the joker, indexed by value
JOKER = _BY_VALUE[JOKER_VALUE]


def copy_labels(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    """One distinct label per card: ``[10H, 10H, JK]`` -> ``["10H", "10H#2", "JK"]``."""
    seen: dict[Card, int] = {}
    labels = []
    for card in cards:
        seen[card] = seen.get(card, 0) + 1
        labels.append(str(card) if seen[card] == 1 else f"{card}#{seen[card]}")
    return labels
