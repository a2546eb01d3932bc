"""The public history of a round: who played what, named which suit, drew, passed...

Internally a round keeps its history as a linked list of small int records
``((kind, player, x), previous)``, so appending is O(1) and states share their past.
`Event` is the public, readable form. A draw never says which card was drawn.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

from .cards import ALL_VALUES, SUIT_INDEX, SUITS, Card
from .encoding import V

EventKind = Literal[
    "open", "back", "play", "draw", "penalty", "pass", "skip", "out", "blocked", "reshuffle",
    "announce", "caught",
]  # fmt: skip
KINDS: tuple[EventKind, ...] = (
    "open", "back", "play", "draw", "penalty", "pass", "skip", "out", "blocked", "reshuffle",
    "announce", "caught",
)  # fmt: skip
(OPEN, BACK, PLAY, DRAW, PENALTY, PASS, SKIP, OUT, BLOCKED, RESHUFFLE, ANNOUNCE,
 CAUGHT) = range(len(KINDS))  # fmt: skip

Record = tuple[int, int, int]
Chain = tuple[Record, "Chain"] | None


@dataclass(frozen=True, slots=True)
class Event:
    """One public event.

    ``open``: ``card`` opened the discard pile (turned by the dealer, ``player``);
    ``back``: that turned ``card`` was an 8 and went back into the middle of the stock;
    ``play``: ``player`` played ``card``, naming ``suit`` if it was a wild card;
    ``draw``: ``player`` drew one card (``count`` 1) and keeps the turn;
    ``penalty``: ``player`` took the pending penalty, drawing ``count`` cards (maybe fewer
    than the penalty when the stock ran short) and losing the turn;
    ``pass``: ``player`` passed; ``skip``: ``player`` lost the turn to a skip card;
    ``out``: ``player`` played their last card and won; ``blocked``: the table blocked
    (``player`` ended the last idle turn);
    ``reshuffle``: the discard pile but its top card (``count`` cards) became the new stock,
    as ``player`` had to draw; ``announce``: ``player`` said "¡Última carta!";
    ``caught``: ``player`` was caught without announcing it and drew ``count`` cards.
    """

    kind: EventKind
    player: int
    card: Card | None = None
    suit: str | None = None
    count: int = 0

    def __str__(self) -> str:
        detail = f"{self.card or ''}{':' + self.suit if self.suit else ''}"
        return f"{self.player}:{self.kind}{' ' + detail if detail else ''}" + (
            f" {self.count}" if self.count else ""
        )


def turn_began_at(history: tuple[Event, ...], player: int) -> int:
    """Where ``player``'s turn in course began in a round's ``history``: after the last event
    of someone else. A draw that keeps the turn (or the reshuffle it caused) is the same turn;
    a skip card played against the only opponent gives a new one."""
    start = len(history)
    while start and history[start - 1].player == player and history[start - 1].kind not in (
        "open", "back",
    ):
        start -= 1
    return start


# A record's event is the same (frozen) object every time: a round's history is read as
# events several times a move (each audience's view), and records repeat within and across
# rounds (a few thousand distinct ones at most: kinds × players × cards or counts).
@functools.cache
def event_of(record: Record) -> Event:
    kind, player, x = record
    if kind == PLAY:
        suit = SUITS[x // V - 1] if x >= V else None
        return Event("play", player, ALL_VALUES[x % V], suit)
    if kind in (OPEN, BACK):
        return Event(KINDS[kind], player, ALL_VALUES[x])
    if kind in (DRAW, PENALTY, RESHUFFLE, CAUGHT):
        return Event(KINDS[kind], player, count=x)
    return Event(KINDS[kind], player)


def record_of(event: Event) -> Record:
    kind = KINDS.index(event.kind)
    if kind == PLAY:
        suit = V * (1 + SUIT_INDEX[event.suit]) if event.suit else 0
        return (kind, event.player, event.card.value + suit)
    if kind in (OPEN, BACK):
        return (kind, event.player, event.card.value)
    return (kind, event.player, event.count)


def records(chain: Chain) -> list[Record]:
    """The records of a chain, oldest first."""
    out = []
    while chain is not None:
        out.append(chain[0])
        chain = chain[1]
    out.reverse()
    return out


def chain_of(recs: list[Record] | tuple[Record, ...]) -> Chain:
    chain: Chain = None
    for rec in recs:
        chain = (rec, chain)
    return chain
