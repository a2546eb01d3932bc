"""What a robot can infer from a `RoundView`: which cards are still hidden, where a few of them
must be, and which suits (and cards) each player probably lacks.

It reads only the view (the robot's hand, the card counts and the public history), so it can
never reveal a hidden card. The evidence it weighs is told in docs/architecture.md, "The robots".
"""

from __future__ import annotations

from dataclasses import dataclass

from ocholoco import Event, RoundView
from ocholoco.cards import SUIT_INDEX
from ocholoco.encoding import (
    COPY,
    JOKER,
    N_RANKS,
    N_SUITS,
    PENALTY,
    Tables,
    V,
    ids_for,
    tables_for,
)

SUIT_MASKS: tuple[int, ...] = tuple(((1 << N_RANKS) - 1) << (N_RANKS * s) for s in range(N_SUITS))
# How much one card drawn as a penalty weakens "probably lacks this suit".
_DECAY_PER_CARD = 0.75


@dataclass(frozen=True, slots=True)
class SeenPlay:
    """A play and the position it was made in: ``action`` (the engine's, without the
    announcement) on ``top`` with ``suit`` active and ``pending`` cards of penalty (answered
    by ``pending_rank``). ``telling``: every other player held more than `ATTACK_SIZE` cards
    (then a Normal player's choice depends on its hand alone) and the play was a choice (not
    the card just drawn under ``draw_one``)."""

    action: int
    top: int
    suit: int
    pending: int
    pending_rank: int
    telling: bool


ATTACK_SIZE = 2  # (Normal's: a player with this many cards or fewer is about to go out)


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
    reshuffles: int = 0  # times the stock was rebuilt from the discard pile so far
    # unlikely[p][v]: how sure we are that ``p`` holds no card of value ``v`` (the suit's
    # ``lacks``, and the top's rank and wild cards for a player who drew rather than play)
    unlikely: tuple[tuple[float, ...], ...] = ()
    plays: tuple[tuple[SeenPlay, ...], ...] = ()  # per player, oldest first, see `SeenPlay`


def public_info(view: RoundView) -> PublicInfo:
    t = tables_for(view.rules, view.players)
    players = view.players
    my_ids = ids_for(view.hand, t.decks)
    lacks = [[0.0] * N_SUITS for _ in range(players)]
    doubt = [0] * players  # values each player probably lacks (they drew rather than play)
    doubt_level = [0.0] * players
    excluded = [0] * players
    mine = [0] * V  # copies of each value in the viewer's hand
    for i in my_ids:
        mine[i % V] += 1
    pile: list[int] = []  # values in the discard pile, bottom first
    ever_seen = set(i % V for i in my_ids)  # values the viewer held or saw played
    backs: list[int] = []  # values of cards put back into the stock at the deal, in order
    takers: list[int] = []  # takers[k]: who took the k-th card drawn from the first stock
    first_stock = t.n_ids - view.rules.hand_size(players) * players - 1
    reshuffles = 0
    decay_draws = view.rules.draw_policy == "draw_ends_turn"
    draw_one = view.rules.draw_policy == "draw_one"
    top = suit = -1
    previous = None
    sizes = [view.rules.hand_size(players)] * players
    plays: list[list[SeenPlay]] = [[] for _ in range(players)]
    pending = 0
    pending_rank = -1
    readable = not any(e == COPY for e in t.effect)  # (a copy's effect depends on the pile)
    for event in view.history:
        kind, p = event.kind, event.player
        if kind == "back":
            backs.append(event.card.value)
        elif kind in ("open", "play"):
            if kind == "play":
                sizes[p] -= 1
                calm = all(n > ATTACK_SIZE for q, n in enumerate(sizes) if q != p)
                telling = readable and calm and not (draw_one and _drew(previous, p))
                action = event.card.value
                if event.suit:
                    action += V * (1 + SUIT_INDEX[event.suit])
                plays[p].append(SeenPlay(action, top, suit, pending, pending_rank, telling))
            value = event.card.value
            if t.effect[value] == PENALTY:
                pending += t.amount[value]
                pending_rank = t.answer_rank[value]
            top = event.card.value
            pile.append(top)
            ever_seen.add(top)
            joker = top == JOKER
            if kind == "play" and not _drew(previous, p):  # (else it may be the card drawn)
                doubt[p] &= ~(t.wild if t.wild >> top & 1 else 1 << top)
                if not joker and not t.wild >> top & 1:
                    lacks[p][top // N_RANKS] = 0.0
            if event.suit:
                suit = SUIT_INDEX[event.suit]
                lacks[p][suit] = 0.0  # one names a suit one holds
            elif not joker:  # a joker leaves the active suit as it was
                suit = top // N_RANKS
        elif kind == "reshuffle":
            # The discard pile but its top went back into the stock: those cards are hidden
            # again. The first stock was empty: what was left of it went to the drawer.
            if not reshuffles:
                takers.extend([p] * (first_stock - len(takers)))
            reshuffles += 1
            del pile[:-1]
        elif kind == "draw":
            sizes[p] += 1
            plays[p] = []
            if not reshuffles:
                takers.append(p)
            excluded[p] = 0  # a new card: what a pass proved may no longer hold
            if not _drew(previous, p):
                lacks[p][suit] = 1.0
                # nor, probably, a card of the top's rank or a wild card
                doubt[p] |= t.follow[top * N_SUITS + suit] | t.wild | 1 << JOKER
                doubt_level[p] = 1.0
            if decay_draws:  # the card is kept whatever it is: it may be of any suit
                lacks[p] = [x * _DECAY_PER_CARD for x in lacks[p]]
                doubt_level[p] *= _DECAY_PER_CARD
        elif kind in ("penalty", "caught"):
            sizes[p] += event.count
            if event.count:
                plays[p] = []
            if kind == "penalty":
                pending, pending_rank = 0, -1
            if not reshuffles:
                takers.extend([p] * event.count)
            if event.count:
                excluded[p] = 0
            keep = _DECAY_PER_CARD**event.count
            lacks[p] = [x * keep for x in lacks[p]]
            doubt_level[p] *= keep
        elif kind == "pass" and not (draw_one and _drew(previous, p)):
            # (draw_one: a pass after the draw only keeps the card drawn; it proves nothing)
            excluded[p] |= t.follow[top * N_SUITS + suit] | t.wild
            lacks[p][suit] = 1.0
        previous = event

    placed: dict[int, int] = {}
    if backs and t.decks == 1:
        for k, depth in _back_depths(len(backs), first_stock + 1).items():
            value = backs[k]
            if value in ever_seen:
                continue  # played since, or in the viewer's hand
            placed[value] = takers[depth] if depth < len(takers) else -1 - (depth - len(takers))
    copies = [0] * V
    for i in t.ids:
        copies[i % V] += 1
    in_pile = [0] * V
    for v in pile:
        in_pile[v] += 1
    # The viewer's copies take the lowest id layers (`ids_for`); the pile's, the highest.
    hidden = tuple(
        d * V + v
        for v in range(V)
        for d in range(mine[v], copies[v] - in_pile[v])
        if d * V + v not in placed
    )
    unlikely = tuple(
        tuple(
            max(
                lacks[p][v // N_RANKS] if v != JOKER else 0.0,
                doubt_level[p] if doubt[p] >> v & 1 else 0.0,
            )
            for v in range(V)
        )
        for p in range(players)
    )
    return PublicInfo(
        t, tuple(my_ids), hidden, placed, tuple(map(tuple, lacks)), tuple(excluded), reshuffles,
        unlikely, tuple(map(tuple, plays)),
    )  # fmt: skip


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
