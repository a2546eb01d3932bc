"""The integer encoding the engine runs on, precomputed once per rule set (and deck size).

Card values: 0..51 the French deck (``suit * 13 + rank``), 52 the joker; V = 53. Each physical
card has an id, ``copy * V + value``; a hand is an int bitmask of ids and the stock a tuple of
ids, so "which cards can follow" is one AND with a mask and copying a state copies a few ints.
Legal moves are small ints, as in OpenSpiel (`action_of`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cache

from .cards import (
    ALL_VALUES,
    JOKER_RANK,
    JOKER_VALUE,
    RANK_INDEX,
    RANKS,
    SUIT_INDEX,
    SUITS,
    Card,
)
from .moves import Catch, Draw, Move, Pass, Play
from .rules import RuleSet

V = len(ALL_VALUES)
N_SUITS = len(SUITS)
N_RANKS = len(RANKS)  # suited ranks; the joker's rank index is N_RANKS
JOKER = JOKER_VALUE
DRAW = (1 + N_SUITS) * V
PASS = DRAW + 1
CATCH = DRAW + 2
ANNOUNCED = DRAW + 3
N_ACTIONS = ANNOUNCED + DRAW

# Effect codes, indexed by card value in Tables.effect.
NO_EFFECT, SKIP, REVERSE, PENALTY, COPY = 0, 1, 2, 3, 4
_EFFECT_CODES = {"skip": SKIP, "reverse": REVERSE, "draw": PENALTY, "copy": COPY}


def rank_index(value: int) -> int:
    """A card value's rank index: 0..12, or 13 for the joker (whose suit index is 4: it has
    none)."""
    return N_RANKS if value == JOKER else value % N_RANKS


class Tables:
    """Everything about a rule set the hot path needs, as tuples and ints.

    ``decks`` is the number of id layers (copies) a value may have: 1 means ids are values.
    """

    __slots__ = (
        "rules", "decks", "n_ids", "ids", "full", "follow", "wild", "no_open", "wild_actions",
        "rank_mask", "effect", "amount", "answer_rank", "copies", "points", "moves", "plain",
    )  # fmt: skip

    def __init__(self, rules: RuleSet, decks: int) -> None:
        self.rules = rules
        self.decks = max(decks, rules.jokers, 1)
        self.ids = tuple(
            [d * V + v for d in range(decks) for v in range(JOKER)]
            + [d * V + JOKER for d in range(rules.jokers)]
        )
        self.n_ids = len(self.ids)
        self.full = sum(1 << i for i in self.ids)
        rank_of = [rank_index(v) for v in range(V)]
        suit_of = [v // N_RANKS for v in range(V)]  # 4 for the joker: no suit
        self.rank_mask = tuple(
            sum(1 << v for v in range(V) if rank_of[v] == r) for r in range(N_RANKS + 1)
        )
        suit_mask = [sum(1 << v for v in range(V) if suit_of[v] == s) for s in range(N_SUITS)]
        self.wild = sum(self.rank_mask[RANK_INDEX[rank]] for rank in rules.wild_ranks)
        self.no_open = self.wild | self.rank_mask[N_RANKS]
        effects = [rules.effect(JOKER_RANK if v == JOKER else RANKS[rank_of[v]]) for v in range(V)]
        # Cards playable on any card without naming a suit: jokers, copying cards.
        anywhere = self.rank_mask[N_RANKS] | sum(
            1 << v for v in range(V) if effects[v] and effects[v].kind == "copy"
        )
        # follow[top * 4 + suit]: the non-wild cards that may follow `top` with `suit` active.
        self.follow = tuple(
            (suit_mask[s] | self.rank_mask[rank_of[top]] | anywhere) & ~self.wild
            for top in range(V)
            for s in range(N_SUITS)
        )
        self.wild_actions = tuple(
            tuple(V * (1 + s) + v for s in range(N_SUITS)) if self.wild >> v & 1 else ()
            for v in range(V)
        )
        self.effect = tuple(_EFFECT_CODES[e.kind] if e else NO_EFFECT for e in effects)
        self.amount = tuple(e.amount if e else 0 for e in effects)
        # The rank index that may answer the penalty a card starts (a stackable one), else -1.
        self.answer_rank = tuple(
            rank_of[v] if e and e.kind == "draw" and e.stackable else -1
            for v, e in enumerate(effects)
        )
        self.copies = tuple(sum(1 << (d * V + v) for d in range(self.decks)) for v in range(V))
        worth = dict(rules.points)
        self.points = tuple(worth.get(ALL_VALUES[i % V].rank, 0) for i in range(self.decks * V))
        plays: list[Move] = [
            *(Play(ALL_VALUES[v]) for v in range(V)),
            *(Play(ALL_VALUES[v], suit) for suit in SUITS for v in range(V)),
        ]
        self.moves: tuple[Move, ...] = (
            *plays, Draw(), Pass(), Catch(),
            *(Play(m.card, m.suit, True) for m in plays if isinstance(m, Play)),
        )  # fmt: skip
        # The product's rules: no policy beyond docs/rules.md's, so the short paths apply.
        self.plain = (
            rules.empty_stock == "pass_and_block"
            and rules.draw_policy == "until_playable"
            and not rules.announces
        )

    def values(self, hand: int) -> int:
        """The mask of card values in a hand of ids (folds the copies of extra decks)."""
        if self.decks == 1:
            return hand
        full = (1 << V) - 1
        folded = 0
        while hand:
            folded |= hand & full
            hand >>= V
        return folded

    def hand_points(self, hand: int) -> int:
        return sum(self.points[i] for i in ids_of(hand))


def ids_of(mask: int) -> list[int]:
    """The ids set in a mask, lowest first."""
    ids = []
    while mask:
        low = mask & -mask
        ids.append(low.bit_length() - 1)
        mask ^= low
    return ids


def rank_text(rank: int) -> str:
    """A rank index as notation; 13 is the joker's."""
    return JOKER_RANK if rank == N_RANKS else RANKS[rank]


