"""The integer encoding the engine runs on, precomputed once per rule set.

Card ids. Each physical card has an id: ``deck * 52 + value`` (one deck: id == value). A
hand is an int bitmask of ids, the stock a tuple of ids; so "which cards can follow" is one
AND with a precomputed mask, and copying a state copies a few ints.

Actions (as in OpenSpiel, legal moves are small ints; V = 52 card values):

====================  =====================================================
``v``                 play the card of value ``v`` naming no suit
``V * (1 + s) + v``   play the wild card ``v`` naming suit ``s`` (0..3: S H D C)
``5 * V``             draw a card, or take the pending penalty
``5 * V + 1``         pass
====================  =====================================================
"""

from __future__ import annotations

from functools import cache

from .cards import CARDS, N_VALUES, RANK_INDEX, RANKS, SUIT_INDEX, SUITS
from .moves import Draw, Move, Pass, Play
from .rules import RuleSet

V = N_VALUES
N_SUITS = len(SUITS)
N_RANKS = len(RANKS)
DRAW = (1 + N_SUITS) * V
PASS = DRAW + 1
N_ACTIONS = PASS + 1

# Effect codes, indexed by card value in Tables.effect.
NO_EFFECT, SKIP, REVERSE, PENALTY = 0, 1, 2, 3
_EFFECT_CODES = {"skip": SKIP, "reverse": REVERSE, "draw": PENALTY}


class Tables:
    """Everything about a rule set the hot path needs, as tuples and ints."""

    __slots__ = (
        "rules", "decks", "n_ids", "follow", "wild", "wild_actions", "rank_mask", "effect",
        "amount", "stackable", "copies", "points", "moves",
    )  # fmt: skip

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.decks = rules.decks
        self.n_ids = V * rules.decks
        rank_of = [v % N_RANKS for v in range(V)]
        suit_of = [v // N_RANKS for v in range(V)]
        self.rank_mask = tuple(
            sum(1 << v for v in range(V) if rank_of[v] == r) for r in range(N_RANKS)
        )
        suit_mask = [sum(1 << v for v in range(V) if suit_of[v] == s) for s in range(N_SUITS)]
        self.wild = sum(self.rank_mask[RANK_INDEX[rank]] for rank in rules.wild_ranks)
        # follow[top * 4 + suit]: the non-wild cards that may follow `top` with `suit` active.
        self.follow = tuple(
            (suit_mask[s] | self.rank_mask[rank_of[top]]) & ~self.wild
            for top in range(V)
            for s in range(N_SUITS)
        )
        self.wild_actions = tuple(
            tuple(V * (1 + s) + v for s in range(N_SUITS)) if self.wild >> v & 1 else ()
            for v in range(V)
        )
        effects = [rules.effect(RANKS[rank_of[v]]) for v in range(V)]
        self.effect = tuple(_EFFECT_CODES[e.kind] if e else NO_EFFECT for e in effects)
        self.amount = tuple(e.amount if e else 0 for e in effects)
        self.stackable = tuple(bool(e and e.stackable) for e in effects)
        self.copies = tuple(sum(1 << (d * V + v) for d in range(self.decks)) for v in range(V))
        self.points = tuple(rules.card_points(CARDS[i % V].rank) for i in range(self.n_ids))
        self.moves: tuple[Move, ...] = (
            *(Play(CARDS[v]) for v in range(V)),
            *(Play(CARDS[v], suit) for suit in SUITS for v in range(V)),
            Draw(),
            Pass(),
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


def action_of(move: Move) -> int:
    if isinstance(move, Play):
        return move.card.value + (V * (1 + SUIT_INDEX[move.suit]) if move.suit else 0)
    return DRAW if isinstance(move, Draw) else PASS


@cache
def tables_for(rules: RuleSet) -> Tables:
    return Tables(rules)
