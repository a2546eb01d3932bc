"""What a robot can infer from a `RoundView`: which cards are still hidden, where a few of them
must be, and which suits each player probably lacks.

Everything here reads only the view (the robot's hand, the card counts and the public
history), so it can never reveal a hidden card. Three kinds of evidence:

- A pass is certain: the stock was empty and nothing in the hand fitted, so the player holds
  no card of the active suit, of the top card's rank, and no wild card (and, with an empty
  stock, never draws again). These cards are *excluded* for that player.
- A voluntary draw is soft: in these rules one may draw holding a playable card, but players
  rarely do, so a player whose drawing began while suit X was active *probably* lacks X. Each
  card drawn later as a penalty makes that less likely; playing X (other than the card just
  drawn) or naming X clears it.
- A wild card turned when the discard was opened goes back into the stock at a known place
  (``len(stock) // 2``), and draws take the stock from the top, so that card's place is known
  exactly: still in the stock at a given depth, or in the hand of whoever drew it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ocholoco import Event, RoundView
from ocholoco.cards import SUIT_INDEX
from ocholoco.encoding import N_RANKS, N_SUITS, Tables, V, tables_for
from ocholoco.round import ids_for

SUIT_MASKS: tuple[int, ...] = tuple(((1 << N_RANKS) - 1) << (N_RANKS * s) for s in range(N_SUITS))
# How much one card drawn as a penalty weakens "probably lacks this suit".
_DECAY_PER_CARD = 0.75


@dataclass(frozen=True, slots=True)
class PublicInfo:
    """The inferences above, for one view.

    ``hidden``: ids of the cards the viewer cannot see (other hands and the stock), minus the
    ``placed`` ones; ``placed``: id -> player holding it, or ``-1 - depth`` for a card at that
    depth of the stock (0 the top); ``lacks[p][s]``: how sure we are that player ``p`` holds
    no card of suit ``s`` (0 to 1); ``excluded[p]``: mask of card values ``p`` certainly lacks.
    """

    tables: Tables
    my_ids: tuple[int, ...]
    hidden: tuple[int, ...]
    placed: dict[int, int]
    lacks: tuple[tuple[float, ...], ...]
    excluded: tuple[int, ...]


def public_info(view: RoundView) -> PublicInfo:
    t = tables_for(view.rules)
    players = view.players
    my_ids = ids_for(view.hand, t.decks)
    lacks = [[0.0] * N_SUITS for _ in range(players)]
    excluded = [0] * players
    seen = [0] * V  # copies of each value the viewer has seen: own hand and discard pile
    for i in my_ids:
        seen[i % V] += 1
    backs: list[int] = []  # values of wild cards put back into the stock, in order
    takers: list[int] = []  # takers[k]: who took the k-th card drawn from the stock
    top = suit = -1
    previous = None
    for event in view.history:
        kind, p = event.kind, event.player
        if kind == "back":
            backs.append(event.card.value)
        elif kind in ("open", "play"):
            top = event.card.value
            seen[top] += 1
            if kind == "play" and not t.wild >> top & 1 and not _drew(previous, p):
                lacks[p][top // N_RANKS] = 0.0  # (a card played right after drawing was drawn)
            suit = SUIT_INDEX[event.suit] if event.suit else top // N_RANKS
            if event.suit:
                lacks[p][suit] = 0.0  # one names a suit one holds
        elif kind == "draw":
            takers.append(p)
            if not _drew(previous, p):
                lacks[p][suit] = 1.0
        elif kind == "penalty":
            takers.extend([p] * event.count)
            keep = _DECAY_PER_CARD**event.count
            lacks[p] = [x * keep for x in lacks[p]]
        elif kind == "pass":
            excluded[p] |= t.follow[top * N_SUITS + suit] | t.wild
            lacks[p][suit] = 1.0
        previous = event

    placed: dict[int, int] = {}
    if backs and t.decks == 1:
        size = view.rules.hand_size(players)
        for k, depth in _back_depths(len(backs), t.n_ids - size * players).items():
            value = backs[k]
            if seen[value]:
                continue  # played since, or in the viewer's hand
            placed[value] = takers[depth] if depth < len(takers) else -1 - (depth - len(takers))
    hidden = tuple(
        d * V + v for v in range(V) for d in range(seen[v], t.decks) if d * V + v not in placed
    )
    return PublicInfo(t, tuple(my_ids), hidden, placed, tuple(map(tuple, lacks)), tuple(excluded))


def _drew(event: Event | None, player: int) -> bool:
    return event is not None and event.kind == "draw" and event.player == player


def _back_depths(backs: int, stock_size: int) -> dict[int, int]:
    """Where the ``backs`` wild cards turned at the deal sit in the stock left after it.

    Replays the deal's rule on placeholders: the k-th back card was the k-th card of the
    stock, the opening card the next one. Returns back index -> depth (0 the top)."""
    stock: list[int | None] = [*range(backs), None, *[None] * (stock_size - backs - 1)]
    while stock[0] is not None:
        wild = stock.pop(0)
        stock.insert(len(stock) // 2, wild)
    stock.pop(0)  # the opening card
    return {k: depth for depth, k in enumerate(stock) if k is not None}


def suits_lacked(info: PublicInfo, player: int) -> int:
    """A 4-bit mask of the suits ``player`` probably lacks (the Normal robot's reading)."""
    mask = 0
    for s, x in enumerate(info.lacks[player]):
        if x >= 0.5:
            mask |= 1 << s
    wild = info.tables.wild
    for s in range(N_SUITS):
        if SUIT_MASKS[s] & ~wild & ~info.excluded[player] == 0:
            mask |= 1 << s
    return mask