def cards_of(hand: int) -> tuple[Card, ...]:
    """The cards of a hand bitmask, in card order (copies of extra decks included)."""
    return tuple(sorted(ALL_VALUES[i % V] for i in ids_of(hand)))


def ids_for(cards: Iterable[Card | str], decks: int) -> list[int]:
    """Card ids for a sequence of cards: the n-th copy of a value gets the n-th layer's id
    (``decks``: the id layers, `Tables.decks`)."""
    seen: Counter[int] = Counter()
    ids = []
    for card in cards:
        value = Card.parse(card).value
        if seen[value] >= decks:
            raise ValueError(f"too many copies of {ALL_VALUES[value]}")
        ids.append(seen[value] * V + value)
        seen[value] += 1
    return ids


def action_of(move: Move) -> int:
    """The action of ``move``. Actions:

    ============================  =====================================================
    ``v``                         play the card of value ``v`` naming no suit
    ``V * (1 + s) + v``           play the wild card ``v`` naming suit ``s`` (0..3: S H D C)
    ``5 * V``  (DRAW)             draw a card, or take the pending penalty
    ``5 * V + 1``  (PASS)         pass
    ``5 * V + 2``  (CATCH)        catch the player who did not announce their last card
    ``ANNOUNCED + a``             the play ``a`` (``a < 5 * V``) announcing "¡Última carta!"
    ============================  ====================================================="""
    if isinstance(move, Play):
        action = move.card.value + (V * (1 + SUIT_INDEX[move.suit]) if move.suit else 0)
        return action + ANNOUNCED if move.announce else action
    if isinstance(move, Catch):
        return CATCH
    return DRAW if isinstance(move, Draw) else PASS


@cache
def tables_for(rules: RuleSet, players: int | None = None) -> Tables:
    """The tables of ``rules`` for a round of ``players`` (the deck may depend on it)."""
    return _tables(rules, rules.decks_for(players) if players else rules.decks)


@cache
def _tables(rules: RuleSet, decks: int) -> Tables:
    return Tables(rules, decks)
